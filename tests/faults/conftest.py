"""Shared pieces of the fault tests: divisions set up through the services, results entered as a director, Celery
switched between eager and a real broker, real worker subprocesses on the test run's database (started, killed
and started again at will), and a second PostgreSQL connection to watch and break the first.

Nothing here patches the product: faults are made for real (a process killed, a Redis stopped, a server that
never answers, a backend terminated), and what the product did is read back from the database and from Redis.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from django.conf import settings

from common.actor import Actor
from config.celery import app as celery_app
from games.models import Match
from tests.conftest import PROJECT_ROOT
from tests.tournaments.services.support import enter_win
from tournaments import services
from tournaments.models import Division, Entry, Pairing, Standing

#: Seconds a test waits for a worker to do something before it fails with the worker's log.
DEADLINE = 90.0

# A worker as deployed (the prefork pool: a parent that takes messages and one pool process that runs the tasks),
# on a queue of its own (the tasks it enqueues itself come back to it), optionally with a shorter Redis visibility
# timeout than the production setting.
BOOT = """
import sys
from config.celery import app
queue = sys.argv[1]
app.conf.task_default_queue = queue
if len(sys.argv) > 2:
    options = dict(app.conf.broker_transport_options or {})
    options["visibility_timeout"] = float(sys.argv[2])
    app.conf.broker_transport_options = options
app.worker_main(["worker", "--pool=prefork", "--concurrency=1", "--queues", queue, "--hostname", queue + "@%h",
                 "--without-gossip", "--without-mingle", "--without-heartbeat", "--loglevel=INFO"])
"""


# -- the tournament ------------------------------------------------------------------------------------------------


def knockout(director: Actor, name: str, players: int = 4) -> Division:
    """A started single-elimination division of 1-point scoresheet matches, seeded P1, P2, ... by rating."""
    event = services.create_event(actor=director, name=name)
    settings_ = services.DivisionSettings(name="Open", format="single", entry_mode="scoresheet", match_length=1)
    division = services.create_division(event, actor=director, settings=settings_)
    for i in range(1, players + 1):
        services.register_player(division, actor=director, name=f"P{i}", rating=2000 - 10 * i)
    return services.start_division(division, actor=director)


def first_round(division: Division) -> list[Pairing]:
    pairings = Pairing.objects.filter(division=division, round__number=1, match__isnull=False)
    return list(pairings.select_related("match").order_by("key"))


def win_for_side_a(pairing: Pairing, director: Actor) -> Match:
    """The director enters the match as won by side A (the better seed): stored at once, no confirmation."""
    return enter_win(pairing, Entry.objects.get(pk=pairing.entry_a_id), actor=director)


def outcome(division: Division) -> tuple[Any, ...]:
    """What the tasks decide for a division, by player names and pairing keys (comparable across divisions)."""
    division.refresh_from_db()
    names = dict(Entry.objects.filter(division=division).values_list("pk", "player__display_name"))

    def row(p: Pairing) -> tuple[Any, ...]:
        players = (names.get(e) for e in (p.entry_a_id, p.entry_b_id, p.winner_id))
        return (p.key, p.status, *players, p.score_a, p.score_b, p.match.status if p.match else None)

    pairings = sorted(row(p) for p in Pairing.objects.filter(division=division).select_related("match"))
    table = [
        (s.after_round, s.rank, names[s.entry_id], s.wins, s.losses, s.points_for, s.points_against)
        for s in Standing.objects.filter(division=division).order_by(
            "after_round", "rank", "entry__player__display_name"
        )
    ]
    return division.status, division.standings_status, division.standings_error, pairings, table


def caught_up(division: Division) -> bool:
    """Whether the division's standings count every result (read pending while a pairing waits for its follow-up)."""
    fresh = Division.objects.get(pk=division.pk)
    return fresh.standings_state == Division.Work.CURRENT and fresh.standings_version == fresh.results_version


def use_broker(monkeypatch: pytest.MonkeyPatch, url: str, queue: str | None = None) -> None:
    """Send this process's tasks to ``url`` (not eagerly) for the rest of the test.

    Celery reads CELERY_BROKER_URL from the environment before its configuration, and keeps a connection pool
    and a producer pool built from it: both are dropped so that the next ``.delay()`` connects to ``url``."""
    monkeypatch.setenv("CELERY_BROKER_URL", url)
    monkeypatch.setenv("CELERY_RESULT_BACKEND", url)
    monkeypatch.setitem(celery_app.conf, "task_always_eager", False)
    if queue is not None:
        monkeypatch.setitem(celery_app.conf, "task_default_queue", queue)
    monkeypatch.setattr(celery_app, "_pool", None)
    monkeypatch.setattr(celery_app.amqp, "_producer_pool", None)


# -- workers -------------------------------------------------------------------------------------------------------


def database_url_of_this_run() -> str:
    db = settings.DATABASES["default"]
    assert db["NAME"].startswith("test_"), "workers must use the test run's own database"
    password = f":{db['PASSWORD']}" if db.get("PASSWORD") else ""
    return f"postgres://{db['USER']}{password}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


class Workers:
    """Celery worker subprocesses on one queue, on the test database; each writes its own log file."""

    def __init__(self, tmp_path: Path, broker_url: str) -> None:
        self.queue = f"bgmatch-fault-{uuid.uuid4().hex[:12]}"
        self.broker_url = broker_url
        self.tmp_path = tmp_path
        self.started: list[tuple[subprocess.Popen[bytes], Path]] = []

    @property
    def process(self) -> subprocess.Popen[bytes]:
        return self.started[-1][0]

    def start(self, *, visibility_timeout: float | None = None) -> subprocess.Popen[bytes]:
        env = {
            **os.environ,
            "DATABASE_URL": database_url_of_this_run(),
            "CONN_MAX_AGE": "0",
            "CELERY_BROKER_URL": self.broker_url,
            "CELERY_RESULT_BACKEND": self.broker_url,
        }
        log_path = self.tmp_path / f"worker-{len(self.started) + 1}.log"
        argv = [sys.executable, "-c", BOOT, self.queue]
        if visibility_timeout is not None:
            argv.append(str(visibility_timeout))
        with log_path.open("wb") as log:
            process = subprocess.Popen(
                argv, cwd=PROJECT_ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
            )
        self.started.append((process, log_path))
        return process

    def kill(self) -> None:
        """SIGKILL the latest worker, parent and pool process at once (a machine or container going down): no warm
        shutdown, no message handed back, the task's database session cut off."""
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=30)

    def kill_pool_process(self) -> int:
        """SIGKILL only the latest worker's pool process (the one running the task, as the OOM killer would pick
        it); the parent lives on. Returns the killed pid."""
        children = Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children").read_text().split()
        assert len(children) == 1, f"one pool process expected, found {children}"
        pid = int(children[0])
        os.kill(pid, signal.SIGKILL)
        return pid

    def logs(self) -> str:
        return "\n".join(
            f"--- worker {i}:\n{path.read_text(errors='replace')}" for i, (_, path) in enumerate(self.started, 1)
        )

    def wait_ready(self) -> None:
        log_path = self.started[-1][1]
        wait_for("the worker to start", lambda: " ready." in log_path.read_text(errors="replace"), self)

    def stop_all(self) -> None:
        for process, _ in self.started:
            if process.poll() is None:
                process.terminate()
                try:
                    process.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    os.killpg(process.pid, signal.SIGKILL)
                    process.wait()


def wait_for(what: str, done: Callable[[], Any], workers: Workers | None = None, deadline: float = DEADLINE) -> Any:
    """Poll ``done()`` until it returns something true; fail with the workers' logs if the latest worker exits or
    ``deadline`` seconds pass."""
    end = time.monotonic() + deadline
    while True:
        value = done()
        if value:
            return value
        if workers is not None and workers.started and workers.process.poll() is not None:
            pytest.fail(f"{what}: the worker exited with {workers.process.returncode}\n{workers.logs()}")
        if time.monotonic() > end:
            logs = workers.logs() if workers is not None else ""
            pytest.fail(f"{what}: not within {deadline:.0f} s\n{logs}")
        time.sleep(0.1)


def only_reconcile_catches_up(division: Division, twin: Division, workers: Workers) -> None:
    """Start a worker, see that nothing in the queue brings ``division`` back, then send ``reconcile`` as Celery
    beat does every minute: the division must end equal to its ``twin``, which got the same results unbroken."""
    from tournaments import tasks

    workers.start()  # the production visibility timeout: no message is handed out again during the test
    workers.wait_ready()
    time.sleep(1.0)
    assert not caught_up(division), "nothing was left in the queue: only reconcile can bring the division back"
    tasks.reconcile.delay()
    wait_for("the division after reconcile", lambda: caught_up(division), workers)
    assert outcome(division) == outcome(twin)


def forget_queue(redis_url: str, queue: str) -> None:
    """Remove what a test left in Redis for its queue: waiting messages and unacknowledged ones."""
    import redis

    client = redis.Redis.from_url(redis_url)
    try:
        client.delete(queue)
        for tag, raw in client.hgetall("unacked").items():
            if json.loads(raw)[2] == queue:
                client.hdel("unacked", tag)
                client.zrem("unacked_index", tag)
    finally:
        client.close()


@pytest.fixture
def workers(transactional_db: Any, tmp_path: Path) -> Iterator[Workers]:
    """Workers on the test database and the broker of CELERY_BROKER_URL; this process's tasks go to their queue.
    Set up after the database, stopped before it is flushed."""
    broker_url = os.environ["CELERY_BROKER_URL"]
    pool = Workers(tmp_path, broker_url)
    conf = celery_app.conf
    old = conf.task_always_eager, conf.task_default_queue
    conf.task_always_eager, conf.task_default_queue = False, pool.queue
    try:
        yield pool
    finally:
        conf.task_always_eager, conf.task_default_queue = old
        pool.stop_all()
        forget_queue(broker_url, pool.queue)


# -- a second database connection ------------------------------------------------------------------------------------


def side_connection(*, autocommit: bool = True) -> psycopg.Connection[Any]:
    """A plain connection to the test database, apart from Django's (to watch, lock and cut the others)."""
    db = settings.DATABASES["default"]
    return psycopg.connect(
        dbname=db["NAME"],
        user=db["USER"],
        password=db.get("PASSWORD") or None,
        host=db["HOST"] or "127.0.0.1",
        port=db["PORT"] or 5432,
        autocommit=autocommit,
    )
