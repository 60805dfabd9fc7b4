"""Background work handed to the broker once the response has been sent.

A request that causes background work (a result's follow-up, a match's analysis) writes in its own transaction
what the work is (the pairing's follow-up flag, the analysis request's row) and enqueues the task after its commit.
Enqueuing costs time, a few milliseconds a message and more for a process's first connection to the broker, and
the player whose play ended a match should not wait for it: inside a request, :func:`after_response` keeps the
send until the response's last byte is written (Django's ``request_finished``, sent when the WSGI server closes
the response), and runs it then. Outside a request (a worker's task, a command), it sends at once.

Nothing is lost if the process dies in between: the database, not the broker, remembers the work, and the periodic
``reconcile`` and the venue's start enqueue it again (config/settings.py, "the database remembers the work").
A send that fails here is logged, as a refused publish after a commit always was; the work stays due.

Where tasks run eagerly (no broker, ``make run``) nothing is kept: :func:`enqueue_after_response` runs the task at
once, as the request's own work. Plugged in by :class:`SendAfterResponseMiddleware` (first in ``MIDDLEWARE``).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

from celery import current_app
from django.core.signals import request_finished
from django.http import HttpRequest, HttpResponse

log = logging.getLogger(__name__)

_held = threading.local()


def after_response(send: Callable[[], object]) -> None:
    """Run ``send`` after this request's response is sent; at once outside a request."""
    queue: list[Callable[[], object]] | None = getattr(_held, "queue", None)
    if queue is None:
        send()
        return
    queue.append(send)


def enqueue_after_response(send: Callable[[], object]) -> None:
    """Hand background work to the broker (``send``: a task's ``delay``) after this request's response is sent
    (:func:`after_response`). Where tasks run eagerly (no broker, ``make run``), at once: the work is done inside the
    request, and its response shows it done."""
    if current_app.conf.task_always_eager:
        send()
        return
    after_response(send)


def send_held(**_signal: Any) -> None:
    """Run what this thread's last request kept (``request_finished``: its response was sent), each send on its own:
    one that fails is logged and the others still run."""
    sends: list[Callable[[], object]] = getattr(_held, "closing", None) or []
    _held.closing = None
    for send in sends:
        try:
            send()
        except Exception:
            log.exception("could not hand work to the broker after a response; reconcile will enqueue it again")


class SendAfterResponseMiddleware:
    """Keep what a request's view sends (:func:`after_response`) until the server closes its response. Between
    requests nothing is kept: a send outside the view's work runs at once."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        request_finished.connect(send_held, dispatch_uid="common.after_response")

    def __call__(self, request: HttpRequest) -> HttpResponse:
        send_held()  # what the thread's previous request kept, if its response was never closed
        _held.queue = []
        try:
            return self.get_response(request)
        finally:
            _held.closing, _held.queue = _held.queue, None
