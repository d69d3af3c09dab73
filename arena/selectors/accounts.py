"""Reads about accounts."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from rest_framework.authtoken.models import Token

__all__ = ["token_get"]


def token_get(*, user: AbstractBaseUser) -> Token | None:
    """The user's API token, if they have created one."""
    return Token.objects.filter(user=user).first()
