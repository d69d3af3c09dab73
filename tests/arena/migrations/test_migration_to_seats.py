"""Migrations 0004-0006 keep every two-seat match, rating, history row and replay.

Data is written in the shape of migration 0003 (``version_a``/``bot_a`` columns, one rating
per bot, format-1 replays made by the engine of that time), then migrated forward.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from django.core.management import call_command

from engine import replay as replay_io
from tests.arena.helpers import migrated_back
from tests.replay_schemas import validate_replay

FIXTURES = Path(__file__).parent / "fixtures"
BEFORE = [("arena", "0003_version_pause_validation_requeues")]

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def old_apps():
    with migrated_back(BEFORE) as apps:
        yield apps


def _old_data(apps):
    User = apps.get_model("auth", "User")
    Bot = apps.get_model("arena", "Bot")
    BotVersion = apps.get_model("arena", "BotVersion")
    Match = apps.get_model("arena", "Match")
    Rating = apps.get_model("arena", "Rating")
    RatingHistory = apps.get_model("arena", "RatingHistory")
    Replay = apps.get_model("arena", "Replay")
    Tournament = apps.get_model("arena", "Tournament")
    alice = User.objects.create(username="alice")
    bob = User.objects.create(username="bob")
    a = Bot.objects.create(owner=alice, name="heur", game="lie21")
    b = Bot.objects.create(owner=bob, name="rand", game="lie21")
    versions = {}
    for bot, numbers in ((a, (1, 2)), (b, (1,))):
        for number in numbers:
            versions[(bot.name, number)] = BotVersion.objects.create(
                bot=bot,
                number=number,
                file=f"bots/{bot.pk}/{number}.py",
                filename="bot.py",
                kind="py",
                sha256=f"{bot.pk}{number}".ljust(64, "0"),
                size=10,
                status="valid",
            )
    a.active_version = versions[("heur", 2)]
    a.save()
    b.active_version = versions[("rand", 1)]
    b.save()
    tournament = Tournament.objects.create(
        name="t", game="lie21", seed=1, format="round_robin_bo7", status="finished"
    )
    won = Match.objects.create(
        game="lie21",
        kind="tournament",
        tournament=tournament,
        version_a=versions[("heur", 1)],
        version_b=versions[("rand", 1)],
        bot_a=a,
        bot_b=b,
        seed=5,
        status="done",
        outcome="a",
        reason="match_points",
        match_points_a=4,
        match_points_b=0,
        game_wins_a=2,
        points_a=210,
        points_b=30,
        sweeps_a=1,
        games_played=2,
        rated=True,
    )
    faulted = Match.objects.create(
        game="lie21",
        version_a=versions[("heur", 2)],
        version_b=versions[("rand", 1)],
        bot_a=a,
        bot_b=b,
        seed=3,
        status="done",
        outcome="b",
        reason="error",
        match_points_a=0,
        match_points_b=1,
        games_played=1,
        error_kind="crash",
        error_seat=0,
        error_detail="the bot raised RuntimeError in act",
        rated=True,
    )
    queued = Match.objects.create(
        game="lie21",
        version_a=versions[("rand", 1)],
        version_b=versions[("heur", 2)],
        bot_a=b,
        bot_b=a,
        seed=9,
    )
    for match, name in ((won, "replay-format1.json.gz"), (faulted, "replay-format1-fault.json.gz")):
        data = (FIXTURES / name).read_bytes()
        Replay.objects.create(match=match, data=data, size=len(data), format=1)
    ra = Rating.objects.create(bot=a, game="lie21", mu=27.0, sigma=6.0, score=9.0, matches=2)
    Rating.objects.create(bot=b, game="lie21", mu=23.0, sigma=6.5, score=3.5, matches=2)
    RatingHistory.objects.create(bot=a, game="lie21", match=won, mu=29.0, sigma=7.0, score=8.0)
    RatingHistory.objects.create(bot=b, game="lie21", match=won, mu=21.0, sigma=7.0, score=0.0)
    RatingHistory.objects.create(bot=a, game="lie21", match=faulted, mu=27.0, sigma=6.0, score=9.0)
    RatingHistory.objects.create(bot=b, game="lie21", match=faulted, mu=23.0, sigma=6.5, score=3.5)
    return {
        "won": won.pk,
        "faulted": faulted.pk,
        "queued": queued.pk,
        "a": a.pk,
        "b": b.pk,
        "a1": versions[("heur", 1)].pk,
        "a2": versions[("heur", 2)].pk,
        "b1": versions[("rand", 1)].pk,
        "tournament": tournament.pk,
        "rating_a": ra.pk,
    }


@pytest.mark.slow
def test_every_match_rating_and_replay_survives_the_move_to_seats(old_apps):
    ids = _old_data(old_apps)
    call_command("migrate", "arena", verbosity=0)
    from arena.models import Match, MatchSeat, Rating, RatingHistory, Replay, Tournament

    won = Match.objects.get(pk=ids["won"])
    seats = list(MatchSeat.objects.filter(match=won).order_by("seat"))
    assert [(s.bot_id, s.version_id, s.placing, s.score) for s in seats] == [
        (ids["a"], ids["a1"], 0, 4),
        (ids["b"], ids["b1"], 1, 0),
    ]
    assert (seats[0].mu_before, seats[0].mu_after) == (25.0, 29.0), "from the history rows"
    assert won.totals == {"game_wins": [2, 0], "points": [210, 30], "sweeps": [1, 0]}
    faulted = MatchSeat.objects.get(match_id=ids["faulted"], seat=0)
    assert (faulted.placing, faulted.fault, faulted.version_id) == (1, "crash", ids["a2"])
    assert faulted.fault_detail == "the bot raised RuntimeError in act"
    assert (faulted.mu_before, faulted.mu_after) == (29.0, 27.0)
    queued = list(MatchSeat.objects.filter(match_id=ids["queued"]).order_by("seat"))
    assert [(s.bot_id, s.placing) for s in queued] == [(ids["b"], None), (ids["a"], None)]

    # Ratings are per version now; each active version carries its bot's ladder rating.
    current = Rating.objects.get(version_id=ids["a2"])
    assert (current.current, current.mu, current.sigma, current.matches) == (True, 27.0, 6.0, 1)
    assert (current.faults, current.losses, current.placing_sum) == (1, 1, 1)
    old = Rating.objects.get(version_id=ids["a1"])
    assert (old.current, old.mu, old.matches, old.wins) == (False, 29.0, 1, 1)
    assert Rating.objects.get(version_id=ids["b1"]).matches == 2
    assert set(RatingHistory.objects.values_list("version_id", flat=True)) == {
        ids["a1"],
        ids["a2"],
        ids["b1"],
    }
    assert Tournament.objects.get(pk=ids["tournament"]).format == "round_robin"

    # Replays: rewritten in format 2, with everything the old ones held.
    for match_id in (ids["won"], ids["faulted"]):
        replay = Replay.objects.get(match_id=match_id)
        assert replay.format == replay_io.REPLAY_FORMAT == 2
        document = replay_io.loads(bytes(replay.data))
        validate_replay(document)
    document = replay_io.loads(bytes(Replay.objects.get(match_id=ids["won"]).data))
    assert document["placings"] == [0, 1] and document["scores"] == [4, 0]
    assert all(len(game["steps"]) == 14 for game in document["games"])
    fault = replay_io.loads(bytes(Replay.objects.get(match_id=ids["faulted"]).data))
    assert fault["faults"][0]["kind"] == "crash" and fault["placings"] == [1, 0]
    assert fault["reason"] == "fault"
