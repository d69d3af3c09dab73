"""The API's interactive docs: Swagger UI at /api/docs/, served from
drf-spectacular-sidecar's files and held to the site's Content-Security-Policy like every
other page (its inline start-up script and style carry the response's nonce).

ReDoc used to be at /api/redoc/; it cannot run under that policy (styles injected without
the nonce before it can be handed one, and a logo fetched from cdn.redoc.ly on every visit,
telling a third party who reads the docs), so that address now leads to Swagger UI.
"""

from __future__ import annotations

from drf_spectacular.views import SpectacularSwaggerView

__all__ = ["ApiDocsView"]


class ApiDocsView(SpectacularSwaggerView):
    template_name = "arena/api/swagger_ui.html"
