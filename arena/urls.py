"""URL map: the admin, the REST API under /api/, the pages, and /healthz."""

from django.contrib import admin
from django.urls import include, path

from arena.web.health import healthz

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/", include("arena.api.urls")),
    path("healthz", healthz, name="healthz"),
    path("", include("arena.web.urls")),
]

handler400 = "arena.api.errors.bad_request"
handler500 = "arena.api.errors.server_error"
