"""Domain errors: raised by selectors and services, mapped to HTTP in one place
(``arena/api/errors.py``; the pages', ``arena/web/errors.py``). A leaf: it imports nothing of
the arena, so every room may raise them.

Each carries a stable machine-readable ``code`` and a message for people, so the API can
answer ``{"detail": message, "code": code}`` with the right status.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = [
    "Conflict",
    "DomainError",
    "Forbidden",
    "InvalidInput",
    "NotFound",
    "TooLarge",
    "TooManyRequests",
]


class DomainError(Exception):
    status = 400
    default_code = "invalid"

    def __init__(
        self, message: str, *, code: str | None = None, extra: Mapping[str, object] | None = None
    ) -> None:
        super().__init__(message)
        self.message = message
        self.code = code or self.default_code
        #: More machine-readable facts for the error body (``{"line": 3}`` for a source).
        self.extra = dict(extra or {})

    def field_messages(self) -> dict[str, Any]:
        """``extra["fields"]``: the messages per field of a refused form (empty if none)."""
        fields = self.extra.get("fields")
        return fields if isinstance(fields, dict) else {}


class InvalidInput(DomainError):
    status = 400
    default_code = "invalid"


class Forbidden(DomainError):
    status = 403
    default_code = "permission_denied"


class NotFound(DomainError):
    status = 404
    default_code = "not_found"


class Conflict(DomainError):
    status = 409
    default_code = "conflict"


class TooLarge(DomainError):
    status = 413
    default_code = "too_large"


class TooManyRequests(DomainError):
    """A quota is spent (429); ``retry_after`` is the seconds until it frees up, if known."""

    status = 429
    default_code = "quota"

    def __init__(self, message: str, *, code: str | None = None, retry_after: int | None = None):
        super().__init__(message, code=code)
        self.retry_after = retry_after
