"""The rows of a match table (``arena/includes/match_table.html``), written in Python.

Every list of matches on the site (the match list, a bot's and a version's recent matches,
the home page, a challenge) shows the same row: the match, its game, the subject bot's
result, every seat with its place, bot, score, fault and rating change, the result, the
kind and when. Through the template engine a row cost about 0.3 ms of CPU (some thirty
variables, tags and filters, and three URL lookups): 16 ms for a page of fifty, more than
everything else the page does, and ``format_html`` per cell still cost half of that
(Django's escaping checks every argument for lazy text). Here a row is plain string
formatting with every value escaped by :func:`_e` (the standard library's ``html.escape``,
as Django's ``escape`` is), the URLs are formatted from one lookup per table, and the whole
is marked safe once: the markup is the template's.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.urls import reverse
from django.utils.safestring import SafeData, SafeString, mark_safe

from arena.models import Match
from arena.selectors.matches import match_table_rows
from arena.selectors.pagination import IdsFirstPaginator
from arena.web.display import when
from arena.web.seats import SeatView, game_title, result_line, seat_views, seat_views_of_rows

__all__ = [
    "TableRow",
    "TableRowsPaginator",
    "head_to_head_rows_html",
    "match_rows_html",
    "table_rows",
]

_DELTA_TITLE = (
    "what this match did to the live TrueSkill μ (the displayed rating is refitted over "
    "all matches)"
)
#: An id no row has, standing in for each row's own when a URL is made once per table.
_PLACEHOLDER = 9_876_543_210_123


def _url_maker(name: str) -> Any:
    """``reverse(name, args=[id])`` for any id, from one lookup (ids are plain integers)."""
    pattern = reverse(name, args=[_PLACEHOLDER]).replace(str(_PLACEHOLDER), "{}")
    return pattern.format


def _signed(value: float) -> str:
    """As the ``signed`` filter writes a rating change: "+1.50", "\u22120.25", "±0.00"."""
    text = f"{abs(value):.2f}"
    if float(text) == 0:
        return f"±{text}"
    return f"+{text}" if value > 0 else f"\u2212{text}"


def _e(value: Any) -> str:
    """``value`` escaped for HTML as Django's ``escape`` does it (markup already safe stays
    as it is), without its per-call check for lazy text."""
    if isinstance(value, SafeData):
        return str(value)
    return html.escape(str(value))


def _seat(seat: SeatView, done: bool, bot_url: Any) -> str:
    first = ' class="first"' if seat.first else ""
    place = (
        f'<span class="place{" first" if seat.first else ""}" data-placing="{seat.placing}">'
        f"{_e(seat.place)}</span>"
        if seat.place
        else ""
    )
    score = f' <span class="score" title="score">{seat.score}</span>' if done else ""
    fault = (
        f' <span class="badge error" title="{_e(seat.fault_detail)}">{_e(seat.fault_text)}</span>'
        if seat.fault
        else ""
    )
    delta = (
        f' <span class="delta" title="{_DELTA_TITLE}">live μ {_signed(seat.mu_delta)}</span>'
        if seat.mu_delta is not None
        else ""
    )
    return (
        f'<li data-seat="{seat.seat}"{first}>{place} <a href="{_e(bot_url(seat.bot_id))}">'
        f'{_e(seat.name)}</a> <span class="muted">v{seat.version} · {_e(seat.owner)}</span>'
        f"{score}{fault}{delta}</li>"
    )


def _mine(match: TableRow, seats: Sequence[SeatView], subject_id: int) -> str:
    """The subject bot's place (each of its seats), and who else faulted."""
    if match.status != Match.Status.DONE:
        return f'<span class="status status-{_e(match.status)}">{_e(_STATUS[match.status])}</span>'
    places = "<br>".join(
        f'<span class="place{" first" if seat.first else ""}" data-mine="{seat.placing}">'
        f"{_e(seat.place)}</span> of {len(seats)}"
        + (f' <span class="badge error">it {_e(seat.fault_text)}</span>' if seat.fault else "")
        for seat in seats
        if seat.bot_id == subject_id
    )
    others = "".join(
        f'<br><span class="muted">{_e(seat.label)} {_e(seat.fault_text)}</span>'
        for seat in seats
        if seat.fault and seat.bot_id != subject_id
    )
    return places + others


@dataclass(frozen=True, slots=True)
class TableRow:
    """A match as its table row shows it, from a model or from plain values."""

    pk: int
    game: str
    kind: str
    status: str
    reason: str
    tournament_id: int | None
    tournament_name: str
    created: datetime
    seats: list[SeatView]

    @classmethod
    def of_match(cls, match: Match) -> TableRow:
        """From a match with its seats prefetched (``match_list``)."""
        return cls(
            pk=match.pk,
            game=match.game,
            kind=match.kind,
            status=match.status,
            reason=match.reason,
            tournament_id=match.tournament_id,
            # No query for a match outside a tournament: a null key reads as None.
            tournament_name=match.tournament.name if match.tournament is not None else "",
            created=match.created,
            seats=seat_views(match),
        )

    @classmethod
    def of_values(cls, row: dict[str, Any]) -> TableRow:
        """From ``match_table_rows``' plain values."""
        return cls(
            pk=row["id"],
            game=row["game"],
            kind=row["kind"],
            status=row["status"],
            reason=row["reason"],
            tournament_id=row["tournament_id"],
            tournament_name=row["tournament__name"] or "",
            created=row["created"],
            seats=seat_views_of_rows(row["status"], row["seats"]),
        )


def table_rows(match_ids: Sequence[int]) -> list[TableRow]:
    """The rows of these matches, in this order (two queries, no model instances)."""
    return [TableRow.of_values(row) for row in match_table_rows(match_ids=match_ids)]


class TableRowsPaginator(IdsFirstPaginator):
    """A page of a match list (``match_ids_list``, filtered) as :class:`TableRow` s: its ids by
    an index-only slice, then two queries for those rows, whatever the page's depth."""

    def rows_of(self, ids: list[int]) -> list[Any]:
        return table_rows(ids)


_STATUS = dict(Match.Status.choices)
_KIND = dict(Match.Kind.choices)


def _row(
    match: TableRow, subject_id: int | None, urls: dict[str, Any], when: Callable[[Any], str]
) -> str:
    seats = match.seats
    if match.status == Match.Status.DONE:
        result = f'<span class="result">{_e(result_line(seats))}</span>'
        if match.reason == "fault":
            result += ' <span class="badge error">fault</span>'
    else:
        result = (
            f'<span class="status status-{_e(match.status)}">{_e(_STATUS[match.status])}</span>'
        )
    if match.tournament_id:
        url = urls["tournament"](match.tournament_id)
        kind = f'<a href="{_e(url)}">{_e(match.tournament_name)}</a>'
    else:
        kind = _e(_KIND.get(match.kind, match.kind))
    mine = (
        f'<td class="mine">{_mine(match, seats, subject_id)}</td>' if subject_id is not None else ""
    )
    done = match.status == Match.Status.DONE
    seat_items = "".join(_seat(seat, done, urls["bot"]) for seat in seats)
    return (
        f'<tr data-match="{match.pk}"><td><a href="{_e(urls["match"](match.pk))}">#{match.pk}'
        f"</a></td><td>{_e(game_title(match.game))}</td>{mine}"
        f'<td><ol class="seats">{seat_items}</ol></td><td>{result}</td><td>{kind}</td>'
        f"<td>{_e(when(match.created))}</td></tr>"
    )


def match_rows_html(matches: Iterable[Match | TableRow], subject: Any = None) -> SafeString:
    """The ``<tr>`` of each match (a :class:`TableRow`, or a match with its seats
    prefetched, as ``match_list`` gives them), with the subject bot's own result column
    when ``subject`` (a bot) is given."""

    urls = {name: _url_maker(name) for name in ("match", "bot", "tournament")}
    subject_id = getattr(subject, "pk", None) if subject else None
    rows = (match if isinstance(match, TableRow) else TableRow.of_match(match) for match in matches)
    # Every value in the rows went through _e: the whole is markup.
    return mark_safe("\n".join(_row(row, subject_id, urls, when) for row in rows))  # noqa: S308


def head_to_head_rows_html(rows: Iterable[Any]) -> SafeString:
    """The ``<tr>`` of each opponent of a bot's head-to-head table (``HeadToHead`` rows of
    ``arena.selectors.head_to_head``), as the bot page's template wrote them."""
    bot_url = _url_maker("bot")
    html_rows = (
        f'<tr data-opponent="{row.opponent.pk}"><td><a href="{_e(bot_url(row.opponent.pk))}">'
        f'{_e(row.opponent.name)}</a> <span class="muted">{_e(row.opponent.owner_name)}'
        f'</span></td><td class="num">{row.played}</td><td class="num">{row.wins}</td>'
        f'<td class="num">{row.draws}</td><td class="num">{row.losses}</td>'
        f'<td class="num">{row.match_points_for}\u2013{row.match_points_against}</td></tr>'
        for row in rows
    )
    # Every value went through _e (the rest are integers): the whole is markup.
    return mark_safe("\n".join(html_rows))  # noqa: S308
