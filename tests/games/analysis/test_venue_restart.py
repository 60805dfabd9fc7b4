"""An analysis left pending when the venue was stopped (Ctrl-C, a closed laptop) while its job was with the analysis
worker: that job is gone with the worker (the venue drops the messages its workers had taken), so at the venue's
next start every pending analysis is enqueued again (config/venue.py's catch-up), and one already done is not."""

from __future__ import annotations

from typing import Any

import pytest

import config.celery
from config import venue
from games import tasks
from games.analysis import service as analysis_service
from games.models import MatchAnalysis
from tests.games.analysis.made_up import store_analysis
from tests.games.analysis.test_analyse_match import CUBE_MATCH, import_mat
from tests.games.analysis.test_format_version import enqueued  # noqa: F401 (the fixture)

pytestmark = pytest.mark.django_db


def test_a_pending_analysis_whose_job_was_lost_is_enqueued_again_at_the_venues_next_start(
    django_capture_on_commit_callbacks: Any,
    enqueued: list[tuple[int, int | None]],  # noqa: F811 (the fixture)
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pending, done = import_mat(CUBE_MATCH), import_mat(CUBE_MATCH)
    store_analysis(done, plies=0)
    with django_capture_on_commit_callbacks(execute=True):
        analysis_service.request_analysis(pending.pk, plies=2)
    assert enqueued == [(pending.pk, 2)]
    enqueued.clear()  # the analysis worker had taken it when the venue was stopped: gone with it
    with django_capture_on_commit_callbacks(execute=True):
        analysis_service.request_analysis(pending.pk, plies=2)
    assert enqueued == [], "a second request while one is pending enqueues nothing by itself"

    sent: list[str] = []
    monkeypatch.setattr(config.celery.app, "send_task", lambda name, *args, **kwargs: sent.append(name))
    venue.catch_up({})
    assert "games.tasks.requeue_pending_analyses" in sent, "the venue's start asks for the pending analyses"
    assert tasks.requeue_pending_analyses() == [pending.pk]
    assert enqueued == [(pending.pk, 2)], "at the depth asked for; the one done is left alone"
    assert MatchAnalysis.objects.get(match=done).status == MatchAnalysis.Status.DONE
