"""How a match's seats read on a page, for any number of seats.

A result is a placing per seat (0 = first, ties share a place). Pages show it as "1st",
"=2nd" (a shared place), the seat's score, its fault if it had one and, for rated
matches, how its rating moved. Everything here reads the seats the selectors prefetched
(``match.seats.all()``), so a list of matches costs no query per row.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from arena.models import Match, MatchSeat
from arena.services.matches.playing import distinct_labels
from engine.registry import GAMES
from engine.steplogs import FAULT_WORDS, where_words

__all__ = [
    "FAULT_WORDS",
    "SeatView",
    "fault_words",
    "game_title",
    "ordinal",
    "result_line",
    "seat_views",
    "seat_views_of_rows",
    "where_words",
]


def fault_words(kind: str) -> str:
    return FAULT_WORDS.get(kind, kind.replace("_", " ") or "failed")


def ordinal(number: int) -> str:
    """1 -> "1st", 2 -> "2nd", 11 -> "11th", 22 -> "22nd"."""
    if 10 <= number % 100 <= 20:
        suffix = "th"
    else:
        suffix = {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"


def game_title(name: str) -> str:
    """A game's display name from the engine's registry (its id if it is not hosted)."""
    game = GAMES.get(name)
    return game.title if game is not None else name


@dataclass(frozen=True, slots=True)
class SeatView:
    seat: int
    bot_id: int
    name: str
    label: str  # the name, with the version where two seats share a bot ("alice v3")
    owner: str
    version: int
    placing: int | None  # 0 = first; None until the match is recorded
    place: str  # "1st", "=2nd" for a shared place, "" before the result
    shared: bool
    first: bool  # placed first, alone or shared
    score: int
    fault: str  # the fault kind, "" if the seat did not fail
    fault_detail: str
    mu_delta: float | None
    score_delta: float | None  # change of the conservative score, mu - 3 sigma

    @property
    def fault_text(self) -> str:
        return fault_words(self.fault) if self.fault else ""


def seat_views(match: Match) -> list[SeatView]:
    """The match's seats in seat order, as the pages show them."""
    seats: Sequence[MatchSeat] = sorted(match.seats.all(), key=lambda row: row.seat)
    return _views(
        match.status,
        [
            _Seat(
                row.seat,
                row.bot_id,
                row.bot.name,
                row.bot.owner.username,
                row.version.number,
                row.placing,
                row.score,
                row.fault,
                row.fault_detail,
                row.mu_delta,
                row.score_delta,
            )
            for row in seats
        ],
    )


def seat_views_of_rows(status: str, seats: Iterable[Mapping[str, Any]]) -> list[SeatView]:
    """:func:`seat_views` of a match read as plain values (``arena.selectors.matches``'s
    ``SEAT_ROW_FIELDS``), without a model instance per seat, bot, owner and version."""
    rows = []
    for row in sorted(seats, key=lambda seat: seat["seat"]):
        mu_before, sigma_before = row["mu_before"], row["sigma_before"]
        mu_after, sigma_after = row["mu_after"], row["sigma_after"]
        rows.append(
            _Seat(
                row["seat"],
                row["bot_id"],
                row["bot__name"],
                row["bot__owner__username"],
                row["version__number"],
                row["placing"],
                row["score"],
                row["fault"],
                row["fault_detail"],
                None if mu_before is None or mu_after is None else mu_after - mu_before,
                None
                if None in (mu_before, sigma_before, mu_after, sigma_after)
                else (mu_after - 3 * sigma_after) - (mu_before - 3 * sigma_before),
            )
        )
    return _views(status, rows)


class _Seat(NamedTuple):
    seat: int
    bot_id: int
    name: str
    owner: str
    version: int
    placing: int | None
    score: int
    fault: str
    fault_detail: str
    mu_delta: float | None
    score_delta: float | None


def _views(status: str, seats: Sequence[_Seat]) -> list[SeatView]:
    done = status == Match.Status.DONE
    counts = Counter(row.placing for row in seats if row.placing is not None)
    labels = distinct_labels([(row.name, row.version) for row in seats])
    views = []
    for row, label in zip(seats, labels, strict=True):
        placing = row.placing if done else None
        shared = placing is not None and counts[placing] > 1
        place = "" if placing is None else ("=" if shared else "") + ordinal(placing + 1)
        views.append(
            SeatView(
                seat=row.seat,
                bot_id=row.bot_id,
                name=row.name,
                label=label,
                owner=row.owner,
                version=row.version,
                placing=placing,
                place=place,
                shared=shared,
                first=placing == 0,
                score=row.score,
                fault=row.fault,
                fault_detail=row.fault_detail,
                mu_delta=row.mu_delta,
                score_delta=row.score_delta,
            )
        )
    return views


def _names(seats: Iterable[SeatView]) -> str:
    names = [seat.label for seat in seats]
    if len(names) <= 2:
        return " and ".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def result_line(seats: Sequence[SeatView]) -> str:
    """ "alpha wins", "alpha and beta share first place", or "Drawn: every seat is first";
    a version against its own bot's other version: "alpha v3 wins"."""
    firsts = [seat for seat in seats if seat.first]
    if not firsts:
        return ""
    if len(firsts) == 1:
        return f"{firsts[0].label} wins"
    if len(firsts) == len(seats):
        return "Drawn: every seat shares first place"
    return f"{_names(firsts)} share first place"
