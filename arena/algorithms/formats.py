"""Who plays whom in the next round of a Swiss or a double elimination (pure functions).

The services keep the history (rounds, results, byes) in the database and ask these
functions for the next round; nothing here reads the database, a clock or global random
state, so every rule is tested on its own (``tests/arena/algorithms/test_formats.py``).

**Swiss** (any table size). Bots are listed best first (score, then the tie-breaks, then
seed). Two seats: the top unpaired bot meets the nearest bot below it it has not met yet;
a search backs up when that leaves the rest unpairable without a rematch, and only when no
rematch-free pairing exists (or the search runs out of steps) the pairs are taken greedily
with the fewest rematches. An odd field gives one bye, to the lowest-ranked bot among those
with the fewest byes. More seats: tables of ``seats`` filled top down by score, each next bot
the highest-ranked one sharing the fewest earlier tables with the bots already seated, and no
table seating exactly the bots of an earlier table while another grouping of the round can
avoid it (a search backs up, as for pairs); a remainder of at least ``min_seats`` bots makes
a smaller last table, a smaller one gets byes. Eight bots at tables of four, say: round 1
seats 1-4 and 5-8; if 1, 2, 5 and 6 then lead, round 2 seats 1, 2, 5, 6 (none has sat with all
three others) and 3, 4, 7, 8. Seats: the rotation whose bots have sat least in their positions
so far, so each bot alternates first seat where it can.

**Double elimination** (two seats), played in rounds: every round the unbeaten bots (the
winners' bracket) meet each other, best seed against worst (a re-seeded bracket), and so do
the once-beaten bots (the losers' bracket), avoiding rematches where it can; an odd bracket
gives its best seed a bye. A bot is out after its second loss. When one unbeaten and one
once-beaten bot are left they play the grand final; if the once-beaten bot wins it, both have
lost once and they play again (the bracket reset), so the champion is the last bot with fewer
than two losses.

**Promotion by placing** (any table size; meant for games of more seats), played in rounds:
the bots still in, by seed, are dealt snake-wise onto as few tables of at most ``seats`` as
hold them (sizes differing by one at most, none below ``min_seats``; when that leaves bots
over, the best seeds go through on a bye). From a table of ``s`` bots the top ``s // 2``
(at least one) go through; should that leave fewer bots than a table needs (but more than
one), the next places go through too, best placed first. When the bots still in fit one
table, it is the final, and its placings are the final ranking.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field

__all__ = [
    "EliminationRound",
    "PromotionRound",
    "SwissRound",
    "elimination_round",
    "meetings",
    "pair_key",
    "promoted",
    "promotion_round",
    "seat_order",
    "swiss_round",
    "swiss_rounds_default",
]

#: Steps the rematch-free search may take before falling back to the greedy pairing.
SEARCH_STEPS = 20_000


def pair_key(a: int, b: int) -> tuple[int, int]:
    """The key of a pair of bots in a ``met`` counter, whatever their order."""
    return (a, b) if a < b else (b, a)


def swiss_rounds_default(bots: int) -> int:
    """ceil(log2 N) + 1 rounds: enough for one bot to stand alone on top, and one more.

    >>> [swiss_rounds_default(n) for n in (2, 3, 8, 9, 64)]
    [2, 3, 4, 5, 7]
    """
    return max(1, (bots - 1).bit_length()) + 1


@dataclass(frozen=True)
class SwissRound:
    """The tables of a round (seat orders of bot ids) and the bots given a bye."""

    tables: list[list[int]]
    byes: list[int] = field(default_factory=list)


def swiss_round(
    order: Sequence[int],
    *,
    seats: int = 2,
    min_seats: int = 2,
    met: Mapping[tuple[int, int], int] | None = None,
    positions: Mapping[tuple[int, int], int] | None = None,
    byes: Mapping[int, int] | None = None,
    tables_played: Collection[frozenset[int]] = (),
) -> SwissRound:
    """The next Swiss round for ``order`` (bot ids, best first).

    ``met`` counts the earlier meetings of each pair (``pair_key``), ``positions`` how often
    each ``(bot, seat)`` was taken, ``byes`` each bot's byes so far, ``tables_played`` the
    earlier tables of more than two seats (as sets of bots).

    >>> swiss_round([1, 2, 3, 4], met={(1, 2): 1}).tables
    [[1, 3], [2, 4]]
    >>> swiss_round([1, 2, 3]).byes
    [3]
    """
    met = met or {}
    positions = positions or {}
    byes = byes or {}
    order = list(order)
    if len(order) < 2:
        return SwissRound(tables=[], byes=order)
    if seats == 2:
        groups, byed = _swiss_pairs(order, met, byes)
    else:
        groups, byed = _swiss_tables(order, seats, min_seats, met, byes, set(tables_played))
    return SwissRound(tables=[seat_order(group, positions) for group in groups], byes=byed)


def _bye_candidates(order: list[int], count: int, byes: Mapping[int, int]) -> list[int]:
    """Bots in the order they should take a bye: fewest byes first, then lowest ranked."""
    rank = {bot: index for index, bot in enumerate(order)}
    return sorted(order, key=lambda bot: (byes.get(bot, 0), -rank[bot]))[: max(count, 0)]


def _swiss_pairs(
    order: list[int], met: Mapping[tuple[int, int], int], byes: Mapping[int, int]
) -> tuple[list[list[int]], list[int]]:
    if len(order) % 2 == 0:
        pairs = _pairs_without_rematch(order, met)
        return (pairs if pairs is not None else _pairs_greedy(order, met)), []
    candidates = _bye_candidates(order, len(order), byes)
    for bye in candidates:
        rest = [bot for bot in order if bot != bye]
        pairs = _pairs_without_rematch(rest, met)
        if pairs is not None:
            return pairs, [bye]
    bye = candidates[0]
    return _pairs_greedy([bot for bot in order if bot != bye], met), [bye]


def _pairs_without_rematch(
    order: list[int], met: Mapping[tuple[int, int], int]
) -> list[list[int]] | None:
    """Pairs in which nobody meets an earlier opponent, nearest in the order first; None
    when there is none (or the search ran out of steps)."""
    steps = [0]

    def search(rest: list[int]) -> list[list[int]] | None:
        if not rest:
            return []
        steps[0] += 1
        if steps[0] > SEARCH_STEPS:
            return None
        top, others = rest[0], rest[1:]
        for index, other in enumerate(others):
            if met.get(pair_key(top, other), 0):
                continue
            found = search(others[:index] + others[index + 1 :])
            if found is not None:
                return [[top, other], *found]
        return None

    return search(order)


def _pairs_greedy(order: list[int], met: Mapping[tuple[int, int], int]) -> list[list[int]]:
    """The top bot with the bot it met least often, nearest first: rematches, but few."""
    rest = list(order)
    pairs = []
    while len(rest) > 1:
        top = rest.pop(0)
        other = min(rest, key=lambda bot: (met.get(pair_key(top, bot), 0), rest.index(bot)))
        rest.remove(other)
        pairs.append([top, other])
    return pairs


def _swiss_tables(
    order: list[int],
    seats: int,
    min_seats: int,
    met: Mapping[tuple[int, int], int],
    byes: Mapping[int, int],
    played: set[frozenset[int]],
) -> tuple[list[list[int]], list[int]]:
    seats = max(2, min(seats, len(order)))
    remainder = len(order) % seats
    byed = (
        [] if remainder >= min_seats or remainder == 0 else _bye_candidates(order, remainder, byes)
    )
    rest = [bot for bot in order if bot not in byed]
    sizes = [seats] * (len(rest) // seats)
    if len(rest) % seats:
        sizes.append(len(rest) % seats)
    fresh = _tables_without_repeat(rest, sizes, met, played)
    return (fresh if fresh is not None else _tables_greedy(rest, sizes, met)), byed


def _by_fewest_meetings(
    candidates: Sequence[int], table: Sequence[int], met: Mapping[tuple[int, int], int]
) -> list[int]:
    """``candidates`` (best first) by the earlier tables they shared with ``table``'s bots,
    fewest first; ties keep the ranking."""
    return sorted(candidates, key=lambda bot: sum(met.get(pair_key(bot, t), 0) for t in table))


def _tables_greedy(
    rest: list[int], sizes: list[int], met: Mapping[tuple[int, int], int]
) -> list[list[int]]:
    """Tables filled top down, each next bot the best-ranked of those sharing the fewest
    earlier tables with the bots seated so far."""
    rest = list(rest)
    tables = []
    for size in sizes:
        table = [rest.pop(0)]
        while len(table) < size:
            best = _by_fewest_meetings(rest, table, met)[0]
            rest.remove(best)
            table.append(best)
        tables.append(table)
    return tables


class _OutOfSteps(Exception):
    pass


def _tables_without_repeat(
    rest: list[int],
    sizes: list[int],
    met: Mapping[tuple[int, int], int],
    played: set[frozenset[int]],
) -> list[list[int]] | None:
    """The greedy tables, backing up wherever a table would seat exactly the bots of an
    earlier one; None when no grouping avoids that (or the search runs out of steps)."""
    if not played:
        return _tables_greedy(rest, sizes, met)
    steps = 0
    failed: set[tuple[frozenset[int], frozenset[int]]] = set()

    def place(left: list[int], sizes_left: list[int]) -> list[list[int]] | None:
        if not sizes_left:
            return []
        return grow(left[1:], [left[0]], sizes_left)

    def grow(left: list[int], table: list[int], sizes_left: list[int]) -> list[list[int]] | None:
        nonlocal steps
        state = (frozenset(left), frozenset(table))
        if state in failed:
            return None
        steps += 1
        if steps > SEARCH_STEPS:
            raise _OutOfSteps
        found: list[list[int]] | None = None
        if len(table) == sizes_left[0]:
            if frozenset(table) not in played:
                later = place(left, sizes_left[1:])
                found = None if later is None else [table, *later]
        else:
            for bot in _by_fewest_meetings(left, table, met):
                found = grow([b for b in left if b != bot], [*table, bot], sizes_left)
                if found is not None:
                    break
        if found is None:
            failed.add(state)
        return found

    try:
        return place(list(rest), list(sizes))
    except _OutOfSteps:
        return None


def seat_order(table: Sequence[int], positions: Mapping[tuple[int, int], int]) -> list[int]:
    """The rotation of ``table`` whose bots have sat least in their positions so far (ties:
    the order given, so the higher-ranked bot sits first).

    >>> seat_order([1, 2], {(1, 0): 1, (2, 1): 1})
    [2, 1]
    """
    table = list(table)
    options = [table[shift:] + table[:shift] for shift in range(len(table))]
    return min(
        options,
        key=lambda seat_list: sum(positions.get((b, p), 0) for p, b in enumerate(seat_list)),
    )


# --- double elimination -----------------------------------------------------------------


@dataclass(frozen=True)
class EliminationRound:
    """A round of a double elimination: ``(bracket, [a, b])`` pairings and byes.

    ``bracket`` is ``"winners"``, ``"losers"`` or ``"final"`` (the grand final, and its
    reset). ``champion`` is set, and the rest empty, once the tournament is decided.
    """

    pairings: list[tuple[str, list[int]]]
    byes: list[int] = field(default_factory=list)
    champion: int | None = None


def elimination_round(
    seeds: Sequence[int],
    losses: Mapping[int, int],
    *,
    met: Mapping[tuple[int, int], int] | None = None,
) -> EliminationRound:
    """The next round, given the bots by seed (best first) and each bot's losses so far.

    >>> elimination_round([1, 2, 3, 4], {}).pairings
    [('winners', [1, 4]), ('winners', [2, 3])]
    >>> elimination_round([1, 2, 3, 4], {1: 0, 2: 2, 3: 1, 4: 2}).pairings
    [('final', [1, 3])]
    >>> elimination_round([1, 2, 3, 4], {1: 2, 2: 2, 3: 1, 4: 2}).champion
    3
    """
    met = met or {}
    alive = [bot for bot in seeds if losses.get(bot, 0) < 2]
    if len(alive) <= 1:
        return EliminationRound(pairings=[], champion=alive[0] if alive else None)
    winners = [bot for bot in alive if losses.get(bot, 0) == 0]
    losers = [bot for bot in alive if losses.get(bot, 0) == 1]
    if len(winners) + len(losers) == 2 and len(losers) >= 1:
        # The grand final (one unbeaten, one once beaten) or its reset (both once beaten).
        return EliminationRound(pairings=[("final", winners + losers)])
    pairings: list[tuple[str, list[int]]] = []
    byes: list[int] = []
    for bracket, bots in (("winners", winners), ("losers", losers)):
        if len(bots) < 2:
            byes.extend(bots)
            continue
        pairs, bye = _fold(bots, met)
        pairings.extend((bracket, pair) for pair in pairs)
        byes.extend(bye)
    return EliminationRound(pairings=pairings, byes=byes)


def _fold(bots: list[int], met: Mapping[tuple[int, int], int]) -> tuple[list[list[int]], list[int]]:
    """Best seed against worst, the best seed sitting out an odd bracket; a pair that met
    before swaps its lower seed with the next one down that does not make a rematch."""
    bots = list(bots)
    bye = [bots.pop(0)] if len(bots) % 2 else []
    high, low = bots[: len(bots) // 2], list(reversed(bots[len(bots) // 2 :]))
    for index, top in enumerate(high):
        if not met.get(pair_key(top, low[index]), 0):
            continue
        for later in range(index + 1, len(low)):
            if not met.get(pair_key(top, low[later]), 0) and not met.get(
                pair_key(high[later], low[index]), 0
            ):
                low[index], low[later] = low[later], low[index]
                break
    return [[top, bottom] for top, bottom in zip(high, low, strict=True)], bye


def meetings(tables: Sequence[Sequence[int]]) -> Counter[tuple[int, int]]:
    """How often each pair of bots shared a table."""
    met: Counter[tuple[int, int]] = Counter()
    for table in tables:
        for a, b in itertools.combinations(table, 2):
            met[pair_key(a, b)] += 1
    return met


# --- promotion by placing ---------------------------------------------------------------


@dataclass(frozen=True)
class PromotionRound:
    """A round of tables (bot ids, snake-seeded) and the seeds through on a bye; ``final``
    when one table holds every bot still in; ``champion`` once one bot is left."""

    tables: list[list[int]]
    byes: list[int] = field(default_factory=list)
    final: bool = False
    champion: int | None = None


def promotion_round(alive: Sequence[int], *, seats: int, min_seats: int = 2) -> PromotionRound:
    """The next round for the bots still in (``alive``, best seed first).

    >>> promotion_round(list(range(1, 9)), seats=4).tables
    [[1, 4, 5, 8], [2, 3, 6, 7]]
    >>> promotion_round([1, 2, 3], seats=4).final
    True
    """
    alive = list(alive)
    if len(alive) <= 1:
        return PromotionRound(tables=[], champion=alive[0] if alive else None)
    if len(alive) <= seats:
        return PromotionRound(tables=[alive], final=True)
    count = -(-len(alive) // seats)
    while count > 1 and len(alive) < count * min_seats:
        count -= 1
    byes = alive[: max(0, len(alive) - count * seats)]
    rest = alive[len(byes) :]
    tables: list[list[int]] = [[] for _ in range(count)]
    for index, bot in enumerate(rest):
        lap, place = divmod(index, count)
        tables[place if lap % 2 == 0 else count - 1 - place].append(bot)
    return PromotionRound(tables=tables, byes=byes)


def promoted(
    results: Sequence[Sequence[int]], byes: Sequence[int], *, min_seats: int = 2
) -> list[int]:
    """Who goes through: the byes, and from each table (its bots in finishing order) the
    top half, at least one; then, while fewer than ``min_seats`` (and more than one) would be
    left, the next best placed, table by table.

    >>> promoted([[5, 1, 8, 4], [2, 7, 3, 6]], [])
    [5, 1, 2, 7]
    >>> promoted([[3, 1, 2]], [4], min_seats=3)
    [4, 3, 1]
    """
    through = list(byes)
    through += [bot for table in results for bot in table[: max(1, len(table) // 2)]]
    extra = [
        table[place]
        for place in range(max((len(t) for t in results), default=0))
        for table in results
        if place >= max(1, len(table) // 2) and place < len(table)
    ]
    while 1 < len(through) < min_seats and extra:
        through.append(extra.pop(0))
    return through
