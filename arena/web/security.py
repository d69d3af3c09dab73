"""Per-view changes to the site's Content-Security-Policy (set on every answer by django-csp,
``CONTENT_SECURITY_POLICY`` in arena/settings.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

from csp.constants import SELF, UNSAFE_INLINE
from csp.decorators import csp_replace
from django.http.response import HttpResponseBase

__all__ = ["editor_styles", "frameable_by_self"]

_View = TypeVar("_View", bound=Callable[..., HttpResponseBase])


def _for_views(decorator: Callable[[Any], Any]) -> Callable[[_View], _View]:
    """django-csp's decorator as it is, typed for views with URL arguments: its own types
    say a view takes the request alone, though its wrapper passes every argument on."""
    return cast(Callable[[_View], _View], decorator)


#: Let the site's own pages frame a view's page (a playground match's viewer); pair it with
#: Django's ``xframe_options_sameorigin``. Every other page may be framed by nobody.
frameable_by_self = _for_views(csp_replace({"frame-ancestors": [SELF]}))

#: The playground's page: its code editor (CodeMirror, bundled) adds <style> elements and
#: style attributes as it runs, without the response's nonce, so that page allows inline
#: styles (a browser ignores 'unsafe-inline' beside a nonce: the nonce goes). Scripts stay
#: as strict as everywhere; what the page shows besides the site's own is its author's draft.
editor_styles = _for_views(csp_replace({"style-src": [SELF, UNSAFE_INLINE]}))
