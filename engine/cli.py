"""``python -m engine``: play bots against each other locally, and read replays.

    python -m engine games
    python -m engine play [--game GAME] BOT BOT [BOT ...] [--matches N] [--seed S] [--json]
                          [--replay-dir DIR] [--in-process] [--quiet] [--options JSON]
    python -m engine tournament [--game GAME] BOT BOT [BOT ...] [--matches N] [--seed S] [--json]
    python -m engine replay FILE [--html OUT | --check]
    python -m engine bots [--game GAME]
    python -m engine packages [--install]

While matches play, what each bot prints and any traceback of its own go to stderr, labelled
with the match, game, step and where in the game (``--quiet`` silences them). Bad input (a
missing file, a syntax error, a bot without ``act``) prints one line naming the file and the
problem, and exits with status 2.
"""

from __future__ import annotations

import argparse
import json
import sys
import zlib
from collections.abc import Sequence
from typing import Any, NoReturn

from engine import replay as replay_io
from engine.botfiles import BotFileError
from engine.htmlviewer import ViewerFilesMissing, logs_path, replay_html
from engine.match import MatchResult
from engine.referee import CannotReplay, differences
from engine.registry import GAMES, UnknownGame, get_game
from engine.runner import Summary, run_matches
from engine.sandboxes import SandboxMissing, local_sandbox
from engine.transcript import transcript

__all__ = ["entry", "main"]

USAGE_ERROR = 2


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one line, exit 2, like every other bad input
        self.exit(USAGE_ERROR, f"{self.prog}: error: {message}\n")


_Subparsers = argparse._SubParsersAction  # argparse has no public name for it


def _parser() -> argparse.ArgumentParser:
    """The command line: one subcommand per job, each built by its own ``_add_*``."""
    parser = _Parser(prog="python -m engine", description="Bluffing games arena: local runner")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    _add_play(sub)
    _add_tournament(sub)
    _add_replay(sub)
    _add_packages(sub)
    bots = sub.add_parser("bots", help="list the built-in bots")
    bots.add_argument("--game", help="only this game's")
    sub.add_parser("games", help="list the hosted games and their seat counts")
    return parser


def _add_play(sub: _Subparsers[_Parser]) -> None:
    """``play``: matches among bots, one per seat."""
    play = sub.add_parser("play", help="play matches among bots (one per seat)")
    play.add_argument(
        "bots", nargs="+", metavar="BOT", help="built-in bot name or path to a .py / .zip bot"
    )
    play.add_argument(
        "--game",
        default=next(iter(GAMES)),
        help=f"the game (default: {next(iter(GAMES))}; see: python -m engine games)",
    )
    play.add_argument("--matches", type=int, default=1, help="number of matches (default 1)")
    play.add_argument(
        "--seed", type=int, default=0, help="seed of the first match; match i uses seed + i"
    )
    play.add_argument("--options", help="the game's options as a JSON object")
    play.add_argument("--replay-dir", help="write one gzip replay per match here")
    play.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    play.add_argument(
        "--quiet",
        action="store_true",
        help="do not show what the bots print, nor tracebacks, on stderr (the *.logs.json "
        "beside --replay-dir's replays still keep them)",
    )
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


def _add_tournament(sub: _Subparsers[_Parser]) -> None:
    """``tournament``: a round robin with standings, crosstable and ratings."""
    tour = sub.add_parser(
        "tournament",
        help="a round robin among bots: standings, a crosstable and ratings, as the arena's",
    )
    tour.add_argument("bots", nargs="+", metavar="BOT")
    tour.add_argument("--game", default=next(iter(GAMES)), help="the game")
    tour.add_argument("--matches", type=int, default=2, help="matches per table (default 2)")
    tour.add_argument("--seed", type=int, default=0, help="seed of the first match")
    tour.add_argument("--options", help="the game's options as a JSON object")
    tour.add_argument("--json", action="store_true", help="print the result as one JSON object")
    tour.add_argument("--quiet", action="store_true", help="do not show what the bots print")
    tour.add_argument("--in-process", action="store_true", help="no sandbox (trusted code only)")


def _add_replay(sub: _Subparsers[_Parser]) -> None:
    """``replay``: a transcript, an HTML viewer, or a re-play check of one replay file."""
    replay = sub.add_parser(
        "replay", help="print a replay as a readable transcript, or write it as an HTML viewer"
    )
    replay.add_argument("file")
    replay.add_argument(
        "--html",
        metavar="OUT",
        help="write a single-file HTML page drawing the replay with the site's viewer",
    )
    replay.add_argument(
        "--check",
        action="store_true",
        help="re-play every game from what the replay holds (its draws and actions, not its "
        "seeds) and say whether the rules give the same record",
    )


def _add_packages(sub: _Subparsers[_Parser]) -> None:
    """``packages``: the bot packages, and installing them for the sandbox."""
    packages = sub.add_parser(
        "packages",
        help="the third-party packages bots may import (numpy), and whether the sandbox has them",
    )
    packages.add_argument(
        "--install",
        action="store_true",
        help="install them for the sandbox's interpreter (once; needs pip's index or "
        "PIP_FIND_LINKS)",
    )


def entry() -> None:
    """The ``arena-engine`` command (installed with the package): ``python -m engine``."""
    sys.exit(main())


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        if args.command == "play":
            return _play(args)
        if args.command == "replay":
            return _replay(args.file, html_out=args.html, check=args.check)
        if args.command == "tournament":
            return _tournament(args)
        if args.command == "games":
            return _games()
        if args.command == "packages":
            return _packages(install=args.install)
        for name, game in GAMES.items():
            if args.game and name != get_game(args.game).name:
                continue
            for bot, path in sorted(game.builtin_bots().items()):
                print(f"{name}/{bot}\t{path}")
        return 0
    except BotFileError as exc:
        return _fail(str(exc))
    except (OSError, ValueError, UnknownGame) as exc:
        where = getattr(exc, "filename", None)
        strerror = getattr(exc, "strerror", None)
        message = f"{where}: {strerror}" if where and strerror else exc
        return _fail(str(message))
    except SandboxMissing as exc:
        return _fail(str(exc))


def _packages(*, install: bool) -> int:
    """List the packages bots may import; with ``install``, install them for the sandbox."""
    from engine.botpackages import requirements, summary

    print(f"bots may import {summary()}")
    try:
        state = local_sandbox().packages(install=install)
    except RuntimeError as exc:  # SandboxMissing included
        return _fail(str(exc))
    if state.problem is None:
        print(f"installed for the sandbox ({state.python}) at {state.where}")
        return 0
    print(f"not installed for the sandbox ({state.python}): {', '.join(requirements())}")
    print("run: python -m engine packages --install")
    return 0 if not install else _fail(state.problem)


def _games() -> int:
    for name, game in GAMES.items():
        seats = (
            str(game.min_players)
            if game.min_players == game.max_players
            else f"{game.min_players}-{game.max_players}"
        )
        print(f"{name}\t{seats} seats\t{game.title}: {game.summary}")
    return 0


def _replay(path: str, *, html_out: str | None = None, check: bool = False) -> int:
    try:
        document = replay_io.load(path)
        if html_out is not None:
            return _replay_html(document, html_out, _local_logs(path))
        if check:
            return _replay_check(path, document)
        text = transcript(document)
    except ViewerFilesMissing as exc:
        return _fail(str(exc))
    except OSError as exc:
        return _fail(f"{path}: {exc.strerror or exc}")
    except CannotReplay as exc:
        return _fail(f"{path}: {exc}")
    except (EOFError, ValueError, zlib.error) as exc:  # truncated gzip, bad JSON, old format
        return _fail(f"{path}: not a readable replay ({exc})")
    except (KeyError, TypeError, IndexError) as exc:
        return _fail(f"{path}: not a valid replay (missing or malformed {exc})")
    sys.stdout.write(text)
    return 0


def _replay_check(path: str, document: dict[str, Any]) -> int:
    """Re-play the replay from its own contents (``engine.referee``): 0 when it agrees."""
    found = differences(document)
    games = len(document["games"])
    moves = sum(len(game["steps"]) for game in document["games"])
    if not found:
        print(f"{path}: every game re-plays from the replay ({games} games, {moves} steps)")
        return 0
    for line in found:
        print(f"{path}: {line}")
    return 1


def _local_logs(path: str) -> list[list[dict[str, Any]]] | None:
    """The bots' output the local runner kept beside this replay (``*.logs.json``), if any."""
    beside = logs_path(path)
    try:
        kept = json.loads(beside.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    logs = kept.get("logs") if isinstance(kept, dict) else None
    if not isinstance(logs, list) or not all(isinstance(seat, list) for seat in logs):
        return None
    return logs


def _replay_html(
    document: dict[str, Any], out: str, logs: list[list[dict[str, Any]]] | None = None
) -> int:
    page = replay_html(document, logs=logs)
    with open(out, "w", encoding="utf-8") as file:
        file.write(page)
    print(f"wrote {out}: open it in a browser", file=sys.stderr)
    return 0


def _fail(message: str) -> int:
    print(f"error: {message}", file=sys.stderr)
    return USAGE_ERROR


def _options(text: str | None) -> dict[str, Any] | None:
    if text is None:
        return None
    try:
        options = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"--options is not JSON: {exc}") from None
    if not isinstance(options, dict):
        raise ValueError("--options must be a JSON object")
    return options


def _play(args: argparse.Namespace) -> int:
    if args.matches < 1:
        return _fail("--matches must be at least 1")
    if not 0 <= args.seed <= 2**53 - args.matches:  # the last match's seed stays below 2**53
        return _fail("--seed must be 0 or more and below 2**53 (seeds stay exact in JSON)")
    game = get_game(args.game)
    if len(args.bots) == 1:
        return _fail(f"name at least two bots ({game.title}: {game.min_players} or more)")
    progress = _Progress(args.matches, enabled=not args.json and sys.stderr.isatty())
    report = _Report(args.bots, quiet=args.quiet)

    def after(index: int, result: MatchResult, seats: list[int]) -> None:
        progress.advance()
        report.match(index, result, seats)

    with progress:
        summary = run_matches(
            args.bots,
            matches=args.matches,
            seed=args.seed,
            game=game.name,
            options=_options(args.options),
            replay_dir=args.replay_dir,
            sandbox=not args.in_process,
            record_timing=not args.no_timing,
            # --quiet hides the output on stderr; the logs files beside replays keep it.
            collect_logs=not args.quiet or args.replay_dir is not None,
            on_match=after,
        )
    if args.json:
        print(json.dumps(summary.to_json()))
    else:
        _print_table(summary)
    return 0


def _tournament(args: argparse.Namespace) -> int:
    from engine.tournament import tables_for, tournament_run

    if args.matches < 1:
        return _fail("--matches must be at least 1")
    game = get_game(args.game)
    if len(set(args.bots)) != len(args.bots):
        return _fail("name each bot once (copies of a file: copy the file)")
    seats = min(len(args.bots), max(game.min_players, min(4, game.max_players)))
    total = len(tables_for(len(args.bots), seats)) * args.matches if seats > 1 else 0
    progress = _Progress(total, enabled=not args.json and sys.stderr.isatty())
    report = _Report(args.bots, quiet=args.quiet)

    def after(index: int, result: MatchResult, table: list[int]) -> None:
        progress.advance()
        report.match(index, result, table)

    with progress:
        tournament = tournament_run(
            args.bots,
            game=game.name,
            matches=args.matches,
            seed=args.seed,
            sandbox=not args.in_process,
            options=_options(args.options),
            on_match=after,
        )
    if args.json:
        print(json.dumps(tournament.to_json()))
        return 0
    _print_tournament(tournament)
    return 0


def _print_tournament(tournament: Any) -> None:
    from rich.console import Console
    from rich.table import Table

    data = tournament.to_json()
    title = f"{get_game(tournament.game).title}: {_count(tournament.matches, 'match', 'matches')}"
    table = Table(title=title)
    for column in ("#", "bot", "played", "points", "1st", "mean place", "faults", "rating (95%)"):
        table.add_column(column, justify="left" if column == "bot" else "right")
    for rank, row in enumerate(data["standing"], start=1):
        rating = (
            f"{row['rating']:.1f} ({row['rating_low']:.1f}-{row['rating_high']:.1f})"
            if "rating" in row
            else "-"
        )
        table.add_row(
            str(rank),
            row["name"],
            str(row["played"]),
            f"{row['points']:g}",
            str(row["first_places"]),
            _place(row["mean_place"]),
            str(row["faults"]),
            rating,
        )
    console = Console()
    console.print(table)
    names = [row["name"] for row in data["standing"]]
    cross = Table(title="crosstable: the row bot's score against the column bot")
    cross.add_column("")
    for name in names:
        cross.add_column(name, justify="right")
    for row_name in names:
        cells = []
        for col_name in names:
            cell = data["crosstable"][row_name].get(col_name)
            cells.append("·" if cell is None else f"{cell['score']:g}/{cell['meetings']}")
        cross.add_row(row_name, *cells)
    console.print(cross)


class _Report:
    """What the bots printed and how they failed, on stderr, labelled with where it was."""

    def __init__(self, names: Sequence[str], *, quiet: bool) -> None:
        self.names = list(names)
        self.quiet = quiet

    def match(self, index: int, result: MatchResult, seats: list[int]) -> None:
        if self.quiet:
            return
        out = sys.stderr
        game = result.game
        for seat, entries in enumerate(result.logs):
            name = self.names[seats[seat]]
            for entry in entries:
                label = _where(game, index, entry["game"], entry["step"], entry.get("where"))
                for line in entry["text"].rstrip("\n").splitlines():
                    print(f"[{label}] {name}: {line}", file=out)
        for fault in result.faults:
            name = self.names[seats[fault.seat]]
            label = _where(game, index, fault.game, fault.step, fault.location)
            print(f"[{label}] {name} is out: {fault.kind}: {fault.detail}", file=out)
            if fault.private.strip():
                for line in fault.private.rstrip("\n").splitlines():
                    print(f"    {line}", file=out)


def _place(mean: float | None) -> str:
    """A mean place as the tables show it; "-" for a bot that played no match."""
    return "-" if mean is None else f"{mean:.2f}"


def _where(
    game: str, match: int, number: int, step: int | None, where: dict[str, Any] | None
) -> str:
    parts = [f"{game} match {match}", f"game {number}"]
    for key, value in (where or {}).items():
        if key != "phase" and isinstance(value, int | str):
            parts.append(f"{key} {value}")
    if step is not None:
        parts.append(f"step {step}")
    return ", ".join(parts)


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

    def advance(self) -> None:
        if self._bar is not None:
            self._bar.advance(self._task)


def _print_table(summary: Summary) -> None:
    n = len(summary.players)
    rows: list[tuple[str, list[Any]]] = [
        ("first places", summary.first_places),
        ("mean place", [_place(summary.mean_place(k)) for k in range(n)]),
    ]
    if n == 2:
        rows.insert(0, ("match wins", summary.match_wins))
    rows += [(key.replace("_", " "), values) for key, values in summary.totals.items()]
    rows.append(("faults", [_kinds(summary.errors_by_kind(k)) for k in range(n)]))
    shared = "drawn" if n == 2 else "with a shared first place"
    played = _count(summary.matches, "match", "matches")
    title = f"{get_game(summary.game).title}: {played}, {summary.draws} {shared}"
    try:
        from rich.console import Console
        from rich.table import Table
    except ImportError:
        print(title)
        print(f"{'':14}" + "".join(f"{name:>20}" for name in summary.players))
        for label, values in rows:
            print(f"{label:14}" + "".join(f"{value!s:>20}" for value in values))
        return
    table = Table(title=title)
    table.add_column("")
    for name in summary.players:
        table.add_column(name, justify="right")
    for label, values in rows:
        table.add_row(label, *map(str, values))
    Console().print(table)


def _kinds(kinds: dict[str, int]) -> str:
    return ", ".join(f"{kind} x{count}" for kind, count in sorted(kinds.items())) or "-"


def _count(n: int, one: str, many: str) -> str:
    """``1 match``, ``2 matches``."""
    return f"{n} {one if n == 1 else many}"
