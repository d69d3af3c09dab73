"""Staff made the documented way (``arena_setup --staff``) can look into things in the admin."""

from __future__ import annotations

from io import StringIO

import pytest
from django.contrib.auth.models import Group
from django.core.management import call_command

from arena.services.accounts import STAFF_GROUP
from tests.arena.factories import MatchLogFactory


@pytest.fixture
def setup_staff(settings, tmp_path, staff):
    settings.DATA_DIR = tmp_path
    out = StringIO()
    call_command("arena_setup", "--no-demo", "--staff", staff.username, stdout=out)
    return out.getvalue()


def test_arena_setup_creates_the_group_and_puts_staff_in_it(setup_staff, staff):
    group = Group.objects.get(name=STAFF_GROUP)
    codenames = set(group.permissions.values_list("codename", flat=True))

    assert {"view_botversion", "view_matchlog", "view_match", "view_bot"} <= codenames
    assert "delete_bot" not in codenames
    assert staff.groups.filter(name=STAFF_GROUP).exists()
    assert f"{staff.username} is staff" in setup_staff


@pytest.mark.parametrize("model", ["botversion", "matchlog", "match", "bot", "tournament"])
def test_staff_in_the_group_see_the_admin_changelists(setup_staff, staff, client, model):
    MatchLogFactory()
    client.force_login(staff)

    response = client.get(f"/admin/arena/{model}/")

    assert response.status_code == 200


def test_staff_in_the_group_see_a_match_s_seats(setup_staff, staff, client):
    match = MatchLogFactory().match
    client.force_login(staff)

    assert client.get("/admin/arena/matchseat/").status_code == 200
    page = client.get(f"/admin/arena/match/{match.pk}/change/").content.decode()
    assert all(seat.bot.name in page for seat in match.seats.all())


def test_a_plain_staff_user_is_refused_without_the_group(staff, client):
    client.force_login(staff)

    assert client.get("/admin/arena/botversion/").status_code == 403
