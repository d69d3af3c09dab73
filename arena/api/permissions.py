"""Who may call what. Ownership is checked by the services and selectors (one place for
each rule, shared with the pages); these classes only gate by role."""

from __future__ import annotations

from rest_framework.permissions import SAFE_METHODS, BasePermission, IsAdminUser
from rest_framework.request import Request
from rest_framework.views import APIView

from arena.selectors.accounts import is_organiser

__all__ = ["IsOrganiser", "IsOrganiserOrReadOnly", "IsStaff"]

IsStaff = IsAdminUser  # Django's is_staff


class IsOrganiser(BasePermission):
    """Organisers of tournaments: staff, and the "organisers" group (``is_organiser``)."""

    def has_permission(self, request: Request, view: APIView) -> bool:
        return is_organiser(request.user)


class IsOrganiserOrReadOnly(BasePermission):
    anonymous_reads = True  # the schema marks its reads public (arena.api.schema)

    def has_permission(self, request: Request, view: APIView) -> bool:
        return request.method in SAFE_METHODS or is_organiser(request.user)
