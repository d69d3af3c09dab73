"""The rows of a game's ladder table (``arena/games/detail.html``), written in Python.

Through the template engine a ladder row cost about as much as a match row did (some twenty
variables, filters and tags, a URL lookup and the sparkline): a page of fifty rows cost more
CPU than everything else its rendering does (docs/deploy.md, "Load and scale"). Here a row is
plain string formatting with every value escaped (``arena.web.match_rows._e``), the bot URL
formatted from one lookup per table, numbers written as the template's filters write them
(``floatformat:1``, ``percent``, ``mean_place``), and the sparkline drawn by its template tag;
the markup is the template's.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from decimal import ROUND_HALF_UP, Decimal

from django.utils.safestring import SafeString, mark_safe

from arena.selectors.ladder import LadderEntry
from arena.web.display import sparkline
from arena.web.match_rows import _e, _url_maker

__all__ = ["ladder_rows_html", "one_decimal"]

_TENTH = Decimal("0.1")
_BUILT_IN = ' <span class="badge">built-in</span>'
_PROVISIONAL = (
    ' <span class="provisional" title="its interval is still wide: its place is not firm yet">'
    "provisional</span>"
)


def one_decimal(value: float) -> str:
    """``value|floatformat:1`` as Django writes it (half away from zero, of the shortest
    decimal that reads back as the float; never "-0.0"), without its per-call locale work."""
    rounded = Decimal(repr(value)).quantize(_TENTH, rounding=ROUND_HALF_UP)
    if not rounded:
        rounded = abs(rounded)
    return f"{rounded:f}"


def _percent(value: float | None) -> str:
    return "—" if value is None else f"{value * 100:.0f}%"


def _mean_place(value: float | None) -> str:
    return "—" if value is None else f"{value:.2f}"


def ladder_rows_html(rows: Iterable[tuple[LadderEntry, Sequence[float]]]) -> SafeString:
    """The ``<tr>`` of each ladder entry: a rating with its ``rank`` and ``win_ratio`` (as
    ``arena.selectors.ladder.ladder_page`` gives them) and its sparkline's values."""

    bot_url = _url_maker("bot")
    html = []
    for rating, spark in rows:
        bot = rating.bot
        html.append(
            f'<tr data-bot="{rating.bot_id}"><td class="num">{rating.rank}</td>'
            f'<td><a href="{_e(bot_url(rating.bot_id))}">{_e(bot.name)}</a> '
            f'<span class="muted">v{rating.version.number}</span>'
            f"{_BUILT_IN if bot.is_builtin else ''}</td>"
            f"<td>{_e(bot.owner.username)}</td>"
            f'<td class="num" data-col="rating"><strong>{one_decimal(rating.rating)}</strong></td>'
            f'<td class="num" data-col="interval">{one_decimal(rating.rating_low)}\u2013'
            f"{one_decimal(rating.rating_high)}{_PROVISIONAL if rating.provisional else ''}</td>"
            f'<td class="num" data-col="matches">{rating.matches}</td>'
            f'<td class="num" data-col="win_rate">{_percent(rating.win_ratio)}</td>'
            f'<td class="num" data-col="placing">{_mean_place(rating.mean_place)}</td>'
            f"<td>{sparkline(spark)}</td></tr>"
        )
    # Every value went through _e, one_decimal or a format (the sparkline is markup).
    return mark_safe("\n".join(html))  # noqa: S308
