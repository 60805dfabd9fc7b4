"""A whole event run through a real Celery worker and a real Redis (CI: BGMATCH_WORKER_TESTS=1 and
CELERY_BROKER_URL=redis://...): a main bracket with a progressive consolation (the losers of every main round but
the final's) and a last chance (the losers of consolation round 1 and a late entry). Players enter their results
from their entry links and the opponents confirm, through the services; on each commit the receivers enqueue
``advance_division``, which the worker runs on the test database, with the standings and ratings after it. The test
only plays the matches the worker has made ready, until the division is finished.

The worker is a subprocess of its own (as tests/conftest.py's ``celery_worker``) on a queue of its own; it is
pointed at the test run's database, and the tasks it enqueues itself go to the same queue."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.db import connection

from common.actor import Actor
from config.celery import app as celery_app
from games.models import Match
from tests.conftest import PROJECT_ROOT
from tests.tournaments.services.support import enter_win, link
from tournaments import services
from tournaments.models import Division, Entry, Pairing, RatingChange, Standing
from tournaments.simulation import champions

pytestmark = [
    pytest.mark.worker,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="needs PostgreSQL (DATABASE_URL=postgres://...): the worker shares the test database",
    ),
]

DEADLINE = 240.0  # seconds for the whole event (about 20 matches, each a few tasks)

# The worker process: the project's Celery app, its default queue set to the test's queue (so that the tasks the
# worker enqueues itself, the standings after a sync, come back to it), consuming only that queue.
BOOT = """
import sys
from config.celery import app
app.conf.task_default_queue = sys.argv[1]
app.worker_main(["worker", "--pool=solo", "--queues", sys.argv[1], "--hostname", sys.argv[1] + "@%h",
                 "--without-gossip", "--without-mingle", "--without-heartbeat", "--loglevel=INFO"])
"""


@dataclass
class Worker:
    queue: str
    log_path: Path
    process: subprocess.Popen[bytes]

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")


def database_url_of_this_run() -> str:
    db = settings.DATABASES["default"]
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    return f"postgres://{db['USER']}{password}@{db['HOST']}:{db['PORT'] or 5432}/{db['NAME']}"


@pytest.fixture
def worker(transactional_db: Any, tmp_path: Path) -> Iterator[Worker]:
    """A worker on the test database (set up after it, stopped before it is flushed); the test's tasks are sent to
    the worker's queue and not run eagerly."""
    assert settings.DATABASES["default"]["NAME"].startswith("test_"), "the test run's own database"
    queue = f"bgmatch-test-{uuid.uuid4().hex[:12]}"
    env = {**os.environ, "DATABASE_URL": database_url_of_this_run(), "CONN_MAX_AGE": "0"}
    log_path = tmp_path / "worker.log"
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [sys.executable, "-c", BOOT, queue], cwd=PROJECT_ROOT, env=env, stdout=log, stderr=subprocess.STDOUT
        )
    conf = celery_app.conf
    old = conf.task_always_eager, conf.task_default_queue
    conf.task_always_eager, conf.task_default_queue = False, queue
    try:
        yield Worker(queue, log_path, process)
    finally:
        conf.task_always_eager, conf.task_default_queue = old
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def wait_for(worker: Worker, what: str, done: Callable[[], bool], deadline: float, step: Callable[[], None]) -> None:
    """Call ``step`` until ``done()``; fail with the worker's log when it exits or the deadline passes."""
    while not done():
        if worker.process.poll() is not None:
            pytest.fail(f"the Celery worker exited with {worker.process.returncode}; its log:\n{worker.log()}")
        if time.monotonic() > deadline:
            pytest.fail(f"{what}: not done within {DEADLINE:.0f} s; the worker's log:\n{worker.log()}")
        step()
        time.sleep(0.2)


def test_a_main_progressive_consolation_and_last_chance_event_runs_to_the_end_through_the_worker(
    worker: Worker, division_of: Callable[..., Division], as_director: Actor
) -> None:
    club = services.create_rating_list(actor=as_director, name="Club list")
    event = services.create_event(actor=as_director, name="Worker open", rating_list=club)
    division = division_of(
        "main-consolation-lastchance",
        8,
        event=event,
        drop_rounds=2,  # with 3 main rounds: the losers of every round but the final's drop (progressive)
        last_chance_places=1,
        entry_mode="scoresheet",
        match_length=1,
    )
    services.start_division(division, actor=as_director)
    late = services.register_player(division, actor=as_director, name="Late Lou", place="last-chance place 1")
    entered: set[int] = set()
    confirmed: set[int] = set()

    def step() -> None:
        """Side A enters his win on every match the worker made ready; side B confirms once the worker asks him."""
        for p in Pairing.objects.filter(division=division).select_related("match"):
            if p.match is not None and p.match.status == Match.Status.SCHEDULED and p.match_id not in entered:
                enter_win(p, Entry.objects.get(pk=p.entry_a_id), actor=link(p.match, 0))
                entered.add(p.match_id)
            elif p.confirmation == Pairing.Confirmation.AWAITING and p.pk not in confirmed:
                services.confirm_result(p, actor=link(p.match, p.confirmation_side))
                confirmed.add(p.pk)

    def finished() -> bool:
        division.refresh_from_db()
        current = division.standings_status == Division.Work.CURRENT
        return (
            division.status == Division.Status.FINISHED
            and current
            and division.standings_version == (division.results_version)
        )

    deadline = time.monotonic() + DEADLINE
    wait_for(worker, "the division", finished, deadline, step)
    rated = Match.objects.filter(pairing__division=division, status=Match.Status.FINISHED).count()
    wait_for(
        worker,
        "the ratings",
        lambda: RatingChange.objects.filter(rating_list=club).count() == 2 * rated,
        deadline,
        step,
    )

    log = worker.log()
    assert "tournaments.tasks.advance_division" in log and "succeeded" in log, log
    assert division.standings_error == ""
    pairings = list(Pairing.objects.filter(division=division).select_related("round"))
    assert not [p.key for p in pairings if p.status in (Pairing.Status.READY, Pairing.Status.PLAYING)]
    assert all(p.confirmation in ("", Pairing.Confirmation.CONFIRMED) for p in pairings)
    brackets = {p.round.bracket for p in pairings if p.status == Pairing.Status.FINISHED}
    assert brackets == {"main", "consolation", "last-chance"}
    by_bracket = {b: [p for p in pairings if p.round.bracket == b] for b in brackets}
    assert len([p for p in by_bracket["main"] if p.status == Pairing.Status.FINISHED]) == 7
    assert len([p for p in by_bracket["consolation"] if p.status == Pairing.Status.FINISHED]) == 5, "6 losers drop"
    assert late.pk in {e for p in by_bracket["last-chance"] for e in (p.entry_a_id, p.entry_b_id)}

    names = dict(Entry.objects.filter(division=division).values_list("player_id", "player__display_name"))
    won = {bracket: names[player] for bracket, player in champions(division).items() if player is not None}
    assert won["main"] == "P01", "side A won every match: the top seed"
    assert set(won) == {"main", "consolation", "last-chance"}
    table = list(Standing.objects.filter(division=division).order_by("rank").select_related("entry__player"))
    assert len(table) == 9 and table[0].entry.player.display_name == "P01" and table[0].rank == 1
    assert table[1].entry.player.display_name == "P02", "the main final's loser is second"
    assert RatingChange.objects.filter(rating_list=club).count() == 2 * rated > 0
