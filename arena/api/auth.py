"""``POST /api/auth/token/``: trade a username and password for an API token."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.exceptions import ErrorDetail, Throttled, ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.settings import api_settings

from arena.api.fields import StrictCharField
from arena.api.schema import errors
from arena.http.logins import forgive_failures, refusal_sentence


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
        "The same token every time, until it is revoked in the admin. Wrong passwords slow "
        "down further tries on the account from the address that made them, and from any "
        "address once the account has had many (429 with `Retry-After`; the site's log-in "
        "form shares these limits). An address that has not failed on an account is never "
        "held back by other addresses' failures on it."
    ),
    request=TokenRequestSerializer,
    responses={200: TokenOutputSerializer, **errors(400, 429)},
)
class TokenCreateApi(ObtainAuthToken):
    # No session here: a logged-in browser would otherwise need a CSRF token to ask.
    authentication_classes = ()
    throttle_classes = ()
    # DRF's view lists its own parsers; take the arena's (a too-deep body is a 400 here too).
    # The stubs type the setting as its dotted paths; api_settings hands out the classes.
    parser_classes = api_settings.DEFAULT_PARSER_CLASSES  # type: ignore[assignment]
    serializer_class = TokenRequestSerializer

    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        try:
            response = super().post(request, *args, **kwargs)
        except ValidationError:
            # django-axes refused to check the password (arena.http.logins): say how long
            # to wait, like the log-in form, instead of "wrong password".
            if getattr(request, "axes_locked_out", False):
                wait = float(getattr(request, "arena_login_wait", 0.0))
                refused = Throttled(wait=wait)
                refused.detail = ErrorDetail(refusal_sentence(wait), code="throttled")
                raise refused from None
            raise
        # A right password forgives this address's failures on the account, as a log-in
        # through the form does (axes hears of that one through Django's user_logged_in).
        forgive_failures(request)
        return response
