"""REST API routes, all under ``/api/`` (see docs/api.md)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, HttpResponsePermanentRedirect, JsonResponse
from django.urls import Resolver404, path, re_path, register_converter, resolve
from django.views.decorators.csrf import csrf_exempt
from django.views.generic import RedirectView
from drf_spectacular.views import SpectacularAPIView

from arena.api import (
    auth,
    bots,
    challenges,
    games,
    ladder,
    matches,
    playground,
    schedules,
    standings,
    tournaments,
)
from arena.api.docs import ApiDocsView
from arena.api.errors import error_body


class IdConverter:
    """A database id: 1 to 18 digits, so it always fits a 64-bit column.

    Django's ``<api_id:...>`` takes any number of digits, and a lookup by a 30-digit id would
    overflow the column and fail as a server error instead of missing as a 404.
    """

    regex = "[0-9]{1,18}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)


register_converter(IdConverter, "api_id")


def _with_slash(request: HttpRequest) -> str:
    query = request.META.get("QUERY_STRING", "")
    return request.path + "/" + (f"?{query}" if query else "")


@csrf_exempt
def not_found(request: HttpRequest, rest: str = "") -> HttpResponse:
    """Anything no route takes under /api/: a JSON 404, or the route with the slash added.

    CSRF-exempt because it changes nothing: otherwise a POST to ``/api/bots/abc/`` met the
    site's HTML "form expired" page before this view. A path without its trailing slash is
    served by the view of the path with it when it carries a body (the API's views check
    CSRF themselves for session clients): a 301 turns a POST into a GET and drops the body.
    GET and HEAD are redirected, so each resource keeps one address for caches.
    """
    if rest and not rest.endswith("/") and "\n" not in rest:
        try:
            match = resolve(request.path_info + "/")
        except Resolver404:
            match = None
        if match is not None and match.func is not not_found:
            if request.method in ("GET", "HEAD"):
                return HttpResponsePermanentRedirect(_with_slash(request))
            return match.func(request, *match.args, **match.kwargs)
    return JsonResponse(error_body("Not found.", "not_found"), status=404)


urlpatterns = [
    path("auth/token/", auth.TokenCreateApi.as_view(), name="api-token"),
    path("bots/", bots.BotListCreateApi.as_view(), name="api-bots"),
    path("bots/<api_id:bot_id>/", bots.BotDetailApi.as_view(), name="api-bot"),
    path(
        "bots/<api_id:bot_id>/deactivate/",
        bots.BotDeactivateApi.as_view(),
        name="api-bot-deactivate",
    ),
    path(
        "bots/<api_id:bot_id>/versions/",
        bots.BotVersionListUploadApi.as_view(),
        name="api-bot-versions",
    ),
    path(
        "bots/<api_id:bot_id>/versions/<api_id:number>/",
        bots.BotVersionDetailApi.as_view(),
        name="api-bot-version",
    ),
    path(
        "bots/<api_id:bot_id>/versions/<api_id:number>/source/",
        bots.BotVersionSourceApi.as_view(),
        name="api-bot-version-source",
    ),
    path("challenges/", challenges.ChallengeListCreateApi.as_view(), name="api-challenges"),
    path(
        "challenges/<api_id:challenge_id>/",
        challenges.ChallengeDetailApi.as_view(),
        name="api-challenge",
    ),
    path("games/", games.GameListApi.as_view(), name="api-games"),
    path("games/<str:name>/", games.GameDetailApi.as_view(), name="api-game"),
    path("ladder/<str:game>/", ladder.LadderApi.as_view(), name="api-ladder"),
    path("matches/", matches.MatchListApi.as_view(), name="api-matches"),
    path("matches/<api_id:match_id>/", matches.MatchDetailApi.as_view(), name="api-match"),
    path(
        "matches/<api_id:match_id>/replay/",
        matches.MatchReplayApi.as_view(),
        name="api-match-replay",
    ),
    path(
        "matches/<api_id:match_id>/logs/",
        matches.MatchLogListApi.as_view(),
        name="api-match-logs",
    ),
    path("tournaments/", tournaments.TournamentListCreateApi.as_view(), name="api-tournaments"),
    path(
        "tournaments/<api_id:tournament_id>/",
        tournaments.TournamentDetailApi.as_view(),
        name="api-tournament",
    ),
    path(
        "tournaments/<api_id:tournament_id>/start/",
        tournaments.TournamentStartApi.as_view(),
        name="api-tournament-start",
    ),
    path(
        "tournaments/<api_id:tournament_id>/cancel/",
        tournaments.TournamentCancelApi.as_view(),
        name="api-tournament-cancel",
    ),
    path(
        "tournaments/<api_id:tournament_id>/standings/",
        standings.TournamentStandingsApi.as_view(),
        name="api-tournament-standings",
    ),
    path(
        "tournaments/<api_id:tournament_id>/standings.csv",
        standings.TournamentStandingsCsvApi.as_view(),
        name="api-tournament-standings-csv",
    ),
    path(
        "tournaments/<api_id:tournament_id>/crosstable.csv",
        standings.TournamentCrosstableCsvApi.as_view(),
        name="api-tournament-crosstable-csv",
    ),
    path(
        "tournaments/<api_id:tournament_id>/notes.txt",
        standings.TournamentCsvNotesApi.as_view(),
        name="api-tournament-csv-notes",
    ),
    path(
        "tournaments/<api_id:tournament_id>/replays.zip",
        standings.TournamentReplaysZipApi.as_view(),
        name="api-tournament-replays-zip",
    ),
    path(
        "tournaments/<api_id:tournament_id>/signups/",
        tournaments.TournamentSignupListCreateApi.as_view(),
        name="api-tournament-signups",
    ),
    path(
        "tournaments/<api_id:tournament_id>/signups/<api_id:bot_id>/",
        tournaments.TournamentSignupDetailApi.as_view(),
        name="api-tournament-signup",
    ),
    path("schedules/", schedules.ScheduleListCreateApi.as_view(), name="api-schedules"),
    path(
        "schedules/<api_id:schedule_id>/",
        schedules.ScheduleDetailApi.as_view(),
        name="api-schedule",
    ),
    path(
        "playground/drafts/",
        playground.DraftListSaveApi.as_view(),
        name="api-playground-drafts",
    ),
    path(
        "playground/drafts/<api_id:draft_id>/",
        playground.DraftDetailApi.as_view(),
        name="api-playground-draft",
    ),
    path(
        "playground/opponents/",
        playground.OpponentSearchApi.as_view(),
        name="api-playground-opponents",
    ),
    path("playground/runs/", playground.RunListCreateApi.as_view(), name="api-playground-runs"),
    path(
        "playground/runs/<api_id:run_id>/",
        playground.RunDetailApi.as_view(),
        name="api-playground-run",
    ),
    path(
        "playground/runs/<api_id:run_id>/matches/<api_id:number>/replay/",
        playground.RunMatchReplayApi.as_view(),
        name="api-playground-replay",
    ),
    path("schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("docs/", ApiDocsView.as_view(url_name="api-schema"), name="api-docs"),
    # ReDoc was here (arena/api/docs.py says why it went): old links lead to Swagger UI.
    path("redoc/", RedirectView.as_view(pattern_name="api-docs", permanent=True), name="api-redoc"),
    # Last: anything else under /api/, newlines included (``%0A`` in a path).
    re_path(r"^(?P<rest>[\s\S]*)\Z", not_found),
]
