"""Links in API bodies: absolute URLs, like the pagination's ``next`` and ``previous``."""

from __future__ import annotations

from rest_framework.request import Request

__all__ = ["absolute", "link_base"]


def link_base(request: Request | None) -> str:
    """``scheme://host`` of the request (empty without one: links are then paths)."""
    if request is None:
        return ""
    return request.build_absolute_uri("/").rstrip("/")


def absolute(request: Request | None, path: str) -> str:
    """``path`` (starting with ``/``) as an absolute URL on the host the client asked."""
    return link_base(request) + path
