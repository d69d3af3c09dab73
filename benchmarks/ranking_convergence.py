"""How many matches the arena needs to rank a field right, against plain TrueSkill.

A synthetic population with a known strength order: 16 bots of one game, bot k playing the
game's strong built-in bot but, with probability ``k / 20``, a random legal move instead (its
built-in ``random``), so bot 0 is the strongest and each next one a little weaker. Played in
this process, without the sandbox, on the same budget of matches, two ways:

* **plain**: TrueSkill with random pairing (random tables of the game's ladder size) and a
  fresh deal every match;
* **arena**: the arena's matchmaking policy (``arena.services.matchmaking``: focal bot by
  Halite's 25/65/10 mix of rules, opponents near in mu by TrueSkill match quality, repeat
  meetings avoided), one fresh deal per table as the ladder plays (``--duplicate`` plays
  each table's deal once per seat rotation instead, each match rated as it comes: measured,
  it costs the ladder matches, so the ladder keeps duplicate sets for head-to-head
  comparisons, where ``duplicate_variance_ratio`` below 1 is what counts).

For each, the number of matches after which the ranking by conservative score (mu - 3 sigma)
reaches Kendall tau >= 0.9 with the true order and stays there to the end of the budget,
averaged over several seeds (a run that never settles there counts as the whole budget). Prints::

    ranking_matches_plain: N matches          (Lie 21; other games: ranking_matches_plain_<game>)
    ranking_matches_arena: N matches
    ranking_matches_ratio: R                  (plain / arena; goal: at least 2)
    duplicate_variance_ratio: R               (variance of a fixed pair's result per deal with
                                               duplicate deals over without; below 1 helps)
    seat0_first_places: R                     (share of matches seat 0 wins alone: the first
                                               mover's advantage; fair is 1/seats, minus ties)

Usage: ``python benchmarks/ranking_convergence.py [--game lie21] [--seeds 5] [--budget 1500]``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import trueskill

from arena.services import matchmaking
from engine import InProcessPlayer, builtin_bot, get_game, play_match

#: The strong built-in bot each game's population is made of (fast enough to play thousands).
STRONG = {"lie21": "greedy", "liars": "honest", "twenty_one": "basic", "tieng_len": "greedy"}
POPULATION = 16
TAU_GOAL = 0.9


class NoisyPlayer:
    """The strong bot, except that with probability ``noise`` a move is the random bot's."""

    trusted = True
    last_move_late = False

    def __init__(self, name: str, game: str, noise: float, seed: int) -> None:
        self.name = name
        self.strong = InProcessPlayer(name, builtin_bot(game, STRONG.get(game, "starter")))
        self.weak = InProcessPlayer(name, builtin_bot(game, "random"))
        self.noise = noise
        self.rng = random.Random(seed)

    @property
    def hooks(self) -> frozenset[str]:
        return self.strong.hooks | self.weak.hooks

    def start(self, info: Mapping[str, Any], hooks: Sequence[str] = ()) -> None:
        self.strong.start(info, hooks)
        self.weak.start(info, hooks)

    def act(self, observation: Mapping[str, Any]) -> dict[str, Any]:
        if self.rng.random() < self.noise:
            return self.weak.act(observation)
        return self.strong.act(observation)

    def notify(self, hook: str, payload: Mapping[str, Any]) -> None:
        self.strong.notify(hook, payload)
        self.weak.notify(hook, payload)

    def close(self) -> None:
        self.strong.close()
        self.weak.close()

    def output(self) -> str:
        return ""

    def take_output(self) -> str:
        return ""


@dataclass
class Entry:
    bot: int  # the true strength order: 0 is strongest
    mu: float
    sigma: float
    matches: int = 0

    @property
    def score(self) -> float:
        return self.mu - 3 * self.sigma


def kendall_tau(order: Sequence[int]) -> float:
    """Kendall tau between ``order`` (bots, best first, as ranked) and 0, 1, 2, ..."""
    n = len(order)
    concordant = sum(1 for i in range(n) for j in range(i + 1, n) if order[i] < order[j])
    pairs = n * (n - 1) / 2
    return (2 * concordant - pairs) / pairs


def play(game: str, table: Sequence[int], seed: int, match_seed: int) -> list[int]:
    """Placings of one in-process match of bots ``table`` (seat order)."""
    players = [
        NoisyPlayer(f"bot{bot}", game, bot / 20, seed * 7919 + bot * 31 + match_seed)
        for bot in table
    ]
    result = play_match(game, players, seed=match_seed, record_timing=False)
    return list(result.placings)


def seats_for(game: str) -> int:
    rules = get_game(game)
    return max(rules.min_players, min(getattr(rules, "ladder_seats", 4), rules.max_players))


class Run:
    def __init__(self, game: str, seed: int) -> None:
        self.game = game
        self.seed = seed
        self.rng = random.Random(seed)
        draw = getattr(get_game(game), "draw_probability", 0.10)
        self.env = trueskill.TrueSkill(draw_probability=draw)
        self.entries = [Entry(bot, self.env.mu, self.env.sigma) for bot in range(POPULATION)]
        # Equal ratings must not list the bots in their true order: shuffle them once.
        self.rng.shuffle(self.entries)
        self.matches = 0
        self.taus: list[tuple[int, float]] = []  # (matches played, tau) after each update
        self.next_seed = seed * 1_000_003

    def rate(self, table: Sequence[Entry], placings: Sequence[int]) -> None:
        groups = [(self.env.create_rating(e.mu, e.sigma),) for e in table]
        for entry, (rating,) in zip(
            table, self.env.rate(groups, ranks=list(placings)), strict=True
        ):
            entry.mu, entry.sigma = rating.mu, rating.sigma
            entry.matches += 1

    def tau(self) -> float:
        ranked = sorted(self.entries, key=lambda e: -e.score)
        return kendall_tau([e.bot for e in ranked])

    def note(self) -> None:
        self.taus.append((self.matches, self.tau()))

    def converged_at(self, budget: int) -> int:
        """Matches after which tau stayed at or above the goal to the end of the budget
        (the budget if it never did): a lucky moment above the goal does not count."""
        settled = budget
        for matches, tau in reversed(self.taus):
            if tau < TAU_GOAL:
                break
            settled = matches
        return settled

    def seed_of_match(self) -> int:
        self.next_seed += 1
        return self.next_seed % (1 << 53)


#: Whether the arena's run plays duplicate sets (``--duplicate``); the ladder does not.
DUPLICATE = False


def run_plain(game: str, seed: int, budget: int) -> int:
    run = Run(game, seed)
    seats = seats_for(game)
    while run.matches < budget:
        table = run.rng.sample(run.entries, seats)
        placings = play(game, [e.bot for e in table], seed, run.seed_of_match())
        run.rate(table, placings)
        run.matches += 1
        run.note()
    return run.converged_at(budget)


def run_arena(game: str, seed: int, budget: int) -> int:
    run = Run(game, seed)
    seats = seats_for(game)
    duplicate = DUPLICATE
    met: dict[int, Counter] = {e.bot: Counter() for e in run.entries}
    while run.matches < budget:
        rule = matchmaking.focal_rule(run.rng)
        focal = matchmaking.pick_focal(run.entries, rule, run.rng)
        if focal is None:  # every rating settled: the ladder's other rules still seat bots
            focal = matchmaking.pick_focal(run.entries, "anyone", run.rng)
        others = [e for e in run.entries if e is not focal]
        near = matchmaking.nearest(others, focal.mu, matchmaking_pool(seats), run.rng)
        table = matchmaking.best_table(
            run.env, focal, near, seats, met[focal.bot], key=lambda e: e.bot
        )
        match_seed = run.seed_of_match()
        rotations = range(seats) if duplicate else range(1)
        for shift in rotations:
            order = [table[(s - shift) % seats] for s in range(seats)]
            placings = play(game, [e.bot for e in order], seed, match_seed)
            run.matches += 1
            # Each match of the duplicate set is rated as it is played, as the ladder does:
            # the set's deals mirror each other, so their luck cancels in the sum.
            run.rate(order, placings)
            run.note()
        for entry in table:
            met[entry.bot].update(o.bot for o in table if o is not entry)
            # Only recent meetings count, as in the arena (its last few matches).
            if sum(met[entry.bot].values()) > 6 * (seats - 1):
                met[entry.bot] = Counter(dict(met[entry.bot].most_common()[: seats * 2]))
    return run.converged_at(budget)


def matchmaking_pool(seats: int) -> int:
    return matchmaking.NEAREST_PER_SEAT * (seats - 1)


def duplicate_variance(game: str, deals: int) -> tuple[float, float]:
    """(variance ratio, seat 0's share of first places): a fixed table (bots 0 and 8, and
    more for bigger tables) over ``deals`` deals, each played once per seat rotation; bot 0's
    result per duplicate set (the mean over the rotations) against the mean of as many
    independent deals."""
    seats = seats_for(game)
    table = [0, 8, *list(range(9, 9 + seats - 2))]
    single, first_seat = [], []
    pairs = []
    for deal in range(deals):
        results = []
        for shift in range(seats):
            order = [table[(s - shift) % seats] for s in range(seats)]
            placings = play(game, order, 1, 10_000 + deal)
            seat_of_0 = order.index(0)
            result = sum(1 for p in placings if p > placings[seat_of_0])
            results.append(result + 0.5 * (placings.count(placings[seat_of_0]) - 1))
            first_seat.append(1.0 if placings[0] == 0 and placings.count(0) == 1 else 0.0)
        pairs.append(statistics.fmean(results))
        single.append(results[0])
    # As many independent deals averaged as a duplicate set has matches.
    independent = [
        statistics.fmean(single[i : i + seats]) for i in range(0, len(single) - seats + 1, seats)
    ]
    sets = pairs[: len(independent)]
    return statistics.pvariance(sets) / statistics.pvariance(independent), statistics.fmean(
        first_seat
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="lie21")
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--budget", type=int, default=1500)
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--duplicate", action="store_true", help="duplicate sets at each table")
    args = parser.parse_args()
    global DUPLICATE
    DUPLICATE = args.duplicate
    plain = [run_plain(args.game, seed, args.budget) for seed in range(1, args.seeds + 1)]
    arena = [run_arena(args.game, seed, args.budget) for seed in range(1, args.seeds + 1)]
    suffix = "" if args.game == "lie21" else f"_{args.game}"
    mean_plain, mean_arena = statistics.fmean(plain), statistics.fmean(arena)
    print(f"ranking_matches_plain{suffix}: {mean_plain:.0f} matches", flush=True)
    print(f"ranking_matches_arena{suffix}: {mean_arena:.0f} matches", flush=True)
    print(f"ranking_matches_ratio{suffix}: {mean_plain / mean_arena:.2f}", flush=True)
    ratio, first = duplicate_variance(args.game, args.deals)
    print(f"duplicate_variance_ratio{suffix}: {ratio:.2f}")
    print(f"seat0_first_places{suffix}: {first:.3f}")


if __name__ == "__main__":
    main()
