"""The site's Content-Security-Policy: set on every answer by django-csp
(``CONTENT_SECURITY_POLICY`` in arena/settings.py) through :class:`PolicyMiddleware`, and
changed per view by the decorators here."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

from csp.constants import HEADER, HEADER_REPORT_ONLY, SELF, UNSAFE_INLINE
from csp.decorators import csp_replace
from csp.middleware import CheckableLazyObject, CSPMiddleware
from csp.utils import build_policy
from django.conf import settings
from django.core.signals import setting_changed
from django.dispatch import receiver
from django.http import HttpRequest
from django.http.response import HttpResponseBase

__all__ = ["PolicyMiddleware", "editor_styles", "frameable_by_self"]

#: What a view's decorator (django-csp's csp_update, csp_replace, csp_exempt...) leaves on a
#: response; an answer with none of them gets the settings' policy as it is.
_PER_VIEW = (
    "_csp_config",
    "_csp_update",
    "_csp_replace",
    "_csp_config_ro",
    "_csp_update_ro",
    "_csp_replace_ro",
)
#: The policies built from the settings alone (enforced, report-only), once per process.
_built: dict[bool, str] = {}


@receiver(setting_changed)
def _forget_built_policies(*, setting: str, **kwargs: Any) -> None:
    """A test's ``override_settings`` of a policy is served at once."""
    if setting.startswith("CONTENT_SECURITY_POLICY"):
        _built.clear()


def _settings_policy(*, report_only: bool) -> str:
    policy = _built.get(report_only)
    if policy is None:
        policy = _built[report_only] = build_policy(report_only=report_only)
    return policy


class PolicyMiddleware(CSPMiddleware):
    """django-csp's middleware, with the policy of an answer that has no nonce and no
    per-view change (most answers: the API's, a kept page, a 304, a replay) built once per
    process rather than per answer: ``build_policy`` copies and joins every directive,
    some 30 us, for a header that is the same every time. Any other answer (a page that
    asked for ``request.csp_nonce``, a decorated view) is django-csp's own path."""

    def process_response(
        self, request: HttpRequest, response: HttpResponseBase
    ) -> HttpResponseBase:
        if getattr(request, "_csp_nonce", None) is not None or any(
            hasattr(response, name) for name in _PER_VIEW
        ):
            return super().process_response(request, response)
        if response.status_code in (404, 500) and settings.DEBUG:
            return response  # Django's debug pages run inline code (as django-csp leaves them)
        for header, report_only, exempt in (
            (HEADER, False, "_csp_exempt"),
            (HEADER_REPORT_ONLY, True, "_csp_exempt_ro"),
        ):
            policy = _settings_policy(report_only=report_only)
            if not policy or header in response or getattr(response, exempt, False):
                continue
            name = (
                "CONTENT_SECURITY_POLICY_REPORT_ONLY" if report_only else "CONTENT_SECURITY_POLICY"
            )
            prefixes = (getattr(settings, name, None) or {}).get("EXCLUDE_URL_PREFIXES") or ()
            if not request.path_info.startswith(tuple(prefixes)):
                response[header] = policy
        # As django-csp does: a nonce asked for after the header was written is an error.
        if getattr(request, "_csp_nonce", None) is None:
            request.csp_nonce = CheckableLazyObject(self._csp_nonce_post_response)  # type: ignore[attr-defined]
        return response


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
