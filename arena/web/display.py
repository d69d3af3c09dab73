"""How the pages write a moment and a rating's trend: plain functions, which the template
tags register (``{{ x|when }}``, ``{% sparkline %}``) and the rows written in Python
(``match_rows``, ``ladder_rows``) call, so both write them one way and neither imports the
other.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from html import escape
from typing import Any

from django.contrib.humanize.templatetags.humanize import naturaltime
from django.utils import timezone
from django.utils.dateformat import format as date_format
from django.utils.dates import MONTHS_3, WEEKDAYS_ABBR
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.timesince import timesince, timeuntil

__all__ = ["WHEN_FORMAT", "chart_points", "sparkline", "when"]


def _scale(values: Sequence[float], low: float, high: float) -> list[float]:
    """``values`` mapped onto [high, low] pixels (SVG's y axis points down)."""
    top, bottom = min(values), max(values)
    span = (bottom - top) or 1.0
    return [high - (value - top) / span * (high - low) for value in values]


def chart_points(values: Sequence[float], width: float, height: float, pad: float) -> str:
    """SVG polyline points of ``values`` across ``width``, ``pad`` pixels in from each edge."""
    ys = _scale(values, pad, height - pad)
    step = (width - 2 * pad) / max(len(values) - 1, 1)
    return " ".join(f"{pad + i * step:.1f},{y:.1f}" for i, y in enumerate(ys))


def sparkline(values: Sequence[float], width: int = 96, height: int = 24) -> SafeString:
    """A small trend line of a version's displayed rating after each of its last matches (an
    em dash when it has fewer than two)."""
    if len(values) < 2:
        return format_html('<span class="muted" title="{}">—</span>', "not enough rated matches")
    trend = "up" if values[-1] > values[0] else "down" if values[-1] < values[0] else "flat"
    label = escape(f"Rating trend over {len(values)} matches: {values[0]:.1f} to {values[-1]:.1f}")
    # Written directly, not by format_html (which escapes each of its eight values: a ladder
    # page draws fifty): the label is escaped above, the rest are numbers and fixed words.
    w, h = escape(str(width)), escape(str(height))
    return mark_safe(  # noqa: S308
        f'<svg class="sparkline {trend}" width="{w}" height="{h}" viewBox="0 0 {w} {h}" '
        f'role="img" aria-label="{label}"><title>{label}</title><polyline fill="none" '
        f'points="{chart_points(values, width, height, 2)}"/></svg>'
    )


#: The one way the site writes a moment: "Tue 1 Dec 2026, 14:30 UTC" (the server's zone).
WHEN_FORMAT = "D j M Y, H:i T"


def _how_far(value: Any) -> str:
    """How soon or how long ago, to two units ("in 1 hour, 59 minutes", "3 days, 2 hours
    ago"): a deadline two hours off must not read "an hour from now"; under a minute,
    Django's words ("now", "20 seconds ago")."""
    now = timezone.now()
    if abs((value - now).total_seconds()) < 60:
        return naturaltime(value)
    if value > now:
        return f"in {timeuntil(value, now, depth=2)}"
    return f"{timesince(value, now, depth=2)} ago"


def when(value: Any, relative: str = "") -> SafeString:
    """A moment as every page writes it: ``<time>`` with the date and time in the server's
    zone, and how long ago (or how soon) it is as a tooltip; ``|when:"relative"`` also
    writes that in words after it, for times people wait for (a deadline, a next run)."""
    if not value:
        return format_html('<span class="muted">{}</span>', "\u2014")
    moment = timezone.localtime(value)
    words = escape(_how_far(value))
    text = escape(_when_text(moment))
    tag = f'<time datetime="{escape(moment.isoformat())}" title="{words}">{text}</time>'
    if relative:
        tag += f' <span class="muted">({words})</span>'
    return mark_safe(tag)  # noqa: S308 - every value above is escaped


def _when_text(moment: datetime) -> str:
    """``moment`` in :data:`WHEN_FORMAT`, as Django's ``date`` filter writes it, without its
    format parser (a third of the cost of every list of matches): in UTC, the server's zone
    (``TIME_ZONE``), written directly; in any other zone (whose abbreviation Django leaves
    out at an ambiguous hour), by Django."""
    zone = moment.tzinfo
    if zone is None or (zone is not UTC and getattr(zone, "key", None) != "UTC"):
        return date_format(moment, WHEN_FORMAT)
    return (
        f"{WEEKDAYS_ABBR[moment.weekday()]} {moment.day} {MONTHS_3[moment.month].title()} "
        f"{moment.year:04d}, {moment.hour:02d}:{moment.minute:02d} {zone.tzname(moment)}"
    )
