"""django-filter for the API, with typed filters read as the schema says.

django-filter reads ``?is_active=null`` (or ``unknown``) and an empty ``?status=`` or
``?bot=`` as "no filter" and answers the whole list, although the schema declares a boolean,
an enum, an integer; here a boolean is ``true`` or ``false`` and a typed filter given empty
is a 400. (Text filters, ``?search=``, may be empty: an empty string is a string.)
"""

from __future__ import annotations

from typing import Any

import django_filters
from django_filters.rest_framework import DjangoFilterBackend
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request

__all__ = ["FilterBackend"]

_TYPED = (django_filters.ChoiceFilter, django_filters.NumberFilter)


class FilterBackend(DjangoFilterBackend):
    def filter_queryset(self, request: Request, queryset: Any, view: Any) -> Any:
        """The list as django-filter narrows it; a request naming none of its filters (most:
        ``?page=N``) is the list as it is, without building the filter set and its form
        (a deep copy of every filter and form field: some 0.7 ms a request)."""
        filterset_class = self.get_filterset_class(view, queryset)
        if filterset_class is not None and not any(
            parameter.startswith(name)
            for parameter in request.query_params
            for name in filterset_class.base_filters
        ):
            return queryset
        return super().filter_queryset(request, queryset, view)

    def get_filterset(self, request: Request, queryset: Any, view: Any) -> Any:
        filterset = super().get_filterset(request, queryset, view)
        if filterset is not None:
            wrong = {}
            for name, item in filterset.filters.items():
                values = request.query_params.getlist(name)
                if isinstance(item, django_filters.BooleanFilter):
                    if any(value not in ("true", "false") for value in values):
                        wrong[name] = ["Must be true or false."]
                elif isinstance(item, _TYPED) and any(value == "" for value in values):
                    wrong[name] = ["May not be empty."]
            if wrong:
                raise ValidationError(wrong, code="invalid")
        return filterset
