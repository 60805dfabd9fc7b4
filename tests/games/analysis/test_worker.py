"""The analysis through a real Celery worker and Redis, with the real gnubg: two matches sent to a worker's queue
are analysed by the worker (its own long-lived gnubg) and stored; and within one process, one gnubg serves match
after match."""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.core.management import call_command

from games.analysis.engine import worker_gnubg
from games.analysis.service import analyse_match
from games.models import Match, MatchAnalysis
from games.tasks import analyse_match as analyse_match_task
from tests.faults.conftest import Workers, wait_for, workers  # noqa: F401 (the fixture)
from tests.games.analysis.test_analyse_match import CUBE_MATCH, NACKGAMMON, import_mat


@pytest.mark.gnubg
@pytest.mark.django_db
def test_one_gnubg_process_serves_match_after_match() -> None:
    first, second = import_mat(CUBE_MATCH), import_mat(NACKGAMMON)
    analyse_match(first.pk)
    process = worker_gnubg().process
    assert process is not None and process.poll() is None
    analyse_match(second.pk)
    assert worker_gnubg().process is process and worker_gnubg().timings.start == 0.0
    assert MatchAnalysis.objects.filter(status=MatchAnalysis.Status.DONE).count() == 2


@pytest.mark.gnubg
@pytest.mark.worker
def test_a_worker_analyses_the_matches_sent_to_its_queue(workers: Workers, settings: Any) -> None:  # noqa: F811
    matches = [import_mat(CUBE_MATCH), import_mat(NACKGAMMON)]
    workers.start()
    workers.wait_ready()
    for match in matches:
        analyse_match_task.apply_async((match.pk, 0), queue=workers.queue)

    def done() -> bool:
        return MatchAnalysis.objects.filter(match__in=matches, status=MatchAnalysis.Status.DONE).count() == 2

    wait_for("both analyses", done, workers)
    for match in matches:
        match.refresh_from_db()
        analysis = MatchAnalysis.objects.get(match=match)
        assert analysis.match_seq == match.seq and analysis.players.count() == 2
    out = io.StringIO()
    call_command("analyse_match", str(Match.objects.latest("id").pk), stdout=out)
    assert "PR" in out.getvalue()
