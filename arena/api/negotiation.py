"""Content negotiation for endpoints that answer with a file, not JSON."""

from __future__ import annotations

from collections.abc import Iterable

from rest_framework.exceptions import NotAcceptable
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.renderers import BaseRenderer
from rest_framework.request import Request

__all__ = ["AnyAcceptNegotiation"]


class AnyAcceptNegotiation(DefaultContentNegotiation):
    """Never 406: a download asked for with ``Accept: application/zip`` still gets its file.

    DRF would refuse such a request because its renderers speak JSON only; the file view
    returns its own response, and an error falls back to the first renderer (JSON).
    """

    def select_renderer(
        self, request: Request, renderers: Iterable[BaseRenderer], format_suffix: str | None = None
    ) -> tuple[BaseRenderer, str]:
        offered = list(renderers)
        try:
            return super().select_renderer(request, offered, format_suffix)
        except NotAcceptable:
            return offered[0], offered[0].media_type
