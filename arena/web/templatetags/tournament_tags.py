"""The tournament page's big tables, written in Python rather than template loops.

A 32-bot crosstable is 1,024 cells and a 64-bot Swiss 4,096 (plus 224 round tables): the
template language spends about a tenth of a millisecond a node, which made the page take
hundreds of milliseconds. The same markup built here, with every value escaped
(``html.escape``, Django's own escaping without its lazy-string wrapper), takes a few.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape as _escape
from typing import Any

from django import template
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe

register = template.Library()


def _cell(cell: Mapping[str, Any] | None, row_bot: int, matches_url: str) -> str:
    """One cell. Every value is escaped with ``html.escape`` (what Django's ``escape`` does,
    without its lazy-string wrapper, which cost most of a big crosstable's time); the full
    sentence is the link's title (its tooltip and accessible description), once."""
    if cell is None:
        return '<td class="none">\u2014</td>'
    if cell.get("self"):
        return '<td class="self" aria-label="same bot"></td>'
    state = _escape(cell["state"])
    opponent = int(cell["opponent"])
    parts = [f'<span class="cell-main">{_escape(cell["label"])}</span>']
    if cell.get("games"):
        parts.append(f'<span class="cell-games">{_escape(cell["games"])} match pts</span>')
    if cell.get("share"):
        parts.append(
            f'<span class="cell-share">{_escape(cell["share"])} '
            f"<small>({_escape(cell['interval'])})</small></span>"
        )
    href = f"{matches_url}&amp;bot={row_bot}&amp;opponent={opponent}"
    data = "".join(
        f' data-{name}="{value if isinstance(value, int | float) else _escape(str(value))}"'
        for name, value in cell.get("data", {}).items()
    )
    return (
        f'<td class="{state}" data-result="{state}" data-opponent="{opponent}"'
        f' data-matches="{int(cell["matches"])}"{data}>'
        f'<a href="{href}" title="{_escape(cell["title"])}">{"".join(parts)}</a></td>'
    )


@register.simple_tag
def crosstable_table(rows: Sequence[Mapping[str, Any]], tournament_id: int) -> SafeString:
    """The crosstable (``arena.selectors.standings.crosstable_rows``) as a table; each cell
    links to the pair's matches in this tournament."""
    matches_url = f"{reverse('matches')}?tournament={int(tournament_id)}"
    head = "".join(
        f'<th scope="col" title="{_escape(row["bot"]["name"])}"><span class="col-name">'
        f"{number}. {_escape(row['bot']['name'])}</span></th>"
        for number, row in enumerate(rows, start=1)
    )
    body = []
    for number, row in enumerate(rows, start=1):
        bot = int(row["bot"]["id"])
        cells = "".join(_cell(cell, bot, matches_url) for cell in row["cells"])
        body.append(
            f'<tr data-row-bot="{bot}"><th scope="row">{number}. '
            f"{_escape(row['bot']['name'])}</th>{cells}</tr>"
        )
    return mark_safe(  # noqa: S308 - every value above is escaped or an int
        '<table class="crosstable" id="crosstable"><thead><tr><th scope="col">'
        '<span class="visually-hidden">Bot</span></th>'
        f"{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"
    )


def _points(value: float) -> str:
    """A table's points with their unit: "1 pt", "0 pts", "1.5 pts"."""
    return f"{value:g}\u00a0pt{'' if value == 1 else 's'}"


#: What a table still being played shows instead of its points.
OPEN = "\u00b7"
_MARK = 987654321


def _url(name: str, pk: int) -> str:
    """``reverse(name, args=[pk])`` for a page keyed by one id, without resolving the
    pattern again for every link (hundreds on a big bracket)."""
    found = _URLS.get(name)
    if found is None:
        before, _, after = reverse(name, args=[_MARK]).partition(str(_MARK))
        found = _URLS.setdefault(name, (before, after))
    prefix, suffix = found
    return f"{prefix}{int(pk)}{suffix}"


_URLS: dict[str, tuple[str, str]] = {}


@register.simple_tag
def round_table(table: Mapping[str, Any]) -> SafeString:
    """One table of a round or bracket: its bots in seat order with their points (the
    winners marked) and links to its matches (every value escaped, as in ``_cell``)."""
    seats = "".join(
        f'<li class="{"winner" if seat["won"] else ""}">'
        f'<a href="{_url("bot", seat["bot"]["id"])}">{_escape(str(seat["bot"]["name"]))}</a> '
        f'<span class="num">{OPEN if table["open"] else _points(seat["points"])}</span></li>'
        for seat in table["seats"]
    )
    links = ", ".join(
        f'<a href="{_url("match", match)}">match {int(match)}</a>' for match in table["matches"]
    )
    number = int(table["table"])
    return mark_safe(  # noqa: S308 - every value above is escaped or an int
        f'<ol class="bracket-table{" open" if table["open"] else ""}" data-table="{number}" '
        f'aria-label="Table {number + 1}">{seats}<li class="matches">{links}</li></ol>'
    )
