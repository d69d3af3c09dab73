"""Reads about accounts: tokens, and who may organise tournaments."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from rest_framework.authtoken.models import Token

__all__ = ["ORGANISE_PERMISSION", "is_organiser", "token_get"]

#: The permission of the organisers' group (``arena_setup`` keeps it; staff have it too).
ORGANISE_PERMISSION = "arena.organise_tournaments"


def token_get(*, user: User) -> Token | None:
    """The user's API token, if they have created one."""
    return Token.objects.filter(user=user).first()


def is_organiser(user: Any) -> bool:
    """Whether ``user`` may create, start, cancel and schedule tournaments, and enter the
    built-in bots into sign-up tournaments: staff, and anyone with the organisers'
    permission (the "organisers" group)."""
    if user is None or not user.is_authenticated or not user.is_active:
        return False
    return bool(user.is_staff or user.has_perm(ORGANISE_PERMISSION))
