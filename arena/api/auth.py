"""``POST /api/auth/token/``: trade a username and password for an API token."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.settings import api_settings

from arena.api.fields import StrictCharField
from arena.api.schema import errors
from arena.api.throttles import LoginGuard


class TokenRequestSerializer(AuthTokenSerializer):
    """DRF's, with fields that refuse anything but strings (a number is not a username)."""

    username = StrictCharField(write_only=True)
    password = StrictCharField(
        style={"input_type": "password"}, trim_whitespace=False, write_only=True
    )


class TokenOutputSerializer(serializers.Serializer):
    token = serializers.CharField(help_text="Send it as `Authorization: Token <token>`.")


@extend_schema(
    tags=["auth"],
    summary="Get your API token",
    description=(
        "The same token every time, until it is revoked in the admin. Wrong passwords are "
        "limited per client address and per account (429 with `Retry-After`)."
    ),
    request=TokenRequestSerializer,
    responses={200: TokenOutputSerializer, **errors(400, 429)},
)
class TokenCreateApi(ObtainAuthToken):
    # No session here: a logged-in browser would otherwise need a CSRF token to ask.
    authentication_classes = ()
    throttle_classes = ()
    # DRF's view lists its own parsers; take the arena's (a too-deep body is a 400 here too).
    parser_classes = api_settings.DEFAULT_PARSER_CLASSES
    serializer_class = TokenRequestSerializer

    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        username = request.data.get("username") if hasattr(request.data, "get") else None
        guard = LoginGuard(request, username)
        guard.check()
        try:
            return super().post(request, *args, **kwargs)
        except ValidationError:
            guard.failed()
            raise
