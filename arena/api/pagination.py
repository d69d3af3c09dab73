"""Page-number pagination for every list: ``?page=2&page_size=100`` (at most 200).

``page_size`` is checked, not guessed: DRF falls back to the default size for ``abc``,
``0`` or ``-1`` and caps ``1000`` silently; here anything but a whole number from 1 to
``max_page_size`` is a 400, as the schema (minimum 1, maximum 200) says. ``page`` likewise
(``?page=`` is not page 1); a page past the last one is DRF's 404.
"""

from __future__ import annotations

import re
from typing import Any

from rest_framework.exceptions import ValidationError
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request

from arena.selectors.matches import match_rows
from arena.selectors.pagination import IdsFirstPaginator

__all__ = ["IdsFirstPagination", "Pagination", "RowsPagination"]

_DIGITS = re.compile(r"[0-9]{1,9}")
_PAGE = re.compile(r"[0-9]+")


class Pagination(PageNumberPagination):
    page_size_query_param = "page_size"
    max_page_size = 200

    def get_page_size(self, request: Request) -> int | None:
        raw = request.query_params.get(self.page_size_query_param)
        if raw is None:
            return self.page_size
        if not _DIGITS.fullmatch(raw) or not 1 <= int(raw) <= self.max_page_size:
            message = f"A whole number from 1 to {self.max_page_size}."
            raise ValidationError({self.page_size_query_param: [message]}, code="invalid")
        return int(raw)

    def get_page_number(self, request: Request, paginator: Any) -> Any:
        raw = request.query_params.get(self.page_query_param)
        if raw is None or raw in self.last_page_strings:
            return super().get_page_number(request, paginator)
        if not _PAGE.fullmatch(raw) or int(raw) < 1:
            message = "A page number from 1 (a page past the last is a 404)."
            raise ValidationError({self.page_query_param: [message]}, code="invalid")
        return raw

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        parameters = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            parameter["schema"]["minimum"] = 1
            if parameter["name"] == self.page_size_query_param:
                parameter["schema"]["maximum"] = self.max_page_size
        return parameters


class IdsFirstPagination(Pagination):
    """For big joined lists (matches): slice the ids, then load the page's rows."""

    django_paginator_class = IdsFirstPaginator


class _MatchRowsPaginator(IdsFirstPaginator):
    """Ids first (an index-only scan), then the page's matches as plain rows."""

    def rows_of(self, ids: list[int]) -> list[Any]:
        return match_rows(match_ids=ids)


class RowsPagination(IdsFirstPagination):
    """The match list: a page is :func:`~arena.selectors.matches.match_rows` of its ids."""

    django_paginator_class = _MatchRowsPaginator
