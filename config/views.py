"""Project-level pages: the home page and the health endpoint used by load balancers and operators."""

import contextlib
import logging

from django.db import DatabaseError, connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from config.celery import app as celery_app

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


@never_cache
@require_GET
def health(request: HttpRequest) -> JsonResponse:
    """Report the database and broker; 200 when both are usable, 503 otherwise."""
    report = {"database": database_status(), "broker": broker_status()}
    healthy = report["database"] == "ok" and report["broker"] in {"ok", "eager"}
    return JsonResponse(report, status=200 if healthy else 503)
