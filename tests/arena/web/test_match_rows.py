"""The match table's rows, written in Python (arena/web/match_rows.py): what each row says,
escaped as the template escaped it."""

from __future__ import annotations

import zoneinfo
from datetime import UTC, datetime, timedelta

import pytest
from django.utils import timezone
from django.utils.dateformat import format as date_format
from django.utils.html import format_html
from hypothesis import assume, given
from hypothesis import strategies as st

from arena.models import Match
from arena.selectors.matches import match_list
from arena.web.display import WHEN_FORMAT, _how_far, when
from arena.web.match_rows import match_rows_html
from tests.arena.factories import BotVersionFactory, MatchFactory, TournamentFactory
from tests.arena.web.data import bot_make

pytestmark = pytest.mark.django_db


def test_a_row_says_who_sat_where_how_they_placed_and_escapes_what_users_typed():
    evil, other = (
        bot_make(name="<b>evil</b>", game="highcard"),
        bot_make(name="plain", game="highcard"),
    )
    third = bot_make(name="third", game="highcard")
    match = MatchFactory(
        versions=[evil.active_version, other.active_version, third.active_version],
        placings=(0, 0, 2),
        faults={2: "crash"},
        reason="fault",
    )
    (row,) = [match_rows_html(list(match_list()))]
    assert f'<tr data-match="{match.pk}"><td><a href="/matches/{match.pk}/">#{match.pk}</a>' in row
    assert "&lt;b&gt;evil&lt;/b&gt;" in row and "<b>evil" not in row
    assert row.count('<span class="place first" data-placing="0">=1st</span>') == 2
    assert '<span class="place" data-placing="2">3rd</span>' in row
    assert f'<a href="/bots/{third.pk}/">third</a>' in row
    assert '<span class="badge error" title="the bot failed (crash)">crashed</span>' in row
    assert '<span class="badge error">fault</span>' in row
    assert "share first place" in row
    assert 'class="mine"' not in row  # no subject: no column of its own


def test_the_subject_bots_column_gives_each_of_its_seats_and_who_else_faulted():
    me, rival = bot_make(name="me", game="highcard"), bot_make(name="rival", game="highcard")
    second = BotVersionFactory(bot=me, number=2, status="valid")
    MatchFactory(
        versions=[me.active_version, rival.active_version, second],
        placings=(2, 0, 1),
        faults={1: "timeout"},
    )
    row = match_rows_html(list(match_list()), me)
    mine = row.split('<td class="mine">', 1)[1].split("</td>", 1)[0]
    assert mine == (
        '<span class="place" data-mine="2">3rd</span> of 3<br>'
        '<span class="place" data-mine="1">2nd</span> of 3'
        '<br><span class="muted">rival timed out</span>'
    )


def test_an_open_match_shows_its_status_and_a_tournament_match_its_tournament():
    one, two = bot_make(name="one"), bot_make(name="two")
    cup = TournamentFactory(name="Cup & Saucer")
    queued = MatchFactory(
        versions=[one.active_version, two.active_version],
        placings=None,
        status=Match.Status.QUEUED,
        tournament=cup,
        kind=Match.Kind.TOURNAMENT,
    )
    row = match_rows_html(list(match_list()), one)
    assert '<td class="mine"><span class="status status-queued">Queued</span></td>' in row
    assert f'<a href="/tournaments/{cup.pk}/">Cup &amp; Saucer</a>' in row
    assert 'class="score"' not in row and "data-placing" not in row
    assert f'data-match="{queued.pk}"' in row


def test_a_head_to_head_row_gives_the_record_and_escapes_the_opponents_name():
    from arena.selectors.head_to_head import bot_head_to_head_table
    from arena.web.match_rows import head_to_head_rows_html

    me, rival = bot_make(name="me"), bot_make(name="<i>rival</i>")
    MatchFactory(versions=[me.active_version, rival.active_version], placings=(0, 1), scores=(5, 2))
    MatchFactory(versions=[rival.active_version, me.active_version], placings=(0, 0), scores=(3, 3))
    row = head_to_head_rows_html(bot_head_to_head_table(bot=me).rows)
    assert row == (
        f'<tr data-opponent="{rival.pk}"><td><a href="/bots/{rival.pk}/">&lt;i&gt;rival&lt;/i&gt;'
        f'</a> <span class="muted">{rival.owner.username}</span></td>'
        '<td class="num">2</td><td class="num">1</td><td class="num">1</td>'
        '<td class="num">0</td><td class="num">8\u20135</td></tr>'
    )


# --- when: the one way a moment is written, without Django's format parser ------------------

_moments = st.datetimes(
    min_value=datetime(1990, 1, 1), max_value=datetime(2100, 1, 1), timezones=st.just(UTC)
)


def _when_by_django(value, relative: str = "") -> str:
    """What ``when`` wrote through Django's ``date`` format and ``format_html`` (its words,
    how far off, are its own: ``_how_far``)."""
    moment = timezone.localtime(value)
    words = _how_far(value)
    text = date_format(moment, WHEN_FORMAT)
    if relative:
        return format_html(
            '<time datetime="{}" title="{}">{}</time> <span class="muted">({})</span>',
            moment.isoformat(),
            words,
            text,
            words,
        )
    return format_html('<time datetime="{}" title="{}">{}</time>', moment.isoformat(), words, text)


def _far_from_now(value: datetime) -> bool:
    """Whether "how long ago" cannot change between two calls a moment apart."""
    return abs(value - timezone.now()) > timedelta(days=2)


@given(_moments, st.sampled_from(["", "relative"]))
def test_when_writes_a_moment_as_djangos_date_format_does(value, relative):
    assume(_far_from_now(value))
    assert when(value, relative) == _when_by_django(value, relative)


@pytest.mark.parametrize("zone", ["Europe/London", "America/New_York", "Asia/Kolkata"])
@given(value=_moments)
def test_when_in_another_server_zone_is_djangos_too(zone, value):
    assume(_far_from_now(value))
    with timezone.override(zoneinfo.ZoneInfo(zone)):
        assert when(value) == _when_by_django(value)
