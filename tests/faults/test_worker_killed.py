"""The Celery worker is killed (SIGKILL) in the middle of a bracket or standings task; the results stay stored and
the division converges to the state an uninterrupted run gives.

How the kill is made to land mid-task, with nothing in the product for it: a second PostgreSQL connection holds
a SHARE lock on the table the task writes next (games_match: the bracket's next match; tournaments_standing: the
standings), so the task's own transaction stops on that write. The test sees the task's backend waiting on the
lock, with its earlier writes and its row lock on the division held, kills the worker, then releases the lock: the
orphaned backend finds its client gone and PostgreSQL rolls the transaction back.

The workers run as deployed (prefork pool). The ways back (config/settings.py, the Celery section):
* only the pool process dies: the worker's parent hands the message back at once (acks_late with
  reject_on_worker_lost) and runs it again;
* the whole worker dies: the message stays in Redis's unacknowledged set, and a worker started after the visibility
  timeout (shortened for the test's workers) runs it again, with no beat;
* otherwise (here: the production visibility timeout of ten minutes) the division stays pending, and the next
  ``reconcile`` run (Celery beat's job, sent here as beat sends it) does the work.

Each division is compared with a twin that got the same results with tasks run in-process, uninterrupted."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from typing import Any

import pytest
import redis
from django.db import connection

from common.actor import Actor
from games.models import Match
from tests.conftest import tasks_run_eagerly
from tests.faults.conftest import (
    Workers,
    caught_up,
    first_round,
    knockout,
    only_reconcile_catches_up,
    outcome,
    side_connection,
    wait_for,
    win_for_side_a,
)
from tournaments.models import Division, Pairing

pytestmark = [
    pytest.mark.worker,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="needs PostgreSQL (DATABASE_URL=postgres://...): the worker shares the test database",
    ),
]

VISIBILITY_TIMEOUT = 2.0  # seconds, for the workers of the redelivery test only


def blocked_task(side: Any, table: str, workers: Workers) -> tuple[int, set[tuple[str, str]]]:
    """Wait for a backend of the test database stopped on a write to ``table``; its pid and the table locks it holds
    (table name, lock mode)."""

    def waiting() -> tuple[int, str] | None:
        rows = side.execute(
            "SELECT pid, query FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
            " AND wait_event_type = 'Lock'"
        ).fetchall()
        return next((row for row in rows if f'"{table}"' in row[1]), None)

    pid, _ = wait_for(f"a task stopped on a write to {table}", waiting, workers)
    held = side.execute(
        "SELECT c.relname, l.mode FROM pg_locks l JOIN pg_class c ON c.oid = l.relation WHERE l.pid = %s AND l.granted",
        [pid],
    ).fetchall()
    return pid, {(name, mode) for name, mode in held}


def kill_mid_task(
    workers: Workers, table: str, kill: Callable[[], object], *, visibility_timeout: float | None = None
) -> set[tuple[str, str]]:
    """Start a worker, let its task stop on a write to ``table``, ``kill`` there; return, once PostgreSQL has rolled
    the orphaned transaction back, the table locks the task held when it was killed."""
    with side_connection(autocommit=False) as side, side_connection() as watcher:
        side.execute(f'LOCK TABLE "{table}" IN SHARE MODE')
        workers.start(visibility_timeout=visibility_timeout)
        pid, held = blocked_task(watcher, table, workers)
        kill()
        side.rollback()  # the lock goes; the orphaned backend runs its statement, finds no client, rolls back
        gone = "SELECT NOT EXISTS (SELECT 1 FROM pg_stat_activity WHERE pid = %s)"
        wait_for("the killed task's transaction to end", lambda: watcher.execute(gone, [pid]).fetchone()[0])
    return held


def unacked_for(workers: Workers) -> list[str]:
    """The names of the tasks whose messages for the workers' queue Redis holds as delivered, unacknowledged."""
    client = redis.Redis.from_url(workers.broker_url)
    try:
        entries = [json.loads(raw) for raw in client.hgetall("unacked").values()]
        waiting = client.llen(workers.queue)
    finally:
        client.close()
    assert waiting == 0, "no other message for the queue: only the unacknowledged one can bring the work back"
    return [message["headers"]["task"] for message, _, routing_key in entries if routing_key == workers.queue]


def twin_of(director: Actor, name: str) -> Division:
    """The reference: the same results, tasks run in-process without interruption."""
    with tasks_run_eagerly():
        division = knockout(director, name)
        for pairing in first_round(division):
            win_for_side_a(pairing, director)
    assert caught_up(division)
    return division


def test_a_worker_killed_in_a_bracket_task_is_redelivered_and_the_bracket_converges(
    workers: Workers, as_director: Actor
) -> None:
    twin = twin_of(as_director, "Twin cup")
    division = knockout(as_director, "Killed cup")
    semi_1, semi_2 = first_round(division)
    with tasks_run_eagerly():
        win_for_side_a(semi_1, as_director)  # done in-process: the one message in the queue is the next result's
    win_for_side_a(semi_2, as_director)  # stored; its follow-up goes to the broker

    held = kill_mid_task(workers, "games_match", workers.kill, visibility_timeout=VISIBILITY_TIMEOUT)
    assert ("tournaments_pairing", "RowExclusiveLock") in held, "the task had written the pairings when killed"
    assert ("tournaments_division", "RowShareLock") in held, "inside the task's transaction (the division lock)"

    assert Match.objects.get(pk=semi_2.match_id).status == Match.Status.FINISHED, "the result is stored"
    assert Division.objects.get(pk=division.pk).standings_state == Division.Work.PENDING, "its pairing is flagged"
    shown = Pairing.objects.get(pk=semi_2.pk)
    assert shown.status == Pairing.Status.FINISHED, "the result shows at once: written with its match"
    assert shown.followup == Pairing.Followup.RESULT, "none of the task's writes stayed: its follow-up is still due"
    assert not Pairing.objects.filter(division=division, round__number=2, match__isnull=False).exists()
    assert unacked_for(workers) == ["tournaments.tasks.advance_division"], "not acknowledged: it can come back"

    time.sleep(VISIBILITY_TIMEOUT + 0.5)  # the message is older than the visibility timeout: the next worker takes it
    workers.start(visibility_timeout=VISIBILITY_TIMEOUT)  # no reconcile is sent in this test
    wait_for("the bracket and standings after the redelivery", lambda: caught_up(division), workers)
    assert outcome(division) == outcome(twin)
    final = Pairing.objects.select_related("entry_a__player", "entry_b__player").get(division=division, round__number=2)
    assert (final.entry_a.player.display_name, final.entry_b.player.display_name) == ("P1", "P2")
    assert unacked_for(workers) == []


def test_a_pool_process_killed_in_a_standings_task_is_run_again_by_its_worker(
    workers: Workers, as_director: Actor
) -> None:
    twin = twin_of(as_director, "Twin cup")
    division = knockout(as_director, "Killed cup")
    semi_1, semi_2 = first_round(division)
    with tasks_run_eagerly():
        win_for_side_a(semi_1, as_director)
    win_for_side_a(semi_2, as_director)

    held = kill_mid_task(workers, "tournaments_standing", workers.kill_pool_process)
    assert ("tournaments_division", "RowShareLock") in held, "inside the standings transaction (the division lock)"
    # The worker's parent saw its pool process die with the task unacknowledged, and put the message back: a new
    # pool process runs it. Neither a restart nor reconcile is needed.
    wait_for("the standings after the pool process died", lambda: caught_up(division), workers)
    assert workers.process.poll() is None, "the same worker"
    assert outcome(division) == outcome(twin)
    assert "WorkerLostError" in workers.logs(), "the worker noticed the loss"
    assert unacked_for(workers) == []


def test_a_worker_killed_in_a_standings_task_is_caught_up_by_reconcile(workers: Workers, as_director: Actor) -> None:
    twin = twin_of(as_director, "Twin cup")
    division = knockout(as_director, "Killed cup")
    semi_1, semi_2 = first_round(division)
    with tasks_run_eagerly():
        win_for_side_a(semi_1, as_director)
    before = outcome(division)[4]
    win_for_side_a(semi_2, as_director)

    held = kill_mid_task(workers, "tournaments_standing", workers.kill)
    assert ("tournaments_division", "RowShareLock") in held, "inside the standings transaction (the division lock)"

    division.refresh_from_db()
    assert division.standings_status == Division.Work.PENDING
    assert Pairing.objects.filter(division=division, round__number=2, match__isnull=False).exists(), (
        "the bracket task before it had finished: the final is drawn"
    )
    assert outcome(division)[4] == before, "the standings are as before the second semi-final: none half-written"

    only_reconcile_catches_up(division, twin, workers)


# -- the production visibility timeout: a dead worker's task back within a minute, a long task run once ----------------


def received_ids(workers: Workers, task: str = "tournaments.tasks.advance_division") -> list[str]:
    """The ids of the messages of ``task`` each worker received, over all the workers' logs (a repeat: run twice)."""
    return re.findall(rf"Task {re.escape(task)}\[([0-9a-f-]+)\] received", workers.logs())


def test_a_killed_workers_task_is_back_within_a_minute_without_beat(workers: Workers, as_director: Actor) -> None:
    twin = twin_of(as_director, "Twin cup")
    division = knockout(as_director, "Killed cup")
    semi_1, semi_2 = first_round(division)
    with tasks_run_eagerly():
        win_for_side_a(semi_1, as_director)
    win_for_side_a(semi_2, as_director)

    kill_mid_task(workers, "games_match", workers.kill)  # the settings' own visibility timeout (30 s)
    killed_at = time.monotonic()
    assert unacked_for(workers) == ["tournaments.tasks.advance_division"]
    workers.start()  # a worker that was already there, or its replacement: no reconcile, no beat
    wait_for("the bracket after the dead worker's task came back", lambda: caught_up(division), workers, deadline=75)
    assert time.monotonic() - killed_at < 60, "back within a minute"
    assert outcome(division) == outcome(twin)


def test_a_task_longer_than_the_visibility_timeout_is_not_run_twice(
    workers: Workers, as_director: Actor, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two live workers; one's task is held for 45 s (longer than the 30 s visibility timeout) on a table lock. The
    other sweeps for old messages every 5 s all along, and must not take the held one: its worker refreshes it."""
    from django.test import Client

    from tests.faults.conftest import use_broker

    twin = twin_of(as_director, "Twin cup")
    division = knockout(as_director, "Long cup")
    semi_1, semi_2 = first_round(division)
    with tasks_run_eagerly():
        win_for_side_a(semi_1, as_director)
    win_for_side_a(semi_2, as_director)
    with side_connection(autocommit=False) as side, side_connection() as watcher:
        side.execute('LOCK TABLE "games_match" IN SHARE MODE')
        workers.start()
        blocked_task(watcher, "games_match", workers)
        workers.start()  # the second worker, sweeping
        workers.wait_ready()
        time.sleep(45)
        assert len(received_ids(workers)) == 1, workers.logs()
        use_broker(monkeypatch, workers.broker_url, workers.queue)
        health = Client().get("/health/").json()
        assert health["workers"] == "ok", health
        seen = Client().get("/health/workers/").json()["seen_seconds_ago"]
        mine = [age for name, age in seen.items() if name.startswith(workers.queue)]  # both share its node name
        assert len(mine) == 1 and mine[0] < 30, seen
        side.rollback()
    wait_for("the bracket after the long task", lambda: caught_up(division), workers)
    assert outcome(division) == outcome(twin)
    ids = received_ids(workers)
    assert len(ids) == len(set(ids)), f"a message was run twice: {ids}"
