"""OpenAPI helpers: the error shape, declared once and attached to each operation."""

from __future__ import annotations

from typing import Any

from drf_spectacular.openapi import AutoSchema
from drf_spectacular.utils import OpenApiResponse
from rest_framework import serializers
from rest_framework.permissions import SAFE_METHODS

__all__ = [
    "ArenaAutoSchema",
    "ErrorSerializer",
    "ValidationErrorSerializer",
    "errors",
    "postprocess",
]


class ErrorSerializer(serializers.Serializer):
    """Every error: a message for people and a stable code for programs."""

    detail = serializers.CharField()
    code = serializers.CharField()


class ValidationErrorSerializer(ErrorSerializer):
    """A 400: ``fields`` maps each rejected field to its messages (when fields are at fault)."""

    # A field named like Serializer.fields: DRF takes declared fields off the class.
    fields = serializers.DictField(  # type: ignore[assignment]
        child=serializers.ListField(child=serializers.CharField()), required=False
    )
    line = serializers.IntegerField(
        required=False, help_text="A bot's source refused: the line at fault, where known."
    )


_DESCRIPTIONS = {
    400: "Invalid input (see `code`; `fields` for each rejected field).",
    401: "Not authenticated: send `Authorization: Token <key>` or log in.",
    403: "Authenticated but not allowed (not the owner, not staff).",
    404: "No such object.",
    409: "Conflicts with the current state (duplicate, wrong status).",
    411: "A body sent without a length (chunked) to a server that cannot read one.",
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


class ArenaAutoSchema(AutoSchema):
    """drf-spectacular's AutoSchema, knowing the arena's own "anyone may read" permission.

    Spectacular marks reads public (``security: [{}, ...]``) for DRF's ``AllowAny`` and
    ``IsAuthenticatedOrReadOnly`` only; ``IsStaffOrReadOnly`` lets anyone read too (the
    tournament list and pages), and the schema should say so.
    """

    def get_auth(self) -> list[dict[str, Any]]:
        auth = super().get_auth()
        public = any(getattr(p, "anonymous_reads", False) for p in self.view.get_permissions())
        if self.method in SAFE_METHODS and public and {} not in auth:
            auth.append({})
        return auth


def postprocess(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """Make the schema say what the views check (``POSTPROCESSING_HOOKS``).

    - a paginated list refuses a bad ``page``/``page_size`` with 400: documented on each;
    - id filters (``?bot=``, ``?opponent=``, ``?version=``, ``?tournament=``) take 1 to
      2**63-1, as the filter checks;
    - every operation may meet a 414 from the HTTP server in front (gunicorn, a proxy) when
      its request line is too long: documented, without a body shape (it is theirs).
    """
    for operations in result.get("paths", {}).values():
        for operation in operations.values():
            parameters = operation.get("parameters", [])
            names = {parameter["name"] for parameter in parameters}
            responses = operation.setdefault("responses", {})
            if "page_size" in names and "400" not in responses:
                responses["400"] = {
                    "content": {
                        "application/json": {
                            "schema": {"$ref": "#/components/schemas/ValidationError"}
                        }
                    },
                    "description": _DESCRIPTIONS[400],
                }
            responses.setdefault("414", {"description": _TOO_LONG})
            for parameter in parameters:
                schema = parameter.get("schema", {})
                is_id = parameter["in"] == "query" and parameter["name"] in _ID_FILTERS
                if is_id and schema.get("type") in ("integer", "number"):
                    schema.update(type="integer", minimum=1, maximum=2**63 - 1)
    return result


_ID_FILTERS = ("bot", "opponent", "version", "tournament")
_TOO_LONG = (
    "The request line (path and query) is too long: refused by the HTTP server before the "
    "app, as its page, not in the JSON error shape."
)
