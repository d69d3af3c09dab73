"""Template helpers for the pages: inline SVG charts and a match seen from one bot's side.

The charts are drawn on the server as inline SVG (no chart library, no extra request) from
numbers only, so nothing a user typed ever reaches the markup unescaped.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import template
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

from arena.models import Bot, Match

register = template.Library()


def _scale(values: Sequence[float], low: float, high: float) -> list[float]:
    """``values`` mapped onto [high, low] pixels (SVG's y axis points down)."""
    top, bottom = min(values), max(values)
    span = (bottom - top) or 1.0
    return [high - (value - top) / span * (high - low) for value in values]


def _points(values: Sequence[float], width: float, height: float, pad: float) -> str:
    ys = _scale(values, pad, height - pad)
    step = (width - 2 * pad) / max(len(values) - 1, 1)
    return " ".join(f"{pad + i * step:.1f},{y:.1f}" for i, y in enumerate(ys))


@register.simple_tag
def sparkline(values: Sequence[float], width: int = 96, height: int = 24) -> SafeString:
    """A small trend line of a bot's last scores (an em dash when it has fewer than two)."""
    if len(values) < 2:
        return format_html('<span class="muted" title="{}">—</span>', "not enough rated matches")
    trend = "up" if values[-1] > values[0] else "down" if values[-1] < values[0] else "flat"
    label = f"Score trend over {len(values)} matches: {values[0]:.1f} to {values[-1]:.1f}"
    return format_html(
        '<svg class="sparkline {}" width="{}" height="{}" viewBox="0 0 {} {}" role="img" '
        'aria-label="{}"><title>{}</title><polyline fill="none" points="{}"/></svg>',
        trend,
        width,
        height,
        width,
        height,
        label,
        label,
        _points(values, width, height, 2),
    )


@register.simple_tag
def rating_chart(history: Sequence[Any], width: int = 640, height: int = 220) -> SafeString:
    """The bot's conservative score and mu after each rated match, with a min/max axis.

    ``history`` holds objects with ``score`` and ``mu`` (``arena.selectors.pages``'s
    RatingPoint), oldest first.
    """
    if len(history) < 2:
        return format_html('<p class="muted">{}</p>', "Not enough rated matches for a chart yet.")
    left, pad = 44, 10
    scores = [point.score for point in history]
    mus = [point.mu for point in history]
    # One scale for both lines, so the gap between them (3 sigma) reads true.
    low, high = min(scores + mus), max(scores + mus)
    span = (high - low) or 1.0

    def line(values: Sequence[float]) -> str:
        step = (width - left - pad) / (len(values) - 1)
        return " ".join(
            f"{left + i * step:.1f},{height - pad - (v - low) / span * (height - 2 * pad):.1f}"
            for i, v in enumerate(values)
        )

    label = (
        f"Rating history over {len(history)} rated matches: conservative score from "
        f"{scores[0]:.1f} to {scores[-1]:.1f}, mu from {mus[0]:.1f} to {mus[-1]:.1f}"
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
        '<polyline class="mu" fill="none" points="{mu}"/>'
        '<polyline class="score" fill="none" points="{score}"/></svg>',
        w=width,
        h=height,
        label=label,
        left=left,
        pad=pad,
        bottom=height - pad,
        right=width - pad,
        axis=axis,
        mu=line(mus),
        score=line(scores),
    )


@register.simple_tag
def result_for(match: Match, bot: Bot) -> str:
    """``win``, ``loss`` or ``draw`` for ``bot`` in a finished match; "" otherwise."""
    if match.status != Match.Status.DONE or not match.outcome:
        return ""
    if match.outcome == Match.Outcome.DRAW:
        return "draw"
    mine = Match.Outcome.A if match.bot_a_id == bot.pk else Match.Outcome.B
    return "win" if match.outcome == mine else "loss"


@register.simple_tag
def opponent_of(match: Match, bot: Bot) -> Bot:
    return match.bot_b if match.bot_a_id == bot.pk else match.bot_a


@register.simple_tag
def points_for(match: Match, bot: Bot) -> str:
    """Match points as "mine-theirs" from ``bot``'s side."""
    if match.bot_a_id == bot.pk:
        return f"{match.match_points_a}-{match.match_points_b}"
    return f"{match.match_points_b}-{match.match_points_a}"


@register.filter
def percent(value: float | None, digits: int = 0) -> str:
    """0.625 -> "62%"; None -> "—"."""
    if value is None:
        return "—"
    return f"{value * 100:.{digits}f}%"
