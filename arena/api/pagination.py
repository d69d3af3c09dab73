"""Page-number pagination for every list: ``?page=2&page_size=100`` (at most 200)."""

from __future__ import annotations

from rest_framework.pagination import PageNumberPagination

from arena.selectors.pagination import IdsFirstPaginator

__all__ = ["IdsFirstPagination", "Pagination"]


class Pagination(PageNumberPagination):
    page_size_query_param = "page_size"
    max_page_size = 200


class IdsFirstPagination(Pagination):
    """For big joined lists (matches): slice the ids, then load the page's rows."""

    django_paginator_class = IdsFirstPaginator
