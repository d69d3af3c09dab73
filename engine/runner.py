"""The local runner: play N matches between two bots and sum them up, as a bot author would.

Bots are named by a built-in name (``random``, ``greedy``, ``heuristic``, ``search``) or a
path to a ``.py`` file or a ``.zip`` with ``bot.py``. Uploaded-style bots run in the sandbox by
default, exactly as in the arena; ``sandbox=False`` runs them in this process (fast, no
protection), which is meant for built-in bots and your own code.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine import replay as replay_io
from engine.botfiles import BotFileError, read_bot_path
from engine.inprocess import InProcessPlayer
from engine.match import MatchResult, play_match
from engine.players import Player
from engine.registry import get_game

__all__ = ["BotSpec", "SandboxMissing", "Summary", "resolve_bot", "run_matches"]


class SandboxMissing(RuntimeError):
    """Bots cannot be sandboxed on this host; the message is one line saying what to do."""


@dataclass(frozen=True, slots=True)
class BotSpec:
    """A bot ready to run: the name shown for it and the file (or directory) to load."""

    name: str
    path: Path
    builtin: bool


def resolve_bot(spec: str, *, game: str = "lie21", workdir: Path | None = None) -> BotSpec:
    """A built-in bot by name, or a bot file checked and (for a zip) unpacked under workdir.

    Raises BotFileError with one line naming the file and the problem.
    """
    builtins = get_game(game).builtin_bots()
    if spec in builtins:
        return BotSpec(spec, builtins[spec], True)
    path = Path(spec)
    if not path.exists() and path.suffix == "" and "/" not in spec:
        known = ", ".join(sorted(builtins))
        raise BotFileError("not_found", f"{spec}: no such file, and no built-in bot ({known})")
    package = read_bot_path(path)
    if path.suffix.lower() == ".py":
        return BotSpec(path.stem, path, False)
    target = Path(tempfile.mkdtemp(prefix="bot-", dir=workdir))
    package.write_to(target)
    return BotSpec(path.stem, target, False)


@dataclass
class Summary:
    """What N matches between A and B came to, from A's and B's point of view."""

    players: list[str]
    matches: int = 0
    match_wins: list[int] = field(default_factory=lambda: [0, 0])
    draws: int = 0
    game_wins: list[int] = field(default_factory=lambda: [0, 0])
    points: list[int] = field(default_factory=lambda: [0, 0])
    sweeps: list[int] = field(default_factory=lambda: [0, 0])
    errors: list[dict[str, Any]] = field(default_factory=list)

    def add(self, index: int, result: MatchResult, seat_of: tuple[int, int]) -> None:
        """Count one match; ``seat_of[k]`` is the seat player k (A=0, B=1) sat in."""
        self.matches += 1
        for k in (0, 1):
            seat = seat_of[k]
            self.game_wins[k] += result.game_wins[seat]
            self.points[k] += result.points[seat]
            self.sweeps[k] += result.sweeps[seat]
            if result.winner == seat:
                self.match_wins[k] += 1
        if result.winner is None:
            self.draws += 1
        if result.error is not None:
            self.errors.append(
                {
                    "match": index,
                    "player": seat_of.index(result.error.seat),
                    "kind": result.error.kind,
                    "detail": result.error.detail,
                }
            )

    def to_json(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "matches": self.matches,
            "match_wins": self.match_wins,
            "draws": self.draws,
            "game_wins": self.game_wins,
            "points": self.points,
            "sweeps": self.sweeps,
            "errors": self.errors,
        }

    def errors_by_kind(self, player: int) -> dict[str, int]:
        kinds: dict[str, int] = {}
        for error in self.errors:
            if error["player"] == player:
                kinds[error["kind"]] = kinds.get(error["kind"], 0) + 1
        return kinds


def _player_factory(sandbox: bool) -> tuple[Callable[[BotSpec], Player], dict[str, Any]]:
    """How to make a player, and the limits it enforces (recorded in every replay)."""
    if not sandbox:
        return (lambda spec: InProcessPlayer(spec.name, spec.path)), {}
    from sandbox import (
        Limits,
        SandboxConfig,
        SandboxedPlayer,
        SandboxUnavailable,
        check_available,
    )

    try:
        config = SandboxConfig.from_env()
        check_available(config)
    except SandboxUnavailable as exc:
        raise SandboxMissing(f"{exc} (or run trusted bots with --in-process)") from None
    limits = Limits()
    recorded = {"move_timeout_s": limits.move_timeout_s, "time_bank_s": limits.time_bank_s}
    return (lambda spec: SandboxedPlayer(spec.name, spec.path, limits=limits, config=config)), (
        recorded
    )


def run_matches(
    a: str,
    b: str,
    *,
    matches: int,
    seed: int,
    game: str = "lie21",
    replay_dir: str | Path | None = None,
    sandbox: bool = True,
    record_timing: bool = True,
    on_match: Callable[[int, MatchResult], None] | None = None,
) -> Summary:
    """Play ``matches`` matches of A (seat 0) against B (seat 1).

    Match ``i`` uses the seed ``seed + i``, so ``--seed S --matches 1`` with ``S`` from a
    replay (or a replay's file name) plays that very match again. Who deals first is drawn
    from each match's seed, so neither seat is favoured.
    """
    if matches < 1:
        raise ValueError("--matches must be at least 1")
    workdir = Path(tempfile.mkdtemp(prefix="lie21-run-"))
    try:
        specs = (
            resolve_bot(a, game=game, workdir=workdir),
            resolve_bot(b, game=game, workdir=workdir),
        )
        make, limits = _player_factory(sandbox)
        if not sandbox:
            for given, spec in zip((a, b), specs, strict=True):
                if not spec.builtin:
                    print(
                        f"warning: {given} runs inside this process without the sandbox "
                        "(--in-process): only do this with code you trust",
                        file=sys.stderr,
                    )
        out = Path(replay_dir) if replay_dir is not None else None
        if out is not None:
            out.mkdir(parents=True, exist_ok=True)
        summary = Summary(players=[a, b])
        for index in range(matches):
            seat_of = (0, 1)
            players = [make(spec) for spec in specs]
            match_seed = seed + index
            result = play_match(
                game, players, seed=match_seed, limits=limits, record_timing=record_timing
            )
            summary.add(index, result, seat_of)
            if out is not None:
                replay_io.save(result.replay, out / f"match-{index:04d}-{match_seed}.json.gz")
            if on_match is not None:
                on_match(index, result)
        return summary
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
