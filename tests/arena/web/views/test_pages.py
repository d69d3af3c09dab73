"""What the pages show, with Django's test client: ladder, home, bots, matches, tournaments,
uploads, accounts and docs."""

from __future__ import annotations

import io
import json
import re
import zipfile
from datetime import UTC, datetime
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django_celery_beat.models import CrontabSchedule, PeriodicTask
from rest_framework.authtoken.models import Token

from arena.models import Bot, BotVersion, Match, Rating, Tournament
from arena.selectors.head_to_head import bot_head_to_head, bot_head_to_head_table
from arena.selectors.schedules import next_scheduled_tournaments
from arena.services.tournaments import tournament_finish
from engine.registry import GAMES
from tests.arena.factories import (
    RatingFactory,
    TournamentEntryFactory,
    TournamentFactory,
    TournamentScheduleFactory,
)
from tests.arena.web.data import (
    PASSWORD,
    SYNTAX_ERROR_BOT,
    VALID_BOT,
    bot_make,
    match_record,
    rate,
    tournament_of_format,
    user_make,
)

ROOT = Path(__file__).resolve().parents[4]
CRASH_BOT = Path(__file__).parent / "bots" / "crash_in_hand_three.py"


def _client(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def _html(path: str, user=None) -> str:
    response = _client(user).get(path)
    assert response.status_code == 200, (path, response.status_code)
    return response.content.decode()


def _ladder_names(html: str) -> list[str]:
    body = html.split('id="ladder"', 1)[1]
    return re.findall(
        r'<tr data-bot="\d+">\s*<td class="num">\d+</td>\s*<td><a [^>]*>([^<]+)</a>', body
    )


# --- the ladder ------------------------------------------------------------------------------


@pytest.fixture
def ladder(db) -> list[Rating]:
    ratings = []
    for i, (mu, sigma, matches, wins) in enumerate(
        [(30, 1, 10, 9), (40, 5, 4, 1), (28, 0.5, 20, 10), (25, 8.3, 0, 0)]
    ):
        bot = bot_make(name=f"bot{i}")
        ratings.append(
            RatingFactory(
                version=bot.active_version,
                mu=mu,
                sigma=sigma,
                score=mu - 3 * sigma,
                matches=matches,
                wins=wins,
                placing_sum=matches - wins,
            )
        )
    return ratings


def test_the_ladder_ranks_by_the_displayed_rating(ladder) -> None:
    html = _html("/games/lie21/")
    # Ratings 30, 40, 28, 25 (the fit's; the live mu - 3 sigma would put bot0 first).
    assert _ladder_names(html) == ["bot1", "bot0", "bot2", "bot3"]
    assert 'aria-sort="descending"' in html
    assert "whole-history fit (TrueSkill Through Time)" in html, "it says which estimator"
    assert 'href="/docs/ratings/"' in html
    # bot3 has played nothing: its interval is the prior's, and its place is not firm.
    row = html.split(f'data-bot="{ladder[3].bot_id}"', 1)[1].split("</tr>", 1)[0]
    assert "provisional" in row and "8.7\u201341.3" in row


@pytest.mark.parametrize(
    ("sort", "expected"),
    [
        ("-rating", ["bot1", "bot0", "bot2", "bot3"]),
        ("interval", ["bot2", "bot0", "bot1", "bot3"]),  # the narrowest first
        ("-matches", ["bot2", "bot0", "bot1", "bot3"]),
        ("-win_rate", ["bot0", "bot2", "bot1", "bot3"]),  # no matches: last
        ("win_rate", ["bot1", "bot2", "bot0", "bot3"]),
        ("placing", ["bot0", "bot2", "bot1", "bot3"]),  # mean placing, best first
        ("-mu", ["bot1", "bot0", "bot2", "bot3"]),  # the live rating is no column: ignored
        ("id); DROP TABLE arena_rating;--", ["bot1", "bot0", "bot2", "bot3"]),  # ignored
    ],
)
def test_the_ladder_sorts_by_a_whitelisted_column(ladder, sort, expected) -> None:
    html = _html(f"/games/lie21/?sort={sort}")
    assert _ladder_names(html) == expected
    # The rank column stays the rank by rating, whatever the order shown.
    assert re.search(rf'data-bot="{ladder[1].bot_id}">\s*<td class="num">1<', html)


def test_the_ladder_paginates_and_leaves_inactive_bots_out(ladder) -> None:
    for i in range(50):
        RatingFactory(version=bot_make(name=f"extra{i:02d}").active_version, mu=10, sigma=3)
    Bot.objects.filter(pk=ladder[1].bot_id).update(is_active=False)
    first = _html("/games/lie21/")
    second = _html("/games/lie21/?page=2&sort=-score")
    assert len(_ladder_names(first)) == 50
    assert len(_ladder_names(second)) == 3
    assert "bot1" not in _ladder_names(first) + _ladder_names(second)
    assert "Page 2 of 2" in second
    assert _html("/games/lie21/?page=banana")  # a bad page number is page 1


def test_the_ladder_draws_a_sparkline_from_the_versions_rating_history(db) -> None:
    a, b = bot_make(name="up"), bot_make(name="down")
    for seed, scores in enumerate([(10, 9), (12, 8), (15, 6)], start=1):
        rate(match_record(a, b, seed=seed, ranked=False), scores)
    html = _html("/games/lie21/")
    assert html.count('class="sparkline up"') == 1
    assert html.count('class="sparkline down"') == 1
    assert "Rating trend over 3 matches: 10.0 to 15.0" in html


# --- games: the home page, each game's page, rules and starter bot ----------------------


def test_home_presents_the_arena_of_several_games_first_game_first(ladder) -> None:
    crontab = CrontabSchedule.objects.create(minute="30", hour="4", timezone="UTC")
    task = PeriodicTask.objects.create(name="nightly", task="x", crontab=crontab)
    TournamentScheduleFactory(name="Nightly cup", crontab="30 4 * * *", periodic_task=task)
    TournamentScheduleFactory(name="Switched off", enabled=False)
    match = match_record(ladder[0].bot, ladder[1].bot, seed=9)
    html = _html("/")
    assert "the arena of bluffing card and dice games" in html
    assert "Lie 21 Arena" not in html
    games = re.findall(r'<article class="game-card" id="game-([a-z0-9_]+)">', html)
    assert games == list(GAMES)  # every hosted game, in the registry's order
    assert games[0] == "lie21"
    assert 'id="home-ladder-lie21"' in html
    assert 'href="/games/highcard/rules/"' in html and 'href="/games/highcard/starter/"' in html
    assert "2\u20134 seats" in html  # the test game's table sizes (an en dash)
    assert "Nightly cup" in html
    assert "Switched off" not in html
    assert "30 4 * * *" in html
    assert f'href="/matches/{match.pk}/"' in html


def test_the_next_run_comes_from_the_beat_crontab(db) -> None:
    crontab = CrontabSchedule.objects.create(minute="0", hour="3", timezone="UTC")
    task = PeriodicTask.objects.create(name="nightly", task="x", crontab=crontab)
    TournamentScheduleFactory(name="Nightly", crontab="0 3 * * *", periodic_task=task)
    TournamentScheduleFactory(name="Hourly", crontab="15 * * * *")  # no task yet: its text
    now = datetime(2030, 1, 1, 22, 40, tzinfo=UTC)
    found = next_scheduled_tournaments(now=now)
    assert [(item.schedule.name, item.next_run) for item in found] == [
        ("Hourly", datetime(2030, 1, 1, 23, 15, tzinfo=UTC)),
        ("Nightly", datetime(2030, 1, 2, 3, 0, tzinfo=UTC)),
    ]


def test_a_games_page_has_its_ladder_rules_starter_bot_and_seat_counts(db) -> None:
    bots = [bot_make(name=f"card{n}", game="highcard", on_ladder=True) for n in range(3)]
    match_record(*bots, seed=2)
    html = _html("/games/highcard/")
    assert "<h1>High Card (test game)</h1>" in html
    assert "2\u20134 seats" in html
    assert 'href="/games/highcard/rules/"' in html
    assert 'href="/games/highcard/starter/"' in html
    assert sorted(_ladder_names(html)) == ["card0", "card1", "card2"]
    assert "95% interval" in html and "Mean place" in html
    for bot in bots:
        assert f'data-bot="{bot.pk}"' in html
    # Each game has its own ladder: none of them is on Lie 21's.
    assert not _ladder_names(_html("/games/lie21/"))


def test_a_games_rules_page_is_rendered_from_its_docs_file(db) -> None:
    html = _html("/games/highcard/rules/")
    assert "High Card" in html and "<article" in html
    lie21 = _html("/games/lie21/rules/")
    assert "<h1" in lie21 and 'id="rules-lie21"' in lie21


def test_the_starter_bot_downloads_as_a_python_file(db) -> None:
    response = _client().get("/games/highcard/starter/")
    assert response.status_code == 200
    assert response["Content-Disposition"] == 'attachment; filename="highcard_starter_bot.py"'
    assert response.content == GAMES["highcard"].builtin_bots()["starter"].read_bytes()


@pytest.mark.parametrize(
    "path", ["/games/nope/", "/games/nope/rules/", "/games/nope/starter/", "/ladder/nope/"]
)
def test_an_unknown_game_is_the_sites_own_404(db, path) -> None:
    response = _client().get(path)
    assert response.status_code == 404
    assert "Not found" in response.content.decode()
    assert "There is no game" in response.content.decode()


def test_the_old_ladder_addresses_lead_to_the_games(db) -> None:
    response = _client().get("/ladder/lie21/?sort=-mu&page=2")
    assert response.status_code == 301
    assert response["Location"] == "/games/lie21/?sort=-mu&page=2"
    listing = _client().get("/ladder/")
    assert listing["Location"] == ("/games/" if len(GAMES) > 1 else f"/games/{next(iter(GAMES))}/")


# --- bot page --------------------------------------------------------------------------------


def test_head_to_head_is_counted_per_opponent_at_any_table_size(db) -> None:
    me, rival, other = (bot_make(name=n, game="highcard") for n in ("me", "rival", "other"))
    first = match_record(me, rival, other, seed=1)
    second = match_record(rival, me, seed=2)
    match_record(me, rival, status=Match.Status.QUEUED)  # not finished: not counted
    rows = {row.opponent.name: row for row in bot_head_to_head(bot=me)}
    assert set(rows) == {"rival", "other"}
    for name, row in rows.items():
        wins = draws = losses = points_for = played = 0
        for match in (first, second):
            seats = {seat.bot.name: seat for seat in match.seats.all()}
            if name not in seats:
                continue
            mine, theirs = seats["me"], seats[name]
            played += 1
            wins += mine.placing < theirs.placing
            draws += mine.placing == theirs.placing
            losses += mine.placing > theirs.placing
            points_for += mine.score
        assert (row.played, row.wins, row.draws, row.losses) == (played, wins, draws, losses)
        assert row.match_points_for == points_for
    assert rows["rival"].played == 2 and rows["other"].played == 1


@pytest.mark.slow
def test_the_bot_page_shows_each_versions_record_its_rank_and_its_matches(owner) -> None:
    bot = bot_make(owner, name="alpha", description="Line one\nLine two", on_ladder=True)
    rival = bot_make(name="rival", on_ladder=True)
    for seed in (1, 2, 3):
        rate(match_record(bot, rival, seed=seed, ranked=False), (10 + seed, 5))
    Rating.objects.filter(version=bot.active_version).update(
        matches=3, wins=2, draws=0, losses=1, faults=1, placing_sum=1
    )
    html = _html(f"/bots/{bot.pk}/")
    assert "Line one<br>Line two" in html
    assert 'class="rating-chart"' in html
    assert html.count('data-match="') == 3
    assert f'data-opponent="{rival.pk}"' in html
    row = html.split('data-version="1"', 1)[1].split("</tr>", 1)[0]
    assert "2 / 0 / 1" in row  # W / D / L of that version
    assert '<td class="num" data-col="faults">1</td>' in row
    assert '<td class="num" data-col="placing">1.33</td>' in row
    rank = html.split('id="ladder-rank"', 1)[1].split("</p>", 1)[0]
    assert "rank 1" in rank  # 13 against the rival's 5
    assert "data-interval" in rank, "the displayed rating with its 95% interval"
    assert "whole-history fit (TrueSkill Through Time)" in html, "it says which estimator"
    assert "Upload a new version" not in html  # not the owner
    assert "Upload a new version" in _html(f"/bots/{bot.pk}/", owner)


def test_a_bots_matches_read_from_its_side(db) -> None:
    me = bot_make(name="me", game="highcard")
    others = [bot_make(name=f"o{n}", game="highcard") for n in range(2)]
    match = match_record(others[0], me, others[1], seed=3)
    mine = match.seats.get(bot=me)
    html = _html(f"/matches/?bot={me.pk}")
    heading = html.split('id="matches-heading"', 1)[1].split("</h1>", 1)[0]
    assert ">me</a>" in heading
    cell = html.split('class="mine"', 1)[1].split("</td>", 1)[0]
    assert f'data-mine="{mine.placing}"' in cell and "of 3" in cell
    assert html.count('data-match="') == 1


# --- match page ------------------------------------------------------------------------------


def test_a_finished_match_embeds_its_replay_for_the_viewer_shell(db) -> None:
    match = match_record(bot_make(name="a1"), bot_make(name="b1"), seed=4)
    html = _html(f"/matches/{match.pk}/")
    assert '<script id="replay-data" type="application/json">' in html
    assert '<script type="module" src="/static/arena/viewer/shell.js">' in html
    assert 'data-renderer="/static/arena/games/lie21/renderer.js"' in html
    assert f'href="/api/matches/{match.pk}/replay/"' in html
    assert 'http-equiv="refresh"' not in html
    assert 'id="rv-legend"' in html
    assert "replay.js" not in html


def test_a_game_without_a_collected_renderer_still_gets_a_url(monkeypatch) -> None:
    from arena.web.views import matches

    def missing(path: str) -> str:
        raise ValueError(f"Missing staticfiles manifest entry for '{path}'")

    monkeypatch.setattr(matches, "static", missing)
    # The viewer then fetches it, fails, and says the replay cannot be drawn.
    assert matches.renderer_url("newgame") == "/static/arena/games/newgame/renderer.js"


def test_a_match_page_shows_every_seat_with_its_place_score_and_rating_change(db) -> None:
    bots = [bot_make(name=f"seat{n}", game="highcard", on_ladder=True) for n in range(3)]
    match = match_record(*bots, seed=6)
    html = _html(f"/matches/{match.pk}/")
    table = html.split('id="match-seats"', 1)[1].split("</table>", 1)[0]
    rows = re.findall(r'<tr data-seat="(\d)" data-placing="(\d)" class="([^"]*)">', table)
    seats = list(match.seats.order_by("seat"))
    assert [(int(s), int(p)) for s, p, _ in rows] == [(s.seat, s.placing) for s in seats]
    for (_, _, css), seat in zip(rows, seats, strict=True):
        assert ("first" in css) == (seat.placing == 0)  # only a first place stands out
        assert f"seat{seat.seat}</a>" in table
    assert "Δ live μ" in table  # rated: what the match did to each seat's live TrueSkill μ
    deltas = re.findall(r'<td class="num">([+\u2212±][0-9.]+)</td>', table)
    assert len(deltas) == 3
    assert "Firsts" in table  # the game's own totals, per seat


def test_a_match_pages_game_by_game_table_gives_each_seats_score_and_the_points_awarded(
    db,
) -> None:
    bots = [bot_make(name=f"seat{n}", game="highcard", on_ladder=True) for n in range(3)]
    match = match_record(*bots, seed=6)
    html = _html(f"/matches/{match.pk}/")
    summary = html.split('<details class="game-summary" open>', 1)[1].split("</details>", 1)[0]
    head, body = summary.split("</thead>", 1)
    assert re.findall(r'<th scope="col" class="num">([^<]*)</th>', head) == [
        "seat0",
        "seat1",
        "seat2",
        "Awarded",
    ]
    replay = html.split('<script id="replay-data" type="application/json">', 1)[1]
    games = json.loads(replay.split("</script>", 1)[0])["games"]
    rows = re.findall(r'<tr data-game="(\d+)">(.*?)</tr>', body)
    assert [int(number) for number, _ in rows] == [game["number"] for game in games] == [1, 2, 3]
    for (_, row), game in zip(rows, games, strict=True):
        cells = re.findall(r'<td class="num">([^<]*)</td>', row)
        assert cells == [*map(str, game["scores"]), "\u2013".join(map(str, game["awarded"]))]


def test_shared_places_are_marked(db) -> None:
    from tests.arena.factories import MatchFactory

    match = MatchFactory(
        versions=[bot_make(game="highcard").active_version for _ in range(3)],
        placings=(0, 0, 2),
        scores=(4, 4, 1),
    )
    html = _html(f"/matches/{match.pk}/")
    assert html.count("=1st") == 2 and ">3rd<" in html
    assert "share first place" in html


def test_a_fault_says_who_erred_in_which_game_and_step_without_private_detail(
    owner, other_user
) -> None:
    crasher = bot_make(other_user, name="crasher")
    match = match_record(
        bot_make(owner, name="steady"),
        crasher,
        seed=3,
        players=("heuristic", CRASH_BOT),
    )
    html = _html(f"/matches/{match.pk}/")
    assert "Match over in game 1, by a fault." in html
    fault = html.split('id="match-error"', 1)[1].split("</section>", 1)[0]
    assert "crasher" in fault
    assert "crashed" in fault and "in game 1 (after step 5: hand 3, answer)" in fault
    assert "the bot raised RuntimeError in act" in fault
    assert 'href="#game=1&amp;step=5"' in fault  # to the moment in the replay
    assert "PRIVATE-CRASH-DETAIL" not in html
    owners = _html(f"/matches/{match.pk}/", other_user)
    assert "PRIVATE-CRASH-DETAIL" in owners
    # The traceback once, under the step it came from (not again in a traceback box).
    last_line = "RuntimeError: PRIVATE-CRASH-DETAIL"
    assert owners.count(last_line) == 2  # the page's log, and the viewer's copy of it
    logs = owners.split('id="match-logs"', 1)[1]
    assert logs.count(last_line) == 1
    assert "Game 1 · step 5 · hand 3, answer" in logs
    assert "PRIVATE-CRASH-DETAIL" not in _html(f"/matches/{match.pk}/", owner)


@pytest.mark.parametrize("status", [Match.Status.QUEUED, Match.Status.RUNNING])
def test_an_open_match_shows_its_seats_and_status_and_refreshes(db, status) -> None:
    match = match_record(bot_make(name="one"), bot_make(name="two"), status=status)
    html = _html(f"/matches/{match.pk}/")
    assert f'data-status="{status}"' in html
    assert '<meta http-equiv="refresh" content="5">' in html
    assert "replay-data" not in html
    assert ">one</a>" in html and ">two</a>" in html


def test_a_failed_match_tells_the_public_nothing_internal(staff) -> None:
    match = match_record(
        bot_make(), bot_make(), status=Match.Status.FAILED, failure_reason="/srv/secret/path"
    )
    assert "/srv/secret/path" not in _html(f"/matches/{match.pk}/")
    assert "The platform could not play this match" in _html(f"/matches/{match.pk}/")
    assert "/srv/secret/path" in _html(f"/matches/{match.pk}/", staff)


def test_the_match_list_shows_n_seats_and_filters_by_bot_and_game(db) -> None:
    a, b, c = bot_make(name="aa"), bot_make(name="bb"), bot_make(name="cc")
    mine = match_record(a, b, seed=1)
    theirs = match_record(b, c, seed=2)
    cards = match_record(*(bot_make(game="highcard") for _ in range(4)), seed=3)
    html = _html(f"/matches/?bot={a.pk}")
    assert f'data-match="{mine.pk}"' in html
    assert f'data-match="{theirs.pk}"' not in html
    everything = _html("/matches/")
    row = everything.split(f'data-match="{cards.pk}"', 1)[1].split("</tr>", 1)[0]
    assert row.count("<li data-seat=") == 4
    assert "High Card" in row
    only = _html("/matches/?game=highcard")
    assert f'data-match="{cards.pk}"' in only and f'data-match="{mine.pk}"' not in only
    assert "That filter is not valid" in _html("/matches/?status=sideways")


# --- tournaments -----------------------------------------------------------------------------


@pytest.fixture
def cup(db) -> Tournament:
    bots = [bot_make(name=name) for name in ("north", "south", "east")]
    tournament = TournamentFactory(name="Winter cup", status=Tournament.Status.RUNNING)
    for bot in bots:
        TournamentEntryFactory(tournament=tournament, bot=bot, version=bot.active_version)
    for (a, b), seed in zip([(0, 1), (0, 2), (1, 2)], (1, 2, 3), strict=True):
        match_record(bots[a], bots[b], seed=seed, tournament=tournament, kind="tournament")
    return tournament


@pytest.mark.slow
def test_a_finished_tournament_shows_standings_and_a_crosstable(cup) -> None:
    tournament_finish(tournament_id=cup.pk)
    html = _html(f"/tournaments/{cup.pk}/")
    assert html.count('<tr data-bot="') == 3
    cells = re.findall(
        r'<td class="(win|loss|draw)" data-result="\1" data-opponent="(\d+)"[^>]*>'
        r'<a href="/matches/\?tournament=(\d+)&amp;bot=(\d+)&amp;opponent=\2"',
        html,
    )
    results = [result for result, *_ in cells]
    assert results.count("win") == results.count("loss")
    assert len(cells) == 6
    assert {int(tournament) for _, _, tournament, _ in cells} == {cup.pk}
    assert 'http-equiv="refresh"' not in html
    assert 'data-done="3" data-total="3"' in html


@pytest.mark.slow
def test_a_running_tournament_shows_progress_and_refreshes(cup) -> None:
    last = Match.objects.filter(tournament=cup).order_by("-id").first()
    Match.objects.filter(pk=last.pk).update(status=Match.Status.QUEUED)
    html = _html(f"/tournaments/{cup.pk}/")
    assert 'data-done="2" data-total="3"' in html
    assert '<meta http-equiv="refresh" content="10">' in html
    assert html.count('data-result="pending"') == 2
    listing = _html("/tournaments/?status=running")
    assert "Winter cup" in listing
    assert "Winter cup" not in _html("/tournaments/?status=finished")


def test_a_tournament_of_three_seat_tables_counts_places_ahead_and_behind(db) -> None:
    bots = [bot_make(name=f"t{n}", game="highcard") for n in range(3)]
    tournament = TournamentFactory(name="Tables", game="highcard", status="running")
    for bot in bots:
        TournamentEntryFactory(tournament=tournament, bot=bot, version=bot.active_version)
    match_record(*bots, seed=5, tournament=tournament, kind="tournament")
    tournament.refresh_from_db()
    html = _html(f"/tournaments/{tournament.pk}/")
    assert "3 seats a table" in html
    cells = re.findall(
        r'data-result="(win|loss|draw)" data-opponent="\d+"[^>]*><a [^>]*>'
        r'<span class="cell-main">(\d)\u2013(\d)</span>',
        html,
    )
    assert len(cells) == 6  # every ordered pair met once, at the one table
    assert all(int(a) + int(b) <= 1 for _, a, b in cells)


# --- errors with DEBUG off: the site's own pages ---------------------------------------------


def test_with_debug_off_errors_are_the_sites_own_404_and_500_pages(db, settings, monkeypatch):
    settings.DEBUG = False
    missing = Client().get("/no/such/page/")
    assert missing.status_code == 404
    assert "Bluff Arena" in missing.content.decode() and "Not found" in missing.content.decode()

    def broken(request):
        raise RuntimeError("boom")

    monkeypatch.setattr("arena.web.views.home.home_ladders", lambda **kwargs: broken(None))
    failed = Client(raise_request_exception=False).get("/")
    assert failed.status_code == 500
    page = failed.content.decode()
    assert "Something went wrong" in page and "Bluff Arena" in page
    assert "boom" not in page and "Traceback" not in page


# --- uploads ---------------------------------------------------------------------------------


@pytest.fixture
def enqueued(monkeypatch) -> list[tuple]:
    """The validation tasks queued (not run: the browser test runs the real one)."""
    calls: list[tuple] = []
    monkeypatch.setattr("arena.services.bots.enqueue", lambda *args: calls.append(args))
    return calls


def _upload(client: Client, bot: Bot, name: str, data: bytes):
    return client.post(f"/bots/{bot.pk}/upload/", {"file": SimpleUploadedFile(name, data)})


def test_an_upload_goes_to_the_version_page_which_polls_its_status(owner, enqueued) -> None:
    bot = Bot.objects.create(owner=owner, name="fresh")
    response = _upload(_client(owner), bot, "bot.py", VALID_BOT.encode())
    assert response.status_code == 302
    assert response["Location"] == f"/bots/{bot.pk}/versions/1/"
    assert enqueued == [("validate_version", BotVersion.objects.get(bot=bot).pk)]
    html = _html(response["Location"], owner)
    assert 'data-status="pending"' in html
    assert f'data-status-url="/bots/{bot.pk}/versions/1/status/"' in html
    assert 'src="/static/arena/upload.js"' in html


def _assert_upload_refused(owner, bot_name: str, name: str, data: bytes, message: str) -> None:
    """A new bot's upload of ``data`` as ``name`` is refused on the page with ``message``
    and adds no version."""
    bot = Bot.objects.create(owner=owner, name=bot_name)
    response = _upload(_client(owner), bot, name, data)
    assert response.status_code == 200
    error = re.search(
        r'<p class="error" role="alert" id="upload-error">([^<]+)</p>', response.content.decode()
    )
    assert error and message in error.group(1), error and error.group(1)
    assert not BotVersion.objects.filter(bot=bot).exists()


@pytest.mark.parametrize(
    ("name", "data", "message"),
    [
        ("bot.txt", b"def act(o): pass\n", ".py"),
        ("bot.py", SYNTAX_ERROR_BOT.encode(), "syntax error on line 2"),
        ("bot.py", b"x = 1\n", "act"),
        ("bot.py", b"# " + b"x" * 2000 + b"\n", "over the 1,000-byte limit"),
    ],
)
def test_a_rejected_upload_is_explained_and_stores_nothing(
    owner, settings, media_root, enqueued, name, data, message
) -> None:
    settings.ARENA_UPLOAD_MAX_BYTES = 1000
    _assert_upload_refused(owner, "picky", name, data, message)
    assert not [path for path in media_root.rglob("*") if path.is_file()]
    assert enqueued == []


def _corrupt_deflate_zip() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("bot.py", b"def act(o):\n    return {}\n" * 20)
    data = bytearray(buffer.getvalue())
    data[36:48] = b"\xff" * 12  # the deflate stream now starts with a reserved block type
    return bytes(data)


@pytest.mark.parametrize(
    ("name", "data", "message"),
    [
        ("bot.zip", _corrupt_deflate_zip(), "cannot read"),
        ("bot.py", b"def act(o):\n    return {}\nx = " + b"-" * 200_000 + b"1\n", "nested"),
    ],
    ids=["corrupt-deflate", "compiler-bomb"],
)
def test_an_upload_that_breaks_the_decompressor_or_compiler_is_explained(
    owner, media_root, enqueued, name, data, message
) -> None:
    _assert_upload_refused(owner, "broken", name, data, message)
    assert enqueued == []


def test_a_duplicate_upload_is_refused(owner, enqueued) -> None:
    bot = Bot.objects.create(owner=owner, name="twice")
    client = _client(owner)
    _upload(client, bot, "bot.py", VALID_BOT.encode())
    response = _upload(client, bot, "bot.py", VALID_BOT.encode())
    assert "identical to version 1" in response.content.decode()
    assert BotVersion.objects.filter(bot=bot).count() == 1


def test_creating_a_bot_with_a_taken_name_says_so(owner) -> None:
    Bot.objects.create(owner=owner, name="taken")
    response = _client(owner).post("/bots/new/", {"name": "taken", "game": "lie21"})
    assert "You already have a bot named" in response.content.decode()
    assert Bot.objects.filter(owner=owner, name="taken").count() == 1


def test_creating_a_bot_without_a_file_goes_to_its_page(owner) -> None:
    response = _client(owner).post(
        "/bots/new/", {"name": "later", "game": "lie21", "description": "Soon."}
    )
    bot = Bot.objects.get(owner=owner, name="later")
    assert response["Location"] == f"/bots/{bot.pk}/"
    assert bot.description == "Soon."


# --- accounts --------------------------------------------------------------------------------


def test_signing_up_logs_in_and_follows_a_safe_next(db) -> None:
    client = Client()
    form = {"username": "dora", "password1": PASSWORD, "password2": PASSWORD}
    response = client.post("/accounts/signup/", {**form, "next": "/bots/new/"})
    assert response["Location"] == "/bots/new/"
    assert client.get("/bots/new/").status_code == 200

    response = Client().post(
        "/accounts/signup/", {**form, "username": "eve", "next": "https://evil.example/"}
    )
    assert response["Location"] == "/"


def test_a_weak_password_is_refused_on_the_page(db) -> None:
    response = Client().post(
        "/accounts/signup/", {"username": "fred", "password1": "123", "password2": "123"}
    )
    assert response.status_code == 200
    assert "too short" in response.content.decode()


def test_the_token_page_creates_and_regenerates_the_token(owner) -> None:
    client = _client(owner)
    assert "You have no token yet" in client.get("/accounts/token/").content.decode()
    client.post("/accounts/token/")
    first = Token.objects.get(user=owner).key
    page = client.get("/accounts/token/")
    assert first in page.content.decode()
    assert "no-store" in page["Cache-Control"]
    client.post("/accounts/token/")
    second = Token.objects.get(user=owner).key
    assert second != first
    assert Token.objects.filter(user=owner).count() == 1
    other = user_make("gina")
    assert second not in _html("/accounts/token/", other)


# --- docs ------------------------------------------------------------------------------------


def test_the_bot_api_doc_is_rendered_with_working_links(db) -> None:
    html = _html("/docs/bot-api/")
    assert "<h1" in html and "Write your first bot" in html
    assert '<pre><code class="language-python">' in html
    # Links to each game's rules (engine/games/<game>/rules.md) open the site's rules pages.
    for game in ("lie21", "liars", "twenty_one", "tieng_len"):
        assert f'href="/games/{game}/rules/"' in html
    assert "<table>" in html


def test_docs_are_sanitized_and_cached(db, settings, tmp_path, monkeypatch) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "bot-api.md").write_text(
        "# Title\n\n<script>alert(1)</script>\n\n[x](javascript:alert(1)) "
        '<a href="#" onclick="alert(1)">y</a>\n'
    )
    settings.BASE_DIR = tmp_path
    html = _html("/docs/bot-api/")
    article = html.split('<article class="prose"', 1)[1].split("</article>", 1)[0]
    assert "<script" not in article and "javascript:" not in article and "onclick" not in article

    from arena.web import docs as doc_module

    monkeypatch.setattr(doc_module, "_render", lambda text: pytest.fail("not cached"))
    assert _html("/docs/bot-api/")


def test_a_swiss_page_shows_tie_breaks_rounds_and_byes(db) -> None:
    tournament = tournament_of_format("swiss", ["ann", "ben", "cy", "di", "ed"])
    assert tournament.status == "finished"
    html = _html(f"/tournaments/{tournament.pk}/")
    assert "Swiss" in html and "Buchholz" in html
    assert html.count('<tr data-bot="') == 5
    assert html.count('<div class="bracket-round" data-round=') == tournament.rounds == 4
    assert html.count('<p class="bye muted" data-bot=') == 4, "one bye a round"
    first = html.split('id="standings"', 1)[1].split('<tr data-bot="', 2)[1]
    assert ">ann</a>" in first, "the bot that won every match leads"
    assert f'href="/tournaments/{tournament.pk}/standings.csv"' in html


def test_a_double_elimination_page_shows_the_bracket(db) -> None:
    tournament = tournament_of_format("double_elimination", ["ann", "ben", "cy", "di", "ed"])
    assert tournament.status == "finished"
    html = _html(f"/tournaments/{tournament.pk}/")
    bracket = html.split('id="bracket"', 1)[1]
    for name in ("winners", "losers", "final"):
        assert f'data-bracket="{name}"' in bracket
    assert "<strong>champion</strong>" in html
    assert re.search(r'<li class="winner"><a href="/bots/\d+/">ann</a>', bracket)
    # Five bots: the brackets have byes, drawn in the bracket and round they fell in.
    byes = [r for bracket_round in tournament.standings["rounds"] for r in bracket_round["byes"]]
    assert byes and bracket.count('<p class="bye" data-bot=') == len(byes)


def test_a_promotion_page_shows_its_rounds_and_final(db) -> None:
    tournament = tournament_of_format("promotion", ["ann", "ben", "cy", "di", "ed"])
    assert tournament.status == "finished"
    html = _html(f"/tournaments/{tournament.pk}/")
    assert "Promotion by placing" in html
    bracket = html.split('id="bracket"', 1)[1]
    assert 'data-bracket="round"' in bracket and 'data-bracket="final"' in bracket
    assert "losers" not in bracket
    assert "<strong>champion</strong>" in html


def test_a_self_match_names_the_versions_in_its_seats_and_result(db) -> None:
    """Issue 32: a version against its own bot's earlier one read "alice-lie21 wins" with both
    seats named alike."""
    from tests.arena.factories import BotVersionFactory, MatchFactory

    bot = bot_make(name="alice-lie21")
    third = BotVersionFactory(bot=bot, number=3)
    match = MatchFactory(versions=[third, bot.versions.get(number=1)], placings=(0, 1))
    html = _html(f"/matches/{match.pk}/")
    assert "<strong>alice-lie21 v3 wins</strong>" in html
    assert f"Match #{match.pk}: alice-lie21 v3, alice-lie21 v1" in html
    seat_rows = re.findall(
        r'<th scope="row"><a href="/bots/\d+/">alice-lie21</a> '
        r'<span class="muted">(v\d) ',
        html,
    )
    assert seat_rows == ["v3", "v1"], "each seat's row names its version"


def test_seat_labels_name_versions_only_where_a_bot_sits_twice() -> None:
    from arena.services.matches.playing import distinct_labels

    assert distinct_labels([("a", 1), ("b", 1)]) == ["a", "b"]
    assert distinct_labels([("a", 3), ("a", 1), ("b", 2)]) == ["a v3", "a v1", "b"]
    assert distinct_labels([("random", 1), ("random", 1)]) == [
        "random v1 (seat 1)",
        "random v1 (seat 2)",
    ]


def test_the_bot_page_shows_its_most_played_opponents_and_how_many_it_met(
    db, client, monkeypatch
) -> None:
    me = bot_make(name="me", game="highcard")
    rivals = [bot_make(name=f"rival{n}", game="highcard") for n in range(4)]
    for n, rival in enumerate(rivals):
        for seed in range(n + 1):  # rival3 played most
            match_record(me, rival, seed=10 * n + seed)
    table = bot_head_to_head_table(bot=me, limit=2)
    assert [row.opponent.name for row in table.rows] == ["rival3", "rival2"]
    assert table.opponents == 4
    page = client.get(f"/bots/{me.pk}/").content.decode()
    assert "of the 4 it has met" not in page  # all four shown: nothing left out
    monkeypatch.setattr("arena.web.views.bots.HEAD_TO_HEAD_SHOWN", 2)
    page = client.get(f"/bots/{me.pk}/").content.decode()
    assert "The 2 it played most of the 4 it has met." in page
    assert page.count('data-opponent="') == 2


# --- a game's files, served from its folder --------------------------------------------------


def test_each_games_renderer_is_found_and_collected_from_its_folder(tmp_path, settings) -> None:
    from django.contrib.staticfiles import finders
    from django.core.management import call_command

    for name, game in GAMES.items():
        assert finders.find(f"arena/games/{name}/renderer.js") == str(game.renderer_path())
    settings.STATIC_ROOT = tmp_path
    call_command("collectstatic", interactive=False, verbosity=0)
    for name, game in GAMES.items():
        collected = tmp_path / "arena" / "games" / name / "renderer.js"
        assert collected.read_bytes() == game.renderer_path().read_bytes()
    assert not (ROOT / "arena" / "static" / "arena" / "games").exists(), "no copies in the site"


def test_a_games_replay_schema_is_served_beside_its_rules(db) -> None:
    for name, game in GAMES.items():
        response = _client().get(f"/games/{name}/rules/replay.schema.json")
        assert response.status_code == 200
        assert response["Content-Type"] == "application/schema+json"
        assert json.loads(response.content) == json.loads(game.replay_schema_path().read_text())
    assert _client().get("/games/nope/rules/replay.schema.json").status_code == 404


def test_a_rules_page_links_the_bot_api_page_and_its_schema(db) -> None:
    html = _html("/games/tieng_len/rules/")
    assert 'href="/docs/bot-api/"' in html
    assert 'href="replay.schema.json"' in html  # beside the page: /games/tieng_len/rules/...
