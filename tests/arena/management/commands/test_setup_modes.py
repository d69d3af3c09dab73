"""``arena_setup`` in production creates no default account and no demo content (issue 20)."""

from __future__ import annotations

from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError

from arena.models import Tournament


def run_setup(monkeypatch, settings, tmp_path, *, demo: bool, env: dict[str, str] | None = None):
    settings.DATA_DIR = tmp_path
    settings.ARENA_DEMO_ADMIN = demo
    settings.ARENA_DEMO_TOURNAMENT = demo
    for name in (
        "DJANGO_SUPERUSER_USERNAME",
        "DJANGO_SUPERUSER_PASSWORD",
        "DJANGO_SUPERUSER_EMAIL",
    ):
        monkeypatch.delenv(name, raising=False)
    for name, value in (env or {}).items():
        monkeypatch.setenv(name, value)
    out = StringIO()
    call_command("arena_setup", stdout=out)
    return out.getvalue()


@pytest.mark.django_db
def test_production_creates_no_admin_no_password_file_and_no_demo_tournament(
    monkeypatch, settings, tmp_path
):
    out = run_setup(monkeypatch, settings, tmp_path, demo=False)

    assert not get_user_model().objects.filter(is_superuser=True).exists()
    assert not (tmp_path / "demo-admin-password.txt").exists()
    assert not Tournament.objects.exists()
    assert "No admin account created" in out
    assert "Demo admin" not in out


@pytest.mark.django_db
def test_production_creates_the_admin_asked_for_once_and_never_prints_its_password(
    monkeypatch, settings, tmp_path
):
    env = {
        "DJANGO_SUPERUSER_USERNAME": "olga",
        "DJANGO_SUPERUSER_PASSWORD": "a-long-secret-passphrase",
        "DJANGO_SUPERUSER_EMAIL": "olga@example.org",
    }
    out = run_setup(monkeypatch, settings, tmp_path, demo=False, env=env)

    olga = get_user_model().objects.get(username="olga")
    assert olga.is_superuser and olga.check_password("a-long-secret-passphrase")
    assert "a-long-secret-passphrase" not in out
    assert not (tmp_path / "demo-admin-password.txt").exists()
    for path in tmp_path.rglob("*"):  # the password is written nowhere under /data
        assert not path.is_file() or b"a-long-secret-passphrase" not in path.read_bytes()
    assert get_user_model().objects.filter(is_superuser=True).count() == 1

    # A later run (every `up`) leaves a password changed in the admin alone.
    olga.set_password("changed-in-the-admin")
    olga.save()
    again = run_setup(monkeypatch, settings, tmp_path, demo=False, env=env)
    olga.refresh_from_db()
    assert olga.check_password("changed-in-the-admin")
    assert "exists" in again


@pytest.mark.django_db
def test_a_username_without_a_password_is_a_clear_error_and_creates_nobody(
    monkeypatch, settings, tmp_path
):
    with pytest.raises(CommandError, match="DJANGO_SUPERUSER_PASSWORD is empty"):
        run_setup(
            monkeypatch, settings, tmp_path, demo=False, env={"DJANGO_SUPERUSER_USERNAME": "olga"}
        )
    assert not get_user_model().objects.filter(username="olga").exists()


@pytest.mark.django_db
def test_development_still_gets_the_demo_admin_and_tournament(monkeypatch, settings, tmp_path):
    out = run_setup(monkeypatch, settings, tmp_path, demo=True)

    assert "Demo admin: admin / " in out
    assert get_user_model().objects.filter(username="admin", is_superuser=True).exists()
    assert Tournament.objects.exists()
