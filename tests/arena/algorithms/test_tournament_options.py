"""The one check of a tournament's options (``arena.algorithms.tournament_options``), pure."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from arena.algorithms.tournament_options import (
    OPTIONS,
    SCHEDULE_OPTIONS,
    OptionError,
    Seats,
    options_check,
    table_size_default,
)

NOW = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)
TWO = Seats(2, 2)  # Lie 21, Twenty One
MANY = Seats(2, 6)  # Liars
THREE_UP = Seats(3, 4)  # a game never played heads-up


@pytest.mark.parametrize(
    ("seats", "options", "field", "code"),
    [
        (TWO, {"format": "knockout"}, "format", "bad_format"),
        (TWO, {"table_size": 3}, "table_size", "bad_table_size"),
        (MANY, {"table_size": 7}, "table_size", "bad_table_size"),
        (MANY, {"table_size": 1}, "table_size", "bad_table_size"),
        (MANY, {"table_size": True}, "table_size", "bad_table_size"),
        (MANY, {"format": "double_elimination", "table_size": 4}, "table_size", "bad_table_size"),
        (THREE_UP, {"format": "double_elimination"}, "format", "bad_format"),
        (TWO, {"rounds": 3}, "rounds", "bad_rounds"),
        (TWO, {"format": "swiss", "rounds": 0}, "rounds", "bad_rounds"),
        (TWO, {"format": "swiss", "rounds": 101}, "rounds", "bad_rounds"),
        (TWO, {"matches_per_pairing": 0}, "matches_per_pairing", "bad_matches_per_pairing"),
        (TWO, {"matches_per_pairing": 21}, "matches_per_pairing", "bad_matches_per_pairing"),
        (TWO, {"matches_per_pairing": 1.5}, "matches_per_pairing", "bad_matches_per_pairing"),
        (TWO, {"duplicate": "yes"}, "duplicate", "bad_duplicate"),
        (TWO, {"rated": 1}, "rated", "bad_rated"),
        (TWO, {"entry": "friends"}, "entry", "bad_entry"),
        (TWO, {"entry": "top"}, "entry_limit", "bad_entry_limit"),
        (TWO, {"entry": "top", "entry_limit": 1}, "entry_limit", "bad_entry_limit"),
        (TWO, {"entry_limit": 8}, "entry_limit", "bad_entry_limit"),
        (TWO, {"entry": "signup"}, "signup_deadline", "bad_signup_deadline"),
        (
            TWO,
            {"entry": "signup", "signup_deadline": NOW - timedelta(minutes=1)},
            "signup_deadline",
            "bad_signup_deadline",
        ),
        (
            TWO,
            {"signup_deadline": NOW + timedelta(days=1)},
            "signup_deadline",
            "bad_signup_deadline",
        ),
        (TWO, {"move_timeout_s": 0.01}, "move_timeout_s", "bad_move_timeout"),
        (TWO, {"move_timeout_s": float("nan")}, "move_timeout_s", "bad_move_timeout"),
        (TWO, {"time_bank_s": 121}, "time_bank_s", "bad_time_bank"),
        (TWO, {"time_bank_s": -1}, "time_bank_s", "bad_time_bank"),
    ],
)
def test_a_bad_option_names_its_field_and_says_why(seats, options, field, code):
    with pytest.raises(OptionError) as refused:
        options_check(seats=seats, now=NOW, **options)
    assert (refused.value.field, refused.value.code) == (field, code)
    assert refused.value.message


@pytest.mark.parametrize(
    ("seats", "options"),
    [
        (TWO, {}),
        (TWO, {"format": "double_elimination"}),
        (MANY, {"format": "double_elimination", "table_size": 2}),
        (MANY, {"format": "swiss", "table_size": 4, "rounds": 5}),
        (MANY, {"format": "promotion", "table_size": 6, "duplicate": True}),
        (TWO, {"entry": "top", "entry_limit": 10_000, "matches_per_pairing": 20}),
        (TWO, {"entry": "signup", "signup_deadline": NOW + timedelta(seconds=1)}),
        (TWO, {"move_timeout_s": 0.05, "time_bank_s": 0}),
    ],
)
def test_good_options_pass(seats, options):
    options_check(seats=seats, now=NOW, **options)


def test_without_a_clock_a_past_deadline_is_not_refused():
    """The admin's change form checks a started tournament's options without ``now``."""
    options_check(seats=TWO, entry="signup", signup_deadline=NOW - timedelta(days=9))


def test_the_default_table_is_the_games_smallest():
    assert [table_size_default(s) for s in (TWO, MANY, THREE_UP)] == [2, 2, 3]


def test_a_schedule_passes_on_every_option_but_the_deadline():
    assert set(OPTIONS) - set(SCHEDULE_OPTIONS) == {"signup_deadline"}


def test_every_bad_option_is_named_at_once_in_the_forms_order():
    with pytest.raises(OptionError) as refused:
        options_check(
            seats=MANY,
            table_size=9,
            rounds=3,
            matches_per_pairing=0,
            entry="top",
            time_bank_s=500,
            now=NOW,
        )
    fields = [error.field for error in refused.value.errors]
    assert fields == ["table_size", "rounds", "matches_per_pairing", "entry_limit", "time_bank_s"]
    assert (refused.value.field, refused.value.code) == ("table_size", "bad_table_size")
    assert set(refused.value.by_field()) == set(fields)


def test_an_option_read_against_an_unknown_format_or_entry_is_not_judged():
    """Rounds are not "for Swiss only" when the format is unknown; a limit is not "for top
    only" when the entry is unknown: the one real error is named."""
    with pytest.raises(OptionError) as refused:
        options_check(seats=TWO, format="knockout", rounds=3, entry="friends", entry_limit=5)
    assert [error.field for error in refused.value.errors] == ["format", "entry"]
