"""Celery tasks of the games app."""

from celery import shared_task

from games.analysis import service as analysis_service
from games.analysis.engine import AnalysisFailedError
from games.models import Match


@shared_task
def ping() -> str:
    """Answer "pong": proves that a task reaches a worker (or runs eagerly) and that its result comes back."""
    return "pong"


@shared_task
def analyse_match(match_id: int, plies: int | None = None) -> str:
    """Analyse a match with GNU Backgammon (routed to the ``analysis`` queue, config/settings.py).

    The service owns the attempts and stores a failure with its error; the task only reports the outcome. It does
    the match's pending request as it stands when it runs (a newer depth asked for meanwhile replaced the older).
    """
    try:
        return analysis_service.run_requested(match_id, plies).status
    except (AnalysisFailedError, analysis_service.AnalysisRefusedError) as exc:
        return f"not analysed: {exc}"
    except Match.DoesNotExist:
        return f"not analysed: there is no match {match_id} any more"


@shared_task
def requeue_out_of_date_analyses(limit: int = 100) -> list[int]:
    """Celery beat: ask again for the analyses done in an older format (a few at a time; the ``analysis`` queue
    does the work). Returns the matches' ids."""
    return analysis_service.requeue_out_of_date(limit=limit)


@shared_task
def requeue_pending_analyses() -> list[int]:
    """At the venue's start (config/venue.py): enqueue again every pending analysis, whose job may have been lost
    with the worker stopped in the middle of it. Returns the matches' ids."""
    return analysis_service.requeue_pending()
