"""URL map: the admin, the REST API under /api/, the pages, /healthz and /favicon.ico."""

from django.contrib import admin
from django.http import HttpRequest, HttpResponseRedirect
from django.templatetags.static import static
from django.urls import include, path

from arena.web.health import healthz


def favicon(request: HttpRequest) -> HttpResponseRedirect:
    """The icon's hashed static URL, looked up when asked (no manifest at import time)."""
    return HttpResponseRedirect(static("arena/favicon.svg"))


urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/", include("arena.api.urls")),
    path("healthz", healthz, name="healthz"),
    # Browsers ask for it on pages that name no icon (the admin's); the site's own.
    path("favicon.ico", favicon),
    path("", include("arena.web.urls")),
]

handler400 = "arena.api.errors.bad_request"
handler500 = "arena.api.errors.server_error"
