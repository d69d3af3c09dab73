"""ASGI entry point, for servers that prefer it; the arena itself needs only WSGI."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "arena.settings")
application = get_asgi_application()
