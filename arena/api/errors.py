"""One JSON shape for every API error: ``{"detail": ..., "code": ...}``.

DRF's own exceptions, Django's Http404 / PermissionDenied / ValidationError and the
services' :class:`~arena.errors.DomainError` all end here, so a client reads one
shape whatever went wrong. Validation errors add ``"fields"``: each field's messages.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied, RequestDataTooBig
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.views import defaults
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.serializers import as_serializer_error
from rest_framework.views import set_rollback

from arena.errors import DomainError

__all__ = ["bad_request", "error_body", "exception_handler", "server_error"]


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DRF's EXCEPTION_HANDLER: the response for ``exc``, or None to let Django answer 500."""
    if isinstance(exc, DomainError):
        set_rollback()
        retry = getattr(exc, "retry_after", None)
        headers = {"Retry-After": str(retry)} if retry else None
        body = {**error_body(exc.message, exc.code), **exc.extra}
        return Response(body, status=exc.status, headers=headers)
    api_exc = _as_api_exception(exc)
    if api_exc is None:
        return None
    set_rollback()
    headers = {}
    if isinstance(api_exc, exceptions.NotAuthenticated | exceptions.AuthenticationFailed):
        # DRF answers 403 when session auth is listed first (it sends no challenge). A
        # client without credentials should hear 401 and how to authenticate.
        api_exc.status_code = status.HTTP_401_UNAUTHORIZED
        headers["WWW-Authenticate"] = getattr(api_exc, "auth_header", None) or "Token"
    wait = getattr(api_exc, "wait", None)
    if wait:
        headers["Retry-After"] = str(int(wait))
    if isinstance(api_exc, exceptions.ValidationError):
        body = _validation_body(api_exc)
    else:
        body = error_body(str(api_exc.detail), _first_code(api_exc.get_codes()))
    return Response(body, status=api_exc.status_code, headers=headers)


def error_body(detail: str, code: str, fields: Any = None) -> dict[str, Any]:
    body: dict[str, Any] = {"detail": detail, "code": code}
    if fields is not None:
        body["fields"] = fields
    return body


def _as_api_exception(exc: Exception) -> exceptions.APIException | None:
    if isinstance(exc, exceptions.APIException):
        return exc
    if isinstance(exc, Http404):
        return exceptions.NotFound()
    if isinstance(exc, PermissionDenied):
        return exceptions.PermissionDenied()
    if isinstance(exc, DjangoValidationError):
        return exceptions.ValidationError(as_serializer_error(exc))
    if isinstance(exc, RequestDataTooBig):
        too_large = exceptions.APIException("The request body is too large.", "too_large")
        too_large.status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
        return too_large
    return None


def _validation_body(exc: exceptions.ValidationError) -> dict[str, Any]:
    """The first message as ``detail`` (prefixed by its field), all of them in ``fields``."""
    fields = exc.detail if isinstance(exc.detail, dict) else {"non_field_errors": exc.detail}
    path, message = _first_leaf(fields)
    name = ".".join(part for part in path if part != "non_field_errors")
    detail = f"{name}: {message}" if name else str(message)
    code = getattr(message, "code", None) or "invalid"
    return error_body(detail, code, fields)


def _first_leaf(errors: Any, path: tuple[str, ...] = ()) -> tuple[tuple[str, ...], Any]:
    if isinstance(errors, dict) and errors:
        key, value = next(iter(errors.items()))
        return _first_leaf(value, (*path, str(key)))
    if isinstance(errors, list) and errors:
        return _first_leaf(errors[0], path)
    return path, errors


def _first_code(codes: Any) -> str:
    while isinstance(codes, list | dict) and codes:
        codes = next(iter(codes.values())) if isinstance(codes, dict) else codes[0]
    return codes if isinstance(codes, str) and codes else "error"


def server_error(request: HttpRequest) -> HttpResponse:
    """Django's 500 handler: the API's JSON error shape under /api/, the plain page elsewhere."""
    if request.path.startswith("/api/"):
        return JsonResponse(error_body("A server error occurred.", "server_error"), status=500)
    return defaults.server_error(request)


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    """Django's 400 handler: what Django refuses before a view runs (too many form fields, a
    forged host), in the API's JSON shape under /api/, the plain page elsewhere."""
    if request.path.startswith("/api/"):
        body = error_body("The request is malformed or too large to parse.", "bad_request")
        return JsonResponse(body, status=400)
    return defaults.bad_request(request, exception)
