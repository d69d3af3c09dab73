"""Engine speed: games per second of built-in bots in one process (rules + observations).

Prints one ``name: value unit`` line per figure:

    <game>_random_games: N games/s       for every hosted game: its built-in random bots in
                                         every seat (4 seats where the game allows, else its
                                         most), the loop the match runner runs: deal, the
                                         observation for every decision with the match part
                                         and, where the game lists them, the legal actions,
                                         the bot's act() through the in-process player, the
                                         rules checking and applying each move
    engine_random_games: N games/s       Lie 21 random vs random through the same loop without the
                                         legal actions (its random bot does not read them): the
                                         figure this benchmark has always printed for Lie 21
    engine_heuristic_games: N games/s    the same with heuristic vs heuristic
    engine_random_matches: N matches/s   whole Lie 21 best-of-7 matches through play_match
                                         (bots loaded per match, replay document built)
    engine_lean_loop: N games/s          for scale: a bare Lie 21 rules-only loop (random
                                         choices, sums, draws; no observations, checks or
                                         bots)

Each figure is the best of several timed runs on one core: the machine's speed drifts by tens
of percent from second to second, and the best run is the one least disturbed.

``--compare COMMIT`` measures the ``<game>_random_games`` loops (and ``engine_random_games``)
of this checkout against the same loops on that commit's engine (exported with ``git
archive``), alternating old and new runs, each in a process of its own, and prints per loop::

    <loop>_before: N games/s   at COMMIT (the median run)
    <loop>: N games/s          here (the median run)
    <loop>_speedup: R x        the median over the new runs of the run over the mean of the old
                               runs either side of it (a steady drift of the machine cancels, a
                               spoilt run does not decide)

    .venv/bin/python benchmarks/engine_speed.py --compare a4947d9~1 --runs 7 --seconds 2
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from itertools import pairwise
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from engine_checkout import REPO, export, use_engine


def game_loop_rate(bot: str, *, seconds: float, runs: int = 5) -> float:
    """Games per second of two of a built-in Lie 21 bot, through the rules alone (no
    ``legal_actions`` in the observations): the best of ``runs`` timed runs."""
    from engine import InProcessPlayer, builtin_bot, get_game

    players = [InProcessPlayer(f"{bot}{seat}", builtin_bot("lie21", bot)) for seat in (0, 1)]
    return _rules_rate(
        get_game("lie21"), players, options=None, legal=False, seconds=seconds, runs=runs
    )


def random_game_rate(name: str, *, seconds: float, runs: int = 3) -> float:
    """Games per second of one game's built-in random bots, through its rules alone: the
    best of ``runs`` timed runs of ``seconds`` each."""
    from engine import InProcessPlayer, builtin_bot, get_game

    game = get_game(name)
    path = builtin_bot(name, "random")
    players = [InProcessPlayer(f"random{seat}", path) for seat in range(min(4, game.max_players))]
    options = game.match_rules(None).options()
    legal = game.lists_legal_actions
    return _rules_rate(game, players, options=options, legal=legal, seconds=seconds, runs=runs)


def _rules_rate(
    game: Any, players: list[Any], *, options: Any, legal: bool, seconds: float, runs: int
) -> float:
    """Games per second of ``players`` at ``game``'s table, the loop the runner runs with
    nothing else (``legal_actions`` added to the observations if ``legal``): the best of
    ``runs`` timed runs of ``seconds`` each."""
    seats = len(players)
    for seat, player in enumerate(players):
        player.start({"game": game.name, "seat": seat, "players": seats, "seed": seat})
    acts = [player.act for player in players]
    context = {"game_number": 1, "match_points": [0] * seats, "games": []}
    best = 0.0
    seed = 0
    for _ in range(runs):
        games = 0
        started = time.perf_counter()
        while (elapsed := time.perf_counter() - started) < seconds:
            for _ in range(10):
                seed += 1
                state = game.new_game(
                    seed=seed, dealer=seed % seats, num_players=seats, options=options
                )
                seat = state.to_act()
                while seat is not None:
                    observation = state.observation(seat)
                    observation.update(context)
                    if legal:
                        observation["legal_actions"] = state.legal_actions(seat)
                    state.apply(seat, acts[seat](observation))
                    seat = state.to_act()
            games += 10
        best = max(best, games / elapsed)
    return best


def match_rate(*, seconds: float, runs: int = 5) -> float:
    from engine import InProcessPlayer, builtin_bot, play_match

    path = builtin_bot("lie21", "random")
    best = 0.0
    seed = 0
    for _ in range(runs):
        matches = 0
        started = time.perf_counter()
        while (elapsed := time.perf_counter() - started) < seconds:
            seed += 1
            players = [InProcessPlayer("a", path), InProcessPlayer("b", path)]
            play_match("lie21", players, seed=seed)
            matches += 1
        best = max(best, matches / elapsed)
    return best


def lean_loop_rate(*, seconds: float, runs: int = 3) -> float:
    """Games per second of the leanest possible loop over the same deck and counting rules."""
    import random

    from engine.games.lie21.cards import DECK, SCORE, move_total

    rng = random.Random(1)
    best = 0.0
    for _ in range(runs):
        games = 0
        started = time.perf_counter()
        while (elapsed := time.perf_counter() - started) < seconds:
            for _ in range(100):
                deck = list(DECK)
                rng.shuffle(deck)
                hands, pos, liar, points = [deck[:6], deck[6:12]], 12, 0, [0, 0]
                for _hand in range(7):
                    mine, theirs = hands[liar], hands[1 - liar]
                    lie = [mine.pop(rng.randrange(len(mine))) for _ in range(3)]
                    answer = [theirs.pop(rng.randrange(len(theirs))) for _ in range(3)]
                    a, b = move_total(lie), move_total(answer)
                    won = liar if a <= 21 and (b > 21 or a >= b) else 1 - liar
                    points[won] += sum(SCORE[c] for c in lie + answer)
                    if pos < 42:
                        hands[won] += deck[pos : pos + 3]
                        hands[1 - won] += deck[pos + 3 : pos + 6]
                        pos += 6
                    liar = won
            games += 100
        best = max(best, games / elapsed)
    return best


def speedup(before_runs: list[float], after_runs: list[float]) -> float:
    """The median, over the new runs, of a run's rate over the mean of the old runs either
    side of it (``before_runs`` has one run more than ``after_runs``).

    >>> speedup([100.0, 120.0, 100.0], [220.0, 150.0])  # the machine slowed in the 2nd pair
    1.8636363636363638
    """
    around = [(a + b) / 2 for a, b in pairwise(before_runs)]
    return statistics.median(new / old for new, old in zip(after_runs, around, strict=True))


#: The Lie 21 loop without legal actions, by its figure's name (the other loops are games').
PLAIN = "engine_random_games"


def _child_rate(root: Path, name: str, seconds: float) -> float:
    command = [sys.executable, __file__, "--engine-root", str(root), "--child", name]
    command += ["--seconds", str(seconds)]
    return float(subprocess.run(command, check=True, capture_output=True, text=True).stdout)


def compare(commit: str, names: list[str], *, runs: int, seconds: float) -> None:
    old_root = export(commit)
    for name in names:
        before: list[float] = []
        after: list[float] = []
        for run in range(runs + 1):  # old, new, old, ..., new, old
            before.append(_child_rate(old_root, name, seconds))
            if run < runs:
                after.append(_child_rate(REPO, name, seconds))
        figure = name if name == PLAIN else f"{name}_random_games"
        print(f"{figure}_before: {statistics.median(before):.0f} games/s")
        print(f"{figure}: {statistics.median(after):.0f} games/s")
        print(f"{figure}_speedup: {speedup(before, after):.2f} x", flush=True)


def main() -> None:
    argv = use_engine(sys.argv[1:])
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--compare", metavar="COMMIT", help="old against new, alternating")
    parser.add_argument("--runs", type=int, default=5, help="new runs per game (--compare)")
    parser.add_argument("--seconds", type=float, default=1.5, help="length of one timed run")
    parser.add_argument("--only", default="", help="comma-separated games (default: all)")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:  # one timed run (after a short warm-up), for --compare
        if args.child == PLAIN:
            game_loop_rate("random", seconds=0.3, runs=1)
            print(json.dumps(game_loop_rate("random", seconds=args.seconds, runs=1)))
            return
        random_game_rate(args.child, seconds=0.3, runs=1)
        print(json.dumps(random_game_rate(args.child, seconds=args.seconds, runs=1)))
        return
    from engine import GAMES

    names = [name for name in [*GAMES, PLAIN] if not args.only or name in args.only.split(",")]
    if args.compare:
        compare(args.compare, names, runs=args.runs, seconds=args.seconds)
        return
    for name in [name for name in names if name != PLAIN]:
        rate = random_game_rate(name, seconds=args.seconds)
        print(f"{name}_random_games: {rate:.0f} games/s", flush=True)
    if PLAIN in names:
        print(f"{PLAIN}: {game_loop_rate('random', seconds=1.5):.0f} games/s")
    if args.only:
        return
    print(f"engine_heuristic_games: {game_loop_rate('heuristic', seconds=2.0, runs=3):.1f} games/s")
    print(f"engine_random_matches: {match_rate(seconds=1.5):.0f} matches/s")
    print(f"engine_lean_loop: {lean_loop_rate(seconds=1.0):.0f} games/s")


if __name__ == "__main__":
    main()
