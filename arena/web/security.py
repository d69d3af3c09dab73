"""Per-view changes to the site's Content-Security-Policy (set on every answer by django-csp,
``CONTENT_SECURITY_POLICY`` in arena/settings.py)."""

from __future__ import annotations

from csp.constants import SELF
from csp.decorators import csp_replace

__all__ = ["frameable_by_self"]

#: Let the site's own pages frame a view's page (a playground match's viewer); pair it with
#: Django's ``xframe_options_sameorigin``. Every other page may be framed by nobody.
frameable_by_self = csp_replace({"frame-ancestors": [SELF]})
