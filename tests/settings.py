"""Settings for the test suite: the real settings, with test-only defaults set first."""

import os

# The three-seat test game is hosted by every process the tests start (web, workers).
os.environ.setdefault("ARENA_EXTRA_GAMES", "tests.games.highcard")
# Tests never need a real secret; production refuses to start without one.
os.environ.setdefault("SECRET_KEY", "tests-only-not-a-secret")

from arena.settings import *  # noqa: F403

# Hashing passwords slowly protects nothing here and costs seconds across the suite.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
# The upload throttle is tested on purpose, by tests that lower its rate.
REST_FRAMEWORK = {**REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {"uploads": None}}  # noqa: F405

# Tasks run inline in the test process unless a test starts real workers (which set
# ARENA_TEST_EAGER=0 for themselves and switch the app to the broker).
CELERY_TASK_ALWAYS_EAGER = os.environ.get("ARENA_TEST_EAGER", "1") == "1"
CELERY_TASK_EAGER_PROPAGATES = True

# Pages render {% static %} without a collectstatic run (the manifest storage needs one).
STORAGES = {
    **STORAGES,  # noqa: F405
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}

# Each test process keeps its own cache: counts cached by the API must not leak between tests.
CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
# An empty STATIC_ROOT of the tests' own. Every test client loads the middleware again, and
# WhiteNoise reads its whole STATIC_ROOT each time: the project's staticfiles/ (filled by
# `make run` or `make schemathesis`, some 700 files) cost every request of the suite a tenth
# of a second. Tests that collect point STATIC_ROOT at a directory of their own.
STATIC_ROOT = BASE_DIR / "test-artifacts" / "empty-static-root"  # noqa: F405
STATIC_ROOT.mkdir(parents=True, exist_ok=True)  # whitenoise warns without it
