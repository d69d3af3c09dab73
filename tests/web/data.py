"""Data for the page tests: bots with stored versions, and matches with real replays.

Matches are played by the engine in-process (built-in bots, a few milliseconds each) and
stored the way the workers record them, so the pages show real cards, sums and results.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from django.utils import timezone

import engine
from arena.models import Bot, BotVersion, Match, MatchLog, Rating, RatingHistory, Replay
from engine import replay as replay_io
from tests.arena.factories import BotFactory, BotVersionFactory, UserFactory

PASSWORD = "A-long-test-password-21"

VALID_BOT = """\
# A tiny bot: its three lowest cards, first one shown, never challenges.
def act(observation):
    cards = observation["hand"][:3]
    if observation["role"] == "liar":
        return {"cards": cards, "face_up": 0}
    return {"cards": cards, "challenge": False}
"""

SYNTAX_ERROR_BOT = """\
def act(observation):
    return {"cards": observation["hand"][:3], "face_up": 0

print("never")
"""


def user_make(username: str, *, password: str = PASSWORD, **fields: Any):
    user = UserFactory(username=username, **fields)
    user.set_password(password)
    user.save()
    return user


def bot_make(owner=None, *, name: str | None = None, **fields: Any) -> Bot:
    """A bot with one valid, active version (its file stored under MEDIA_ROOT)."""
    kwargs: dict[str, Any] = {"owner": owner} if owner is not None else {}
    if name is not None:
        kwargs["name"] = name
    bot = BotFactory(**kwargs, **fields)
    BotVersionFactory(bot=bot)
    bot.refresh_from_db()
    return bot


def engine_replay(
    names: Sequence[str], *, seed: int, bots: Sequence[str | Path] = ("heuristic", "random")
) -> dict[str, Any]:
    """The replay of a real match between two bots (built-in names or bot file paths)."""
    players = [
        engine.InProcessPlayer(
            name, bot if isinstance(bot, Path) else engine.builtin_bot("lie21", bot)
        )
        for name, bot in zip(names, bots, strict=True)
    ]
    return engine.play_match("lie21", players, seed=seed).replay


def match_record(
    bot_a: Bot,
    bot_b: Bot,
    *,
    seed: int = 1,
    replay: dict[str, Any] | None = None,
    bots: Sequence[str | Path] = ("heuristic", "random"),
    status: str = Match.Status.DONE,
    logs: Sequence[tuple[str, str]] | None = None,
    **fields: Any,
) -> Match:
    """A match between the bots' active versions; a finished one gets a real replay.

    ``logs`` is ``[(output, traceback)]`` per seat, stored as the bots' private logs.
    """
    match = Match(
        game="lie21",
        version_a=bot_a.active_version,
        version_b=bot_b.active_version,
        bot_a=bot_a,
        bot_b=bot_b,
        seed=seed,
        status=status,
        **fields,
    )
    if status != Match.Status.DONE:
        match.save()
        return match
    if replay is None:
        replay = engine_replay([str(bot_a), str(bot_b)], seed=seed, bots=bots)
    result = replay["result"]
    error = result["error"] or {}
    match.outcome = {0: Match.Outcome.A, 1: Match.Outcome.B}.get(
        result["winner"], Match.Outcome.DRAW
    )
    match.reason = result["reason"]
    match.match_points_a, match.match_points_b = result["match_points"]
    match.game_wins_a, match.game_wins_b = result["game_wins"]
    match.points_a, match.points_b = result["points"]
    match.sweeps_a, match.sweeps_b = result["sweeps"]
    match.games_played = result["games_played"]
    match.error_kind = error.get("kind", "")
    match.error_seat = error.get("seat")
    match.error_detail = error.get("detail", "")
    match.started_at = match.finished_at = timezone.now()
    match.duration_s = 1.0
    match.save()
    data = replay_io.dumps(replay)
    Replay.objects.create(match=match, data=data, size=len(data), format=replay["format"])
    for seat, (output, traceback) in enumerate(logs or ()):
        MatchLog.objects.create(
            match=match,
            seat=seat,
            bot=bot_a if seat == 0 else bot_b,
            output=output,
            traceback=traceback,
        )
    return match


def rate(match: Match, scores: Sequence[float]) -> None:
    """Rating rows and one history row per bot for ``match`` (what the rating task writes)."""
    for bot, score in zip((match.bot_a, match.bot_b), scores, strict=True):
        rating, _ = Rating.objects.get_or_create(bot=bot, game="lie21")
        rating.mu, rating.sigma = score + 6, 2.0
        rating.score = score
        rating.matches += 1
        rating.wins += (match.outcome == "a") == (bot == match.bot_a)
        rating.losses = rating.matches - rating.wins
        rating.save()
        RatingHistory.objects.create(
            bot=bot, game="lie21", match=match, mu=score + 6, sigma=2.0, score=score
        )


def replay_with_forfeits_and_challenges(*, first_seed: int = 1) -> tuple[int, dict[str, Any]]:
    """A seed (and its replay) whose first game has both forfeited and challenged hands,
    with each seat The Liar of at least one forfeited hand: what the hidden-card checks need.
    """
    for seed in range(first_seed, first_seed + 200):
        replay = engine_replay(["a", "b"], seed=seed)
        hands = replay["games"][0]["hands"]
        forfeit_liars = {h["liar"] for h in hands if not h["challenge"]}
        if forfeit_liars == {0, 1} and any(h["challenge"] for h in hands):
            return seed, replay
    raise AssertionError("no seed in range gives both kinds of hands")


def version_of(bot: Bot) -> BotVersion:
    return BotVersion.objects.get(pk=bot.active_version_id)
