"""Project-level views: the health endpoint used by load balancers and operators, and the answers to requests that
never reach a view (``handler400``: a body over the upload limits; ``handler500``: a lost database)."""

import contextlib
import logging
import sys
from collections.abc import Callable
from dataclasses import dataclass

from django.conf import settings
from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent, TooManyFilesSent
from django.db import DatabaseError, connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views import defaults
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from common.cache import cache_status
from common.middleware import database_unavailable_response, is_database_unavailable, log_database_unavailable
from config.celery import app as celery_app
from config.celery import worker_heartbeats

log = logging.getLogger(__name__)


def _select_one() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()


def database_status() -> str:
    """Return "ok" when the default database answers a trivial query, else "error".

    A connection that was dropped since it was last used (the server restarted, a proxy timed it out) is not an
    outage: it is closed and the query tried once more on a fresh connection. Only a failure of that one is
    reported (and logged)."""
    try:
        _select_one()
        return "ok"
    except DatabaseError as exc:
        if connection.in_atomic_block:  # a transaction cannot continue on another connection
            log.error("health: the database is unreachable: %s: %s", type(exc).__name__, exc)
            return "error"
    with contextlib.suppress(DatabaseError):  # closing a broken connection may complain; it is closed either way
        connection.close()
    try:
        _select_one()
    except DatabaseError as exc:
        log.error("health: the database is unreachable: %s: %s", type(exc).__name__, exc)
        return "error"
    return "ok"


def broker_status() -> str:
    """Return "eager" when tasks run in-process, "ok" when the broker accepts a connection, else "error"."""
    if celery_app.conf.task_always_eager:
        return "eager"
    try:
        with celery_app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1, interval_start=0, interval_step=0, timeout=2)
    except Exception as exc:  # kombu raises a different class per transport; any failure means "not reachable"
        log.error("health: the broker is unreachable: %s: %s", type(exc).__name__, exc)
        return "error"
    return "ok"


def analysis_status() -> dict[str, object]:
    """Whether GNU Backgammon can be run here (its version, or the reason it cannot), and how many match analyses
    failed. Analysis is optional: this never makes the site unhealthy."""
    from games.analysis.engine import availability
    from games.models import MatchAnalysis

    available, detail = availability()
    report: dict[str, object] = {"status": "ok", "engine": detail}
    if not available:
        report = {"status": "unavailable", "reason": detail}
    try:
        report["failed"] = MatchAnalysis.objects.filter(status=MatchAnalysis.Status.FAILED).count()
    except DatabaseError:
        report["failed"] = None
    return report


#: A worker is "late" when its last heartbeat is older than this (it writes one every REFRESH_SECONDS).
WORKER_LATE_SECONDS = 30.0


def workers_seen() -> tuple[str, dict[str, float]]:
    """The workers' status and each one's seconds since its last heartbeat. The status is "eager" when tasks run
    in-process, "ok" when a worker was alive within WORKER_LATE_SECONDS, "late" when the newest heartbeat is older,
    "none" when no worker ever wrote one, "error" when the broker cannot say."""
    if celery_app.conf.task_always_eager:
        return "eager", {}
    try:
        seen = worker_heartbeats()
    except Exception as exc:  # as for the broker: any failure means "cannot say"
        log.error("health: cannot read the workers' heartbeats: %s: %s", type(exc).__name__, exc)
        return "error", {}
    if not seen:
        return "none", {}
    return ("ok" if min(seen.values()) <= WORKER_LATE_SECONDS else "late"), seen


def workers_status() -> str:
    return workers_seen()[0]


@dataclass(frozen=True)
class HealthCheck:
    """One entry of /health/: ``check()`` gives its answer; ``healthy`` are the answers the site can serve with
    (None: reported only, never a 503, for what the site goes on without)."""

    check: Callable[[], object]
    healthy: frozenset[str] | None = None


#: What /health/ reports, in order; another part adds its own entry here.
HEALTH_CHECKS: dict[str, HealthCheck] = {
    "database": HealthCheck(database_status, frozenset({"ok"})),
    "broker": HealthCheck(broker_status, frozenset({"ok", "eager"})),
    "cache": HealthCheck(cache_status),
    "workers": HealthCheck(workers_status),
    "analysis": HealthCheck(analysis_status),
}


@never_cache
@require_GET
def health(request: HttpRequest) -> JsonResponse:
    """Report each of HEALTH_CHECKS; 200 when every one that the site needs is usable, 503 otherwise."""
    report = {name: entry.check() for name, entry in HEALTH_CHECKS.items()}
    healthy = all(entry.healthy is None or report[name] in entry.healthy for name, entry in HEALTH_CHECKS.items())
    return JsonResponse(report, status=200 if healthy else 503)


@never_cache
@require_GET
def health_workers(request: HttpRequest) -> JsonResponse:
    """Each worker's seconds since its last heartbeat, and the workers' status as /health/ reports it."""
    status, seen = workers_seen()
    return JsonResponse({"workers": status, "seen_seconds_ago": {name: round(seen[name], 1) for name in sorted(seen)}})


# -- requests that never reach a view ----------------------------------------------------------------------------------


def _too_much(exception: Exception) -> tuple[str, str, str] | None:
    """(code, title, message) for the request-size limits of settings.DATA_UPLOAD_*, else None."""
    if isinstance(exception, RequestDataTooBig):
        size = settings.DATA_UPLOAD_MAX_MEMORY_SIZE // 1024
        message = _(
            "The request is too large: at most %(size)s KB of form fields or JSON (uploaded files aside). "
            "Send less at once, or upload a long list as a file."
        ) % {"size": size}
        return "request_too_large", _("Request too large"), message
    if isinstance(exception, TooManyFilesSent):
        message = _("The request has too many files: send at most %(count)s at once.") % {
            "count": settings.DATA_UPLOAD_MAX_NUMBER_FILES
        }
        return "too_many_files", _("Too many files"), message
    if isinstance(exception, TooManyFieldsSent):
        message = _("The request has too many fields: send at most %(count)s at once.") % {
            "count": settings.DATA_UPLOAD_MAX_NUMBER_FIELDS
        }
        return "too_many_fields", _("Too many fields"), message
    return None


def _api(request: HttpRequest) -> bool:
    """Under /api/ every answer is JSON, errors too (``{code, message}``, the codes of common.errors.ErrorCode)."""
    return request.path.startswith("/api/")


def request_refused(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """Django's 400 handler: a body over the DATA_UPLOAD_* limits gets a message saying which limit and what to
    do (JSON ``{code, message}`` under /api/, a page elsewhere); any other bad request (a Host header not this
    site's, a malformed cookie) gets Django's own page, or ``bad_request`` under /api/."""
    refused = _too_much(exception) if exception is not None else None
    if refused is None:
        if _api(request):
            message = _("The request was refused as malformed (for example a Host header that is not this site's).")
            return JsonResponse({"code": "bad_request", "message": message}, status=400)
        return defaults.bad_request(request, exception)  # type: ignore[arg-type]
    code, title, message = refused
    if _api(request):
        return JsonResponse({"code": code, "message": message}, status=400)
    return render(request, "request_refused.html", {"title": title, "message": message}, status=400)


def server_error(request: HttpRequest) -> HttpResponse:
    """Django's 500 handler: a lost database outside any view (a session saved after the view, a middleware's
    query) is the same retryable 503 as inside one (common.middleware); anything else is Django's 500 page, or
    ``server_error`` JSON under /api/ (the traceback goes to the log, never to the client)."""
    exception = sys.exc_info()[1]
    if exception is not None and is_database_unavailable(exception):
        log_database_unavailable(request, exception)
        return database_unavailable_response(request)
    if _api(request):
        message = _("An unexpected error on the server; it is logged for the operators.")
        return JsonResponse({"code": "server_error", "message": message}, status=500)
    return defaults.server_error(request)
