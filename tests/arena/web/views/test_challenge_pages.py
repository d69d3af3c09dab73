"""The challenge pages, "v2 vs v1" on the bot and version pages, and a version's statistics."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from arena.models import BotVersion, Challenge, Match
from arena.services.challenges import comparison_start
from arena.services.rating_fit import ratings_refit
from arena.services.ratings import rating_activate
from tests.arena.factories import BotVersionFactory
from tests.arena.web.data import bot_make, challenge_finish, match_record, rate, user_make

pytestmark = pytest.mark.django_db


def _client(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def _text(html: str, element_id: str) -> str:
    """The text of the element with ``element_id`` (tags dropped, spaces squeezed)."""
    start = html.index(f'id="{element_id}"')
    chunk = html[start : html.index("</p>", start)]
    return " ".join(re.sub(r"<[^>]+>", "", chunk.split(">", 1)[1]).split())


@pytest.fixture
def cast():
    me, rival_owner, stranger = user_make("me"), user_make("rivalry"), user_make("stranger")
    mine = bot_make(me, name="mybot", on_ladder=True)
    rival = bot_make(rival_owner, name="rivalbot", on_ladder=True)
    return {
        "me": me,
        "rival_owner": rival_owner,
        "stranger": stranger,
        "mine": mine,
        "rival": rival,
    }


def test_a_rivals_page_offers_a_challenge_that_ends_on_a_results_page(cast):
    me, mine, rival = cast["me"], cast["mine"], cast["rival"]
    page = _client(me).get(f"/bots/{rival.pk}/").content.decode()
    assert f'href="/challenges/new/?rival={rival.active_version_id}"' in page

    form = _client(me).get(f"/challenges/new/?rival={rival.active_version_id}").content.decode()
    assert re.search(rf'value="{rival.active_version_id}"[^>]*checked', form)

    response = _client(me).post(
        "/challenges/new/",
        {"version": mine.active_version_id, "rivals": [rival.active_version_id], "match_count": 4},
    )
    challenge = Challenge.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/challenges/{challenge.pk}/"
    assert Match.objects.filter(challenge=challenge, ranked=False).count() == 4

    waiting = _client(me).get(f"/challenges/{challenge.pk}/").content.decode()
    assert "no result yet (4 matches to play)" in _text(waiting, "challenge-score")
    assert 'http-equiv="refresh"' in waiting

    challenge_finish(challenge, [0, 1, 0, 1])
    done = _client(me).get(f"/challenges/{challenge.pk}/").content.decode()
    score = _text(done, "challenge-score")
    assert "mybot v1: 50%, 95% interval " in score and "over 4 matches" in score
    # The page's interval is the API's, end for end (issue 32: one method, one meaning).
    api = _client(me).get(f"/api/challenges/{challenge.pk}/").json()["summary"]
    low, high = round(api["low"] * 100), round(api["high"] * 100)
    assert f"50%, 95% interval {low}%\u2013{high}% over 4 matches" in score
    assert "not significant" in score
    assert 'http-equiv="refresh"' not in done
    assert done.count('<tr data-match="') == 4


def test_a_decisive_challenge_is_called_significant(cast):
    challenge = Challenge.objects.create(
        game="lie21",
        created_by=cast["me"],
        version=cast["mine"].active_version,
        opponents=[cast["rival"].active_version_id],
        matches_requested=8,
    )
    for seed in range(8):
        match = Match.objects.create(
            game="lie21", seed=seed, challenge=challenge, kind="challenge", ranked=False
        )
        for seat, bot in enumerate((cast["mine"], cast["rival"])):
            match.seats.create(seat=seat, bot=bot, version=bot.active_version)
    challenge_finish(challenge, [0, 0, 0, 0, 0, 0, 0, 1])
    score = _text(
        _client(cast["me"]).get(f"/challenges/{challenge.pk}/").content.decode(), "challenge-score"
    )
    # Issue 32: the interval as its two ends, never a "±" beside it that disagrees.
    assert "88%, 95% interval " in score and "±" not in score
    assert "significantly better" in score


def test_only_the_challenger_the_rivals_owner_and_staff_see_a_challenge(cast):
    _client(cast["me"]).post(
        "/challenges/new/",
        {
            "version": cast["mine"].active_version_id,
            "rivals": [cast["rival"].active_version_id],
            "match_count": 2,
        },
    )
    challenge = Challenge.objects.get()
    path = f"/challenges/{challenge.pk}/"
    staff = user_make("boss", is_staff=True)
    for user in (cast["me"], cast["rival_owner"], staff):
        assert _client(user).get(path).status_code == 200
        assert (
            f'data-challenge="{challenge.pk}"' in _client(user).get("/challenges/").content.decode()
        )
    assert _client(cast["stranger"]).get(path).status_code == 404
    assert f'data-challenge="{challenge.pk}"' not in (
        _client(cast["stranger"]).get("/challenges/").content.decode()
    )
    anonymous = _client().get(path)
    assert anonymous.status_code == 302 and anonymous["Location"].startswith("/accounts/login/")


def test_a_spent_quota_is_a_429_with_the_reason_and_nothing_is_queued(cast, settings):
    settings.ARENA_CHALLENGE_MATCHES_PER_DAY = 3
    response = _client(cast["me"]).post(
        "/challenges/new/",
        {
            "version": cast["mine"].active_version_id,
            "rivals": [cast["rival"].active_version_id],
            "match_count": 4,
        },
    )
    assert response.status_code == 429
    assert "your challenge quota is 3 matches a day; 3 left" in response.content.decode()
    assert not Challenge.objects.exists() and not Match.objects.exists()


def test_a_rival_of_another_game_is_refused_on_the_form(cast):
    other = bot_make(cast["rival_owner"], name="dicey", game="liars", on_ladder=True)
    bot_make(cast["me"], name="mydice", game="liars", on_ladder=True)
    response = _client(cast["me"]).post(
        "/challenges/new/",
        {
            "version": cast["mine"].active_version_id,
            "rivals": [other.active_version_id],
            "match_count": 2,
        },
    )
    assert response.status_code == 200
    # The form of a Lie 21 challenge offers no Liars bot at all: the choice is refused.
    assert f"Select a valid choice. {other.active_version_id} is not one of" in (
        response.content.decode()
    )
    assert not Challenge.objects.exists()


def test_the_bot_and_version_pages_say_v2_vs_v1_with_its_confidence(cast, settings):
    settings.ARENA_COMPARISON_MATCHES = 6
    bot = cast["mine"]
    first = bot.active_version
    second = BotVersionFactory(bot=bot, number=2)
    rating_activate(version=second)
    comparison = comparison_start(version_id=second.pk)
    challenge_finish(comparison, [0, 0, 0, 1, 0, 1])

    bot_page = _client().get(f"/bots/{bot.pk}/").content.decode()
    line = _text(bot_page, "comparison")
    assert line.startswith("v2 vs v1: 67%, 95% interval ") and "over 6 matches" in line
    assert "±" not in line
    assert "not significant" in line
    version_page = _client().get(f"/bots/{bot.pk}/versions/2/").content.decode()
    assert _text(version_page, "comparison") == line
    details = f'href="/challenges/{comparison.pk}/"'
    assert details in _client(cast["me"]).get(f"/bots/{bot.pk}/").content.decode()
    assert details not in _client(cast["stranger"]).get(f"/bots/{bot.pk}/").content.decode()
    assert _client(cast["stranger"]).get(f"/challenges/{comparison.pk}/").status_code == 404
    first_page = _client().get(f"/bots/{bot.pk}/versions/{first.number}/").content.decode()
    assert "nothing to compare with" in _text(first_page, "comparison")

    api = _client().get(f"/api/bots/{bot.pk}/versions/2/").json()["comparison"]
    assert (api["version"], api["previous"]) == (2, 1)
    assert api["summary"]["played"] == 6 and api["summary"]["score"] == pytest.approx(4 / 6)
    assert _client().get(f"/api/bots/{bot.pk}/").json()["comparison"]["version"] == 2


def test_a_versions_page_shows_its_record_faults_times_game_stats_and_matches(cast):
    mine, rival = cast["mine"], cast["rival"]
    matches = [match_record(mine, rival, seed=seed) for seed in (1, 2)]
    ratings_refit(game="lie21")  # the displayed rating after each match, as the task writes
    rate(matches[-1], [3.0, 1.0])
    page = _client().get(f"/bots/{mine.pk}/versions/1/").content.decode()
    stats = page[page.index('id="version-stats"') :]
    assert re.search(r'data-stat="matches">2<', stats)
    assert re.search(r'data-stat="fault_rate">0\.0%', stats)
    assert re.search(
        r'data-stat="decision_ms">mean [0-9.]+ ms, p95 [0-9.]+ ms, max [0-9.]+ ms '
        r"\(\d+ decisions\)",
        stats,
    )
    assert 'data-stat="game-bluff_rate"' in stats and 'data-stat="game-challenge_rate"' in stats
    # Issue 32: each number says what it is ("Lies 16.00" explained nothing): a count per
    # match without empty decimals, a share as a percentage, and a few words each.
    lies = re.search(
        r'data-stat="game-lies"><span class="stat-value">([^<]+)</span> '
        r'<span class="muted stat-meaning">([^<]+)</span>',
        stats,
    )
    assert lies and re.fullmatch(r"\d+(\.\d)? a match", lies[1]), lies
    assert lies[2] == "hands it played as The Liar"
    assert re.search(
        r'data-stat="game-bluff_rate"><span class="stat-value">\d+\.\d%</span> '
        r'<span class="muted stat-meaning">of its lies that were bluffs',
        stats,
    )
    assert "<svg" in page[page.index('id="rating-chart"') :], "the rating chart is drawn"
    listed = page[page.index('id="version-matches"') :]
    assert all(f'data-match="{m.pk}"' in listed for m in matches)
    assert 'class="delta"' in listed, "the rating change shows in the match list"

    api = _client().get(f"/api/bots/{mine.pk}/versions/1/").json()["stats"]
    assert api["matches"] == 2 and api["faults"] == {} and api["decisions"] > 0
    assert {"bluff_rate", "challenge_rate", "challenge_success"} <= set(api["game_stats"])


def test_a_pending_version_shows_no_stats(cast):
    version = BotVersionFactory(bot=cast["mine"], number=2, status=BotVersion.Status.PENDING)
    page = _client().get(f"/bots/{cast['mine'].pk}/versions/{version.number}/").content.decode()
    assert 'id="version-stats"' not in page


# --- bulk replays and the local replay page -------------------------------------------------


def test_the_owner_downloads_the_bots_replays_as_one_zip(cast):
    import gzip
    import io
    import json
    import zipfile

    mine, rival = cast["mine"], cast["rival"]
    matches = [match_record(mine, rival, seed=seed) for seed in (1, 2)]
    other = match_record(rival, bot_make(cast["stranger"], name="third"), seed=3)
    page = _client(cast["me"]).get(f"/bots/{mine.pk}/").content.decode()
    assert f'href="/bots/{mine.pk}/replays.zip"' in page

    response = _client(cast["me"]).get(f"/bots/{mine.pk}/replays.zip")
    assert response.status_code == 200 and response["Content-Type"] == "application/zip"
    assert 'filename="mybot-replays.zip"' in response["Content-Disposition"]
    archive = zipfile.ZipFile(io.BytesIO(b"".join(response.streaming_content)))
    assert archive.namelist() == [f"match-{m.pk}.json.gz" for m in reversed(matches)]
    first = json.loads(gzip.decompress(archive.read(f"match-{matches[0].pk}.json.gz")))
    assert first["format"] == 2 and [s["name"] for s in first["seats"]] == [
        "me/mybot",
        "rivalry/rivalbot",
    ]
    assert f"match-{other.pk}.json.gz" not in archive.namelist()

    only_v2 = _client(cast["me"]).get(f"/bots/{mine.pk}/replays.zip?version=2")
    assert zipfile.ZipFile(io.BytesIO(b"".join(only_v2.streaming_content))).namelist() == []
    for bad in ("two", "-1", "1.0", "12345678901"):
        refused = _client(cast["me"]).get(f"/bots/{mine.pk}/replays.zip?version={bad}")
        assert refused.status_code == 400 and b"version number" in refused.content


def test_nobody_but_the_owner_downloads_the_replays_in_bulk(cast):
    mine = cast["mine"]
    assert _client(cast["rival_owner"]).get(f"/bots/{mine.pk}/replays.zip").status_code == 403
    anonymous = _client().get(f"/bots/{mine.pk}/replays.zip")
    assert anonymous.status_code == 302 and anonymous["Location"].startswith("/accounts/login/")
    assert (
        'id="replays-zip"'
        not in _client(cast["rival_owner"]).get(f"/bots/{mine.pk}/").content.decode()
    )
    assert _client(cast["me"]).get("/bots/999999/replays.zip").status_code == 404


def test_the_replay_page_offers_every_hosted_games_renderer_to_the_shell():
    import json

    from engine.registry import GAMES

    page = _client().get("/replay/").content.decode()
    renderers = json.loads(
        re.search(
            r'<script id="viewer-renderers" type="application/json">(.*?)</script>', page, re.S
        )[1]
    )
    assert set(renderers) == set(GAMES)
    assert renderers["lie21"]["url"].endswith("arena/games/lie21/renderer.js")
    assert 'id="replay-file"' in page and 'id="replay-viewer"' in page
    assert 'data-shell="/static/arena/viewer/shell.js"' in page


def test_the_challenge_list_costs_the_same_queries_for_any_number_of_challenges(
    cast, django_assert_max_num_queries
):
    client = _client(cast["me"])
    ask = {
        "version": cast["mine"].active_version_id,
        "rivals": [cast["rival"].active_version_id],
        "match_count": 2,
    }
    counts = []
    for _ in range(2):
        client.post("/challenges/new/", ask)
        with CaptureQueriesContext(connection) as queries:
            assert client.get("/challenges/").status_code == 200
        counts.append(len(queries))
    for _ in range(5):
        client.post("/challenges/new/", ask)
    with django_assert_max_num_queries(counts[-1]):
        page = client.get("/challenges/").content.decode()
    assert page.count("<tr data-challenge=") == 7
    assert counts[0] == counts[1]


def test_the_form_offers_the_ladder_and_ones_own_earlier_versions_of_the_same_games(cast):
    mine = cast["mine"]
    second = BotVersionFactory(bot=mine, number=2)
    rating_activate(version=second)
    bot_make(cast["rival_owner"], name="dicer", game="liars", on_ladder=True)
    form = _client(cast["me"]).get("/challenges/new/").content.decode()
    rivals = form[
        form.index('id="id_rivals"') : form.index("</fieldset>", form.index('id="id_rivals"'))
    ]
    assert f'value="{cast["rival"].active_version_id}"' in rivals
    assert f'value="{mine.versions.get(number=1).pk}"' in rivals, "its own earlier version"
    assert "dicer" not in rivals, "a game it has no bot in is not offered"
    nobody = _client(cast["stranger"]).get("/challenges/new/").content.decode()
    assert 'id="no-versions"' in nobody and 'id="challenge-form"' not in nobody


def test_the_form_is_for_one_game_at_a_time_with_its_rivals_as_checkboxes(cast):
    """Issue 32: the form listed the rivals of every game in one ctrl-click multi-select."""
    dice = bot_make(cast["me"], name="mydice", game="liars", on_ladder=True)
    dicer = bot_make(cast["rival_owner"], name="dicer", game="liars", on_ladder=True)
    client = _client(cast["me"])
    lie21 = client.get("/challenges/new/?game=lie21").content.decode()
    liars = client.get("/challenges/new/?game=liars").content.decode()
    assert 'id="challenge-games"' in lie21 and 'href="?game=liars"' in lie21
    assert 'type="checkbox" name="rivals"' in lie21 and "<select multiple" not in lie21
    assert "dicer" not in lie21 and "rivalbot" in lie21
    assert "dicer" in liars and "rivalbot" not in liars
    assert f'value="{dice.active_version_id}"' in liars.split('id="id_rivals"')[0], "challenger"
    # Every rival is tagged with its game and whether it is its bot's current version, for
    # the search box and for leaving the chosen version out (challenge-form.js).
    assert re.search(
        rf'value="{dicer.active_version_id}"[^>]*data-game="liars"[^>]*data-current="true"', liars
    )
    # The game follows a preselected rival.
    preselected = client.get(f"/challenges/new/?rival={dicer.active_version_id}")
    assert 'data-game="liars"' in preselected.content.decode().split('id="challenge-form"')[1][:40]


def _rival_box(html: str, version_id: int) -> str:
    """The rival checkbox of ``version_id`` with its label's opening tag."""
    found = re.search(rf'<label class="rival"[^>]*>\s*<input[^>]*value="{version_id}"[^>]*>', html)
    assert found, version_id
    return found[0]


def test_without_the_script_ones_chosen_version_is_not_offered_as_its_own_rival(cast):
    """Issue 32: without JavaScript the form listed the user's current version among the
    rivals (the help text says it is "not offered"; the service refused it on submit)."""
    mine = cast["mine"]
    earlier = mine.active_version_id
    rating_activate(version=BotVersionFactory(bot=mine, number=2))
    mine.refresh_from_db()
    client = _client(cast["me"])
    html = client.get("/challenges/new/?game=lie21").content.decode()
    box = _rival_box(html, mine.active_version_id)
    assert " hidden" in box.split("<input")[0] and " disabled" in box, box
    for other in (earlier, cast["rival"].active_version_id):  # the others stay offered
        assert " hidden" not in _rival_box(html, other) and "disabled" not in _rival_box(
            html, other
        )
    # Another version chosen (?version=): that one is left out instead.
    html = client.get(f"/challenges/new/?game=lie21&version={earlier}").content.decode()
    assert "disabled" in _rival_box(html, earlier)
    assert "disabled" not in _rival_box(html, mine.active_version_id)
    # A crafted post of it is refused on the form, with the reason, and nothing is made.
    response = client.post(
        "/challenges/new/",
        {"game": "lie21", "version": earlier, "rivals": [earlier], "match_count": 2},
    )
    assert "cannot be its own rival" in response.content.decode()
    assert not Challenge.objects.exists()
