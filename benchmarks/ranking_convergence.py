"""How many matches the arena needs to rank a field right: against plain TrueSkill and the bound.

A synthetic population with a known strength order: 16 bots of one game, bot k playing the
game's strong built-in bot but, with probability ``k / 20``, a random legal move instead (its
built-in ``random``), so bot 0 is the strongest and each next one a little weaker. Played in
this process, without the sandbox, at the game's ladder table size, two ways:

* **plain**: TrueSkill with random tables and a fresh deal every match, ranked by the
  conservative score mu - 3 sigma;
* **arena**: what the ladder does. The displayed ranking is the whole-history fit
  (``arena.algorithms.whole_history``, as ``arena.services.rating_fit`` refits it: the
  same priors, performance noise and tie margin), refitted after every match and ranked by
  rating; tables come from the ladder's pairing (``arena.algorithms.pairing``: a pair at
  most six places apart in the displayed order drawn by what one more match of it is
  expected to settle of the pairs the fit may have the wrong way round, a bigger table
  filled with the pair's neighbours), one fresh deal per table as the ladder plays. The
  live TrueSkill update runs too (the ladder keeps it for each match's rating change) but
  ranks nothing.

For each, the number of matches after which the ranking reaches Kendall tau >= 0.9 with the
true order and stays there to the end of the budget, averaged over the seeds (a run that
never settles there counts as the whole budget). The bound is ``ranking_bound_best`` of
``ranking_bound.py`` (the fewest matches an exact estimator needs for tau 0.9 on average,
with the best design an oracle knowing the true order could choose), computed here unless
``--bound N`` gives it. Prints, for each game (Lie 21 without the suffix)::

    ranking_matches_plain_<game>: N matches
    ranking_matches_arena_<game>: N matches
    ranking_matches_ratio_<game>: R        (plain / arena)
    ranking_bound_best_<game>: N matches
    ranking_bound_ratio_<game>: R          (arena / bound; lower is better, goal at most 1.15)
    duplicate_variance_ratio_<game>: R     (variance of a fixed table's result per deal with
                                            duplicate deals over without; below 1 helps)
    seat0_first_places_<game>: R           (share of matches seat 0 wins alone)

``--refit`` prints instead how long the displayed ratings take to refit at arena scale
(1,000 versions, 100,000 matches of two and of four seats, paired as a ladder pairs; the fit
alone, as ``rating_fit.ratings_refit`` runs it)::

    ranking_refit_ms: N ms                 (four seats, after 1% more matches, started from
                                            the last fit as the service starts it)
    ranking_refit_first_ms: N ms           (four seats, the first fit, from nothing)
    ranking_refit_two_seat_ms: N ms
    ranking_refit_two_seat_first_ms: N ms

Measured on 2026-12-07 with the pairing by expected settling (seeds 1-20; default budgets;
``--no-plain`` and the bound given with ``--bound``; every run under ``nice -n 10`` on this
2-core machine shared with other work, load 2-3 for seeds 1-10 of Lie 21 and Liars and
every seed of Tieng Len and Twenty One, load 5-6 for seeds 11-20 of Lie 21 and Liars; runs
of 75 s for ten seeds of Lie 21, 4.5 min for ten of Liars, 6 min for twenty of Tieng Len
and 13 min for twenty of Twenty One)::

    game        arena  bound  arena/bound  per seed (arena)
    lie21         327    314         1.04  162 354 166 299 244 576 285 277 164 229
                                           575 240 602 321 362 256 348 165 341 573
    liars         235    253         0.93  270 261 310 94 309 175 292 478 205 94
                                           204 178 256 257 189 406 78 207 196 250
    tieng_len     139    128         1.08  139 144 145 181 77 142 113 150 102 190
                                           138 199 120 128 150 148 110 149 160 86
    twenty_one    885    818         1.08  931 1181 389 531 1478 803 1172 943 434 980
                                           808 298 713 1267 681 621 1589 1149 885 854

Seeds 1-10 and 11-20 apart: Lie 21 276 and 378, Liars 249 and 222, Tieng Len 138 and 139,
Twenty One 884 and 887. The mean's standard error is 5% of it for Tieng Len, 9% for Twenty
One and Liars and 10% for Lie 21, so Tieng Len and Twenty One are under the goal of 1.15
but not by much more than the seeds' spread. Against the pairing this one replaced (below,
on the same seeds): Twenty One 885 against 1020 (some 1.2 standard errors of the
difference), Tieng Len 139 against 153 (under one); Lie 21 327 against 321 and Liars 235
against 228, equal within the spread (0.1 and 0.2 standard errors; on seeds 1-10 alone
both fewer, 276 against 298 and 249 against 256, on seeds 11-20 both more, 378 against 344
and 222 against 201).

Before, with pairs at most two places apart drawn by the chance the fit has them the wrong
way round times the spread of their difference (the same machine; seeds 1-10 in runs of
350-830 s under ``nice -n 19``, seeds 11-20 of Lie 21 and Liars at load 5-6 beside the
runs above)::

    game        arena  bound  arena/bound  per seed (arena)
    lie21         321    314         1.02  345 342 522 275 246 172 316 186 232 343
                                           383 363 496 315 313 134 589 330 165 354
    liars         228    253         0.90  176 202 476 241 450 222 172 247 102 268
                                           245 307 153 146 92 255 246 281 102 180
    tieng_len     153    128         1.19  89 172 269 42 171 94 169 172 78 215
                                           89 44 263 110 109 260 189 77 204 243
    twenty_one   1020    818         1.25  687 950 1391 980 763 786 517 1718 970 424
                                           1617 1328 1206 869 877 1257 1145 884 938 1088

(Lie 21 with plain TrueSkill too: 706 matches, 2.37 times the arena's then.) The two
criteria differ: the bound is the matches after which the *expected* number of pairs the
wrong way round is 6 (tau 0.9 on average), the arena's figure the matches after which tau
never drops below 0.9 again, a stricter one. Duplicate deals: ``duplicate_variance_ratio``
is 1.00 for Twenty One (a match already replays each deal with the seats swapped), 0.95
for Lie 21 and 1.01 for Tieng Len in these runs (its game says 0.86 from an earlier
measure), 0.89 for Liars: sets of one table cost two or four matches for little or no cut
in variance, and the ladder measured fewer matches to a settled order with a fresh table
each time (``arena.services.ladder``). ``--compare-choix`` on Lie 21 (seeds 1-10, the
earlier pairing's matches): a Bradley-Terry fit (choix) settles after 305 matches (365 342
466 275 246 281 316 182 235 343), the whole-history fit after 298; equal on six seeds of
ten. ``--refit``: 381 ms (four seats, warm), 358 ms (four seats, first fit), 188 ms and
268 ms (two seats).

Usage: ``python benchmarks/ranking_convergence.py [--game lie21] [--seeds 10]
[--first-seed 1] [--budget N] [--bound N] [--refit]`` (every hosted game without
``--game``; seeds are first-seed, first-seed + 1, ..., N of them).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import trueskill

from arena.algorithms import pairing
from arena.algorithms import whole_history as wh
from engine import InProcessPlayer, builtin_bot, get_game, play_match
from engine.registry import GAMES as HOSTED

GAMES = tuple(HOSTED)
#: The strong built-in bot each game's population is made of (fast enough to play thousands).
STRONG = {"lie21": "greedy", "liars": "honest", "twenty_one": "basic", "tieng_len": "greedy"}
#: Matches per run: several times the bound, so that every seed settles well within it.
BUDGET = {"lie21": 1500, "liars": 1500, "twenty_one": 4000, "tieng_len": 800}
POPULATION = 16
TAU_GOAL = 0.9


def suffix(game: str) -> str:
    """How a figure's name ends for ``game`` (Lie 21 keeps the names it always had)."""
    return "" if game == "lie21" else f"_{game}"


#: Module-level memo tables of built-in bots: pure functions of the game's options, which a
#: bot fills on first use. Each match loads its bots afresh, so without sharing them every
#: match rebuilds them (Liars' ``honest`` spent a third of a match building its hand
#: tables). Sharing a memo changes no move: only when it is computed.
MEMOS = ("_TABLES", "_ORDERS", "_PLACES")
_shared: dict[tuple[str, str], object] = {}


def share_memos(player: InProcessPlayer) -> None:
    """Point ``player``'s freshly loaded bot at this process's copy of its memo tables."""
    namespace = vars(player._module) if player._module is not None else {}
    for name in MEMOS:
        if isinstance(namespace.get(name), dict):
            namespace[name] = _shared.setdefault((player._path, name), namespace[name])


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
        share_memos(self.strong)
        share_memos(self.weak)

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


@dataclass
class Entry:
    """A bot of the field: its live TrueSkill rating and its displayed (fitted) rating."""

    bot: int  # the true strength order: 0 is strongest
    mu: float
    sigma: float
    rating: float = wh.MU
    rating_sigma: float = wh.SIGMA

    @property
    def score(self) -> float:
        return self.mu - 3 * self.sigma


class Run:
    def __init__(self, game: str, seed: int, budget: int) -> None:
        self.game = game
        self.seed = seed
        self.budget = budget
        self.seats = seats_for(game)
        self.rng = random.Random(seed)
        draw = getattr(get_game(game), "draw_probability", 0.10)
        self.env = trueskill.TrueSkill(draw_probability=draw)
        self.entries = [Entry(bot, self.env.mu, self.env.sigma) for bot in range(POPULATION)]
        # Equal ratings must not list the bots in their true order: shuffle them once.
        self.rng.shuffle(self.entries)
        self.matches = 0
        self.taus: list[tuple[int, float]] = []  # (matches played, tau) after each match
        self.next_seed = seed * 1_000_003

    def play(self, table: Sequence[Entry]) -> list[int]:
        self.next_seed += 1
        placings = play(self.game, [e.bot for e in table], self.seed, self.next_seed % (1 << 53))
        self.matches += 1
        groups = [(self.env.create_rating(e.mu, e.sigma),) for e in table]
        for entry, (rating,) in zip(table, self.env.rate(groups, ranks=placings), strict=True):
            entry.mu, entry.sigma = rating.mu, rating.sigma
        return placings

    def note(self, ranked: Sequence[Entry]) -> None:
        self.taus.append((self.matches, kendall_tau([e.bot for e in ranked])))

    def converged_at(self) -> int:
        """Matches after which tau stayed at or above the goal to the end of the budget
        (the budget if it never did): a lucky moment above the goal does not count."""
        settled = self.budget
        for matches, tau in reversed(self.taus):
            if tau < TAU_GOAL:
                break
            settled = matches
        return settled


def run_plain(game: str, seed: int, budget: int) -> int:
    run = Run(game, seed, budget)
    while run.matches < budget:
        run.play(run.rng.sample(run.entries, run.seats))
        run.note(sorted(run.entries, key=lambda e: -e.score))
    return run.converged_at()


class Displayed:
    """The displayed ranking as the arena computes it: the whole-history fit of every match
    so far, each version from prior N(25, (25/3)²), the tie margin from the matches' own
    share of ties (``arena.services.rating_fit``), refitted warm after each match."""

    def __init__(self, entries: Sequence[Entry]) -> None:
        self.entries = entries
        self.index = {e.bot: k for k, e in enumerate(entries)}
        self.history = wh.History(
            len(entries), prior_mu=[wh.MU] * len(entries), prior_sigma=[wh.SIGMA] * len(entries)
        )
        self.seen = wh.Results.from_tables([], [])

    def add(self, table: Sequence[Entry], placings: Sequence[int]) -> None:
        match = wh.Results.from_tables([[self.index[e.bot] for e in table]], [placings])
        self.history.add(match)
        self.seen = wh.Results(
            np.r_[self.seen.match, match.match + self.history.matches - 1],
            np.r_[self.seen.player, match.player],
            np.r_[self.seen.placing, match.placing],
        )
        self.history.set_draw_probability(wh.tie_rate(self.seen))
        fit = self.history.fit()
        for entry, mu, sigma in zip(self.entries, fit.mu, fit.sigma, strict=True):
            entry.rating, entry.rating_sigma = float(mu), float(sigma)

    def ranked(self) -> list[Entry]:
        """Best first, as the ladder lists them (rating, then a fixed tie-break)."""
        return sorted(self.entries, key=lambda e: -e.rating)


class PlackettLuce:
    """For comparison only (``--compare-choix``): the same matches ranked by a Plackett-Luce
    fit (``choix.opt_rankings``, Bradley-Terry at two seats; ties broken at random), with an
    L2 penalty matching the whole-history fit's prior (sd 25/3 on TrueSkill's scale is about
    2.6 on the logit scale)."""

    ALPHA = 0.15

    def __init__(self, entries: Sequence[Entry], rng: random.Random) -> None:
        self.entries = entries
        self.index = {e.bot: k for k, e in enumerate(entries)}
        self.rng = rng
        self.data: list[tuple[int, ...]] = []
        self.params = np.zeros(len(entries))

    def add(self, table: Sequence[Entry], placings: Sequence[int]) -> None:
        import choix

        keyed = sorted(
            (
                (place, self.rng.random(), self.index[e.bot])
                for e, place in zip(table, placings, strict=True)
            )
        )
        self.data.append(tuple(k for *_, k in keyed))
        # Rankings of two are Bradley-Terry's comparisons, and choix fits those (the same
        # objective and penalty) some ten times faster than as rankings.
        fit = choix.opt_pairwise if len(table) == 2 else choix.opt_rankings
        self.params = fit(
            len(self.entries), self.data, alpha=self.ALPHA, initial_params=self.params
        )

    def ranked(self) -> list[Entry]:
        return sorted(self.entries, key=lambda e: -self.params[self.index[e.bot]])


def run_arena(game: str, seed: int, budget: int, compare: bool = False) -> tuple[int, int | None]:
    """Matches to a settled order for the arena's displayed ranking (and, with ``compare``,
    for a Plackett-Luce fit of the very same matches)."""
    run = Run(game, seed, budget)
    displayed = Displayed(run.entries)
    other = PlackettLuce(run.entries, random.Random(seed)) if compare else None
    other_taus: list[tuple[int, float]] = []
    while run.matches < budget:
        order = displayed.ranked()
        (table,) = pairing.pick_tables(order, run.seats, 1, run.rng)
        run.rng.shuffle(table)  # seats in random order, as the ladder deals them
        placings = run.play(table)
        displayed.add(table, placings)
        run.note(displayed.ranked())
        if other is not None:
            other.add(table, placings)
            other_taus.append((run.matches, kendall_tau([e.bot for e in other.ranked()])))
    if other is None:
        return run.converged_at(), None
    shown = run.taus
    run.taus = other_taus
    compared = run.converged_at()
    run.taus = shown
    return run.converged_at(), compared


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


def refit_ms(seats: int, versions: int = 1000, matches: int = 100_000) -> tuple[float, float]:
    """Milliseconds to fit ``matches`` matches of ``seats`` among ``versions`` versions of
    spread skills, each table a version and others a few places from it in the ranking (as
    the ladder pairs): (the refit after 1% more matches, started from the last fit as the
    service starts it; the first fit, from nothing). Best of three each."""
    rng = np.random.default_rng(1)
    skill = np.sort(rng.normal(wh.MU, 5, versions))[::-1]
    first = rng.integers(0, versions, matches)
    offsets = np.stack(
        [np.zeros(matches, dtype=np.int64)]
        + [rng.integers(-6, 7, matches) for _ in range(seats - 1)],
        axis=1,
    )
    tables = np.clip(first[:, None] + offsets, 0, versions - 1)
    tables = tables[np.array([len(set(row)) == seats for row in tables.tolist()])]
    performance = skill[tables] + rng.normal(0, wh.BETA, tables.shape)
    placings = np.argsort(np.argsort(-performance, axis=1), axis=1)

    def results(count: int) -> wh.Results:
        return wh.Results(
            np.repeat(np.arange(count), seats), tables[:count].ravel(), placings[:count].ravel()
        )

    prior = {"prior_mu": [wh.MU] * versions, "prior_sigma": [wh.SIGMA] * versions}
    earlier = results(len(tables) - len(tables) // 100)
    last = wh.fit_results(versions, earlier, draw_probability=wh.tie_rate(earlier), **prior)
    every = results(len(tables))
    starts = {"warm": {"start_mu": last.mu, "start_sigma": last.sigma}, "cold": {}}
    timings = dict.fromkeys(starts, float("inf"))
    for _ in range(3):
        for kind, start in starts.items():
            began = time.perf_counter()
            wh.fit_results(versions, every, draw_probability=wh.tie_rate(every), **prior, **start)
            timings[kind] = min(timings[kind], (time.perf_counter() - began) * 1000)
    return timings["warm"], timings["cold"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=GAMES, help="one game (default: every hosted game)")
    parser.add_argument("--seeds", type=int, default=10)
    parser.add_argument("--first-seed", type=int, default=1, help="seeds from this one (1)")
    parser.add_argument("--budget", type=int, help="matches per run (default: per game)")
    parser.add_argument("--bound", type=float, help="ranking_bound_best (default: computed)")
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--no-plain", action="store_true", help="skip plain TrueSkill")
    parser.add_argument("--refit", action="store_true", help="time the refit at arena scale")
    parser.add_argument(
        "--compare-choix", action="store_true", help="also rank the same matches by choix"
    )
    args = parser.parse_args()
    if args.refit:
        warm, cold = refit_ms(4)
        print(f"ranking_refit_ms: {warm:.0f} ms", flush=True)
        print(f"ranking_refit_first_ms: {cold:.0f} ms", flush=True)
        warm, cold = refit_ms(2)
        print(f"ranking_refit_two_seat_ms: {warm:.0f} ms", flush=True)
        print(f"ranking_refit_two_seat_first_ms: {cold:.0f} ms", flush=True)
        return
    seeds = range(args.first_seed, args.first_seed + args.seeds)
    for game in [args.game] if args.game else GAMES:
        end = suffix(game)
        budget = args.budget or BUDGET[game]
        print(f"# {game}: seeds {seeds.start}-{seeds.stop - 1}, budget {budget}", flush=True)
        runs = []
        for seed in seeds:  # each seed as it ends: a run cut short still says what it had
            runs.append(run_arena(game, seed, budget, args.compare_choix))
            print(f"# {game} arena seed {seed}: {runs[-1]}", flush=True)
        arena = [settled for settled, _ in runs]
        print(f"# {game} arena per seed: {arena}", flush=True)
        mean_arena = statistics.fmean(arena)
        if args.compare_choix:
            compared = [other for _, other in runs]
            print(f"# {game} Plackett-Luce on the same matches per seed: {compared}", flush=True)
            mean = statistics.fmean(compared)
            print(f"ranking_matches_arena_choix{end}: {mean:.0f} matches", flush=True)
        if not args.no_plain:
            plain = [run_plain(game, seed, budget) for seed in seeds]
            print(f"# {game} plain per seed: {plain}", flush=True)
            mean_plain = statistics.fmean(plain)
            print(f"ranking_matches_plain{end}: {mean_plain:.0f} matches", flush=True)
        print(f"ranking_matches_arena{end}: {mean_arena:.0f} matches", flush=True)
        if not args.no_plain:
            print(f"ranking_matches_ratio{end}: {mean_plain / mean_arena:.2f}", flush=True)
        if args.bound is not None and args.game:
            best = args.bound
        else:
            from ranking_bound import bound

            best = bound(game).best
        print(f"ranking_bound_best{end}: {best:.0f} matches", flush=True)
        print(f"ranking_bound_ratio{end}: {mean_arena / best:.2f}", flush=True)
        ratio, first = duplicate_variance(game, args.deals)
        print(f"duplicate_variance_ratio{end}: {ratio:.2f}", flush=True)
        print(f"seat0_first_places{end}: {first:.3f}", flush=True)


if __name__ == "__main__":
    main()
