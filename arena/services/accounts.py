"""User accounts the platform itself creates."""

from __future__ import annotations

import secrets
from pathlib import Path

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from rest_framework.authtoken.models import Token

__all__ = ["demo_admin_ensure", "token_regenerate"]

DEMO_ADMIN = "admin"


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


def token_regenerate(*, user: AbstractBaseUser) -> Token:
    """A new API token for ``user``; the previous one stops working at once."""
    # Deleting first keeps the one-token-per-user rule of DRF's table (user is its key).
    with transaction.atomic():
        Token.objects.filter(user=user).delete()
        return Token.objects.create(user=user)
