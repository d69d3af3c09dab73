"""arena.web.display.sparkline writes what it wrote through format_html, value for value."""

from __future__ import annotations

import pytest
from django.utils.html import format_html

from arena.web.display import chart_points, sparkline


def _through_format_html(values, width=96, height=24):
    """The sparkline as format_html wrote it (every value escaped)."""
    trend = "up" if values[-1] > values[0] else "down" if values[-1] < values[0] else "flat"
    label = f"Rating trend over {len(values)} matches: {values[0]:.1f} to {values[-1]:.1f}"
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
        chart_points(values, width, height, 2),
    )


@pytest.mark.parametrize(
    ("values", "size"),
    [
        ([20.0, 21.5, 19.0], {}),
        ([25.0, 24.0], {}),
        ([3.0, 3.0, 3.0, 3.0], {}),
        ([-1.25, 1e3 / 3, 0.05], {"width": 120, "height": 30}),
        ([1.0, 2.0], {"width": 80.5, "height": 20.0}),
    ],
)
def test_the_sparkline_is_what_format_html_wrote(values, size):
    assert sparkline(values, **size) == _through_format_html(values, **size)


def test_too_few_values_are_a_dash():
    assert sparkline([20.0]) == '<span class="muted" title="not enough rated matches">—</span>'
