"""The pages, mounted at "/" (arena/urls.py). docs/web.md lists them."""

from __future__ import annotations

from django.contrib.auth import views as auth_views
from django.urls import path

from arena.web.throttling import LoginView
from arena.web.views import (
    accounts,
    bots,
    challenges,
    docs,
    games,
    home,
    ladder,
    matches,
    playground,
    schedules,
    tournaments,
)

urlpatterns = [
    path("", home.home, name="home"),
    path("games/", games.game_index, name="games"),
    path("games/<str:game>/", games.game_detail, name="game"),
    path("games/<str:game>/rules/", games.game_rules, name="game-rules"),
    path(
        "games/<str:game>/rules/replay.schema.json",
        games.game_replay_schema,
        name="game-replay-schema",
    ),
    path("games/<str:game>/starter/", games.game_starter, name="game-starter"),
    path("games/<str:game>/kit.zip", games.game_kit, name="game-kit"),
    path("downloads/engine/", games.engine_wheel_latest, name="engine-wheel-latest"),
    path("downloads/engine/<str:filename>", games.engine_wheel_download, name="engine-wheel"),
    path("games/<str:game>/play/", playground.playground, name="playground"),
    path("games/<str:game>/play/upload/", playground.playground_upload, name="playground-upload"),
    path(
        "games/<str:game>/play/runs/<int:run_id>/matches/<int:number>/",
        playground.playground_match,
        name="playground-match",
    ),
    path("ladder/", ladder.ladder_index, name="ladder-index"),
    path("ladder/<str:game>/", ladder.ladder, name="ladder"),
    path("bots/", bots.bot_index, name="bots"),
    path("bots/new/", bots.bot_new, name="bot-new"),
    path("bots/<int:bot_id>/", bots.bot_detail, name="bot"),
    path("bots/<int:bot_id>/edit/", bots.bot_edit, name="bot-edit"),
    path("bots/<int:bot_id>/deactivate/", bots.bot_deactivate_view, name="bot-deactivate"),
    path("bots/<int:bot_id>/upload/", bots.bot_upload, name="bot-upload"),
    path("bots/<int:bot_id>/replays.zip", bots.bot_replays_zip, name="bot-replays"),
    path("bots/<int:bot_id>/versions/<int:number>/", bots.version_detail, name="bot-version"),
    path(
        "bots/<int:bot_id>/versions/<int:number>/status/",
        bots.version_status_json,
        name="bot-version-status",
    ),
    path(
        "bots/<int:bot_id>/versions/<int:number>/source/",
        bots.version_source_download,
        name="bot-version-source",
    ),
    path("challenges/", challenges.challenge_index, name="challenges"),
    path("challenges/new/", challenges.challenge_new, name="challenge-new"),
    path("challenges/<int:challenge_id>/", challenges.challenge_detail, name="challenge"),
    path("matches/", matches.match_index, name="matches"),
    path("replay/", matches.replay_open, name="replay-open"),
    path("matches/<int:match_id>/", matches.match_detail, name="match"),
    path("tournaments/", tournaments.tournament_index, name="tournaments"),
    path("tournaments/new/", tournaments.tournament_new, name="tournament-new"),
    path("tournaments/<int:tournament_id>/", tournaments.tournament_detail, name="tournament"),
    path(
        "tournaments/<int:tournament_id>/start/",
        tournaments.tournament_start_view,
        name="tournament-start",
    ),
    path(
        "tournaments/<int:tournament_id>/cancel/",
        tournaments.tournament_cancel_view,
        name="tournament-cancel",
    ),
    path(
        "tournaments/<int:tournament_id>/signup/",
        tournaments.tournament_signup_view,
        name="tournament-signup",
    ),
    path(
        "tournaments/<int:tournament_id>/withdraw/",
        tournaments.tournament_withdraw_view,
        name="tournament-withdraw",
    ),
    path("tournaments/schedules/", schedules.schedule_index, name="schedules"),
    path("tournaments/schedules/new/", schedules.schedule_new, name="schedule-new"),
    path("tournaments/schedules/<int:schedule_id>/", schedules.schedule_detail, name="schedule"),
    path(
        "tournaments/schedules/<int:schedule_id>/edit/",
        schedules.schedule_edit,
        name="schedule-edit",
    ),
    path(
        "tournaments/schedules/<int:schedule_id>/pause/",
        schedules.schedule_pause,
        name="schedule-pause",
    ),
    path(
        "tournaments/schedules/<int:schedule_id>/resume/",
        schedules.schedule_resume,
        name="schedule-resume",
    ),
    path(
        "tournaments/schedules/<int:schedule_id>/delete/",
        schedules.schedule_delete_view,
        name="schedule-delete",
    ),
    path(
        "tournaments/<int:tournament_id>/standings.csv",
        tournaments.tournament_standings_csv,
        name="tournament-standings-csv",
    ),
    path(
        "tournaments/<int:tournament_id>/crosstable.csv",
        tournaments.tournament_crosstable_csv,
        name="tournament-crosstable-csv",
    ),
    path(
        "tournaments/<int:tournament_id>/notes.txt",
        tournaments.tournament_csv_notes,
        name="tournament-csv-notes",
    ),
    path(
        "tournaments/<int:tournament_id>/replays.zip",
        tournaments.tournament_replays_zip,
        name="tournament-replays-zip",
    ),
    path("accounts/signup/", accounts.signup, name="signup"),
    path(
        "accounts/login/",
        LoginView.as_view(),
        name="login",
    ),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/token/", accounts.token, name="token"),
    path("docs/<slug:slug>/", docs.doc, name="doc"),
]
