"""django-filter for the API, with booleans read as the schema says: ``true`` or ``false``.

django-filter's BooleanFilter reads ``?is_active=null`` (or ``unknown``) as "no filter" and
answers the whole list, although the schema declares a boolean; here anything but ``true``
or ``false`` is a 400.
"""

from __future__ import annotations

from typing import Any

import django_filters
from django_filters.rest_framework import DjangoFilterBackend
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request

__all__ = ["FilterBackend"]


class FilterBackend(DjangoFilterBackend):
    def get_filterset(self, request: Request, queryset: Any, view: Any) -> Any:
        filterset = super().get_filterset(request, queryset, view)
        if filterset is not None:
            wrong = {
                name: ["Must be true or false."]
                for name, item in filterset.filters.items()
                if isinstance(item, django_filters.BooleanFilter)
                and any(v not in ("true", "false") for v in request.query_params.getlist(name))
            }
            if wrong:
                raise ValidationError(wrong, code="invalid")
        return filterset
