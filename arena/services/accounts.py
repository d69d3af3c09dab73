"""User accounts the platform itself creates."""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from pathlib import Path

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, Permission, User
from django.db import transaction
from rest_framework.authtoken.models import Token

__all__ = [
    "ORGANISER_GROUP",
    "STAFF_GROUP",
    "STAFF_MODELS",
    "admin_from_env_ensure",
    "demo_admin_ensure",
    "organiser_group_ensure",
    "organiser_make",
    "staff_group_ensure",
    "staff_make",
    "token_regenerate",
]

DEMO_ADMIN = "admin"

STAFF_GROUP = "arena staff"
#: Who organise tournaments on the site without being staff (no admin access).
ORGANISER_GROUP = "organisers"

#: What staff look at in the admin (every arena model's changelist, each tested to load in a
#: constant number of queries: tests/arena/test_admin.py).
STAFF_MODELS = (
    "bot",
    "botversion",
    "match",
    "matchseat",
    "replay",
    "matchlog",
    "rating",
    "ratinghistory",
    "tournament",
    "tournamententry",
    "tournamentschedule",
)
# And the tournaments they organise (on the site and through the API they create, start,
# cancel and schedule them).
_STAFF_EXTRA = (
    "add_tournament",
    "change_tournament",
    "add_tournamentschedule",
    "change_tournamentschedule",
    "delete_tournamentschedule",
    "organise_tournaments",
)


def demo_admin_ensure(*, credentials_file: Path) -> tuple[str, str | None]:
    """Create the demo superuser once, with a random password kept in ``credentials_file``.

    Returns the username and the password (None if the account exists but its password was
    not created here, e.g. an operator made their own ``admin``).
    """
    users = get_user_model().objects
    if users.filter(username=DEMO_ADMIN).exists():
        if credentials_file.exists():
            return DEMO_ADMIN, credentials_file.read_text().strip()
        return DEMO_ADMIN, None
    password = secrets.token_urlsafe(12)
    users.create_superuser(DEMO_ADMIN, "admin@localhost", password)
    credentials_file.parent.mkdir(parents=True, exist_ok=True)
    credentials_file.write_text(password + "\n")
    credentials_file.chmod(0o600)
    return DEMO_ADMIN, password


def admin_from_env_ensure(environ: Mapping[str, str]) -> tuple[str | None, bool]:
    """Create the superuser named in ``DJANGO_SUPERUSER_USERNAME`` once, if asked to.

    Production has no default account: an operator asks for one with Django's own variables
    (``DJANGO_SUPERUSER_USERNAME``, ``DJANGO_SUPERUSER_PASSWORD``, optionally
    ``DJANGO_SUPERUSER_EMAIL``), e.g. in the deployment's env file. An existing user is left
    as it is, so a password changed in the admin is not reset by the next set-up run.
    Returns (username or None when not asked, whether it was created); ValueError names a
    missing password instead of creating an account nobody can log in to.
    """
    username = environ.get("DJANGO_SUPERUSER_USERNAME", "").strip()
    if not username:
        return None, False
    users = get_user_model().objects
    if users.filter(username=username).exists():
        return username, False
    password = environ.get("DJANGO_SUPERUSER_PASSWORD", "")
    if not password:
        raise ValueError(
            f"DJANGO_SUPERUSER_USERNAME={username!r} is set but DJANGO_SUPERUSER_PASSWORD is "
            "empty: set both to create the admin"
        )
    users.create_superuser(username, environ.get("DJANGO_SUPERUSER_EMAIL", ""), password)
    return username, True


def token_regenerate(*, user: User) -> Token:
    """A new API token for ``user``; the previous one stops working at once."""
    # Deleting first keeps the one-token-per-user rule of DRF's table (user is its key).
    with transaction.atomic():
        Token.objects.filter(user=user).delete()
        return Token.objects.create(user=user)


def staff_group_ensure() -> Group:
    """The "arena staff" group with exactly its documented permissions (docs/deploy.md)."""
    from django.apps import apps
    from django.contrib.auth.management import create_permissions

    # Permissions are created after migrate; make sure they exist on a fresh database.
    create_permissions(apps.get_app_config("arena"), verbosity=0)
    codenames = [f"view_{model}" for model in STAFF_MODELS] + list(_STAFF_EXTRA)
    permissions = Permission.objects.filter(content_type__app_label="arena", codename__in=codenames)
    group, _ = Group.objects.get_or_create(name=STAFF_GROUP)
    group.permissions.set(permissions)
    return group


def staff_make(*, username: str) -> User:
    """Make an existing user staff: admin access and the staff group's permissions."""
    user = get_user_model().objects.get(username=username)
    with transaction.atomic():
        user.is_staff = True
        user.save(update_fields=["is_staff"])
        user.groups.add(staff_group_ensure())
    return user


def organiser_group_ensure() -> Group:
    """The "organisers" group: the one permission to organise tournaments on the site
    (create, start, cancel, schedule; enter the built-in bots), no admin access."""
    from django.apps import apps
    from django.contrib.auth.management import create_permissions

    create_permissions(apps.get_app_config("arena"), verbosity=0)
    permission = Permission.objects.get(
        content_type__app_label="arena", codename="organise_tournaments"
    )
    group, _ = Group.objects.get_or_create(name=ORGANISER_GROUP)
    group.permissions.set([permission])
    return group


def organiser_make(*, username: str) -> User:
    """Put an existing user in the organisers' group (``arena_setup --organiser``)."""
    user = get_user_model().objects.get(username=username)
    user.groups.add(organiser_group_ensure())
    return user
