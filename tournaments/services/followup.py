"""What follows a result: after the commit, the division's follow-up (the sync, then the standings and ratings) is
enqueued as the Celery task ``advance_division``; until it has run, the result's pairing is flagged due (written
with the result) or, for a result of no pairing, the division's standings are marked pending.

The tasks (tournaments/tasks.py) sit above the services they call, so no service imports them: the task that runs
the follow-up is plugged in here by ``TournamentsConfig.ready`` (:func:`plug_followup_task`).
"""

from __future__ import annotations

import enum
import logging
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Protocol

from django.db import DatabaseError, transaction

from common.after_response import enqueue_after_response
from tournaments.models import Division
from tournaments.services.standings import mark_standings_failed

log = logging.getLogger(__name__)


class FollowupTask(Protocol):
    """What the follow-up needs of the Celery task that runs it: ``delay(division_id)`` and its app's settings."""

    app: Any

    def delay(self, division_id: int) -> Any: ...


_plugged: list[FollowupTask] = []


def plug_followup_task(task: FollowupTask) -> None:
    """Name the task that runs a division's follow-up (``tournaments.tasks.advance_division``)."""
    _plugged[:] = [task]


def _followup_task() -> FollowupTask:
    if not _plugged:
        raise RuntimeError("no follow-up task is plugged in: TournamentsConfig.ready plugs advance_division in")
    return _plugged[0]


_batch = threading.local()


@contextmanager
def followups_deferred() -> Iterator[set[int]]:
    """For batch work in one process (a rehearsal, a bulk import): results still mark their division's standings
    pending, but nothing is enqueued; the caller syncs and recomputes once, at the end, the divisions collected in
    the yielded set."""
    previous = getattr(_batch, "divisions", None)
    _batch.divisions = set()
    try:
        yield _batch.divisions
    finally:
        _batch.divisions = previous


def schedule_followup(division_id: int) -> None:
    """Mark the division's standings pending and, after the commit, enqueue its sync and standings
    (:func:`followup_after_commit`): for the services that hold the division's lock, a result with no pairing to
    flag (a playoff's match, after its commit) and ``reconcile``. A pairing's result is flagged on the pairing in
    its match's own transaction instead, which may not take the division's lock (the lock order)."""
    Division.objects.filter(pk=division_id).update(standings_status=Division.Work.PENDING)
    followup_after_commit(division_id)


def followup_after_commit(division_id: int) -> None:
    """Enqueue the division's follow-up after the commit, and write nothing now.

    The result is committed before anything here can fail, so it always stays recorded:

    - with a broker, if the broker cannot be reached the follow-up stays due (the pairing's flag, or the standings
      marked pending) and the periodic ``reconcile`` task (Celery beat) enqueues the work again;
    - with eager tasks (no broker), ``delay`` runs the follow-up here, and if it fails the standings are marked
      failed with the error, as a worker's failure marks them (``DivisionTask.on_failure``); the division's next
      follow-up (its next result, or ``reconcile``) computes them again."""
    deferred = getattr(_batch, "divisions", None)
    if deferred is not None:
        deferred.add(division_id)
        return

    transaction.on_commit(lambda: enqueue_after_response(lambda: _send(division_id)))


class Sent(enum.StrEnum):
    """What became of a follow-up asked for now (:func:`request_followup`)."""

    QUEUED = "queued"  # the broker has it: a worker will run it
    DONE = "done"  # tasks run eagerly (no broker): it ran here
    LEFT_TO_RECONCILE = "left_to_reconcile"  # the broker could not be reached: reconcile sends it later


def request_followup(division_id: int) -> Sent:
    """A director's "recompute": mark the division pending and enqueue its follow-up now (nothing waits to be
    committed first), saying honestly whether it was queued, ran here, or is left to ``reconcile``."""
    Division.objects.filter(pk=division_id).update(standings_status=Division.Work.PENDING)
    return _send(division_id)


def _send(division_id: int) -> Sent:
    advance_division = _followup_task()
    eager = advance_division.app.conf.task_always_eager
    try:
        advance_division.delay(division_id)
    except Exception as exc:
        if not eager:
            log.warning("could not enqueue the follow-up of division %s; reconcile will retry", division_id)
            return Sent.LEFT_TO_RECONCILE
        _followup_failed(division_id, exc)
    return Sent.DONE if eager else Sent.QUEUED


def _followup_failed(division_id: int, exc: Exception) -> None:
    """An eager follow-up raised: mark the standings failed with its error (the result itself is committed)."""
    try:
        mark_standings_failed(division_id, exc)
    except DatabaseError:
        log.exception("the follow-up of division %s failed, and so did marking its standings failed", division_id)
        return
    log.error(
        "the follow-up of division %s failed (%s: %s); the result is recorded and the standings are marked failed "
        "until the division's next follow-up computes them",
        division_id,
        type(exc).__name__,
        exc,
        exc_info=exc,
    )
