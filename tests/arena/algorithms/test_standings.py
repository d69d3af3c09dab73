"""Standings from plain match records (``arena.algorithms.standings``), no database.

The crosstable sums every match of a pair; intervals and resamples draw duplicate sets whole;
ranks break ties as documented.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.algorithms.intervals import score_share
from arena.algorithms.standings import (
    Entrant,
    MatchRecord,
    Row,
    SeatRecord,
    crosstable,
    points_interval,
    rank_round_robin,
    seat_points,
    superiority,
    tally,
)


def match(id: int, *placed: tuple[int, int, int], status: str = "done", unit=None):
    """A match of (bot, placing, match points) seats."""
    seats = tuple(SeatRecord(bot=b, placing=p, score=s) for b, p, s in placed)
    return MatchRecord(id=id, status=status, seats=seats, unit=unit)


def entrants(*names: str) -> list[Entrant]:
    return [Entrant(bot=i + 1, name=n, owner="o", version=1) for i, n in enumerate(names)]


# --- points ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("placing", "placings", "points"),
    [
        (0, [0, 1], 1),
        (1, [0, 1], 0),
        (0, [0, 0], 0.5),
        (1, [0, 1, 1, 3], 1.5),
        (3, [0, 1, 1, 3], 0),
    ],
)
def test_a_seat_gets_one_point_per_seat_behind_and_half_per_seat_level(placing, placings, points):
    assert seat_points(placing, placings) == points


def test_every_match_of_a_pair_counts_not_only_the_last():
    # The case: search vs greedy over seven matches stands 6-1, whatever the last
    # one's game score (5-3 to greedy).
    matches = [match(i, (1, 0, 4), (2, 1, 1)) for i in range(6)] + [match(6, (1, 1, 3), (2, 0, 5))]
    cell = crosstable([1, 2], matches)["cells"]["1-2"]
    assert (cell["ahead"], cell["level"], cell["behind"]) == (6, 0, 1)
    assert cell["score"] == 6 and cell["result"] == "win"
    assert cell["match_points"] == [6 * 4 + 3, 6 * 1 + 5]
    assert cell["matches"] == list(range(7))
    assert cell["interval"][0] < cell["share"] < cell["interval"][1]
    other = crosstable([1, 2], matches)["cells"]["2-1"]
    assert (other["ahead"], other["behind"], other["result"]) == (1, 6, "loss")


def test_open_and_failed_matches_are_counted_apart_from_the_played():
    matches = [
        match(1, (1, 0, 2), (2, 1, 0)),
        match(2, (1, None, 0), (2, None, 0), status="queued"),
        match(3, (1, None, 0), (2, None, 0), status="failed"),
    ]
    cell = crosstable([1, 2], matches)["cells"]["1-2"]
    assert (cell["open"], cell["failed"], cell["ahead"] + cell["level"] + cell["behind"]) == (
        1,
        1,
        1,
    )


def test_a_pair_that_has_not_played_has_no_interval_and_no_result():
    cell = crosstable([1, 2], [match(1, (1, None, 0), (2, None, 0), status="queued")])["cells"][
        "1-2"
    ]
    assert (cell["share"], cell["interval"], cell["result"]) == (None, None, None)


def test_larger_tables_give_a_head_to_head_from_shared_placings_without_match_points():
    matches = [match(1, (1, 0, 3), (2, 1, 2), (3, 2, 1)), match(2, (1, 2, 1), (2, 0, 3), (3, 1, 2))]
    cells = crosstable([1, 2, 3], matches)["cells"]
    assert (cells["1-2"]["ahead"], cells["1-2"]["behind"]) == (1, 1)
    assert (cells["1-3"]["ahead"], cells["1-3"]["behind"]) == (1, 1)
    assert (cells["2-3"]["ahead"], cells["2-3"]["behind"]) == (2, 0)
    assert "match_points" not in cells["1-2"]


def test_a_duplicate_set_is_one_draw_for_the_interval():
    # Six wins: as six single matches, or as three duplicate sets of two. The set's matches
    # are not independent draws, so three sets say less than six matches.
    single = [match(i, (1, 0, 1), (2, 1, 0)) for i in range(6)]
    sets = [match(i, (1, 0, 1), (2, 1, 0), unit=f"s{i // 2}") for i in range(6)]
    one = crosstable([1, 2], single)["cells"]["1-2"]
    three = crosstable([1, 2], sets)["cells"]["1-2"]
    assert one["share"] == three["share"] == 1.0
    assert three["interval"][0] < one["interval"][0]
    assert three["interval"] == [round(v, 4) for v in (score_share([(1, 2)] * 3).low, 1.0)]


def test_a_bots_points_interval_holds_its_points():
    matches = [match(i, (1, 0 if i % 3 else 1, 0), (2, 1 if i % 3 else 0, 0)) for i in range(9)]
    low, high = points_interval(1, matches)
    assert low < 6 < high <= 9
    assert points_interval(3, matches) is None


def test_bye_points_are_certain_points():
    matches = [match(1, (1, 0, 0), (2, 1, 0))]
    low, high = points_interval(1, matches)
    assert points_interval(1, matches, bye_points=2) == (low + 2, high + 2)


# --- likelihood of superiority -----------------------------------------------------------------


def test_a_bot_that_won_every_match_is_almost_surely_ahead():
    matches = [match(i, (1, 0, 0), (2, 1, 0)) for i in range(20)]
    assert superiority([1, 2], matches, seed=1) == [1.0]


@pytest.mark.parametrize(("won", "low", "high"), [(1, 0.6, 0.85), (2, 0.7, 0.92), (5, 0.85, 1.0)])
def test_a_few_wins_read_as_likely_not_certain(won, low, high):
    """Two wins of two matches are not a sure place: the comparison counts an extra unit won
    by each bot, as the intervals do (it read 100% before)."""
    matches = [match(i, (1, 0, 0), (2, 1, 0)) for i in range(won)]
    (value,) = superiority([1, 2], matches, seed=1)
    assert low < value < high, value
    more = superiority([1, 2], [match(i, (1, 0, 0), (2, 1, 0)) for i in range(won + 5)], seed=1)
    assert more[0] > value, "more wins, surer"


def test_the_extra_units_are_the_size_of_a_typical_swing():
    """At a table of four, a unit moves two bots' points apart by up to three: the extra
    units swing as far as the real ones do, so the order of the scale does not matter."""
    four = [match(i, (1, 0, 0), (2, 3, 0), (3, 1, 0), (4, 2, 0)) for i in range(3)]
    two = [match(i, (1, 0, 0), (2, 1, 0)) for i in range(3)]
    assert superiority([1, 2], four, seed=1) == superiority([1, 2], two, seed=1)


def test_two_bots_level_on_every_match_are_a_coin_toss():
    matches = [match(i, (1, 0, 0), (2, 0, 0)) for i in range(10)]
    assert superiority([1, 2], matches, seed=1) == [0.5]


def test_nothing_played_says_nothing():
    assert superiority([1, 2, 3], [], seed=1) == [None, None]


@settings(max_examples=40, deadline=None)
@given(
    results=st.lists(st.tuples(st.integers(0, 2), st.integers(0, 2)), min_size=1, max_size=30),
    seed=st.integers(0, 2**40),
)
def test_superiority_is_a_probability_and_the_same_for_the_same_seed(results, seed):
    matches = [match(i, (1, a, 0), (2, b, 0), (3, 2 - a, 0)) for i, (a, b) in enumerate(results)]
    first = superiority([1, 2, 3], matches, seed=seed)
    assert first == superiority([1, 2, 3], matches, seed=seed)
    assert all(value is None or 0 <= value <= 1 for value in first)


@settings(max_examples=40, deadline=None)
@given(
    outcomes=st.lists(st.sampled_from(["a", "b", "draw"]), min_size=1, max_size=25),
    per_set=st.sampled_from([1, 2]),
)
def test_the_crosstable_cells_of_a_pair_mirror_each_other(outcomes, per_set):
    placings = {"a": (0, 1), "b": (1, 0), "draw": (0, 0)}
    matches = [
        match(i, (1, placings[o][0], 1), (2, placings[o][1], 2), unit=f"u{i // per_set}")
        for i, o in enumerate(outcomes)
    ]
    cells = crosstable([1, 2], matches)["cells"]
    mine, theirs = cells["1-2"], cells["2-1"]
    assert mine["ahead"] == theirs["behind"] and mine["level"] == theirs["level"]
    assert mine["score"] + theirs["score"] == len(outcomes)
    assert mine["match_points"] == theirs["match_points"][::-1]
    assert mine["interval"][0] <= mine["share"] <= mine["interval"][1]
    assert abs(mine["share"] + theirs["share"] - 1) < 1e-9


# --- tally and ranks ------------------------------------------------------------------------------


def test_tally_counts_wins_draws_losses_and_first_places():
    rows = tally(
        entrants("a", "b", "c"),
        [
            match(1, (1, 0, 2), (2, 1, 0)),
            match(2, (1, 0, 1), (3, 0, 1)),
            match(3, (2, 0, 1), (3, 1, 0)),
        ],
    )
    a = rows[1]
    assert (a.played, a.points, a.wins, a.draws, a.losses, a.first_places) == (2, 1.5, 1, 1, 0, 2)
    assert a.mean_place == 1.0 and a.possible == 2


def row(name: str, points: float, firsts: int, match_points: int, result_vs: dict, pk: int) -> Row:
    return Row(
        entrant=Entrant(bot=pk, name=name, owner="o", version=1),
        played=4,
        points=points,
        first_places=firsts,
        placing_sum=4 - firsts,
        match_points=match_points,
        result_vs=result_vs,
    )


class TestRoundRobinRanks:
    """Each tie-break in isolation, on hand-made rows."""

    def rank(self, rows) -> list[tuple[str, int]]:
        return [(r.entrant.name, rank) for rank, r in rank_round_robin(rows)]

    def test_points_first(self):
        rows = [row("low", 1.5, 3, 900, {}, 1), row("high", 2.0, 0, 0, {}, 2)]
        assert self.rank(rows) == [("high", 1), ("low", 2)]

    def test_then_first_places(self):
        rows = [row("fewer", 3.0, 1, 900, {2: 1}, 1), row("more", 3.0, 2, 0, {1: 0}, 2)]
        assert self.rank(rows) == [("more", 1), ("fewer", 2)]

    def test_then_head_to_head(self):
        rows = [row("lost", 3.0, 2, 900, {2: 0}, 1), row("beat", 3.0, 2, 100, {1: 1}, 2)]
        assert self.rank(rows) == [("beat", 1), ("lost", 2)]

    def test_head_to_head_counts_only_among_the_tied(self):
        # x and y are level; x's win over z (not tied with them) must not count.
        rows = [
            row("x", 3.0, 2, 100, {2: 0.5, 3: 1}, 1),
            row("y", 3.0, 2, 200, {1: 0.5, 3: 0}, 2),
            row("z", 1.0, 0, 0, {1: 0, 2: 1}, 3),
        ]
        assert self.rank(rows) == [("y", 1), ("x", 2), ("z", 3)]

    def test_then_match_points(self):
        rows = [row("less", 3.0, 2, 100, {2: 0.5}, 1), row("more", 3.0, 2, 200, {1: 0.5}, 2)]
        assert self.rank(rows) == [("more", 1), ("less", 2)]

    def test_complete_ties_share_a_rank(self):
        rows = [
            row("b", 3.0, 2, 100, {2: 0.5}, 1),
            row("a", 3.0, 2, 100, {1: 0.5}, 2),
            row("c", 0.5, 0, 0, {}, 3),
        ]
        assert self.rank(rows) == [("a", 1), ("b", 1), ("c", 3)]
