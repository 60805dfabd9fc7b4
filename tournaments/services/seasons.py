"""A season's stored points: per season, event and player what the event gave him (:class:`SeasonPoints`), so that
the season's table sums stored rows (tournaments/selectors/seasons.py) instead of reading every event's results.

When they are computed:

- after an event's results change: the follow-up that computes a division's standings then enqueues the Celery task
  ``season_points_of_event`` (tournaments/tasks.py), which rewrites that event's rows in every season of its club;
- when a season is created, or its span, system or table changes (:func:`schedule_season_points`, after the commit:
  the task ``season_points`` rewrites the whole season); also when an event's weights for master points change;
- ``manage.py season_points`` rewrites every season (or those named), and ``reconcile`` every season never computed
  whole (``points_computed_at`` empty: its task was lost, or it was created before the rows existed).

The points themselves are the selectors' to compute (the per-event points of the season's system, from the counted
results and the stored standings): the tasks pass that function in (``compute``), since services do not read
through selectors. Each rewrite locks the season's row, computes and replaces the rows in one transaction, so two
rewrites of one season run one after the other and the last reads the latest results; running one twice writes the
same rows.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from django.db import transaction
from django.utils import timezone

from tournaments.models import Event, Season, SeasonPoints

log = logging.getLogger(__name__)

#: The per-event points of a season: ``compute(season, event_ids)`` gives the unsaved rows of those events of the
#: season (None: all its events); an event outside the season's span gives none.
Compute = Callable[[Season, Sequence[int] | None], list[SeasonPoints]]


class PointsTask(Protocol):
    """What the services need of a Celery task: ``delay(pk)`` and its app's settings."""

    app: Any

    def delay(self, pk: int) -> Any: ...


_plugged: dict[str, PointsTask] = {}


def plug_season_points_tasks(*, of_season: PointsTask, of_event: PointsTask) -> None:
    """Name the tasks that rewrite a season's points, whole (``season_points``) and one event's
    (``season_points_of_event``): ``TournamentsConfig.ready`` plugs them in."""
    _plugged.update(season=of_season, event=of_event)


def _task(which: str) -> PointsTask:
    if which not in _plugged:
        raise RuntimeError("no season points task is plugged in: TournamentsConfig.ready plugs them in")
    return _plugged[which]


def schedule_season_points(season_id: int) -> None:
    """After the commit, rewrite the season's points whole (it was created, or its span, system or table changed).
    Until it has run, ``points_computed_at`` is empty, so that ``reconcile`` sends it again if the broker is down."""
    Season.objects.filter(pk=season_id).update(points_computed_at=None)
    transaction.on_commit(lambda: _send("season", season_id))


def schedule_event_season_points(event_id: int) -> None:
    """After the commit, rewrite the event's points in every season of its club (its weights changed)."""
    transaction.on_commit(lambda: _send("event", event_id))


def _send(which: str, pk: int) -> None:
    """Enqueue (or, with eager tasks, run) the task. If that fails, what was committed stays: a season stays "to
    compute" and ``reconcile`` sends it again; an event's rows are rewritten by its next follow-up or by
    ``manage.py season_points``."""
    try:
        _task(which).delay(pk)
    except Exception:
        log.exception("the points of %s %s were not computed; reconcile or manage.py season_points will", which, pk)


def seasons_to_compute() -> list[int]:
    """The seasons never computed whole since they were created or changed (what ``reconcile`` sends again)."""
    return list(Season.objects.filter(points_computed_at__isnull=True).order_by("pk").values_list("pk", flat=True))


def recompute_season_points(season_id: int, compute: Compute, event_ids: Sequence[int] | None = None) -> int:
    """Replace the stored points of the season's ``event_ids`` (None: of all its events, and then mark it computed)
    with those ``compute`` gives, in one transaction with the season's row locked; the number of rows written. A
    season deleted meanwhile writes nothing."""
    with transaction.atomic():
        season = Season.objects.select_for_update().filter(pk=season_id).first()
        if season is None:
            return 0
        rows = compute(season, event_ids)
        stored = SeasonPoints.objects.filter(season=season)
        if event_ids is not None:
            stored = stored.filter(event_id__in=event_ids)
        stored.delete()
        SeasonPoints.objects.bulk_create(rows)
        if event_ids is None:
            Season.objects.filter(pk=season.pk).update(points_computed_at=timezone.now())
    return len(rows)


def recompute_event_season_points(event_id: int, compute: Compute) -> int:
    """Rewrite the event's points in every season of its club (an event outside a season's span gives it none, and
    any rows it had there go); the number of rows written. An event of no club has none."""
    club = Event.objects.filter(pk=event_id).values_list("club_id", flat=True).first()
    if club is None:
        return 0
    seasons = Season.objects.filter(club_id=club).order_by("pk").values_list("pk", flat=True)
    return sum(recompute_season_points(season, compute, [event_id]) for season in seasons)
