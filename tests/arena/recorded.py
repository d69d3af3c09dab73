"""Matches played for real and recorded the way the workers record them, for tests.

The bots run in this process (built-in bots or bot files: a few milliseconds a match); the
result goes through the arena's own claim and ``recording.record`` (seats, replay, logs,
ratings), so pages and the API show exactly what production would.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import engine
from arena.models import BotVersion, Match, MatchSeat
from arena.services.matches.claiming import claim
from arena.services.matches.playing import seat_info
from arena.services.matches.recording import played_result, record
from arena.services.matches.scheduling import match_engine_kwargs

__all__ = ["match_played", "match_queued"]


def match_queued(versions: Sequence[BotVersion], *, seed: int = 1, **fields: Any) -> Match:
    """A queued match of these versions (seat i is versions[i]), not sent to any worker."""
    match = Match.objects.create(
        game=versions[0].bot.game, seed=seed, seat_count=len(versions), **fields
    )
    MatchSeat.objects.bulk_create(
        MatchSeat(match=match, seat=seat, version=version, bot_id=version.bot_id)
        for seat, version in enumerate(versions)
    )
    return match


def match_played(
    versions: Sequence[BotVersion],
    *,
    seed: int = 1,
    bots: Sequence[str | Path] | None = None,
    **fields: Any,
) -> Match:
    """Play a match in-process and record it: ``bots`` are built-in names or bot files, one
    per seat (default: the game's ``random`` in every seat)."""
    match = match_queued(versions, seed=seed, **fields)
    game = match.game
    bots = bots or ["random"] * len(versions)
    players = [
        engine.InProcessPlayer(
            str(version.bot),
            bot if isinstance(bot, Path) else engine.builtin_bot(game, bot),
        )
        for version, bot in zip(versions, bots, strict=True)
    ]
    result = engine.play_match(
        game,
        players,
        **match_engine_kwargs(seed, len(players), match.options),
        seat_info=[seat_info(version) for version in versions],
        collect_logs=True,
    )
    outputs = [player.output() for player in players]
    token = claim(match.pk, "tests")
    assert token is not None, "a fresh match is always claimable"
    recorded = record(Match.objects.get(pk=match.pk), token, played_result(result, outputs))
    assert recorded is not None
    return recorded
