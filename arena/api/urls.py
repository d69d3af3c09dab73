"""REST API routes (filled in by the arena issue)."""

urlpatterns: list = []
