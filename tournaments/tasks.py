"""Celery tasks: thin wrappers that load by id and call one service (STYLE.md 4.6).

Each task is idempotent (the services recompute from the results) and retried on transient database errors.
``advance_division`` moves a division forward after a result (bracket, automatic Swiss pairing) and then enqueues
its standings and ratings; ``reconcile`` (run by Celery beat) re-enqueues divisions whose standings are pending or
failed, so work lost while the broker was down is done later. A task that fails for good marks the standings
``failed`` with the error, which directors see; the standings already stored stay as they were.
"""

from __future__ import annotations

import logging
from typing import Any

from celery import Task, shared_task
from django.db import DatabaseError, InterfaceError, OperationalError

from games.access import SYSTEM
from tournaments.models import Division
from tournaments.services import (
    divisions_behind_their_matches,
    mark_standings_failed,
    pair_next_round,
    recompute_ratings,
    recompute_standings,
    schedule_followup,
    sync_division,
)

log = logging.getLogger(__name__)

_TRANSIENT = (OperationalError, InterfaceError)
_RETRY = {"autoretry_for": _TRANSIENT, "retry_backoff": 2, "retry_backoff_max": 60, "max_retries": 5}


class DivisionTask(Task):
    """Marks the division's standings failed (visible to directors) when the task gives up."""

    def on_failure(self, exc: BaseException, task_id: str, args: Any, kwargs: Any, einfo: Any) -> None:
        division_id = args[0] if args else kwargs.get("division_id")
        try:
            mark_standings_failed(division_id, exc)
        except DatabaseError:
            log.exception("could not record the failure of %s for division %s", self.name, division_id)


@shared_task(base=DivisionTask, **_RETRY)
def advance_division(division_id: int) -> dict[str, Any]:
    """Bring the division in step with its results, then recompute its standings and ratings."""
    report = sync_division(division_id)
    recompute_standings_task.delay(division_id)
    rating_list = Division.objects.filter(pk=division_id).values_list("event__rating_list", flat=True).first()
    if rating_list is not None:  # a confirmation, a settled dispute or a correction changes what is rated too
        update_ratings.delay(rating_list)
    return {"results": report.results, "matches": report.matches, "paired": report.paired, "finished": report.finished}


@shared_task(base=DivisionTask, name="tournaments.tasks.recompute_standings", **_RETRY)
def recompute_standings_task(division_id: int) -> int:
    return recompute_standings(division_id)


@shared_task(**_RETRY)
def pair_round(division_id: int) -> int | None:
    """Pair the next Swiss round as the system (the director's request goes through the same service)."""
    division = Division.objects.get(pk=division_id)
    return pair_next_round(division, actor=SYSTEM).number


@shared_task(**_RETRY)
def update_ratings(rating_list_id: int) -> int:
    return recompute_ratings(rating_list_id)


@shared_task
def reconcile() -> list[int]:
    """Re-enqueue every running or just-finished division whose standings are not current, and every division with
    a result whose follow-up never ran (its pairing still marked due: the process died, or lost the database or
    the broker, between the result's commit and marking the division pending; or a match over that its pairing does
    not show): those are marked pending first, so that the directors see it, and logged. What it cannot lose any
    more is the result on the pairing: that is written in the match's own transaction."""
    stale = list(
        Division.objects.exclude(status=Division.Status.REGISTRATION)
        .exclude(standings_status=Division.Work.CURRENT)
        .values_list("pk", flat=True)
    )
    behind = [pk for pk in divisions_behind_their_matches() if pk not in stale]
    for division_id in stale:
        advance_division.delay(division_id)
    for division_id in behind:
        log.warning("division %s has a result whose follow-up never ran: enqueued again", division_id)
        schedule_followup(division_id)  # marks it pending, then enqueues advance_division
    return sorted(stale + behind)
