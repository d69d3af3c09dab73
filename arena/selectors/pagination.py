"""A paginator for big tables whose rows come with joins (the match list).

Two costs grow with the table, and both are cut here:

* A page deep into 100,000 matches would join bots, owners and versions for every row the
  OFFSET skips, and plan an eight-way join each time. Slicing the ids first is an
  index-only scan of the ordering index; the page's rows are then loaded with their joins
  by primary key.
* ``COUNT(*)`` over every match, for every page, costs more than the page. The count is
  kept in the cache for ``count_ttl_s`` seconds per query: a list that grows by a match a
  second may say "100,000" for a few seconds more, and nothing depends on it being exact.
"""

from __future__ import annotations

import hashlib
from typing import Any

from django.core.cache import cache
from django.core.exceptions import EmptyResultSet
from django.core.paginator import Page, Paginator
from django.db.models import QuerySet
from django.utils.functional import cached_property

__all__ = ["IdsFirstPaginator"]


class IdsFirstPaginator(Paginator):
    """Django's Paginator, fetching a page as: its ids (ordered, sliced), then those rows.

    Takes an ordered queryset; pages hold model instances in the queryset's order, with
    whatever ``select_related``/``prefetch_related`` it asked for. Works wherever Django's
    Paginator does (ListView's ``paginator_class``, DRF's ``django_paginator_class``).
    """

    count_ttl_s = 30
    #: Always a queryset here (Django's takes any sliceable list): its ids are sliced first.
    object_list: QuerySet[Any]

    @cached_property
    def count(self) -> int:
        try:
            sql = str(self.object_list.query)
        except EmptyResultSet:  # a filter no row can match
            return 0
        key = f"arena:count:{hashlib.sha256(sql.encode()).hexdigest()}"
        count = cache.get(key)
        if count is None:
            count = self.object_list.count()
            cache.set(key, count, self.count_ttl_s)
        return count

    def page(self, number: int | str) -> Page:
        number = self.validate_number(number)
        # Django's hook for the Page made (Paginator._get_page); its stubs leave it out.
        return self._get_page(  # type: ignore[attr-defined]
            self.rows_of(self.page_ids(number)), number, self
        )

    def page_ids(self, number: int) -> list[int]:
        """The ids of page ``number`` (a valid one), in order: an index-only slice, however
        deep the page (the last page takes its orphans, as Django's Paginator does)."""
        bottom = (number - 1) * self.per_page
        top = bottom + self.per_page
        if top + self.orphans >= self.count:
            top = self.count
        return list(self.object_list.values_list("pk", flat=True)[bottom:top])

    def rows_of(self, ids: list[int]) -> list[Any]:
        """The page's rows for its ``ids``, in that order: model instances with the
        queryset's joins here; a subclass that shows plain rows loads those instead."""
        rows = self.object_list.order_by().in_bulk(ids)
        # A row deleted between the two queries is left out rather than failing the page.
        return [rows[pk] for pk in ids if pk in rows]
