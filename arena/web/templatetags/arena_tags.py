"""Template helpers for the pages: inline SVG charts, and seats, placings and rating changes.

The charts are drawn on the server as inline SVG (no chart library, no extra request) from
numbers only, so nothing a user typed ever reaches the markup unescaped.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from django import template
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

from arena.models import Match
from arena.models.ratings import Z95
from arena.selectors.accounts import is_organiser
from arena.services.rating_fit import ESTIMATOR
from arena.web.display import sparkline, when
from arena.web.ladder_rows import ladder_rows_html
from arena.web.match_rows import head_to_head_rows_html, match_rows_html
from arena.web.seats import SeatView, game_title, ordinal, result_line, seat_views
from engine.registry import GAMES

register = template.Library()
register.simple_tag(sparkline)
register.filter("when", when)

__all__ = ["register"]


@register.simple_tag
def estimator_note() -> SafeString:
    """The one sentence every rating on the site is read by, with where to read more."""
    return format_html(
        '<p class="estimator muted">{} <a href="{}">How to read a rating</a>.</p>',
        ESTIMATOR,
        reverse("doc", args=["ratings"]),
    )


@register.simple_tag
def rating_chart(history: Sequence[Any], width: int = 640, height: int = 220) -> SafeString:
    """The displayed rating after each rated match with its 95% interval as a band, a
    min/max axis and a marker where a new version took over (ratings are per version).

    ``history`` holds objects with ``rating``, ``rating_sigma`` and ``version``
    (``arena.selectors.bots``'s RatingPoint), oldest first.
    """
    if len(history) < 2:
        return format_html('<p class="muted">{}</p>', "Not enough rated matches for a chart yet.")
    left, pad = 44, 10
    ratings = [point.rating for point in history]
    lows = [point.rating - Z95 * point.rating_sigma for point in history]
    highs = [point.rating + Z95 * point.rating_sigma for point in history]
    # One scale for the line and its band, so the band's width reads true.
    low, high = min(lows), max(highs)
    span = (high - low) or 1.0
    step = (width - left - pad) / (len(history) - 1)

    xs = [f"{left + i * step:.1f}" for i in range(len(history))]  # the same for each line

    def xy(values: Sequence[float]) -> list[str]:
        return [
            f"{x},{height - pad - (v - low) / span * (height - 2 * pad):.1f}"
            for x, v in zip(xs, values, strict=True)
        ]

    versions = _version_marks(history, xs=xs, step=step, left=left, pad=pad, height=height)
    label = (
        f"Rating after each of {len(history)} rated matches: from {ratings[0]:.1f} "
        f"(95% interval {lows[0]:.1f} to {highs[0]:.1f}) to {ratings[-1]:.1f} "
        f"({lows[-1]:.1f} to {highs[-1]:.1f})"
    )
    axis = format_html_join(
        "",
        '<text x="{}" y="{}" class="axis">{}</text>',
        [(2, pad + 4, f"{high:.1f}"), (2, height - pad, f"{low:.1f}")],
    )
    return format_html(
        '<svg class="rating-chart" viewBox="0 0 {w} {h}" role="img" aria-label="{label}">'
        "<title>{label}</title>"
        '<line x1="{left}" y1="{pad}" x2="{left}" y2="{bottom}" class="frame"/>'
        '<line x1="{left}" y1="{bottom}" x2="{right}" y2="{bottom}" class="frame"/>{axis}'
        '<polygon class="band" points="{band}"/>{versions}'
        '<polyline class="rating" fill="none" points="{rating}"/></svg>',
        w=width,
        h=height,
        label=label,
        left=left,
        pad=pad,
        bottom=height - pad,
        right=width - pad,
        axis=axis,
        versions=versions,
        band=" ".join(xy(highs) + xy(lows)[::-1]),
        rating=" ".join(xy(ratings)),
    )


def _version_marks(
    history: Sequence[Any], *, xs: list[str], step: float, left: int, pad: int, height: int
) -> SafeString:
    """A labelled vertical line where a new version took over: ratings are per version, so
    the reader sees where one estimate ends and the next begins."""
    return format_html_join(
        "",
        '<line x1="{x}" y1="{top}" x2="{x}" y2="{bottom}" class="version-mark"/>'
        '<text x="{tx}" y="{ty}" class="axis">v{number}</text>',
        [
            {
                "x": xs[i],
                "tx": f"{left + i * step + 3:.1f}",
                "top": pad,
                "ty": pad + 10,
                "bottom": height - pad,
                "number": point.version,
            }
            for i, point in enumerate(history)
            if i and getattr(point, "version", None) != getattr(history[i - 1], "version", None)
        ],
    )


@register.simple_tag
def match_rows(matches: Iterable[Match], subject: Any = None) -> SafeString:
    """``{% match_rows matches subject %}``: the rows of a match table (arena.web.match_rows)."""
    return match_rows_html(matches, subject)


@register.simple_tag
def ladder_rows(rows: Iterable[Any]) -> SafeString:
    """``{% ladder_rows rows %}``: the rows of a game's ladder table (arena.web.ladder_rows)."""
    return ladder_rows_html(rows)


class PagedTableNode(template.Node):
    """``{% paged_table %}<table>...</table>{% endpaged_table %}``: a page's table in its
    scrolling wrapper, then the links to the other pages of ``page``
    (``arena/includes/pagination.html``)."""

    def __init__(self, nodelist: template.NodeList) -> None:
        self.nodelist = nodelist

    def render(self, context: template.Context) -> SafeString:
        table = self.nodelist.render(context)
        assert context.template is not None  # set while a template renders
        links = context.template.engine.get_template("arena/includes/pagination.html")
        return format_html('<div class="table-wrap">{}</div>\n{}', table, links.render(context))


@register.tag
def paged_table(parser: template.base.Parser, token: template.base.Token) -> PagedTableNode:
    nodelist = parser.parse(("endpaged_table",))
    parser.delete_first_token()
    return PagedTableNode(nodelist)


@register.simple_tag
def head_to_head_rows(rows: Iterable[Any]) -> SafeString:
    """``{% head_to_head_rows head_to_head %}``: the rows of a bot's head-to-head table."""
    return head_to_head_rows_html(rows)


@register.filter
def seats(match: Match) -> list[SeatView]:
    """``{% for seat in match|seats %}``: the seats in seat order, with their placings."""
    return seat_views(match)


@register.filter
def seats_of(match: Match, bot_id: int) -> list[SeatView]:
    """The seats ``bot_id`` held in the match (two in a comparison of its versions)."""
    return [seat for seat in seat_views(match) if seat.bot_id == bot_id]


@register.filter(name="result_line")
def result_line_filter(match: Match) -> str:
    """ "alpha wins", "alpha and beta share first place" (finished matches), else ""."""
    if match.status != Match.Status.DONE:
        return ""
    return result_line(seat_views(match))


@register.filter(name="game_title")
def game_title_filter(name: str) -> str:
    return game_title(name)


@register.filter
def place(placing: int | None) -> str:
    """A placing (0 = first) as "1st"; None as "—"."""
    return "—" if placing is None else ordinal(int(placing) + 1)


@register.filter
def signed(value: float | None, digits: int = 2) -> str:
    """1.5 -> "+1.50", -0.25 -> "\u22120.25" (a minus sign), None -> "" (a rating change)."""
    if value is None:
        return ""
    text = f"{abs(value):.{digits}f}"
    if float(text) == 0:
        return f"±{text}"
    return f"+{text}" if value > 0 else f"\u2212{text}"


@register.filter
def times(value: float | None, factor: float) -> float | None:
    """``sigma|times:3``."""
    return None if value is None else value * factor


@register.filter
def mean_place(value: float | None) -> str:
    """A mean place (1 = first, as docs/api.md counts places everywhere): 1.5 -> "1.50";
    None -> "—"."""
    return "—" if value is None else f"{value:.2f}"


@register.filter
def humanize_key(key: str) -> str:
    """A game's total key as a column label: "game_wins" -> "Game wins"."""
    return str(key).replace("_", " ").capitalize()


@register.filter
def index(values: Sequence[Any] | None, position: int) -> Any:
    """``values|index:seat`` (a per-seat list), "" when out of range."""
    if values is None:
        return ""
    try:
        return values[position]
    except (IndexError, KeyError, TypeError):
        return ""


@register.filter
def percent(value: float | None, digits: int = 0) -> str:
    """0.625 -> "62%"; None -> "—"."""
    if value is None:
        return "—"
    return f"{value * 100:.{digits}f}%"


@register.simple_tag
def hosted_games() -> list[tuple[str, str]]:
    """``{% hosted_games as games %}``: (name, title) of every hosted game, in display order."""
    return [(name, game.title) for name, game in GAMES.items()]


@register.filter
def organiser(user: Any) -> bool:
    """Whether ``user`` may organise tournaments (staff, or the organisers' group)."""
    return is_organiser(user)


@register.filter
def duration(seconds: float | None) -> str:
    """A span of time in words, rounded as an estimate is: "under a minute", "about 4
    minutes", "about 2 hours 10 minutes", "about 3 days"."""
    if seconds is None:
        return "\u2014"
    if seconds < 60:
        return "under a minute"
    minutes = round(seconds / 60)
    if minutes < 90:
        return f"about {minutes} minute{'s' if minutes != 1 else ''}"
    hours, rest = divmod(minutes, 60)
    if hours < 48:
        tens = round(rest / 10) * 10
        if tens == 60:
            hours, tens = hours + 1, 0
        tail = f" {tens} minutes" if tens else ""
        return f"about {hours} hour{'s' if hours != 1 else ''}{tail}"
    return f"about {round(hours / 24)} days"
