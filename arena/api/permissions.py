"""Who may call what. Ownership is checked by the services and selectors (one place for
each rule, shared with the pages); these classes only gate by role."""

from __future__ import annotations

from rest_framework.permissions import SAFE_METHODS, BasePermission, IsAdminUser
from rest_framework.request import Request
from rest_framework.views import APIView

__all__ = ["IsStaff", "IsStaffOrReadOnly"]

IsStaff = IsAdminUser  # Django's is_staff: the organisers


class IsStaffOrReadOnly(BasePermission):
    anonymous_reads = True  # the schema marks its reads public (arena.api.schema)

    def has_permission(self, request: Request, view: APIView) -> bool:
        if request.method in SAFE_METHODS:
            return True
        return bool(request.user and request.user.is_staff)
