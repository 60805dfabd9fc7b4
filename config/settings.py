"""Django settings, read from the environment.

With nothing set, the project runs for a first look: DEBUG on, SQLite at ``db.sqlite3`` in the project root,
Celery tasks run eagerly in-process (no broker). A deployment sets at least ``SECRET_KEY``, ``DEBUG=0``,
``ALLOWED_HOSTS``, ``DATABASE_URL`` (PostgreSQL) and ``CELERY_BROKER_URL`` (Redis); README.md lists every
variable.
"""

import os
import shutil
import warnings
from pathlib import Path
from urllib.parse import urlsplit

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    """Read a yes/no variable: 1/true/yes/on or 0/false/no/off (any case); unset or empty is ``default``."""
    value = os.environ.get(name, "").strip().lower()
    if not value:
        return default
    if value in {"1", "true", "yes", "on"}:
        return True
    if value in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(f"{name}={value!r} is not a yes/no value (use 1 or 0)")


def env_list(name: str, default: str = "") -> list[str]:
    """Read a comma-separated list, ignoring blanks."""
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


def public_url(value: str) -> str:
    """``PUBLIC_URL`` checked and normalised to ``scheme://host[:port]/`` ("" when unset)."""
    value = value.strip()
    if not value:
        return ""
    parts = urlsplit(value)
    if parts.scheme not in {"http", "https"} or not parts.hostname or parts.path not in {"", "/"}:
        raise ImproperlyConfigured(
            f"PUBLIC_URL={value!r} is not the site's address: give http:// or https://, a host and at most a port, "
            "e.g. PUBLIC_URL=http://192.168.1.20:8000/"
        )
    return f"{parts.scheme}://{parts.netloc}/"


# --- Core ---------------------------------------------------------------------------------------------------

DEBUG = env_bool("DEBUG", default=True)

SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off")
    SECRET_KEY = "django-insecure-dev-only-key-do-not-use-in-production"  # DEBUG only

# PUBLIC_URL: the address the players' phones use (`make venue` finds it, or it is given): every absolute link the
# site builds (entry links and their QR codes, slips, e-mails, the API's pages) names it, whatever address the
# request came in on, and the site answers it besides the loopback (the laptop's own browser).
PUBLIC_URL = public_url(os.environ.get("PUBLIC_URL", ""))
_LOOPBACK = "localhost,127.0.0.1,[::1]"
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", _LOOPBACK if DEBUG else "")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")
if PUBLIC_URL:
    _public = urlsplit(PUBLIC_URL)
    if "ALLOWED_HOSTS" not in os.environ:
        _host = _public.hostname or ""
        ALLOWED_HOSTS = [f"[{_host}]" if ":" in _host else _host, *_LOOPBACK.split(",")]
    CSRF_TRUSTED_ORIGINS = [*CSRF_TRUSTED_ORIGINS, f"{_public.scheme}://{_public.netloc}"]
    if _public.scheme == "http":
        # A room's plain-HTTP address is not a secure context: browsers ignore Cross-Origin-Opener-Policy there and
        # log an error on every page a phone opens, so the header is not sent.
        SECURE_CROSS_ORIGIN_OPENER_POLICY = None

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI and ReDoc assets, served locally (no CDN)
    "engine",
    "games",
    "tournaments",
]

MIDDLEWARE = [
    # Background work a request causes is handed to the broker once its response is sent (common/after_response.py).
    "common.after_response.SendAfterResponseMiddleware",
    "django.middleware.security.SecurityMiddleware",
    # With PUBLIC_URL set, every absolute URL built from a request names the public address.
    "common.middleware.PublicAddressMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Cache-Control by audience (common/audience.py): before the session and CSRF middleware, to see their cookies.
    "common.audience.CacheByAudienceMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "common.middleware.ContentSecurityPolicyMiddleware",
    # A view that lost the database answers a retryable 503 (JSON under /api/, a page elsewhere), not a 500.
    "common.middleware.DatabaseUnavailableMiddleware",
]

ROOT_URLCONF = "config.urls"
LOGIN_URL = "/accounts/login/"
LOGIN_REDIRECT_URL = "/manage/"
LOGOUT_REDIRECT_URL = "/"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "config.context_processors.public_url",
            ],
        },
    },
]

# --- Database -----------------------------------------------------------------------------------------------
# PostgreSQL in production and CI; SQLite only as the zero-setup default.

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("CONN_MAX_AGE", "0")),
        conn_health_checks=True,
    ),
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # A database host that drops packets must not hold a request for the system's TCP timeout (minutes): give up
    # connecting after DATABASE_CONNECT_TIMEOUT seconds, and the request answers a retryable 503. A
    # `?connect_timeout=` in DATABASE_URL wins.
    DATABASES["default"].setdefault("OPTIONS", {}).setdefault(
        "connect_timeout", int(os.environ.get("DATABASE_CONNECT_TIMEOUT") or "5")
    )
elif DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # SQLite for a first look and a club night (`make venue`): several processes (the web server's workers, the
    # Celery worker) write to one file. WAL lets readers go on while one writes; a transaction takes the write lock
    # when it begins (IMMEDIATE), so a write never fails at once on a lock taken meanwhile; a write that meets the
    # lock waits for it (SQLite retries for up to SQLITE_BUSY_TIMEOUT seconds) within the request.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "timeout": float(os.environ.get("SQLITE_BUSY_TIMEOUT") or "20"),
            "transaction_mode": "IMMEDIATE",
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        }
    )
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# --- Internationalisation -----------------------------------------------------------------------------------

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

# --- Static files (WhiteNoise) ------------------------------------------------------------------------------

STATIC_URL = "static/"
# Where `collectstatic` puts the files WhiteNoise serves (`make venue`: its data folder).
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT") or BASE_DIR / "staticfiles")
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        # Hashed, compressed files need `collectstatic`; the first-look and test setups serve the sources.
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage",
    },
}
if DEBUG:
    # Without `collectstatic` WhiteNoise serves the sources through the finders; its missing-STATIC_ROOT
    # warning is noise then.
    warnings.filterwarnings("ignore", message=r"No directory at: .*staticfiles", category=UserWarning)

# --- Security behind a proxy (deployments) ------------------------------------------------------------------

# Behind a TLS-terminating proxy (nginx, a load balancer) that sets X-Forwarded-Proto: the site is HTTPS only,
# cookies are secure, plain HTTP is redirected (except /health/, which the proxy and compose probe over HTTP), and
# browsers are told to keep to HTTPS for HSTS_SECONDS (default one year; start lower when trying it out).
# How many proxies in front append to X-Forwarded-For: the client address used by rate limits and throttles is the
# one the outermost of them saw (common.ratelimit.client_ip). 0: no proxy, REMOTE_ADDR (a client's own
# X-Forwarded-For is ignored, so it cannot pick its address).
TRUSTED_PROXIES = int(
    os.environ.get("TRUSTED_PROXIES") or ("1" if env_bool("BEHIND_TLS_PROXY", default=False) else "0")
)
if env_bool("BEHIND_TLS_PROXY", default=False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = True
    SECURE_REDIRECT_EXEMPT = [r"^health/(workers/)?$"]
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = int(os.environ.get("HSTS_SECONDS", "31536000"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("HSTS_INCLUDE_SUBDOMAINS", default=True)
    SECURE_HSTS_PRELOAD = env_bool("HSTS_PRELOAD", default=True)
# Request bodies: at most 2.5 MiB of form fields or JSON (uploaded files aside; Django's default, which the largest
# legitimate body, a 256 KB player list, stays far below), 1000 fields and 10 files (every upload form takes one).
# Past a limit the answer is a 400 that names it (config.urls.request_refused). Uploaded files over
# FILE_UPLOAD_MAX_MEMORY_SIZE go to a temporary file; the views refuse a .mat over 1 MiB and a list over 256 KB, and
# the proxy in front bounds the whole body (client_max_body_size in deploy/nginx/bgmatch.conf.template).
DATA_UPLOAD_MAX_MEMORY_SIZE = 2_621_440
DATA_UPLOAD_MAX_NUMBER_FIELDS = 1000
DATA_UPLOAD_MAX_NUMBER_FILES = 10
FILE_UPLOAD_MAX_MEMORY_SIZE = 2_621_440
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SESSION_COOKIE_HTTPONLY = True

# --- Cache (rate limits, throttles) -------------------------------------------------------------------------
# Shared between web processes when CACHE_URL names a Redis database; otherwise each process keeps its own. It holds
# only what can be lost (rate-limit counters, spectators' shared copies): without Redis, requests go on without it.
CACHE_URL = os.environ.get("CACHE_URL", "")
CACHES = {
    "default": (
        {"BACKEND": "common.cache.FailOpenRedisCache", "LOCATION": CACHE_URL}
        if CACHE_URL
        else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    )
}
# Login attempts per client address per 15 minutes, and entry-link openings per address per minute.
LOGIN_ATTEMPTS_PER_15_MIN = int(os.environ.get("LOGIN_ATTEMPTS_PER_15_MIN", "20"))
# Password-reset requests per client address per hour (password reset exists only when e-mail is configured).
PASSWORD_RESETS_PER_HOUR = int(os.environ.get("PASSWORD_RESETS_PER_HOUR", "5"))
ENTRY_LINK_REFUSALS_PER_MIN = int(os.environ.get("ENTRY_LINK_REFUSALS_PER_MIN", "30"))
# Seconds an anonymous poll of a public event's live part may be answered from a copy shared by all spectators
# (common/live.py): 0 turns the sharing off. A change shows at most this much later.
LIVE_PART_SECONDS = float(os.environ.get("LIVE_PART_SECONDS") or "2")

# --- E-mail -------------------------------------------------------------------------------------------------
# Only password reset sends mail. Without EMAIL_HOST no mail can leave, so password reset is off (its pages are a
# 404, config/accounts.py); with it, mail goes over SMTP (STARTTLS unless EMAIL_USE_TLS=0).
EMAIL_HOST = os.environ.get("EMAIL_HOST", "")
PASSWORD_RESET_ENABLED = bool(EMAIL_HOST)
if EMAIL_HOST:
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "587"))
    EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
    EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
    EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", default=True)
    EMAIL_TIMEOUT = 10
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "bgmatch@localhost")

# --- Django REST framework ----------------------------------------------------------------------------------

REST_FRAMEWORK = {
    # An entry link (X-Entry-Token), when sent, is the request's credential; it comes first so that it wins over a
    # session, and so that a 401 names the "Token" scheme.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "games.api.auth.EntryTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
        "rest_framework.authentication.TokenAuthentication",
    ],
    # Closed by default; public read-only endpoints opt out explicitly.
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    # Request bodies are JSON (a form is a 415), parsed with a guard against pathological nesting (a 400, never a
    # RecursionError and a 500); the two uploads (a .mat log, a CSV list) take multipart/form-data as well.
    "DEFAULT_PARSER_CLASSES": ["common.api.parsers.JSONParser"],
    # Each request is counted once: an entry link by link, a user by account, anyone else by address
    # (games.api.throttles). A club's room shares one address; its phones do not share a limit.
    "DEFAULT_THROTTLE_CLASSES": [
        "games.api.throttles.EntryLinkThrottle",
        "games.api.throttles.AddressThrottle",
        "games.api.throttles.AccountThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        "entry-link": os.environ.get("API_RATE_ENTRY_LINK", "600/min"),
        "anon": os.environ.get("API_RATE_ANON", "1200/min"),
        "user": os.environ.get("API_RATE_USER", "2400/min"),
    },
    "DEFAULT_PAGINATION_CLASS": "games.api.pagination.StandardPagination",
    "PAGE_SIZE": 50,
    "EXCEPTION_HANDLER": "games.api.exceptions.api_exception_handler",
    "DEFAULT_SCHEMA_CLASS": "common.api.schema.AutoSchema",
}

SPECTACULAR_SETTINGS = {
    "TITLE": "bgmatch API",
    "DESCRIPTION": (
        "Match-play backgammon: players, matches to N points, the action log, director corrections, entry links "
        "and .mat match logs. Errors are JSON `{code, message, ...}`."
    ),
    "VERSION": "1",
    # 3.1: a nullable value is `type: [T, "null"]`, which generators read without a flag (3.0's `nullable` is not).
    "OAS_VERSION": "3.1.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "common.api.schema.document_common_errors",
    ],
    # <id:...> path parameters are database ids (common.converters).
    "PATH_CONVERTER_OVERRIDES": {"id": {"type": "integer", "minimum": 0, "maximum": 10**18 - 1}},
    # One named enum per set of values, so that "status" of a match, an event, a division, an entry and a pairing
    # are five enums a generated client can tell apart.
    "ENUM_NAME_OVERRIDES": {
        "ActionKindEnum": "games.models.Action.Kind",
        "AnalysisStatusEnum": "games.models.MatchAnalysis.Status",
        "RecordableKindEnum": "games.api.serializers.RECORDABLE_KINDS",
        "ResultKindEnum": ["single", "gammon", "backgammon"],
        "ErrorCodeEnum": "common.api.errors.ERROR_CODES",
        "MatchStatusEnum": "games.models.Match.Status",
        "EventStatusEnum": "tournaments.models.Event.Status",
        "DivisionStatusEnum": "tournaments.models.Division.Status",
        "StandingsStatusEnum": "tournaments.models.Division.Work",
        "EntryStatusEnum": "tournaments.models.Entry.Status",
        "PairingStatusEnum": "tournaments.models.Pairing.Status",
        "ConfirmationEnum": "tournaments.models.Pairing.Confirmation",
        "DecisionEnum": "tournaments.models.Pairing.Decision",
        "FollowupStatusEnum": "tournaments.services.followup.Sent",
        "TableStateEnum": "tournaments.api.serializers.venue.TABLE_STATES",
        "PaymentMethodEnum": "tournaments.api.serializers.entries.PAYMENT_METHODS",
        "PlayoffKindEnum": "tournaments.models.Playoff.Kind",
        "PlayoffStatusEnum": "tournaments.models.Playoff.Status",
    },
}

# --- Celery -------------------------------------------------------------------------------------------------
# No broker configured: run tasks eagerly in-process, so the first-look setup needs no server.

CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", "")
CELERY_TASK_ALWAYS_EAGER = not CELERY_BROKER_URL
CELERY_TASK_EAGER_PROPAGATES = CELERY_TASK_ALWAYS_EAGER
if not CELERY_BROKER_URL:
    CELERY_BROKER_URL = "memory://localhost/"  # never contacted while tasks run eagerly (a host: kombu warns without)
# Results go to CELERY_RESULT_BACKEND when set; with a Redis broker they default to the same Redis.
CELERY_RESULT_BACKEND = os.environ.get("CELERY_RESULT_BACKEND") or (
    CELERY_BROKER_URL if CELERY_BROKER_URL.startswith(("redis://", "rediss://")) else None
)
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TIMEZONE = TIME_ZONE
CELERY_WORKER_HIJACK_ROOT_LOGGER = False
# Nothing reads a task's return value (a failure shows on the division, not in a result), so results are not
# stored. With results on, every `.delay()` from a web process also subscribes to the task's result in Redis: a
# second Redis round trip, with its own retries, in the request. `ping` keeps its result: it exists to prove the
# round trip to a worker and back.
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ANNOTATIONS = {"games.tasks.ping": {"ignore_result": False}}
# Analysis by GNU Backgammon has a queue of its own, so that analysis workers (`celery -A config worker -Q
# analysis`) run apart from the standings workers (`-Q celery`, the default queue) and never delay results.
CELERY_TASK_ROUTES = {"games.tasks.analyse_match": {"queue": "analysis"}}

# What guarantees that the standings and brackets catch up with every result, whatever dies (fault tests in
# tests/faults/):
# 1. The database, not the broker, remembers the work: a stored result marks its division's standings "pending"
#    (just after the result's commit), and only a successful recompute marks them "current". Each task writes in
#    one transaction, so a worker killed in the middle leaves nothing half-written, and the division pending.
# 2. `reconcile` (Celery beat, every minute) re-enqueues every division whose standings are not current. This is
#    the guarantee: it covers a message never sent (broker down), lost (Redis restarted without persistence) or
#    taken by a worker that died, within a minute of a worker and the broker being up.
# 3. Faster, and without beat: a task is acknowledged only when it has finished (acks_late). If a worker's
#    pool process dies, the worker's parent puts the message back at once (reject_on_worker_lost); if the whole
#    worker dies, Redis hands the unacknowledged message out again once it is older than the visibility timeout
#    (30 s), at the next sweep of any live worker (every 5 s): within a minute. A live worker bumps the delivery
#    time of every message it holds every 10 s (config.celery.KeepTasksVisible), so a task running longer than
#    the visibility timeout, or waiting for its retry countdown, is not handed to a second worker meanwhile. The
#    tasks are idempotent in any case. One message reserved per worker process at a time, so a dead worker holds
#    back little.
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# A request that enqueues (a result's follow-up) must not hang on a dead broker: connecting gives up after 1 s,
# a Redis that accepts but does not answer after 2 s (above the 1 s a worker's BRPOP waits), and a failed publish
# is not retried (the division stays pending and `reconcile` sends the work later). The visibility timeout stays
# well above the 10 s between a worker's refreshes of the messages it holds (point 3).
CELERY_BROKER_CONNECTION_TIMEOUT = 1.0
CELERY_BROKER_TRANSPORT_OPTIONS: dict[str, object] = {
    "visibility_timeout": 30,
    "unacked_restore_interval": 5,
    "unacked_restore_throttle": 1,
    "socket_connect_timeout": 1.0,
    "socket_timeout": 2.0,
}
CELERY_TASK_PUBLISH_RETRY_POLICY = {"max_retries": 0}
if CELERY_BROKER_URL.startswith("filesystem://"):
    # A broker that needs no server (`make venue`): filesystem:///FOLDER keeps each message as a file in
    # FOLDER/queue until a worker takes it (moved to FOLDER/taken, on the same disk, so that only one worker does);
    # FOLDER/control holds which queues each exchange feeds.
    _broker_folder = Path(urlsplit(CELERY_BROKER_URL).path or BASE_DIR / "broker")
    CELERY_BROKER_TRANSPORT = "config.broker:Transport"  # Kombu's, each message written whole before it is seen
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(_broker_folder / "queue"),
        "data_folder_out": str(_broker_folder / "queue"),
        "store_processed": True,
        "processed_folder": str(_broker_folder / "taken"),
        "control_folder": str(_broker_folder / "control"),
    }
# Celery beat: re-enqueue the follow-up of results whose tasks were lost (broker down, worker killed).
CELERY_BEAT_SCHEDULE = {
    "reconcile-divisions": {"task": "tournaments.tasks.reconcile", "schedule": 60.0},
    # Analyses done in an older format (games.models.MatchAnalysis.FORMAT_VERSION) are redone, 100 every 5 min.
    "requeue-out-of-date-analyses": {"task": "games.tasks.requeue_out_of_date_analyses", "schedule": 300.0},
}

# --- Logging ------------------------------------------------------------------------------------------------

LOG_LEVEL = os.environ.get("LOG_LEVEL", "INFO").upper()
# "plain" lines for a terminal, "json" (one object per line) for a log collector; entry-link secrets are redacted.
LOG_FORMAT = os.environ.get("LOG_FORMAT", "plain")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"redact": {"()": "config.logging.RedactSecrets"}},
    "formatters": {
        "plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"},
        "json": {"()": "config.logging.JsonFormatter"},
    },
    "handlers": {
        "stderr": {
            "class": "logging.StreamHandler",
            "stream": "ext://sys.stderr",
            "formatter": "json" if LOG_FORMAT == "json" else "plain",
            "filters": ["redact"],
        },
    },
    "root": {"handlers": ["stderr"], "level": LOG_LEVEL},
    "loggers": {
        "django": {"handlers": ["stderr"], "level": LOG_LEVEL, "propagate": False},
        # Tasks run in-process (no broker): a line per task that succeeded is noise (a worker still logs them).
        "celery.app.trace": {"level": "WARNING" if CELERY_TASK_ALWAYS_EAGER else LOG_LEVEL},
    },
}

# --- Analysis by GNU Backgammon (games/analysis) -----------------------------------------------------------------
# GNUBG_PATH: the gnubg program (Debian's package installs /usr/games/gnubg, which is not on root's PATH).
# ANALYSIS_PLIES: gnubg's evaluation depth (0 by default; 2 is its "world class"). ANALYSIS_TIMEOUT: seconds one
# match may take before gnubg is stopped; ANALYSIS_ATTEMPTS: tries before the analysis is marked failed.
# ANALYSIS_AUTO: analyse every match finished on the pages; ANALYSIS_IMPORTED: imported .mat matches too (else
# they are analysed on a director's request). ANALYSIS_MIN_DECISIONS: decisions a player needs to enter a PR table.
GNUBG_PATH = os.environ.get("GNUBG_PATH") or shutil.which("gnubg") or "/usr/games/gnubg"
ANALYSIS_PLIES = int(os.environ.get("ANALYSIS_PLIES", "0"))
ANALYSIS_TIMEOUT = float(os.environ.get("ANALYSIS_TIMEOUT", "300"))
ANALYSIS_ATTEMPTS = int(os.environ.get("ANALYSIS_ATTEMPTS", "3"))
ANALYSIS_AUTO = env_bool("ANALYSIS_AUTO", True)
ANALYSIS_IMPORTED = env_bool("ANALYSIS_IMPORTED", False)
ANALYSIS_MIN_DECISIONS = int(os.environ.get("ANALYSIS_MIN_DECISIONS", "50"))
# API_RATE_ANALYSIS: requests for an analysis one account may make (POST /api/matches/ID/analysis/).
API_RATE_ANALYSIS = os.environ.get("API_RATE_ANALYSIS", "30/hour")
