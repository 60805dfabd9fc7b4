"""Project-wide middleware.

* :class:`ContentSecurityPolicyMiddleware`: security headers the framework does not set: a Content-Security-Policy
  that allows only the site's own scripts, styles and images (no inline script, no CDN), and no framing.
* :class:`DatabaseUnavailableMiddleware`: a view that loses its database connection (the server restarted, the
  network dropped, PostgreSQL refused) answers a clean, retryable 503 instead of a 500: JSON ``{code, message}``
  under /api/ (the API's own views get the same from games/api/exceptions.py), a short page elsewhere, both with
  ``Retry-After``. The services write in one transaction each, so the failed request left nothing half-written.
* :class:`PublicAddressMiddleware`: with ``PUBLIC_URL`` set, every absolute URL built from a request
  (``request.build_absolute_uri``: entry links and their QR codes, the API's page links) names the public address,
  whatever address the request came in on (a director working on the laptop itself at 127.0.0.1).
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.conf import settings
from django.db import InterfaceError, OperationalError, connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string

log = logging.getLogger(__name__)

DATABASE_UNAVAILABLE_CODE = "database_unavailable"
DATABASE_UNAVAILABLE_MESSAGE = "the database is unreachable; retry in a few seconds"
#: Seconds a client should wait before it retries (the ``Retry-After`` header of the 503).
RETRY_AFTER_SECONDS = 5

POLICY = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "font-src 'self'",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    )
)
# Third-party pages served from our own static files but written with inline scripts (Swagger UI, the admin's
# popups) get a policy that still allows only our own origin, plus their inline code.
RELAXED = POLICY.replace("script-src 'self'", "script-src 'self' 'unsafe-inline'").replace(
    "style-src 'self'", "style-src 'self' 'unsafe-inline'"
)
RELAXED_PREFIXES = ("/api/docs/", "/admin/")


class PublicAddressMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if settings.PUBLIC_URL:
            # What Django's build_absolute_uri() prefixes to a path (a cached property, computed from the request's
            # own scheme and Host otherwise).
            request._current_scheme_host = settings.PUBLIC_URL.rstrip("/")  # type: ignore[attr-defined]
        return self.get_response(request)


class ContentSecurityPolicyMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if "Content-Security-Policy" not in response:
            relaxed = request.path.startswith(RELAXED_PREFIXES)
            response["Content-Security-Policy"] = getattr(settings, "CSP_POLICY", None) or (
                RELAXED if relaxed else POLICY
            )
        return response


def is_database_unavailable(exc: BaseException) -> bool:
    """Whether ``exc`` means "the database cannot serve us now, try again" rather than "the query is wrong" (a bug,
    which stays a 500).

    PostgreSQL's driver raises OperationalError only for what the server or the network did (a connection refused,
    dropped or closed, the server shutting down, a statement timeout, a deadlock): all worth a retry. SQLite raises
    it for malformed SQL too, so there it counts only once the connection itself is gone, or for a write lock still
    held by another when the busy timeout ran out (``SQLITE_BUSY_TIMEOUT``: a retry will find it free)."""
    if isinstance(exc, InterfaceError):
        return True
    if not isinstance(exc, OperationalError):
        return False
    if connection.vendor == "sqlite" and "database is locked" in str(exc):
        return True
    return connection.vendor == "postgresql" or connection.connection is None or not connection.is_usable()


def log_database_unavailable(request: HttpRequest, exc: BaseException) -> None:
    """One log line per request that lost the database: what it was, and what the driver said."""
    log.error(
        "database unavailable during %s %s: %s: %s",
        request.method,
        request.path,
        type(exc).__name__,
        str(exc).strip() or "no detail",
    )


def database_unavailable_json() -> dict[str, str]:
    """The API's error body for a lost database (the house ``{code, message}`` shape)."""
    return {"code": DATABASE_UNAVAILABLE_CODE, "message": DATABASE_UNAVAILABLE_MESSAGE}


class DatabaseUnavailableMiddleware:
    """Turn a view's lost database connection into a 503 with ``Retry-After`` (see the module's docstring).

    The page is rendered without a request context: a context processor reading the session or the user would
    need the database that has just gone."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not is_database_unavailable(exception):
            return None
        log_database_unavailable(request, exception)
        return database_unavailable_response(request)


def database_unavailable_response(request: HttpRequest) -> HttpResponse:
    """The retryable 503: JSON under /api/, the page elsewhere (rendered without the database)."""
    response: HttpResponse
    if request.path.startswith("/api/"):
        response = JsonResponse(database_unavailable_json(), status=503)
    else:
        page = render_to_string("503.html", {"retry_after": RETRY_AFTER_SECONDS})
        response = HttpResponse(page, status=503)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    response["Cache-Control"] = "no-store"
    return response
