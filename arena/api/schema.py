"""OpenAPI helpers: the error shape, declared once and attached to each operation."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse
from rest_framework import serializers

__all__ = ["ErrorSerializer", "ValidationErrorSerializer", "errors"]


class ErrorSerializer(serializers.Serializer):
    """Every error: a message for people and a stable code for programs."""

    detail = serializers.CharField()
    code = serializers.CharField()


class ValidationErrorSerializer(ErrorSerializer):
    """A 400: ``fields`` maps each rejected field to its messages (when fields are at fault)."""

    fields = serializers.DictField(
        child=serializers.ListField(child=serializers.CharField()), required=False
    )


_DESCRIPTIONS = {
    400: "Invalid input (see `code`; `fields` for each rejected field).",
    401: "Not authenticated: send `Authorization: Token <key>` or log in.",
    403: "Authenticated but not allowed (not the owner, not staff).",
    404: "No such object.",
    409: "Conflicts with the current state (duplicate, wrong status).",
    413: "The uploaded file is too large.",
    429: "Too many requests; retry after `Retry-After` seconds.",
}


def errors(*codes: int) -> dict[int, OpenApiResponse]:
    """Error responses for ``extend_schema(responses=...)``: ``{**errors(400, 404)}``."""
    return {
        code: OpenApiResponse(
            ValidationErrorSerializer if code == 400 else ErrorSerializer,
            description=_DESCRIPTIONS[code],
        )
        for code in codes
    }
