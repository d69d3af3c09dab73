"""Settings of the Celery worker processes the worker tests start.

The tests' own settings, pointed at the database and media directory the test process
uses (``ARENA_TEST_DATABASE_NAME``, ``ARENA_TEST_MEDIA_ROOT``): under pytest-django that is
the test database, whose name the worker could not otherwise know.
"""

import os
from pathlib import Path

from tests.settings import *  # noqa: F403

if os.environ.get("ARENA_TEST_DATABASE_NAME"):
    DATABASES = {
        "default": {**DATABASES["default"], "NAME": os.environ["ARENA_TEST_DATABASE_NAME"]}  # noqa: F405
    }
    DATABASES["default"]["TEST"] = {"NAME": os.environ["ARENA_TEST_DATABASE_NAME"]}
if os.environ.get("ARENA_TEST_MEDIA_ROOT"):
    MEDIA_ROOT = Path(os.environ["ARENA_TEST_MEDIA_ROOT"])
