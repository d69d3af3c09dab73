"""Request types for the views only a signed-in user reaches, whose ``request.user`` is a
:class:`~django.contrib.auth.models.User` and never the anonymous one.

Types only: ``login_required`` (pages) and the permission classes (API) are what keep
anonymous users out at run time; these classes let the type checker know it, so the
services that act for a user take a ``User`` instead of every caller narrowing one.
"""

from __future__ import annotations

from django.contrib.auth.models import User
from django.http import HttpRequest
from rest_framework.request import Request

__all__ = ["SignedInApiRequest", "SignedInRequest"]


class SignedInRequest(HttpRequest):
    """The request of a page behind ``login_required``."""

    user: User


class SignedInApiRequest(Request):
    """The request of an API method whose permissions refuse anonymous users."""

    user: User
