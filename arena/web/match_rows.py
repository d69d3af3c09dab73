"""The rows of a match table (``arena/includes/match_table.html``), written in Python.

Every list of matches on the site (the match list, a bot's and a version's recent matches,
the home page, a challenge) shows the same row: the match, its game, the subject bot's
result, every seat with its place, bot, score, fault and rating change, the result, the
kind and when. Through the template engine a row cost about 0.3 ms of CPU (some thirty
variables, tags and filters, and three URL lookups): 16 ms for a page of fifty, more than
everything else the page does. Here a row is one ``format_html`` per seat and per cell,
the URLs are formatted from one lookup per table, and the values are escaped as the
template escaped them, so the markup is the template's.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.humanize.templatetags.humanize import naturaltime
from django.core.paginator import Page
from django.template.defaultfilters import date as date_filter
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

from arena.models import Match
from arena.selectors.matches import match_table_rows
from arena.selectors.pagination import IdsFirstPaginator
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
#: Literal markup (no value in it).
_BREAK = mark_safe("<br>")
_FIRST = mark_safe(' class="first"')
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


def _joined(parts: Iterable[Any], between: str = "") -> SafeString:
    """Parts joined, each escaped unless it is already safe markup."""
    return format_html_join(between, "{}", ((part,) for part in parts))


def _seat(seat: SeatView, done: bool, bot_url: Any) -> SafeString:
    place = (
        format_html(
            '<span class="place{}" data-placing="{}">{}</span>',
            " first" if seat.first else "",
            seat.placing,
            seat.place,
        )
        if seat.place
        else ""
    )
    score = format_html(' <span class="score" title="score">{}</span>', seat.score) if done else ""
    fault = (
        format_html(
            ' <span class="badge error" title="{}">{}</span>', seat.fault_detail, seat.fault_text
        )
        if seat.fault
        else ""
    )
    delta = (
        format_html(
            ' <span class="delta" title="{}">live μ {}</span>', _DELTA_TITLE, _signed(seat.mu_delta)
        )
        if seat.mu_delta is not None
        else ""
    )
    return format_html(
        '<li data-seat="{}"{}>{} <a href="{}">{}</a> <span class="muted">v{} · {}</span>'
        "{}{}{}</li>",
        seat.seat,
        _FIRST if seat.first else "",
        place,
        bot_url(seat.bot_id),
        seat.name,
        seat.version,
        seat.owner,
        score,
        fault,
        delta,
    )


def _mine(match: TableRow, seats: Sequence[SeatView], subject_id: int) -> SafeString:
    """The subject bot's place (each of its seats), and who else faulted."""
    if match.status != Match.Status.DONE:
        return format_html(
            '<span class="status status-{}">{}</span>', match.status, _STATUS[match.status]
        )
    places = _joined(
        (
            format_html(
                '<span class="place{}" data-mine="{}">{}</span> of {}{}',
                " first" if seat.first else "",
                seat.placing,
                seat.place,
                len(seats),
                format_html(' <span class="badge error">it {}</span>', seat.fault_text)
                if seat.fault
                else "",
            )
            for seat in seats
            if seat.bot_id == subject_id
        ),
        _BREAK,
    )
    others = format_html_join(
        "",
        '<br><span class="muted">{} {}</span>',
        (
            (seat.label, seat.fault_text)
            for seat in seats
            if seat.fault and seat.bot_id != subject_id
        ),
    )
    return format_html("{}{}", places, others)


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
            tournament_name=match.tournament.name if match.tournament_id else "",
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
    """A page of a match list (``match_list``, filtered) as :class:`TableRow` s: its ids by
    an index-only slice, then two queries for those rows, whatever the page's depth."""

    def page(self, number: int | str) -> Page:
        number = self.validate_number(number)
        bottom = (number - 1) * self.per_page
        top = bottom + self.per_page
        if top + self.orphans >= self.count:
            top = self.count
        ids = list(self.object_list.values_list("pk", flat=True)[bottom:top])
        return self._get_page(table_rows(ids), number, self)


_STATUS = dict(Match.Status.choices)
_KIND = dict(Match.Kind.choices)


def _row(match: TableRow, subject_id: int | None, urls: dict[str, Any]) -> SafeString:
    seats = match.seats
    done = match.status == Match.Status.DONE
    if done:
        result = format_html('<span class="result">{}</span>', result_line(seats))
        if match.reason == "fault":
            result = format_html('{} <span class="badge error">fault</span>', result)
    else:
        result = format_html(
            '<span class="status status-{}">{}</span>', match.status, _STATUS[match.status]
        )
    if match.tournament_id:
        kind = format_html(
            '<a href="{}">{}</a>', urls["tournament"](match.tournament_id), match.tournament_name
        )
    else:
        kind = format_html("{}", _KIND.get(match.kind, match.kind))
    mine = (
        format_html('<td class="mine">{}</td>', _mine(match, seats, subject_id))
        if subject_id is not None
        else ""
    )
    return format_html(
        '<tr data-match="{id}"><td><a href="{url}">#{id}</a></td><td>{game}</td>{mine}'
        '<td><ol class="seats">{seats}</ol></td><td>{result}</td><td>{kind}</td>'
        '<td><time datetime="{iso}">{when}</time></td></tr>',
        id=match.pk,
        url=urls["match"](match.pk),
        game=game_title(match.game),
        mine=mine,
        seats=_joined(_seat(seat, done, urls["bot"]) for seat in seats),
        result=result,
        kind=kind,
        iso=date_filter(match.created, "c"),
        when=naturaltime(match.created),
    )


def match_rows_html(matches: Iterable[Match | TableRow], subject: Any = None) -> SafeString:
    """The ``<tr>`` of each match (a :class:`TableRow`, or a match with its seats
    prefetched, as ``match_list`` gives them), with the subject bot's own result column
    when ``subject`` (a bot) is given."""
    urls = {name: _url_maker(name) for name in ("match", "bot", "tournament")}
    subject_id = getattr(subject, "pk", None) if subject else None
    rows = (match if isinstance(match, TableRow) else TableRow.of_match(match) for match in matches)
    return _joined((_row(row, subject_id, urls) for row in rows), "\n")


def head_to_head_rows_html(rows: Iterable[Any]) -> SafeString:
    """The ``<tr>`` of each opponent of a bot's head-to-head table (``HeadToHead`` rows of
    ``arena.selectors.pages``), as the bot page's template wrote them."""
    bot_url = _url_maker("bot")
    return format_html_join(
        "\n",
        '<tr data-opponent="{}"><td><a href="{}">{}</a> <span class="muted">{}</span></td>'
        '<td class="num">{}</td><td class="num">{}</td><td class="num">{}</td>'
        '<td class="num">{}</td><td class="num">{}\u2013{}</td></tr>',
        (
            (
                row.opponent.pk,
                bot_url(row.opponent.pk),
                row.opponent.name,
                row.opponent.owner.username,
                row.played,
                row.wins,
                row.draws,
                row.losses,
                row.match_points_for,
                row.match_points_against,
            )
            for row in rows
        ),
    )
