"""How a tournament may be played: its formats, its entries, its options and the one check
of them that the services, the API, the site's forms and the admin all make.

Pure: no Django. The models build their choices from :data:`FORMATS` and :data:`ENTRIES`, the
services turn an :class:`OptionError` into their ``InvalidInput`` and the models' ``clean``
into a ``ValidationError`` on the field it names, so every place says the same thing.

>>> options_check(seats=Seats(2, 6), format="swiss", table_size=4)
>>> try:
...     options_check(seats=Seats(2, 2), format="swiss", table_size=4)
... except OptionError as exc:
...     print(exc.field, exc.code)
table_size bad_table_size
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields
from datetime import datetime
from typing import Any

__all__ = [
    "DEFAULTS",
    "ENTRIES",
    "FORMATS",
    "MAX_ENTRY_LIMIT",
    "MAX_MATCHES_PER_PAIRING",
    "MAX_MOVE_TIMEOUT_S",
    "MAX_ROUNDS",
    "MAX_TIME_BANK_S",
    "MIN_MOVE_TIMEOUT_S",
    "OPTIONS",
    "SCHEDULE_OPTIONS",
    "OptionError",
    "Seats",
    "TournamentOptions",
    "options_check",
    "table_size_default",
]

#: Formats, by value: (label, what it is). The models' choices and the pages' help read these.
FORMATS: dict[str, tuple[str, str]] = {
    "round_robin": (
        "Round robin",
        "Two seats: every pair meets. More seats: a balanced schedule of tables in which "
        "every bot meets every other equally often and sits in every seat equally often.",
    ),
    "swiss": (
        "Swiss",
        "Rounds of tables grouped by score, no table (or pair) repeated while another "
        "grouping is possible.",
    ),
    "double_elimination": (
        "Double elimination",
        "Two seats: out after a second loss; a winners' and a losers' bracket and a grand final.",
    ),
    "promotion": (
        "Promotion by placing",
        "Rounds of tables, the top half of each table going through, until one table is left.",
    ),
}

#: Entries, by value: (label, what it is).
ENTRIES: dict[str, tuple[str, str]] = {
    "all": ("Every bot of the game", "every active bot of the game with a valid version"),
    "signup": ("Sign-up by owners", "the bots their owners sign up before the deadline"),
    "top": ("Top of the ladder", "the top N of the game's ladder when it starts"),
}


@dataclass(frozen=True, slots=True)
class TournamentOptions:
    """The options a tournament is played with, with their defaults, in the order forms show
    them: the one place the list is written (the services' ``tournament_create``, the check
    below, the API's serializers, the admin and the schedules read it through :data:`OPTIONS`
    or build this)."""

    format: str = "round_robin"
    table_size: int | None = None
    rounds: int | None = None
    matches_per_pairing: int = 1
    duplicate: bool = False
    rated: bool = True
    entry: str = "all"
    entry_limit: int | None = None
    signup_deadline: datetime | None = None
    move_timeout_s: float | None = None
    time_bank_s: float | None = None

    def as_dict(self) -> dict[str, Any]:
        """The options by name, as a model or a service takes them as keywords."""
        return {name: getattr(self, name) for name in OPTIONS}


#: The options' names, in the order forms show them.
OPTIONS = tuple(field.name for field in fields(TournamentOptions))
#: Every option's default (``DEFAULTS.rated`` ...): the models, the API's serializers and the
#: site's forms take theirs from here.
DEFAULTS = TournamentOptions()
#: What a schedule passes on to each tournament it makes: a scheduled tournament starts at
#: its due time, so it has no sign-up deadline.
SCHEDULE_OPTIONS = tuple(name for name in OPTIONS if name != "signup_deadline")

MAX_ROUNDS = 100
MAX_MATCHES_PER_PAIRING = 20
#: The most bots a ``top`` tournament may invite.
MAX_ENTRY_LIMIT = 10_000
#: Bounds of a tournament's own time limits (CPU seconds per move, CPU bank per match).
#: Whatever is chosen, a seat's wall-clock time in a match stays under the arena's
#: ``ARENA_MATCH_WALL_S``, from which the match task's time limit is derived.
MIN_MOVE_TIMEOUT_S = 0.05
MAX_MOVE_TIMEOUT_S = 10.0
MAX_TIME_BANK_S = 120.0


@dataclass(frozen=True, slots=True)
class Seats:
    """The table sizes a game is played at: ``smallest`` to ``largest`` seats."""

    smallest: int
    largest: int


class OptionError(ValueError):
    """A bad option: the ``field`` it is about, a stable ``code`` and a message for people.

    :func:`options_check` raises one for the first bad option in the order forms show them,
    with ``errors`` listing every bad option it found (that one first), so a form can show
    each message beside its field at once.
    """

    def __init__(self, field: str, code: str, message: str) -> None:
        super().__init__(message)
        self.field, self.code, self.message = field, code, message
        self.errors: tuple[OptionError, ...] = (self,)

    def by_field(self) -> dict[str, list[str]]:
        """Every bad option's messages, by field: ``{"rounds": ["..."], ...}``."""
        found: dict[str, list[str]] = {}
        for error in self.errors:
            found.setdefault(error.field, []).append(error.message)
        return found


def table_size_default(seats: Seats) -> int:
    """The table size a tournament gets when none is chosen: the game's smallest table.

    >>> table_size_default(Seats(2, 6)), table_size_default(Seats(3, 4))
    (2, 3)
    """
    return seats.smallest


def options_check(*, seats: Seats, now: datetime | None = None, **options: Any) -> None:
    """Raise :class:`OptionError` when any option is bad: the first in the order forms show
    them, with ``errors`` naming every bad one (one per field at most). ``options`` are
    :class:`TournamentOptions`' fields (any left out take its defaults; an unknown name is a
    ``TypeError``, as for any keyword).

    An unknown format; a table size outside the game's (double elimination: two seats
    only); rounds outside Swiss or outside 1-100; matches per pairing outside 1-20; an
    unknown entry, a sign-up without a deadline (given ``now``: one not after it), the top
    of the ladder without a limit of 2-10,000, a limit or a deadline the entry does not
    use; a CPU time per move outside 0.05-10 s or a CPU bank outside 0-120 s. An option
    whose meaning depends on an unknown format or entry (rounds; a limit or a deadline) is
    not judged against it.

    >>> try:
    ...     options_check(seats=Seats(2, 2), rounds=3, matches_per_pairing=0)
    ... except OptionError as exc:
    ...     print([error.field for error in exc.errors])
    ['rounds', 'matches_per_pairing']
    """
    chosen = TournamentOptions(**options)
    errors = [
        *_format_errors(seats, chosen),
        *_count_errors(chosen),
        *_entry_errors(chosen.entry, chosen.entry_limit, chosen.signup_deadline, now),
        *_limit_errors(chosen),
    ]
    if errors:
        raise _ranked(errors)


def _format_errors(seats: Seats, chosen: TournamentOptions) -> list[OptionError]:
    """The format, the table size and the rounds: rounds are judged against the format only
    when the format is known (a form shows one error per cause, not a cascade)."""
    errors: list[OptionError] = []
    known_format = chosen.format in FORMATS
    if not known_format:
        errors.append(
            OptionError(
                "format",
                "bad_format",
                f"unknown format {chosen.format!r}; one of {', '.join(FORMATS)}",
            )
        )
    try:
        _check_table_size(seats, chosen.format, chosen.table_size)
    except OptionError as exc:
        errors.append(exc)
    rounds = chosen.rounds
    if rounds is not None:
        if known_format and chosen.format != "swiss":
            errors.append(
                OptionError("rounds", "bad_rounds", "rounds are set for Swiss tournaments only")
            )
        elif not _whole(rounds) or not 1 <= rounds <= MAX_ROUNDS:
            errors.append(OptionError("rounds", "bad_rounds", f"rounds must be 1-{MAX_ROUNDS}"))
    return errors


def _count_errors(chosen: TournamentOptions) -> list[OptionError]:
    """Matches per pairing and the two switches (duplicate, rated): plain shapes, judged
    alone."""
    errors: list[OptionError] = []
    per_pairing = chosen.matches_per_pairing
    if not _whole(per_pairing) or not 1 <= per_pairing <= MAX_MATCHES_PER_PAIRING:
        errors.append(
            OptionError(
                "matches_per_pairing",
                "bad_matches_per_pairing",
                f"matches per pairing must be 1-{MAX_MATCHES_PER_PAIRING}",
            )
        )
    for name, value in (("duplicate", chosen.duplicate), ("rated", chosen.rated)):
        if not isinstance(value, bool):
            errors.append(OptionError(name, f"bad_{name}", f"{name} must be true or false"))
    return errors


def _limit_errors(chosen: TournamentOptions) -> list[OptionError]:
    """The tournament's own time limits, each within the bounds the match task's wall-clock
    limit is derived from."""
    errors: list[OptionError] = []
    checks = (
        ("move_timeout_s", chosen.move_timeout_s, MIN_MOVE_TIMEOUT_S, MAX_MOVE_TIMEOUT_S),
        ("time_bank_s", chosen.time_bank_s, 0.0, MAX_TIME_BANK_S),
    )
    whats = {"move_timeout_s": "CPU time per move", "time_bank_s": "CPU time bank"}
    for field, value, low, high in checks:
        try:
            _check_seconds(field, value, low, high, whats[field])
        except OptionError as exc:
            errors.append(exc)
    return errors


def _ranked(errors: list[OptionError]) -> OptionError:
    """The error to raise: the first bad field in the order of the form's fields, carrying
    one message per field (its first) in that order, so a form shows each beside its field."""
    order = {name: index for index, name in enumerate(OPTIONS)}
    firsts: dict[str, OptionError] = {}
    for error in errors:
        firsts.setdefault(error.field, error)
    ranked = sorted(firsts.values(), key=lambda error: order.get(error.field, len(order)))
    first = ranked[0]
    first.errors = tuple(ranked)
    return first


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_table_size(seats: Seats, format: str, table_size: int | None) -> None:
    if format == "double_elimination":
        if seats.smallest != 2:
            raise OptionError(
                "format",
                "bad_format",
                f"double elimination needs two-seat tables; this game is played at "
                f"{seats.smallest}-{seats.largest} seats (use Swiss or promotion)",
            )
        if table_size not in (None, 2):
            raise OptionError(
                "table_size", "bad_table_size", "double elimination is played at two seats"
            )
        return
    if table_size is None:
        return
    if not _whole(table_size) or not seats.smallest <= table_size <= seats.largest:
        size = (
            f"{seats.smallest}"
            if seats.smallest == seats.largest
            else f"{seats.smallest}-{seats.largest}"
        )
        raise OptionError(
            "table_size", "bad_table_size", f"this game is played at tables of {size} seats"
        )


def _entry_errors(
    entry: str, limit: int | None, deadline: datetime | None, now: datetime | None
) -> list[OptionError]:
    if entry not in ENTRIES:
        # What a limit or a deadline is for depends on the entry: not judged against this one.
        return [
            OptionError(
                "entry", "bad_entry", f"unknown entry {entry!r}; one of {', '.join(ENTRIES)}"
            )
        ]
    errors = []
    if entry == "top":
        if not _whole(limit) or not 2 <= limit <= MAX_ENTRY_LIMIT:  # type: ignore[operator]
            errors.append(
                OptionError(
                    "entry_limit",
                    "bad_entry_limit",
                    f"the top of the ladder needs an entry limit of 2-{MAX_ENTRY_LIMIT:,}",
                )
            )
    elif limit is not None:
        errors.append(
            OptionError(
                "entry_limit",
                "bad_entry_limit",
                "an entry limit is for top-of-the-ladder entry only",
            )
        )
    if entry == "signup":
        if deadline is None:
            errors.append(
                OptionError(
                    "signup_deadline",
                    "bad_signup_deadline",
                    "a sign-up tournament needs a deadline",
                )
            )
        elif now is not None and deadline <= now:
            errors.append(
                OptionError(
                    "signup_deadline",
                    "bad_signup_deadline",
                    "the sign-up deadline must be in the future",
                )
            )
    elif deadline is not None:
        errors.append(
            OptionError(
                "signup_deadline", "bad_signup_deadline", "a deadline is for sign-up entry only"
            )
        )
    return errors


def _check_seconds(field: str, value: float | None, low: float, high: float, what: str) -> None:
    """None (the arena's setting) or a finite number of seconds in [low, high]."""
    if value is None:
        return
    if (
        isinstance(value, bool)
        or not isinstance(value, int | float)
        or not math.isfinite(value)
        or not low <= value <= high
    ):
        code = f"bad_{field.removesuffix('_s')}"
        raise OptionError(field, code, f"the {what} must be {low:g}-{high:g} s")
