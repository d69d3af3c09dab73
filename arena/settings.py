"""Django settings for the Bluff Arena, read from the environment.

Every variable is listed with its default in the README's configuration table. The defaults
run the whole arena on a laptop with only Python: a SQLite file and a filesystem broker
under ``var/``. Production sets ``DATABASE_URL``, ``REDIS_URL``, ``SECRET_KEY`` and
``DEBUG=0``.
"""

from __future__ import annotations

import hashlib
import os
import sys
from datetime import timedelta
from pathlib import Path
from typing import Any, TypedDict

from csp.constants import NONCE, NONE, SELF
from kombu import Exchange, Queue

from arena.config import (
    ConfigError,
    broker_url,
    database_config,
    env_bool,
    env_float,
    env_int,
    env_list,
    largest_table,
    match_time_limit,
)
from sandbox.limits import Limits

BASE_DIR = Path(__file__).resolve().parent.parent


class _LoginLimits(TypedDict):
    """The wrong-password limits (:func:`_login_limits`), typed so the checks compare numbers."""

    LOGIN_FAILURES: int
    LOGIN_ACCOUNT_FAILURES: int
    LOGIN_SHARED_AFTER: int
    LOGIN_ADDRESS_FAILURES: int
    LOGIN_WAIT: float
    LOGIN_MAX_WAIT: float
    LOGIN_IPV6_PREFIX: int


class _Read(_LoginLimits):
    """What :func:`_load` reads from the environment, each value with its own type, so the
    settings below take them as they are instead of from a bag of objects."""

    DEBUG: bool
    SECRET_KEY: str
    DATA_DIR: Path
    DATABASE: dict[str, Any]
    BROKER_URL: str
    ALLOWED_HOSTS: list[str]
    CSRF_TRUSTED_ORIGINS: list[str]
    UPLOAD_MAX_BYTES: int
    MOVE_TIMEOUT: float
    TIME_BANK: float
    MOVE_WALL: float
    WALL_BANK: float
    MATCH_WALL: float
    VISIBILITY_TIMEOUT: int
    DEMO_TOURNAMENT: bool
    DEMO_ADMIN: bool
    RATE_UPLOADS: str
    RATE_PLAYGROUND_CHECKS: str
    TRUSTED_PROXIES: int
    FORWARDED_PROTO: bool
    LOG_LEVEL: str
    S3_BUCKET: str
    SEED_KEY: str


class _Env(_Read):
    """:class:`_Read` and what :func:`_load` works out from it once it has been checked."""

    MATCH_TIME_LIMIT: int


def _load() -> _Env:
    """Everything that can fail on a bad environment, gathered so it fails in one place."""
    debug = env_bool("DEBUG", False)
    secret = _secret_key(debug)
    data_dir = _data_dir()
    env: _Read = {
        "DEBUG": debug,
        "SECRET_KEY": secret,
        "DATA_DIR": data_dir,
        "DATABASE": database_config(
            os.environ.get("DATABASE_URL"), default_sqlite=data_dir / "arena.sqlite3"
        ),
        "BROKER_URL": broker_url(os.environ.get("REDIS_URL")),
        "ALLOWED_HOSTS": env_list(
            "ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]"] if debug else []
        ),
        "CSRF_TRUSTED_ORIGINS": env_list("CSRF_TRUSTED_ORIGINS", []),
        "UPLOAD_MAX_BYTES": env_int("ARENA_UPLOAD_MAX_BYTES", 1024 * 1024),
        "MOVE_TIMEOUT": env_float("ARENA_MOVE_TIMEOUT_S", 1.0),
        "TIME_BANK": env_float("ARENA_TIME_BANK_S", 10.0),
        "MOVE_WALL": env_float("ARENA_MOVE_WALL_S", 3.0),
        "WALL_BANK": env_float("ARENA_WALL_BANK_S", 30.0),
        "MATCH_WALL": env_float("ARENA_MATCH_WALL_S", 240.0),
        "VISIBILITY_TIMEOUT": env_int("ARENA_BROKER_VISIBILITY_TIMEOUT_S", 900),
        # Demo content is for a laptop: in production (DEBUG=0) neither a demo admin with a
        # stored password nor a demo tournament appears unless asked for.
        "DEMO_TOURNAMENT": env_bool("ARENA_DEMO_TOURNAMENT", debug),
        "DEMO_ADMIN": env_bool("ARENA_DEMO_ADMIN", debug),
        "RATE_UPLOADS": os.environ.get("ARENA_THROTTLE_UPLOADS", "30/hour"),
        # Playground runs asked for, refused ones too (each checks its source in a child).
        "RATE_PLAYGROUND_CHECKS": os.environ.get("ARENA_THROTTLE_PLAYGROUND_CHECKS", "120/hour"),
        **_login_limits(),
        # How many proxies of ours add to X-Forwarded-For; 0: the header is ignored.
        "TRUSTED_PROXIES": env_int("ARENA_TRUSTED_PROXIES", 0),
        # Whether those proxies say, in X-Forwarded-Proto, that the client came over HTTPS.
        "FORWARDED_PROTO": env_bool("ARENA_FORWARDED_PROTO", False),
        "LOG_LEVEL": os.environ.get("LOG_LEVEL", "INFO").upper(),
        "S3_BUCKET": os.environ.get("ARENA_S3_BUCKET", "").strip(),
        # Keys the seeds bots are given, so a bot cannot work back to its match's seed.
        "SEED_KEY": os.environ.get("ARENA_SEED_KEY")
        or hashlib.sha256(f"arena-bot-seeds:{secret}".encode()).hexdigest(),
    }
    _check_login_limits(env)
    # Sized for the largest table any hosted game allows: every seat may use its whole bank.
    time_limit = match_time_limit(_match_limits(env).seat_wall_bound_s(), seats=largest_table())
    # A task still running when its message becomes visible again would be handed out twice:
    # by default the broker waits past the match's hard time limit (+60 s).
    if not os.environ.get("ARENA_BROKER_VISIBILITY_TIMEOUT_S", "").strip():
        env["VISIBILITY_TIMEOUT"] = max(900, time_limit + 120)
    return {**env, "MATCH_TIME_LIMIT": time_limit}


def _secret_key(debug: bool) -> str:
    """SECRET_KEY, required unless DEBUG is on: a laptop gets a fixed key marked unsafe, a
    deployment never starts with one it did not choose."""
    secret = os.environ.get("SECRET_KEY", "")
    if not secret:
        if not debug:
            raise ConfigError(
                "SECRET_KEY is not set and DEBUG is off: set SECRET_KEY "
                "(or DEBUG=1 for local development)"
            )
        secret = "insecure-local-development-key-do-not-use-in-production"
    return secret


def _data_dir() -> Path:
    """ARENA_DATA_DIR, created now: a directory that cannot be made fails at start-up, not
    at the first upload."""
    data_dir = Path(os.environ.get("ARENA_DATA_DIR", BASE_DIR / "var")).resolve()
    try:
        data_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ConfigError(f"ARENA_DATA_DIR={data_dir} cannot be created: {exc.strerror}") from None
    return data_dir


def _login_limits() -> _LoginLimits:
    """The wrong-password limits (``arena.http.logins``), read apart from the rest of the
    environment because they are checked together (:func:`_check_login_limits`)."""
    return {
        # Wrong passwords (arena.http.logins): free tries per account and address, per
        # account from every address, per address on every account; then waits that
        # double from the first to the longest.
        "LOGIN_FAILURES": env_int("ARENA_LOGIN_FAILURES", 5),
        "LOGIN_ACCOUNT_FAILURES": env_int("ARENA_LOGIN_ACCOUNT_FAILURES", 10),
        # ... and how often an address must have failed on the account itself before that
        # account-wide count holds it (an owner's typo or two never does).
        "LOGIN_SHARED_AFTER": env_int("ARENA_LOGIN_SHARED_AFTER", 3),
        "LOGIN_ADDRESS_FAILURES": env_int("ARENA_LOGIN_ADDRESS_FAILURES", 30),
        "LOGIN_WAIT": env_float("ARENA_LOGIN_WAIT_S", 30.0),
        "LOGIN_MAX_WAIT": env_float("ARENA_LOGIN_MAX_WAIT_S", 900.0),
        # IPv6 clients are counted per network of this many bits (a host often has a /64).
        "LOGIN_IPV6_PREFIX": env_int("ARENA_LOGIN_IPV6_PREFIX", 64),
    }


def _check_login_limits(env: _Read) -> None:
    """ConfigError for login and proxy settings that cannot work together (or names no
    longer read), so a deployment fails at start-up instead of locking out its users."""
    for gone in ("ARENA_THROTTLE_TOKENS", "ARENA_THROTTLE_LOGIN_ACCOUNT"):
        if os.environ.get(gone, "").strip():
            raise ConfigError(
                f"{gone} is no longer read: wrong passwords are limited by ARENA_LOGIN_FAILURES, "
                "ARENA_LOGIN_ACCOUNT_FAILURES and ARENA_LOGIN_ADDRESS_FAILURES (docs/deploy.md)"
            )
    if min(env["LOGIN_FAILURES"], env["LOGIN_ACCOUNT_FAILURES"], env["LOGIN_ADDRESS_FAILURES"]) < 1:
        raise ConfigError("ARENA_LOGIN_*_FAILURES must be at least 1")
    if env["LOGIN_SHARED_AFTER"] < 1:
        raise ConfigError("ARENA_LOGIN_SHARED_AFTER must be at least 1")
    if not 0 < env["LOGIN_WAIT"] <= env["LOGIN_MAX_WAIT"]:
        raise ConfigError("ARENA_LOGIN_WAIT_S must be above 0 and at most ARENA_LOGIN_MAX_WAIT_S")
    if not 32 <= env["LOGIN_IPV6_PREFIX"] <= 128:
        raise ConfigError("ARENA_LOGIN_IPV6_PREFIX must be from 32 to 128 (an IPv6 network's bits)")
    if env["FORWARDED_PROTO"] and not env["TRUSTED_PROXIES"]:
        raise ConfigError(
            "ARENA_FORWARDED_PROTO=1 trusts a proxy's X-Forwarded-Proto, but "
            "ARENA_TRUSTED_PROXIES=0 says there is none: set both, or neither"
        )


def _match_limits(env: _Read) -> Limits:
    """The sandbox limits of a match (``arena.services.matches.match_limits`` at run time)."""
    try:
        return Limits(
            move_timeout_s=env["MOVE_TIMEOUT"],
            time_bank_s=env["TIME_BANK"],
            move_wall_s=env["MOVE_WALL"],
            wall_bank_s=env["WALL_BANK"],
            match_wall_s=env["MATCH_WALL"],
        )
    except (TypeError, ValueError) as exc:
        raise ConfigError(f"bad ARENA_* time limit: {exc}") from None


try:
    _env = _load()
except ConfigError as exc:
    # One line for the operator instead of a traceback wall from deep inside Django.
    sys.exit(f"arena: configuration error: {exc}")

DEBUG = _env["DEBUG"]
SECRET_KEY = _env["SECRET_KEY"]
ALLOWED_HOSTS = _env["ALLOWED_HOSTS"]
CSRF_TRUSTED_ORIGINS = _env["CSRF_TRUSTED_ORIGINS"]
DATA_DIR: Path = _env["DATA_DIR"]
# What authors download (the engine's wheel, starter kits), built by `manage.py arena_kits`
# (the image does at build time; `make run` as it starts); unset: DATA_DIR/downloads.
ARENA_DOWNLOADS_DIR: Path | None = (
    Path(os.environ["ARENA_DOWNLOADS_DIR"]) if os.environ.get("ARENA_DOWNLOADS_DIR") else None
)

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "rest_framework",
    "rest_framework.authtoken",
    "axes",  # failed log-ins, per account and address (arena.http.logins)
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI served from here, not from a CDN
    "django_celery_beat",
    "csp",
    "arena",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Early, so every answer carries the policy (refusals and error pages too) and every
    # view can ask for the response's nonce. django-csp's, with the settings' policy built
    # once per process for answers without a nonce (arena.web.security).
    "arena.web.security.PolicyMiddleware",
    "arena.web.limits.BodySizeLimitMiddleware",  # before anything reads the body
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "arena.api.caching.PrivateApiAnswersMiddleware",
    # Last: turns an attempt django-axes refused into its 429 (arena.http.logins).
    "axes.middleware.AxesMiddleware",
]

AUTHENTICATION_BACKENDS = [
    # First: asks arena.http.logins whether this attempt must wait before any password is
    # checked; then Django's own check of the password.
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]

ROOT_URLCONF = "arena.urls"
WSGI_APPLICATION = "arena.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASES: dict[str, dict[str, Any]] = {"default": _env["DATABASE"]}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Django's backend, with a health check of kept connections that needs no round trip
    # to the server while the connection is idle and its socket quiet (arena/postgres/).
    DATABASES["default"]["ENGINE"] = "arena.postgres"
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
# The pages' covering indexes (docs/deploy.md, "Load and scale") hold extra columns on
# PostgreSQL; SQLite (a laptop, the tests) keeps their keys, as Django says at every
# migrate: nothing to act on there.
SILENCED_SYSTEM_CHECKS = ["models.W040"]

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = False
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
# The site's own files, then each hosted game's renderer from the game's folder
# (arena/web/gamefiles.py): a game's files live with the game, never in arena/static.
STATICFILES_FINDERS = [
    "django.contrib.staticfiles.finders.FileSystemFinder",
    "django.contrib.staticfiles.finders.AppDirectoriesFinder",
    "arena.web.gamefiles.GameRendererFinder",
]
# Uploaded bot files: on the local file system (a laptop, one host), or, with ARENA_S3_BUCKET,
# in an object store over the S3 API (MinIO in docker/compose.yml), so hosts share nothing on
# disk: a worker host needs only the database, Redis and the bucket. Replays are in the
# database already.
if _env["S3_BUCKET"]:
    _default_storage: dict[str, Any] = {
        "BACKEND": "storages.backends.s3.S3Storage",
        "OPTIONS": {
            "bucket_name": _env["S3_BUCKET"],
            "endpoint_url": os.environ.get("ARENA_S3_ENDPOINT_URL") or None,
            "access_key": os.environ.get("ARENA_S3_ACCESS_KEY_ID") or None,
            "secret_key": os.environ.get("ARENA_S3_SECRET_ACCESS_KEY") or None,
            "region_name": os.environ.get("ARENA_S3_REGION") or None,
            "location": os.environ.get("ARENA_S3_PREFIX", "").strip("/"),
            # Bot sources are served only through owner-checked views, never by URL.
            "default_acl": "private",
            "querystring_auth": True,
            "file_overwrite": False,
            # MinIO and most S3-compatible stores want path-style addressing.
            "addressing_style": os.environ.get("ARENA_S3_ADDRESSING_STYLE", "path"),
        },
    }
else:
    _default_storage = {"BACKEND": "django.core.files.storage.FileSystemStorage"}
STORAGES: dict[str, dict[str, Any]] = {
    "default": _default_storage,
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}
WHITENOISE_USE_FINDERS = DEBUG
MEDIA_ROOT = DATA_DIR / "media"
MEDIA_URL = "media/"  # never served: bot sources go out only through owner-checked views

SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SECURE = not DEBUG and env_bool("SECURE_COOKIES", True)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
# Behind a TLS-terminating proxy Django sees plain HTTP: with ARENA_FORWARDED_PROTO=1 it
# believes the proxy's X-Forwarded-Proto (request.is_secure(), https:// absolute URLs, CSRF's
# origin check). Only for proxies that set the header themselves, replacing a client's; it
# goes with ARENA_TRUSTED_PROXIES, which says how many of them there are.
if _env["FORWARDED_PROTO"]:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
# Content-Security-Policy on every answer (django-csp), the admin and the API's docs included.
# Bot names and descriptions are user input: templates escape them, and the policy is the
# second line, so even an injected tag could neither run a script nor load or send anything
# elsewhere. Scripts, styles, fonts, workers and fetches come from this site only; an inline
# <script> or <style> runs only with the response's nonce (``request.csp_nonce``: Swagger UI's
# start-up, arena/templates/arena/api/), never an injected one; no style="..." attributes.
# Scripts style through the CSSOM (the game renderers adopt constructed style sheets).
# Images may also be data: URLs (icons).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF, NONCE],
        "style-src": [SELF, NONCE],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "worker-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}

# --- REST API -------------------------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_PARSER_CLASSES": [
        "arena.api.parsers.JSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "DEFAULT_PAGINATION_CLASS": "arena.api.pagination.Pagination",
    "PAGE_SIZE": 50,
    "DEFAULT_FILTER_BACKENDS": ["arena.api.filtering.FilterBackend"],
    "DEFAULT_SCHEMA_CLASS": "arena.api.schema.ArenaAutoSchema",
    "DEFAULT_THROTTLE_RATES": {
        "uploads": _env["RATE_UPLOADS"],
        "playground_checks": _env["RATE_PLAYGROUND_CHECKS"],
    },
    # The client address throttles key on: REMOTE_ADDR unless proxies of ours stand in front
    # (arena.http.addresses, which the log-in limits use too).
    "NUM_PROXIES": _env["TRUSTED_PROXIES"],
    "EXCEPTION_HANDLER": "arena.api.errors.exception_handler",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Bluff Arena API",
    "DESCRIPTION": "Upload bots for the hosted games, follow ladders, tournaments and replays.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "arena.api.schema.postprocess",
    ],
    "ENUM_NAME_OVERRIDES": {
        "VersionStatusEnum": "arena.models.BotVersion.Status",
        "VersionKindEnum": "arena.models.BotVersion.Kind",
        "MatchStatusEnum": "arena.models.Match.Status",
        "MatchKindEnum": "arena.models.Match.Kind",
        "TournamentStatusEnum": "arena.models.Tournament.Status",
        "TournamentEntryEnum": "arena.models.Tournament.Entry",
    },
}

# Throttles and cached counts must be shared by every web process: Redis when there is one,
# else files under the data directory (a laptop's single machine).
if _env["BROKER_URL"].startswith(("redis://", "rediss://")):
    CACHES = {
        "default": {
            "BACKEND": "arena.cache.RedisCache",  # Django's, one client per pool
            "LOCATION": _env["BROKER_URL"],
            "KEY_PREFIX": "arena",
        }
    }
else:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
            "LOCATION": str(DATA_DIR / "cache"),
        }
    }

# --- Celery (workers/celery.py reads every CELERY_* name) ------------------------------
CELERY_BROKER_URL = _env["BROKER_URL"]
if CELERY_BROKER_URL.startswith("filesystem://"):
    _queue_dir = DATA_DIR / "broker"
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(_queue_dir / "queue"),
        "data_folder_out": str(_queue_dir / "queue"),
        "processed_folder": str(_queue_dir / "processed"),
        "control_folder": str(_queue_dir / "control"),  # else kombu writes ./control
        "store_processed": False,
        # Look for work four times a second (kombu's default is once): a playground run
        # waits for the poll before anything else.
        "polling_interval": 0.25,
    }
    # The queues are read in their order below, as with Redis (arena/broker.py).
    CELERY_BROKER_TRANSPORT = "arena.broker:Transport"
else:
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        # With acks_late, a message whose worker died is handed out again after this long.
        "visibility_timeout": _env["VISIBILITY_TIMEOUT"],
        # Read the queues in the order below: control, playground, validations, matches.
        "queue_order_strategy": "priority",
    }
# An author waiting at the playground, or for an upload's verdict, should not wait behind a
# whole tournament: playground matches and validations have their own queues, read first
# (in this order) by every worker; a worker started without -Q reads them all. A busy worker
# still finishes the matches it holds: a playground match takes the next free process.
# Before them all, "control": the short bookkeeping that starts and advances tournaments
# (a sign-up tournament starts within seconds of its deadline). A worker of its own serves it
# (``-Q control``, no sandbox needed) so it never waits behind matches; the others read it
# too, should that worker be down.
CELERY_TASK_DEFAULT_QUEUE = "celery"
_TASKS = Exchange("celery", type="direct")
CELERY_TASK_QUEUES = (
    Queue("control", _TASKS, routing_key="control"),
    Queue("playground", _TASKS, routing_key="playground"),
    Queue("validation", _TASKS, routing_key="validation"),
    Queue("celery", _TASKS, routing_key="celery"),
)
CONTROL_TASKS = (
    "start_due_tournaments",
    "start_tournament",
    "finish_tournament",
    "run_scheduled_tournament",
)
CELERY_TASK_ROUTES = {
    "workers.tasks.play_playground_match": {"queue": "playground"},
    "workers.tasks.validate_version": {"queue": "validation"},
    **{f"workers.tasks.{name}": {"queue": "control"} for name in CONTROL_TASKS},
}
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# Above the longest a match can take with the bots' limits (checked in arena.config), so a
# slow bot loses on time with a result before the worker gives up on the match.
CELERY_TASK_SOFT_TIME_LIMIT = _env["MATCH_TIME_LIMIT"]
CELERY_TASK_TIME_LIMIT = _env["MATCH_TIME_LIMIT"] + 60
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_IGNORE_RESULT = True
CELERY_WORKER_HIJACK_ROOT_LOGGER = False
CELERY_BEAT_SCHEDULER = "workers.beat:ArenaScheduler"
# The tasks, by module name: the arena sends them by name (arena/queue.py) and imports none.
CELERY_IMPORTS = ("workers.tasks",)
# Celery's Django fixup closes every database connection before and after each task unless
# this is set; reopening one costs more than a short match's bookkeeping. Workers instead
# drop broken or old connections the way Django does per request (workers/celery.py).
CELERY_DB_REUSE_MAX = 1_000_000
CELERY_TIMEZONE = TIME_ZONE

# --- The arena itself ------------------------------------------------------------------
ARENA_UPLOAD_MAX_BYTES: int = _env["UPLOAD_MAX_BYTES"]
ARENA_MOVE_TIMEOUT_S: float = _env["MOVE_TIMEOUT"]
ARENA_TIME_BANK_S: float = _env["TIME_BANK"]
ARENA_MOVE_WALL_S: float = _env["MOVE_WALL"]
ARENA_WALL_BANK_S: float = _env["WALL_BANK"]
ARENA_MATCH_WALL_S: float = _env["MATCH_WALL"]
ARENA_DEMO_TOURNAMENT: bool = _env["DEMO_TOURNAMENT"]
ARENA_DEMO_ADMIN: bool = _env["DEMO_ADMIN"]
ARENA_SEED_KEY: str = _env["SEED_KEY"]
# How many proxies of ours add to X-Forwarded-For (arena.http.addresses).
ARENA_TRUSTED_PROXIES: int = _env["TRUSTED_PROXIES"]

# --- Wrong passwords: django-axes records them, arena.http.logins decides the waits ---------
ARENA_LOGIN_FAILURES: int = _env["LOGIN_FAILURES"]
ARENA_LOGIN_ACCOUNT_FAILURES: int = _env["LOGIN_ACCOUNT_FAILURES"]
ARENA_LOGIN_SHARED_AFTER: int = _env["LOGIN_SHARED_AFTER"]
ARENA_LOGIN_ADDRESS_FAILURES: int = _env["LOGIN_ADDRESS_FAILURES"]
ARENA_LOGIN_WAIT_S: float = _env["LOGIN_WAIT"]
ARENA_LOGIN_MAX_WAIT_S: float = _env["LOGIN_MAX_WAIT"]
ARENA_LOGIN_IPV6_PREFIX: int = _env["LOGIN_IPV6_PREFIX"]
AXES_HANDLER = "arena.http.logins.LoginLimitsHandler"
# Rows per account and address (and user agent); the handler sums them as it needs.
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_FAILURE_LIMIT = ARENA_LOGIN_FAILURES
AXES_COOLOFF_TIME = timedelta(days=1)  # a day without failures forgets them
AXES_RESET_ON_SUCCESS = True  # a right password forgives its address's failures on the account
# An attempt refused before its password was checked is not a failure: waiting out the
# delay always gives a real try, and a guesser hammering does not push it further.
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_USERNAME_CALLABLE = "arena.http.logins.account_name"
AXES_CLIENT_IP_CALLABLE = "arena.http.logins.login_address"  # IPv6 grouped by its /64
AXES_LOCKOUT_CALLABLE = "arena.http.logins.lockout_response"
# No row per successful log-in (API clients trade a password for a token often, and the
# session hash axes keeps would make a session for each of them).
AXES_DISABLE_ACCESS_LOG = True

# Bodies over the upload limit (plus its form) are refused unread (arena.web.limits); form
# fields are capped at the same size, and an upload is kept in memory (never spooled to a
# temporary file) since it is at most that size.
DATA_UPLOAD_MAX_MEMORY_SIZE = ARENA_UPLOAD_MAX_BYTES + 64 * 1024
FILE_UPLOAD_MAX_MEMORY_SIZE = ARENA_UPLOAD_MAX_BYTES + 64 * 1024
DATA_UPLOAD_MAX_NUMBER_FIELDS = 200

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": _env["LOG_LEVEL"]},
    "loggers": {
        # Django's own default logging also prints "django" to the console: one handler,
        # here, so each line is printed once.
        "django": {"handlers": ["console"], "level": _env["LOG_LEVEL"], "propagate": False},
        "django.db.backends": {"level": "WARNING"},
        # Its start-up banner and every successful log-in are INFO; failures are WARNING.
        "axes": {"level": "WARNING"},
    },
}
