"""Fingerprints of what the engine shows bots and writes to replays, game by game.

A change meant to make the engine faster must not change what any bot sees nor what a
replay says. This plays a fixed list of matches of every hosted game (every table size,
the game's option variants, its built-in bots mixed, seats that fault and moves that come
late) and hashes, per game:

* ``<game>_observations``: every observation a bot is given (legal actions included) and
  every hook's payload, as the JSON a sandboxed bot reads (keys sorted);
* ``<game>_replays``: every replay, move times left out, keys sorted, without the parts
  the replay gained since for a referee (``ADDED`` below: present in new replays only).

Prints ``<game>_games: N games`` and the two ``sha256`` lines per game. With ``--compare
COMMIT`` it plays the same matches on that commit's engine too and prints, per game,
``<game>_fingerprints_agree: 1 bool`` (0 where they differ; the exit status is 1 then).

    .venv/bin/python benchmarks/engine_fingerprint.py --games 3000 --compare main
"""

from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from engine_checkout import REPO, export, use_engine

#: Parts of a replay added for a referee after the engine this is compared with (a list of
#: paths; ``*`` stands for every item of a list or every value of a dict). Removed before
#: hashing, so an old and a new replay of the same match hash alike.
ADDED: dict[str, tuple[str, ...]] = {
    "twenty_one": (
        "games.*.record.trump_refills",
        "games.*.record.rounds.*.put_back",
        "games.*.record.rounds.*.switched",
        "games.*.record.unfinished",
    ),
    "liars": ("games.*.record.rounds.*.throws", "games.*.record.unfinished"),
}

#: Option sets each game's matches cycle through (every one of them legal on both engines).
VARIANTS: dict[str, tuple[dict[str, Any], ...]] = {
    "liars": (
        {},
        {"better": True},
        {"no_lying_first_round": True},
        {"straight_contest": True},
        {"straights": False, "stop_at_first_out": True},
        {"games": 2},
    ),
    "tieng_len": ({}, {"instant_wins": True}),
    "twenty_one": ({}, {"dealer_mode": True}),
}
#: Built-in bots too slow for thousands of games (they are played by their own tests).
SLOW_BOTS = frozenset({"search", "exact", "starter"})


def _strip(value: Any, path: list[str]) -> None:
    """Remove ``path`` from the nested value, wherever it leads."""
    if not path:
        return
    head, rest = path[0], path[1:]
    if head == "*":
        items = value.values() if isinstance(value, dict) else value
        for item in items if isinstance(value, dict | list) else ():
            _strip(item, rest)
    elif isinstance(value, dict) and head in value:
        if rest:
            _strip(value[head], rest)
        else:
            del value[head]


class Watched:
    """A player that hashes every observation and hook payload it is given; it can also
    fault at a chosen decision, or report chosen decisions as late (the game's default
    move is then played instead)."""

    trusted = True

    def __init__(
        self, inner: Any, digest: Any, *, fault_at: int = -1, late: frozenset = frozenset()
    ) -> None:
        self.inner, self.digest, self.fault_at, self.late = inner, digest, fault_at, late
        self.name = inner.name
        self.decisions = 0
        self.last_move_late = False

    @property
    def hooks(self) -> Any:
        return self.inner.hooks

    def start(self, info: Mapping[str, Any], hooks: Any = ()) -> None:
        self.inner.start(info, hooks=hooks)

    def act(self, observation: Mapping[str, Any]) -> dict[str, Any]:
        from engine import BotFault, FaultKind

        self.digest.update(_canonical(observation))
        self.decisions += 1
        if self.decisions == self.fault_at:
            raise BotFault(FaultKind.CRASH, "a scripted crash")
        self.last_move_late = self.decisions in self.late
        return self.inner.act(observation)

    def notify(self, hook: str, payload: Mapping[str, Any]) -> None:
        self.digest.update(hook.encode() + _canonical(payload))
        self.inner.notify(hook, payload)

    def close(self) -> None:
        self.inner.close()

    def output(self) -> str:
        return self.inner.output()

    def take_output(self) -> str:
        return self.inner.take_output()


def _canonical(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":")).encode()


def matches(name: str, games_wanted: int) -> Iterator[dict[str, Any]]:
    """The fixed list of matches of one game: seats, bots, options, faults and late moves."""
    from engine import get_game

    game = get_game(name)
    sizes = list(range(game.min_players, min(game.max_players, 6) + 1))
    others = sorted(set(game.builtin_bots()) - SLOW_BOTS - {"random"})
    variants = VARIANTS.get(name, ({},))
    number = 0
    while True:
        seats = sizes[number % len(sizes)]
        bots = ["random"] * seats
        if others and number % 3 == 1:  # every third match mixes in the other built-in bots
            bots = [others[(number + s) % len(others)] if s % 2 else "random" for s in range(seats)]
        kind = number % 7
        yield {
            "seed": 1000 + number,
            "bots": bots,
            "options": variants[number % len(variants)],
            "fault": (number % seats, 3 + number % 11) if kind == 5 else None,
            "late": (number % seats, frozenset({2, 5})) if kind == 6 else None,
        }
        number += 1
        if number > 10 * games_wanted:  # a safety net: games end, so this is never reached
            return


def fingerprint(name: str, games_wanted: int) -> dict[str, Any]:
    from engine import InProcessPlayer, builtin_bot, play_match

    seen, written = hashlib.sha256(), hashlib.sha256()
    games = 0
    added = ADDED.get(name, ())
    for match in matches(name, games_wanted):
        players = []
        for seat, bot in enumerate(match["bots"]):
            inner = InProcessPlayer(f"{bot}{seat}", builtin_bot(name, bot))
            fault, late = match["fault"], match["late"]
            players.append(
                Watched(
                    inner,
                    seen,
                    fault_at=fault[1] if fault and fault[0] == seat else -1,
                    late=late[1] if late and late[0] == seat else frozenset(),
                )
            )
        result = play_match(
            name, players, seed=match["seed"], options=match["options"], record_timing=False
        )
        replay = json.loads(json.dumps(result.replay))
        for path in added:
            _strip(replay, path.split("."))
        written.update(_canonical(replay))
        games += len(replay["games"])
        if games >= games_wanted:
            break
    return {"games": games, "observations": seen.hexdigest(), "replays": written.hexdigest()}


def run(games_wanted: int, only: list[str]) -> dict[str, dict[str, Any]]:
    from engine import GAMES

    names = [name for name in GAMES if not only or name in only]
    return {name: fingerprint(name, games_wanted) for name in names}


def _child(root: Path, games_wanted: int, only: list[str]) -> dict[str, dict[str, Any]]:
    command = [sys.executable, __file__, "--engine-root", str(root), "--games", str(games_wanted)]
    command += ["--json", *(["--only", ",".join(only)] if only else [])]
    out = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def main() -> int:
    argv = use_engine(sys.argv[1:])
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=3000, help="games per game (default 3000)")
    parser.add_argument("--only", default="", help="comma-separated games (default: all)")
    parser.add_argument("--compare", metavar="COMMIT", help="also fingerprint this commit")
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    only = [g for g in args.only.split(",") if g]
    if args.json:
        print(json.dumps(run(args.games, only)))
        return 0
    if not args.compare:
        for name, found in run(args.games, only).items():
            print(f"{name}_games: {found['games']} games")
            print(f"{name}_observations: {found['observations']} sha256")
            print(f"{name}_replays: {found['replays']} sha256")
        return 0
    old = _child(export(args.compare), args.games, only)
    new = _child(REPO, args.games, only)
    status = 0
    for name, found in new.items():
        before = old.get(name)
        agree = before is not None and all(
            before[key] == found[key] for key in ("games", "observations", "replays")
        )
        status |= not agree
        print(f"{name}_games: {found['games']} games")
        for key in ("observations", "replays"):
            was = before[key] if before else "absent"
            print(f"{name}_{key}: {found[key]} sha256 (at {args.compare}: {was})")
        print(f"{name}_fingerprints_agree: {int(agree)} bool")
    return status


if __name__ == "__main__":
    sys.exit(main())
