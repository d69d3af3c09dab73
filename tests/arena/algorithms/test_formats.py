"""Swiss pairing and double-elimination brackets (``arena.algorithms.formats``), pure."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.algorithms.formats import (
    elimination_round,
    meetings,
    pair_key,
    promoted,
    promotion_round,
    seat_order,
    swiss_round,
    swiss_rounds_default,
)


@pytest.mark.parametrize(
    ("bots", "rounds"), [(2, 2), (3, 3), (4, 3), (5, 4), (8, 4), (9, 5), (16, 5), (64, 7)]
)
def test_swiss_plays_ceil_log2_n_plus_one_rounds_by_default(bots, rounds):
    assert swiss_rounds_default(bots) == rounds


@pytest.mark.parametrize(
    ("order", "met", "tables"),
    [
        # Nearest in the standings when nobody has met.
        ([1, 2, 3, 4], {}, [[1, 2], [3, 4]]),
        # 1 met 2: 1 takes the next one down, 2 the one left.
        ([1, 2, 3, 4], {(1, 2): 1}, [[1, 3], [2, 4]]),
        # 1-3 and 1-2 met: 1 plays 4, which leaves 2-3.
        ([1, 2, 3, 4], {(1, 2): 1, (1, 3): 1}, [[1, 4], [2, 3]]),
        # Greedy would pair 1-3 then leave 2-4 (a rematch); the search backs up to 1-4.
        ([1, 2, 3, 4], {(1, 2): 1, (2, 4): 1}, [[1, 4], [2, 3]]),
        # Everyone has met everyone: the fewest rematches, nearest first.
        (
            [1, 2, 3, 4],
            {(1, 2): 2, (1, 3): 1, (1, 4): 1, (2, 3): 1, (2, 4): 1, (3, 4): 1},
            [[1, 3], [2, 4]],
        ),
    ],
)
def test_swiss_pairs_by_score_without_rematches_where_avoidable(order, met, tables):
    found = swiss_round(order, met=met).tables
    assert sorted(sorted(t) for t in found) == sorted(sorted(t) for t in tables)


@pytest.mark.parametrize(
    ("order", "byes", "expected"),
    [
        ([1, 2, 3], {}, [3]),  # the lowest ranked
        ([1, 2, 3], {3: 1}, [2]),  # ... who has not had one yet
        ([1, 2, 3], {1: 1, 2: 1, 3: 1}, [3]),  # everyone has: the lowest ranked again
    ],
)
def test_an_odd_field_gives_one_bye_to_the_lowest_ranked_without_one(order, byes, expected):
    assert swiss_round(order, byes=byes).byes == expected


def test_the_bye_moves_up_when_the_lowest_bot_can_only_be_paired_with_a_rematch_elsewhere():
    # 3 takes the bye unless that forces 1-2 again; 1-2 met, so the bye goes to 2 or 1...
    # with 3 out, the only pair is 1-2 (a rematch); with 2 out, 1-3 is fresh.
    result = swiss_round([1, 2, 3], met={(1, 2): 1})
    assert result.byes == [2] and sorted(result.tables[0]) == [1, 3]


@pytest.mark.parametrize(
    ("positions", "expected"),
    [
        ({}, [1, 2]),  # level: the higher ranked sits first
        ({(1, 0): 1, (2, 1): 1}, [2, 1]),  # 1 had the first seat: 2 takes it now
        ({(1, 1): 1, (2, 0): 1}, [1, 2]),
    ],
)
def test_seats_alternate_first_seat(positions, expected):
    assert seat_order([1, 2], positions) == expected


def test_larger_tables_are_grouped_by_score_and_avoid_old_table_mates():
    order = list(range(1, 9))
    first = swiss_round(order, seats=4, min_seats=2).tables
    assert [sorted(t) for t in first] == [[1, 2, 3, 4], [5, 6, 7, 8]]
    second = swiss_round(order, seats=4, min_seats=2, met=meetings(first)).tables
    assert all(len({b <= 4 for b in table}) == 2 for table in second), "mixed tables"


@pytest.mark.parametrize(
    ("bots", "seats", "min_seats", "sizes", "byes"),
    [(10, 4, 2, [4, 4, 2], 0), (9, 4, 2, [4, 4], 1), (7, 3, 3, [3, 3], 1), (6, 3, 2, [3, 3], 0)],
)
def test_a_remainder_makes_a_smaller_table_or_byes(bots, seats, min_seats, sizes, byes):
    result = swiss_round(list(range(bots)), seats=seats, min_seats=min_seats)
    assert [len(t) for t in result.tables] == sizes
    assert len(result.byes) == byes


# --- properties ---------------------------------------------------------------------------


def _play_swiss(n: int, rounds: int, seats: int, rng: random.Random) -> list:
    """A whole Swiss with random results; the rounds' tables and byes."""
    points = Counter()
    met: Counter = Counter()
    positions: Counter = Counter()
    byes: Counter = Counter()
    played = []
    for _ in range(rounds):
        order = sorted(range(n), key=lambda b: (-points[b], b))
        result = swiss_round(order, seats=seats, met=met, positions=positions, byes=byes)
        played.append((result, Counter(met)))
        for table in result.tables:
            met.update(meetings([table]))
            for position, bot in enumerate(table):
                positions[(bot, position)] += 1
            points[rng.choice(table)] += 1
        for bot in result.byes:
            byes[bot] += 1
            points[bot] += 1
    return played


def _can_pair_without_rematch(bots: list[int], met: Counter) -> bool:
    if not bots:
        return True
    top = bots[0]
    return any(
        not met[pair_key(top, other)]
        and _can_pair_without_rematch([b for b in bots[1:] if b != other], met)
        for other in bots[1:]
    )


@settings(max_examples=60, deadline=None)
@given(n=st.integers(2, 12), seed=st.integers(0, 10**6), extra=st.integers(0, 3))
def test_every_bot_plays_each_round_or_has_the_one_bye(n, seed, extra):
    rounds = swiss_rounds_default(n) + extra
    for result, _ in _play_swiss(n, rounds, 2, random.Random(seed)):
        seated = [bot for table in result.tables for bot in table]
        assert sorted(seated + result.byes) == list(range(n))
        assert len(result.byes) == n % 2
        assert all(len(table) == 2 for table in result.tables)


@settings(max_examples=60, deadline=None)
@given(n=st.integers(2, 10), seed=st.integers(0, 10**6))
def test_no_rematch_when_one_is_avoidable(n, seed):
    for result, met in _play_swiss(n, swiss_rounds_default(n) + 1, 2, random.Random(seed)):
        rematches = sum(met[pair_key(*table)] > 0 for table in result.tables)
        if rematches:
            # Then no pairing of the field (with any one bot out on a bye) avoids them all.
            everyone = [b for t in result.tables for b in t] + result.byes
            options = (
                [everyone]
                if n % 2 == 0
                else [[b for b in everyone if b != out] for out in everyone]
            )
            assert not any(_can_pair_without_rematch(sorted(o), met) for o in options)


@settings(max_examples=40, deadline=None)
@given(n=st.integers(3, 14), seats=st.integers(3, 5), seed=st.integers(0, 10**6))
def test_larger_tables_seat_everyone_once_a_round(n, seats, seed):
    for result, _ in _play_swiss(n, 4, seats, random.Random(seed)):
        seated = [bot for table in result.tables for bot in table]
        assert sorted(seated + result.byes) == list(range(n))
        assert all(2 <= len(table) <= seats for table in result.tables)


# --- double elimination -------------------------------------------------------------------


def _play_bracket(n: int, rng: random.Random, *, upset: float = 0.5):
    """Run a whole bracket with random winners; the rounds and the final losses."""
    seeds = list(range(1, n + 1))
    losses: Counter = Counter()
    met: Counter = Counter()
    rounds = []
    while True:
        result = elimination_round(seeds, losses, met=met)
        rounds.append(result)
        if result.champion is not None:
            return rounds, losses
        assert result.pairings, "a round with bots left always has a match"
        assert len(rounds) < 4 * n
        for _, (a, b) in result.pairings:
            met[pair_key(a, b)] += 1
            loser = b if rng.random() > upset else a
            losses[loser] += 1


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6, 7, 8, 13, 16])
def test_the_favourites_always_winning_makes_seed_one_champion_without_a_loss(n):
    rounds, losses = _play_bracket(n, random.Random(0), upset=0.0)
    assert rounds[-1].champion == 1 and losses[1] == 0


def test_a_bracket_of_four_runs_as_documented():
    seeds = [1, 2, 3, 4]
    assert elimination_round(seeds, {}).pairings == [("winners", [1, 4]), ("winners", [2, 3])]
    after_one = {4: 1, 3: 1}
    assert elimination_round(seeds, after_one).pairings == [
        ("winners", [1, 2]),
        ("losers", [3, 4]),
    ]
    after_two = {4: 2, 3: 1, 2: 1}
    assert elimination_round(seeds, after_two).pairings == [("losers", [2, 3])]
    assert elimination_round(seeds, after_two).byes == [1]
    final = {4: 2, 3: 2, 2: 1}
    assert elimination_round(seeds, final).pairings == [("final", [1, 2])]
    reset = {4: 2, 3: 2, 2: 1, 1: 1}  # 2 won the grand final: both have lost once
    assert elimination_round(seeds, reset).pairings == [("final", [1, 2])]
    assert elimination_round(seeds, {**reset, 1: 2}).champion == 2


def test_an_odd_bracket_gives_the_best_seed_the_bye():
    result = elimination_round([1, 2, 3, 4, 5], {})
    assert result.byes == [1]
    assert result.pairings == [("winners", [2, 5]), ("winners", [3, 4])]


def test_the_losers_bracket_avoids_a_rematch_when_it_can():
    # Losers 3, 4, 5, 6 by seed: 3-6 and 4-5 would be the fold; 3 and 6 met already.
    losses = {3: 1, 4: 1, 5: 1, 6: 1}
    result = elimination_round([1, 2, 3, 4, 5, 6], losses, met={(3, 6): 1})
    losers = [pair for bracket, pair in result.pairings if bracket == "losers"]
    assert losers == [[3, 5], [4, 6]]


@settings(max_examples=80, deadline=None)
@given(n=st.integers(2, 40), seed=st.integers(0, 10**6))
def test_a_bracket_eliminates_after_exactly_two_losses_and_crowns_one_champion(n, seed):
    rounds, losses = _play_bracket(n, random.Random(seed))
    champion = rounds[-1].champion
    assert champion is not None
    assert losses[champion] <= 1
    assert all(losses[bot] == 2 for bot in range(1, n + 1) if bot != champion)
    for result in rounds[:-1]:
        playing = [bot for _, pair in result.pairings for bot in pair]
        assert len(playing) == len(set(playing)), "nobody plays twice in a round"
        assert not set(playing) & set(result.byes)


@settings(max_examples=40, deadline=None)
@given(n=st.integers(2, 30), seed=st.integers(0, 10**6))
def test_nobody_with_two_losses_is_paired_again(n, seed):
    rng = random.Random(seed)
    seeds = list(range(1, n + 1))
    losses: Counter = Counter()
    while (result := elimination_round(seeds, losses)).champion is None:
        for _, pair in result.pairings:
            assert all(losses[bot] < 2 for bot in pair)
            losses[rng.choice(pair)] += 1


def test_meetings_count_every_pair_at_a_table():
    assert meetings([[1, 2, 3], [2, 1]]) == Counter({(1, 2): 2, (1, 3): 1, (2, 3): 1})
    assert all(pair_key(a, b) == pair_key(b, a) for a, b in itertools.permutations(range(4), 2))


# --- promotion by placing -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("bots", "seats", "min_seats", "sizes", "byes"),
    [
        (8, 4, 2, [4, 4], 0),
        (9, 4, 2, [3, 3, 3], 0),
        (5, 4, 2, [3, 2], 0),
        (4, 4, 2, [4], 0),  # the final
        (4, 3, 3, [3], 1),  # two tables of two would be too small: the top seed waits
        (7, 3, 3, [3, 3], 1),
    ],
)
def test_promotion_tables_are_as_few_and_even_as_the_game_allows(
    bots, seats, min_seats, sizes, byes
):
    result = promotion_round(list(range(1, bots + 1)), seats=seats, min_seats=min_seats)
    assert sorted((len(t) for t in result.tables), reverse=True) == sizes
    assert result.byes == list(range(1, byes + 1)), "the best seeds wait"


def test_promotion_tables_are_snake_seeded():
    assert promotion_round(list(range(1, 13)), seats=4).tables == [
        [1, 6, 7, 12],
        [2, 5, 8, 11],
        [3, 4, 9, 10],
    ]


@pytest.mark.parametrize(
    ("results", "byes", "min_seats", "through"),
    [
        ([[5, 1, 8, 4], [2, 7, 3, 6]], [], 2, [5, 1, 2, 7]),  # top half of each
        ([[3, 1, 2], [4, 5]], [], 2, [3, 4]),  # a table of three sends one
        ([[3, 1, 2]], [4], 3, [4, 3, 1]),  # but never fewer than a table needs
    ],
)
def test_the_top_half_of_each_table_goes_through(results, byes, min_seats, through):
    assert promoted(results, byes, min_seats=min_seats) == through


@settings(max_examples=60, deadline=None)
@given(
    n=st.integers(2, 40),
    seats=st.integers(2, 6),
    least=st.integers(2, 4),
    seed=st.integers(0, 10**6),
)
def test_promotion_seats_every_bot_still_in_and_ends_with_one_champion(n, seats, least, seed):
    least = min(least, seats, n)  # a tournament starts with at least a table's worth
    rng = random.Random(seed)
    alive = list(range(1, n + 1))
    for _ in range(4 * n):
        result = promotion_round(alive, seats=seats, min_seats=least)
        if result.champion is not None:
            break
        seated = [bot for table in result.tables for bot in table]
        assert sorted(seated + result.byes) == alive
        assert all(least <= len(t) <= seats for t in result.tables), "every table playable"
        if result.final:
            assert len(result.tables) == 1
            alive = [rng.choice(result.tables[0])]
            continue
        results = [rng.sample(table, len(table)) for table in result.tables]
        through = promoted(results, result.byes, min_seats=least)
        assert len(through) < len(alive), "every round sends someone home"
        assert len(through) >= min(least, len(alive)) or len(through) == 1
        alive = sorted(through)
    assert result.champion is not None and len(alive) == 1


# --- Swiss at larger tables: no table repeated while another grouping is possible -----------


def _groupings(bots: list[int], sizes: list[int]):
    """Every way to seat ``bots`` at tables of ``sizes`` (as sets), for small fields."""
    if not sizes:
        yield []
        return
    first, rest = bots[0], bots[1:]
    for others in itertools.combinations(rest, sizes[0] - 1):
        table = frozenset((first, *others))
        left = [b for b in rest if b not in table]
        for later in _groupings(left, sizes[1:]):
            yield [table, *later]


def test_four_bots_at_tables_of_four_can_only_meet_at_one_table():
    """The issue's Liars case: with every bot at one table, rounds are the same table."""
    played = set()
    for _ in range(3):
        result = swiss_round([1, 2, 3, 4], seats=4, tables_played=played)
        assert [sorted(t) for t in result.tables] == [[1, 2, 3, 4]]
        played |= {frozenset(t) for t in result.tables}


def test_four_bots_at_tables_of_two_meet_someone_new_each_round():
    played, met = set(), Counter()
    seen = []
    for order in ([1, 2, 3, 4], [1, 3, 2, 4], [1, 4, 2, 3]):
        result = swiss_round(order, seats=2, met=met, tables_played=played)
        seen.append(frozenset(frozenset(t) for t in result.tables))
        met.update(meetings(result.tables))
    assert len(set(seen)) == 3, "three different rounds: every pair meets once"


def test_eight_bots_at_tables_of_four_regroup_the_leaders():
    first = swiss_round(list(range(1, 9)), seats=4)
    played = {frozenset(t) for t in first.tables}
    second = swiss_round(
        [1, 2, 5, 6, 3, 4, 7, 8], seats=4, met=meetings(first.tables), tables_played=played
    )
    assert [sorted(t) for t in second.tables] == [[1, 2, 5, 6], [3, 4, 7, 8]]


@settings(max_examples=60, deadline=None)
@given(
    n=st.integers(3, 8),
    seats=st.integers(3, 4),
    seed=st.integers(0, 10**6),
    rounds=st.integers(2, 5),
)
def test_no_table_repeats_while_another_grouping_avoids_it(n, seats, seed, rounds):
    rng = random.Random(seed)
    played: set[frozenset[int]] = set()
    met: Counter = Counter()
    for _ in range(rounds):
        order = list(range(n))
        rng.shuffle(order)
        result = swiss_round(order, seats=seats, min_seats=2, met=met, tables_played=played)
        tables = [frozenset(t) for t in result.tables]
        if any(table in played for table in tables):
            seated = sorted(b for t in result.tables for b in t)
            sizes = sorted((len(t) for t in result.tables), reverse=True)
            assert all(
                any(table in played for table in grouping) for grouping in _groupings(seated, sizes)
            ), "a grouping without a repeated table existed"
        played |= {t for t in tables if len(t) > 2}
        met.update(meetings(result.tables))
