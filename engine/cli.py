"""``python -m engine``: play bots against each other locally, and read replays.

    python -m engine play A B --matches N --seed S [--replay-dir DIR] [--json] [--in-process]
    python -m engine replay FILE
    python -m engine bots

Bad input (a missing file, a syntax error, a bot without ``act``) prints one line naming the
file and the problem, and exits with status 2.
"""

from __future__ import annotations

import argparse
import json
import sys
import zlib
from collections.abc import Sequence
from typing import Any

from engine import replay as replay_io
from engine.botfiles import BotFileError
from engine.match import MatchResult
from engine.registry import GAMES, UnknownGame, get_game
from engine.runner import SandboxMissing, Summary, run_matches
from engine.transcript import transcript

__all__ = ["main"]

USAGE_ERROR = 2


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, exit 2, like every other bad input
        self.exit(USAGE_ERROR, f"{self.prog}: error: {message}\n")


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="python -m engine", description="Lie 21 local runner")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    play = sub.add_parser("play", help="play matches between two bots")
    play.add_argument("a", help="built-in bot name or path to a .py / .zip bot")
    play.add_argument("b", help="built-in bot name or path to a .py / .zip bot")
    play.add_argument("--matches", type=int, default=1, help="number of matches (default 1)")
    play.add_argument(
        "--seed", type=int, default=0, help="seed of the first match; match i uses seed + i"
    )
    play.add_argument("--game", default="lie21", choices=sorted(GAMES))
    play.add_argument("--replay-dir", help="write one gzip replay per match here")
    play.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    play.add_argument(
        "--in-process",
        action="store_true",
        help="run bots inside this process, without the sandbox (trusted code only)",
    )
    play.add_argument(
        "--no-timing",
        action="store_true",
        help="leave move times out of replays, so equal seeds give byte-identical files",
    )
    replay = sub.add_parser("replay", help="print a replay as a hand-by-hand transcript")
    replay.add_argument("file")
    sub.add_parser("bots", help="list the built-in bots")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        if args.command == "play":
            return _play(args)
        if args.command == "replay":
            return _replay(args.file)
        for name, game in GAMES.items():
            for bot, path in sorted(game.builtin_bots().items()):
                print(f"{name}/{bot}\t{path}")
        return 0
    except BotFileError as exc:
        return _fail(str(exc))
    except (OSError, ValueError, UnknownGame) as exc:
        where = getattr(exc, "filename", None)
        message = f"{where}: {exc.strerror}" if where and getattr(exc, "strerror", None) else exc
        return _fail(str(message))
    except SandboxMissing as exc:
        return _fail(str(exc))


def _replay(path: str) -> int:
    try:
        text = transcript(replay_io.load(path))
    except OSError as exc:
        return _fail(f"{path}: {exc.strerror or exc}")
    except (EOFError, ValueError, zlib.error) as exc:  # truncated gzip, bad JSON, old format
        return _fail(f"{path}: not a readable replay ({exc})")
    except (KeyError, TypeError, IndexError) as exc:
        return _fail(f"{path}: not a valid replay (missing or malformed {exc})")
    sys.stdout.write(text)
    return 0


def _fail(message: str) -> int:
    print(f"error: {message}", file=sys.stderr)
    return USAGE_ERROR


def _play(args: argparse.Namespace) -> int:
    if args.matches < 1:
        return _fail("--matches must be at least 1")
    if not 0 <= args.seed <= 2**53 - args.matches:  # the last match's seed stays below 2**53
        return _fail("--seed must be 0 or more and below 2**53 (seeds stay exact in JSON)")
    get_game(args.game)
    progress = _Progress(args.matches, enabled=not args.json and sys.stderr.isatty())
    with progress:
        summary = run_matches(
            args.a,
            args.b,
            matches=args.matches,
            seed=args.seed,
            game=args.game,
            replay_dir=args.replay_dir,
            sandbox=not args.in_process,
            record_timing=not args.no_timing,
            on_match=progress.advance,
        )
    if args.json:
        print(json.dumps(summary.to_json()))
    else:
        _print_table(summary)
    return 0


class _Progress:
    """A rich progress bar on a terminal; nothing otherwise (or without rich)."""

    def __init__(self, total: int, *, enabled: bool) -> None:
        self._bar: Any = None
        self._task: Any = None
        if enabled:
            try:
                from rich.progress import Progress
            except ImportError:
                return
            self._bar = Progress(transient=True)
            self._task = self._bar.add_task("matches", total=total)

    def __enter__(self) -> _Progress:
        if self._bar is not None:
            self._bar.start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._bar is not None:
            self._bar.stop()

    def advance(self, index: int, result: MatchResult) -> None:
        if self._bar is not None:
            self._bar.advance(self._task)


def _print_table(summary: Summary) -> None:
    rows = [
        ("match wins", summary.match_wins),
        ("game wins", summary.game_wins),
        ("points", summary.points),
        ("sweeps", summary.sweeps),
        ("errors", [_kinds(summary.errors_by_kind(k)) for k in (0, 1)]),
    ]
    title = f"{summary.matches} matches, {summary.draws} drawn"
    try:
        from rich.console import Console
        from rich.table import Table
    except ImportError:
        print(title)
        print(f"{'':12} {summary.players[0]:>20} {summary.players[1]:>20}")
        for label, (a, b) in rows:
            print(f"{label:12} {a!s:>20} {b!s:>20}")
        return
    table = Table(title=title)
    table.add_column("")
    table.add_column(summary.players[0], justify="right")
    table.add_column(summary.players[1], justify="right")
    for label, (a, b) in rows:
        table.add_row(label, str(a), str(b))
    Console().print(table)


def _kinds(kinds: dict[str, int]) -> str:
    return ", ".join(f"{kind} x{count}" for kind, count in sorted(kinds.items())) or "-"
