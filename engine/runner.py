"""The local runner: play N matches among bots of any game and sum them up, as an author would.

Bots are named by a built-in name (``random``, ``heuristic``...) or a path to a ``.py`` file or
a ``.zip`` with ``bot.py``. Uploaded-style bots run in the sandbox by default, exactly as in
the arena; ``sandbox=False`` runs them in this process (fast, no protection), which is meant
for built-in bots and your own code. Seats rotate between matches, so every bot sits in every
seat equally often.
"""

from __future__ import annotations

import json
import shutil
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypedDict, Unpack

from engine import replay as replay_io
from engine.botfiles import BotFileError, read_bot_path
from engine.game import Game
from engine.htmlviewer import logs_path
from engine.inprocess import InProcessPlayer
from engine.match import MatchResult, play_match
from engine.players import Player
from engine.registry import get_game
from engine.sandboxes import SandboxMissing, local_sandbox

__all__ = [
    "BotSpec",
    "RunSettings",
    "SandboxMissing",
    "Summary",
    "resolve_bot",
    "run_matches",
    "run_table",
    "seating",
]


@dataclass(frozen=True, slots=True)
class BotSpec:
    """A bot ready to run: the name shown for it and the file (or directory) to load."""

    name: str
    path: Path
    builtin: bool


def resolve_bot(spec: str, *, game: str, workdir: Path | None = None) -> BotSpec:
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


def seating(match_index: int, bots: int) -> list[int]:
    """Which bot (by the order given) sits in each seat of match ``match_index``.

    >>> seating(0, 3), seating(1, 3), seating(1, 2)
    ([0, 1, 2], [2, 0, 1], [1, 0])
    """
    shift = match_index % bots
    return [(seat - shift) % bots for seat in range(bots)]


@dataclass
class Summary:
    """What N matches came to, per bot in the order given."""

    game: str
    players: list[str]
    matches: int = 0
    first_places: list[int] = field(default_factory=list)
    placing_sum: list[int] = field(default_factory=list)
    match_wins: list[int] = field(default_factory=list)  # first place alone
    draws: int = 0  # matches with a shared first place
    totals: dict[str, list[int]] = field(default_factory=dict)
    errors: list[dict[str, Any]] = field(default_factory=list)

    def __post_init__(self) -> None:
        n = len(self.players)
        self.first_places = self.first_places or [0] * n
        self.placing_sum = self.placing_sum or [0] * n
        self.match_wins = self.match_wins or [0] * n

    def add(self, index: int, result: MatchResult, seats: Sequence[int]) -> None:
        """Count one match; ``seats[s]`` is the bot (by order given) that sat in seat ``s``."""
        self.matches += 1
        for seat, bot in enumerate(seats):
            placing = result.placings[seat]
            self.placing_sum[bot] += placing
            self.first_places[bot] += placing == 0
            for key, values in result.totals.items():
                self.totals.setdefault(key, [0] * len(self.players))[bot] += values[seat]
        if result.winner is None:
            self.draws += 1
        else:
            self.match_wins[seats[result.winner]] += 1
        for fault in result.faults:
            self.errors.append(
                {
                    "match": index,
                    "player": seats[fault.seat],
                    "kind": fault.kind,
                    "detail": fault.detail,
                    "game": fault.game,
                    "step": fault.step,
                }
            )

    def mean_place(self, bot: int) -> float | None:
        """The bot's mean place, 1 for first (a shared first place is 1 too); None before any
        match (``null`` in ``--json``, as in the API: there is no place to average)."""
        return 1 + self.placing_sum[bot] / self.matches if self.matches else None

    def errors_by_kind(self, player: int) -> dict[str, int]:
        kinds: dict[str, int] = {}
        for error in self.errors:
            if error["player"] == player:
                kinds[error["kind"]] = kinds.get(error["kind"], 0) + 1
        return kinds

    def to_json(self) -> dict[str, Any]:
        bots = []
        two_seats = len(self.players) == 2
        for k, name in enumerate(self.players):
            entry: dict[str, Any] = {
                "name": name,
                "matches": self.matches,
                "first_places": self.first_places[k],
                "mean_place": None if (mean := self.mean_place(k)) is None else round(mean, 4),
                "faults": self.errors_by_kind(k),
                "totals": {key: values[k] for key, values in self.totals.items()},
            }
            if two_seats:
                entry["match_wins"] = self.match_wins[k]
            bots.append(entry)
        summary: dict[str, Any] = {
            "game": self.game,
            "players": self.players,
            "matches": self.matches,
            "bots": bots,
            "draws": self.draws,
            "errors": self.errors,
        }
        if two_seats:
            summary["match_wins"] = list(self.match_wins)
        return summary


def _player_factory(sandbox: bool) -> tuple[Callable[[BotSpec], Player], dict[str, Any]]:
    """How to make a player, and the limits it enforces (recorded in every replay): in this
    process, or in the registered sandbox (:mod:`engine.sandboxes`)."""
    if not sandbox:
        return (lambda spec: InProcessPlayer(spec.name, spec.path)), {}
    make, limits = local_sandbox().player_maker()
    return (lambda spec: make(spec.name, spec.path)), limits


class RunSettings(TypedDict, total=False):
    """How a local run plays its matches, besides which and how many: written once for
    :func:`run_matches` and :func:`run_table`, which take them as keywords (the defaults
    are :func:`run_table`'s)."""

    #: The game's options (rules and match format); None: its defaults.
    options: dict[str, Any] | None
    #: Where each match's replay is saved (``match-<index>-<seed>.json.gz``); None: nowhere.
    replay_dir: str | Path | None
    #: Whether bots run in the sandbox (default); False: in this process (``--in-process``).
    sandbox: bool
    #: Whether replays hold wall-clock times (default); False: byte-identical replays.
    record_timing: bool
    #: Whether what the bots print is kept (beside each replay); default False.
    collect_logs: bool


def run_matches(
    bots: Sequence[str],
    *,
    matches: int,
    seed: int,
    game: str,
    on_match: Callable[[int, MatchResult, list[int]], None] | None = None,
    **settings: Unpack[RunSettings],
) -> Summary:
    """Play ``matches`` matches among ``bots`` (one per seat), rotating the seats each match.

    Match ``i`` uses the seed ``seed + i`` and the seating :func:`seating` gives, so a replay
    names its seed and seats and ``--seed`` reproduces it. Who deals first is drawn from each
    match's seed, so no seat is favoured. ``settings``: :class:`RunSettings`.
    """
    if matches < 1:
        raise ValueError("--matches must be at least 1")
    summary = Summary(game=game, players=list(bots))

    def count(index: int, result: MatchResult, seats: list[int]) -> None:
        summary.add(index, result, seats)
        if on_match is not None:
            on_match(index, result, seats)

    run_table(
        bots,
        tables=[seating(index, len(bots)) for index in range(matches)],
        matches=1,
        seed=seed,
        game=game,
        on_match=count,
        **settings,
    )
    return summary


def _save_logs(replay_path: Path, result: MatchResult) -> None:
    """What the bots printed, beside the replay (``*.logs.json``): the replay format holds no
    bot's output (on the site it is its owner's alone), so the local runner keeps it apart;
    ``python -m engine replay FILE --html`` puts it back beside its steps."""
    document = {"replay": replay_path.name, "logs": [list(entries) for entries in result.logs]}
    logs_path(replay_path).write_text(json.dumps(document), encoding="utf-8")


def _check_tables(rules: Game, tables: Sequence[Sequence[int]], options: Any) -> None:
    """ValueError before any bot is resolved or started: a table the game cannot seat, or
    options its match rules refuse (with the game's own message)."""
    for table in tables:
        if not rules.min_players <= len(table) <= rules.max_players:
            raise ValueError(
                f"{rules.title} is played by {rules.min_players}-{rules.max_players} bots, "
                f"not {len(table)}"
            )
    rules.match_rules(options)


def _warn_unsandboxed(bots: Sequence[str], specs: Sequence[BotSpec]) -> None:
    """Say on stderr which authors' bots run unsandboxed in this process (the built-ins are
    the engine's own code), so ``--in-process`` is never chosen unknowingly."""
    for given, spec in zip(bots, specs, strict=True):
        if not spec.builtin:
            print(
                f"warning: {given} runs inside this process without the sandbox "
                "(--in-process): only do this with code you trust",
                file=sys.stderr,
            )


def _turned(listed: Sequence[int], repeat: int) -> list[int]:
    """The table turned ``repeat`` seats further, so over its repeats no bot keeps the first
    seat (the first mover's edge is shared out).

    >>> _turned([0, 1, 2], 1)
    [2, 0, 1]
    """
    shift = repeat % len(listed)
    return [listed[(seat - shift) % len(listed)] for seat in range(len(listed))]


def _keep(result: MatchResult, path: Path, collect_logs: bool) -> None:
    """Save the match's replay at ``path``, and the bots' output beside it when collected."""
    saved = replay_io.save(result.replay, path)
    if collect_logs and any(result.logs):
        _save_logs(saved, result)


def run_table(
    bots: Sequence[str],
    *,
    tables: Sequence[Sequence[int]],
    matches: int,
    seed: int,
    game: str,
    on_match: Callable[[int, MatchResult, list[int]], None] | None = None,
    **settings: Unpack[RunSettings],
) -> int:
    """Play every table (seat orders of indexes into ``bots``) ``matches`` times, turning it
    one seat further each time; match ``i`` (counted over all tables) has the seed
    ``seed + i``. Returns the number of matches. ``settings``: :class:`RunSettings`."""
    options = settings.get("options")
    sandbox = settings.get("sandbox", True)
    replay_dir = settings.get("replay_dir")
    record_timing = settings.get("record_timing", True)
    collect_logs = settings.get("collect_logs", False)
    _check_tables(get_game(game), tables, options)
    workdir = Path(tempfile.mkdtemp(prefix="arena-run-"))
    try:
        specs = [resolve_bot(b, game=game, workdir=workdir) for b in bots]
        make, limits = _player_factory(sandbox)
        if not sandbox:
            _warn_unsandboxed(bots, specs)
        out = Path(replay_dir) if replay_dir is not None else None
        if out is not None:
            out.mkdir(parents=True, exist_ok=True)
        index = 0
        for listed in tables:
            for repeat in range(matches):
                table = _turned(listed, repeat)
                players = [make(specs[bot]) for bot in table]
                match_seed = seed + index
                result = play_match(
                    game,
                    players,
                    seed=match_seed,
                    options=options,
                    limits=limits,
                    record_timing=record_timing,
                    collect_logs=collect_logs,
                )
                if out is not None:
                    _keep(result, out / f"match-{index:04d}-{match_seed}.json.gz", collect_logs)
                if on_match is not None:
                    on_match(index, result, list(table))
                index += 1
        return index
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
