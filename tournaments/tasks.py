"""Celery tasks: thin wrappers that load by id and call one service (STYLE.md 4.6).

Each task is idempotent (the services recompute from the results) and retried on transient database errors.
``advance_division`` moves a division forward after a result (bracket, automatic Swiss pairing) and then enqueues
its standings and ratings, and after the standings the event's points in its club's seasons; ``reconcile`` (run by
Celery beat) re-enqueues divisions whose standings are pending or failed and seasons never computed whole, so work
lost while the broker was down is done later. A task that fails for good marks the standings
``failed`` with the error, which directors see; the standings already stored stay as they were.
"""

from __future__ import annotations

import logging
from typing import Any

from celery import Task, shared_task
from django.db import DatabaseError, InterfaceError, OperationalError

from common.actor import SYSTEM
from tournaments.models import Division
from tournaments.selectors.seasons import season_contributions
from tournaments.services import (
    divisions_behind_their_matches,
    mark_standings_failed,
    pair_next_round,
    recompute_event_season_points,
    recompute_ratings,
    recompute_season_points,
    recompute_standings,
    schedule_followup,
    seasons_to_compute,
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
    """Recompute the division's standings, then (for a club's event) the event's points in the club's seasons,
    which read those standings' places."""
    written = recompute_standings(division_id)
    event = Division.objects.filter(pk=division_id, event__club__isnull=False).values_list("event_id", flat=True)
    for event_id in event:
        season_points_of_event.delay(event_id)
    return written


@shared_task(**_RETRY)
def season_points_of_event(event_id: int) -> int:
    """Rewrite what the event gives each player in every season of its club (tournaments/services/seasons.py)."""
    return recompute_event_season_points(event_id, season_contributions)


@shared_task(**_RETRY)
def season_points(season_id: int) -> int:
    """Rewrite the season's points, every event of it."""
    return recompute_season_points(season_id, season_contributions)


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
    for season_id in seasons_to_compute():  # created or changed, and its task lost
        season_points.delay(season_id)
    return sorted(stale + behind)
