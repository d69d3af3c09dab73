"""The Celery app, configured from Django settings (every ``CELERY_*`` name there).

Run with ``celery -A workers worker`` and ``celery -A workers beat``.
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "arena.settings")

app = Celery("arena")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks(["workers"], related_name="tasks")
