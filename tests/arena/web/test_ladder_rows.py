"""The ladder table's rows, written in Python (arena/web/ladder_rows.py): the markup the
template wrote, value for value, escaped as it escaped them."""

from __future__ import annotations

import re

import pytest
from django.template import Context, Template
from django.template.defaultfilters import floatformat
from hypothesis import given
from hypothesis import strategies as st

from arena.freshness import ladder_changed
from arena.selectors.bots import rating_sparklines
from arena.selectors.ladder import ladder_page
from arena.web.ladder_rows import ladder_rows_html, one_decimal
from tests.arena.factories import RatingFactory
from tests.arena.web.data import bot_make

pytestmark = pytest.mark.django_db

#: The rows as arena/games/detail.html wrote them through the template engine.
TEMPLATE_ROWS = Template(
    """{% load arena_tags %}{% for rating, spark in rows %}
    <tr data-bot="{{ rating.bot_id }}">
      <td class="num">{{ rating.rank }}</td>
      <td><a href="{% url 'bot' rating.bot_id %}">{{ rating.bot.name }}</a> <span class="muted">v{{ rating.version.number }}</span>{% if rating.bot.is_builtin %} <span class="badge">built-in</span>{% endif %}</td>
      <td>{{ rating.bot.owner.username }}</td>
      <td class="num" data-col="rating"><strong>{{ rating.rating|floatformat:1 }}</strong></td>
      <td class="num" data-col="interval">{{ rating.rating_low|floatformat:1 }}\u2013{{ rating.rating_high|floatformat:1 }}{% if rating.provisional %} <span class="provisional" title="its interval is still wide: its place is not firm yet">provisional</span>{% endif %}</td>
      <td class="num" data-col="matches">{{ rating.matches }}</td>
      <td class="num" data-col="win_rate">{{ rating.win_ratio|percent }}</td>
      <td class="num" data-col="placing">{{ rating.mean_place|mean_place }}</td>
      <td>{% sparkline spark %}</td>
    </tr>{% endfor %}"""  # noqa: E501
)


def _tight(html: str) -> str:
    return re.sub(r">\s+<", "><", html).strip()


def test_the_rows_are_the_templates_value_for_value():
    ratings = []
    for n, (rating, sigma, matches, wins) in enumerate(
        [(31.25, 0.45, 10, 9), (-0.04, 2.6, 0, 0), (25.05, 2.5, 3, 1), (1e3 / 3, 8.33, 400, 7)]
    ):
        bot = bot_make(name=f"<b>bot{n}</b>", is_builtin=n == 2)
        ratings.append(
            RatingFactory(
                version=bot.active_version,
                rating=rating,
                rating_sigma=sigma,
                matches=matches,
                wins=wins,
                placing_sum=matches - wins,
            )
        )
    ladder_changed("lie21")
    page, _ = ladder_page(game="lie21", sort="-matches", number=1)
    sparks = rating_sparklines(version_ids=[rating.version_id for rating in page])
    rows = [(rating, sparks.get(rating.version_id, [20.0, 21.5, 19.0])) for rating in page]
    expected = TEMPLATE_ROWS.render(Context({"rows": rows}))
    written = ladder_rows_html(rows)
    assert _tight(written) == _tight(expected)
    assert "&lt;b&gt;bot0&lt;/b&gt;" in written and "<b>bot0" not in written
    assert written.count("built-in") == 1 and written.count('class="provisional"') == 2


#: Ratings and their interval ends; Django writes numbers under about 1e-100 back unrounded
#: (its Decimal context overflows), and no rating is one.
_numbers = st.one_of(
    st.just(0.0),
    st.floats(min_value=1e-9, max_value=1e6),
    st.floats(min_value=-1e6, max_value=-1e-9),
)


@given(_numbers)
def test_one_decimal_is_floatformat_1(value):
    assert one_decimal(value) == floatformat(value, 1)


@pytest.mark.parametrize("value", [0.25, 0.35, -0.05, -0.04, 2.675, 1e-9, 99.95])
def test_one_decimal_rounds_halves_as_floatformat_does(value):
    assert one_decimal(value) == floatformat(value, 1)
