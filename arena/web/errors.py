"""Domain errors on pages: a service's NotFound is a 404 page, its Forbidden a 403 page.

The API maps the same errors to JSON in ``arena/api/errors.py``; pages only need the two
that mean "no such thing" and "not yours". Everything else (InvalidInput, Conflict,
TooLarge) is a message for a form, handled where the form is.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import ParamSpec, TypeVar

from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.http.response import HttpResponseBase

from arena.errors import Forbidden, NotFound

__all__ = ["domain_errors"]

_P = ParamSpec("_P")
_R = TypeVar("_R", bound=HttpResponseBase)  # the view's own response type, kept


def domain_errors(view: Callable[_P, _R]) -> Callable[_P, _R]:
    """Turn NotFound into Http404 and Forbidden into PermissionDenied for ``view``."""

    @wraps(view)
    def wrapper(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        try:
            return view(*args, **kwargs)
        except NotFound as exc:
            raise Http404(exc.message) from None
        except Forbidden as exc:
            raise PermissionDenied(exc.message) from None

    return wrapper
