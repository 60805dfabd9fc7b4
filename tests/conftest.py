"""Shared fixtures and the switches for tests that need outside services.

Tests marked ``worker`` need a real Redis broker and run a real Celery worker; they run only when
``BGMATCH_WORKER_TESTS=1`` and ``CELERY_BROKER_URL`` are set (.ci/run sets both). Tests marked ``browser``
need headless Chromium and run only when ``RUN_BROWSER_TESTS=1``. Otherwise they are skipped, and the skip
names the missing service.
"""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import hypothesis
import pytest

PROJECT_ROOT = Path(__file__).resolve().parent.parent

# No test depends on the machine's speed: Hypothesis's deadline (200 ms an example by default) and its too_slow
# health check (data that takes long to generate) failed property tests on a loaded machine with the code unchanged.
# This profile is every Hypothesis test's default (a module's own settings inherit it); the time the slow tests take
# is recorded in bench/README.md, not asserted. A hang still shows: the test never ends and CI's job times out.
hypothesis.settings.register_profile("bgmatch", deadline=None, suppress_health_check=[hypothesis.HealthCheck.too_slow])
hypothesis.settings.load_profile("bgmatch")


def worker_service_missing() -> str | None:
    """Why worker tests cannot run here, or None when they can."""
    if os.environ.get("BGMATCH_WORKER_TESTS") != "1" or not os.environ.get("CELERY_BROKER_URL"):
        return "needs a Redis broker and a Celery worker: set CELERY_BROKER_URL and BGMATCH_WORKER_TESTS=1"
    return None


def browser_service_missing() -> str | None:
    """Why browser tests cannot run here, or None when they can."""
    if os.environ.get("RUN_BROWSER_TESTS") != "1":
        return "needs headless Chromium: set RUN_BROWSER_TESTS=1"
    return None


def gnubg_missing() -> str | None:
    """Why the analysis tests cannot run GNU Backgammon here, or None when they can."""
    from django.conf import settings

    from games.analysis.engine import availability

    available, reason = availability()
    where = f"apt-get install gnubg, or set GNUBG_PATH (now {settings.GNUBG_PATH})"
    return None if available else f"needs GNU Backgammon ({where}): {reason}"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    missing = {"worker": worker_service_missing(), "browser": browser_service_missing()}
    if any(item.get_closest_marker("gnubg") for item in items):
        missing["gnubg"] = gnubg_missing()
    for item in items:
        for marker, reason in missing.items():
            if reason and item.get_closest_marker(marker):
                item.add_marker(pytest.mark.skip(reason=reason))


@pytest.fixture(autouse=True)
def _no_automatic_analysis(settings: Any) -> None:
    """Finished matches are not analysed by gnubg unless a test asks for it (tests of games/analysis do)."""
    settings.ANALYSIS_AUTO = False


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings: Any) -> None:
    """Tests log in often; the production hasher is slow on purpose."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


#: Celery's eager mode as this session configured it, read before the first test's fixtures run.
_EAGER_AS_CONFIGURED: list[tuple[bool, bool]] = []


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_setup(item: pytest.Item) -> Iterator[None]:
    if not _EAGER_AS_CONFIGURED:
        from config.celery import app

        _EAGER_AS_CONFIGURED.append((app.conf.task_always_eager, app.conf.task_eager_propagates))
    yield


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    """After all of a test's fixtures are torn down, Celery's eager mode is as configured again. Fixtures that each
    put back what they found can, in some orders, leave it on: ``eager_tasks`` turns it on, a ``monkeypatch`` made
    before it records that and turns it off (a broker for the test), ``eager_tasks`` puts back off, and the
    monkeypatch's undo puts back on, for the rest of the session (a test of a real worker then ran in-process)."""
    yield
    if _EAGER_AS_CONFIGURED:
        from config.celery import app

        app.conf.task_always_eager, app.conf.task_eager_propagates = _EAGER_AS_CONFIGURED[0]


@pytest.fixture(autouse=True)
def _not_inside_a_task() -> None:
    """Celery marks "inside a task" in a process-wide flag while an eager task runs, and two eager tasks in two
    threads at once (the concurrency tests) can leave it set; this process is never a worker, so clear it."""
    from celery._state import _set_task_join_will_block

    _set_task_join_will_block(False)


@contextmanager
def tasks_run_eagerly() -> Iterator[None]:
    """Celery tasks run in-process when the commit callbacks run, as with no broker, even where CI configures one."""
    from config.celery import app as celery_app

    conf = celery_app.conf
    old = conf.task_always_eager, conf.task_eager_propagates
    conf.task_always_eager = conf.task_eager_propagates = True
    try:
        yield
    finally:
        conf.task_always_eager, conf.task_eager_propagates = old


@pytest.fixture
def eager_tasks(request: pytest.FixtureRequest) -> Iterator[None]:
    """:func:`tasks_run_eagerly` for the test, unless it is marked ``worker`` (its tasks go to a real worker)."""
    if request.node.get_closest_marker("worker"):
        yield
        return
    with tasks_run_eagerly():
        yield


# -- a director and divisions, set up through the services (tournaments and web pages tests) -------------------


@pytest.fixture
def director(django_user_model: Any) -> Any:
    """The director ``dora``: the events of ``division_of`` are hers."""
    from tests.factories import UserFactory

    return UserFactory(username="dora")


@pytest.fixture
def dora(director: Any) -> Any:
    """The director, by her name (the page tests speak of her so)."""
    return director


@pytest.fixture
def as_director(director: Any) -> Any:
    from common.actor import Actor

    return Actor(user=director)


@pytest.fixture
def division_of(director: Any) -> Callable[..., Any]:
    """``division_of(format, players, **settings)``: an event with one division and ``players`` registered
    ("P01", "P02", ... with ratings 2000, 1990, ..., so seed k is P{k}); ``event=`` adds it to an existing event
    (tests/factories.py ``DivisionFactory``)."""
    from tests.factories import DivisionFactory, EventFactory

    def make(fmt: str, players: int, *, event: Any = None, **settings: Any) -> Any:
        event = event or EventFactory(director=director)
        return DivisionFactory(event=event, director=director, format=fmt, players=players, **settings)

    return make


@pytest.fixture(autouse=True)
def _live_parts_not_shared(settings: Any) -> None:
    """Tests look at a live part right after each change; sharing it for a few seconds between spectators has its
    own tests (tests/web/test_live_sharing.py), which turn it back on."""
    settings.LIVE_PART_SECONDS = 0


@pytest.fixture(autouse=True)
def _fresh_cache() -> Iterator[None]:
    """Rate limits and throttles count in the cache: every test starts from zero."""
    from django.core.cache import cache

    from common import cache as shared

    cache.clear()
    shared.counters.local.clear()
    shared._down_until = 0.0  # a dead cache of an earlier test is not resting any more
    yield


class CeleryWorker:
    """A real ``celery worker`` subprocess consuming one queue of its own."""

    def __init__(self, queue: str, log_path: Path, process: subprocess.Popen[bytes]) -> None:
        self.queue = queue
        self.log_path = log_path
        self.process = process

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")


@pytest.fixture(scope="session")
def celery_worker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[CeleryWorker]:
    """Start a Celery worker on a queue no other worker listens to; send tasks with ``queue=worker.queue``.

    The worker uses the same settings as the tests (CELERY_BROKER_URL, DATABASE_URL from the environment).
    """
    queue = f"bgmatch-test-{uuid.uuid4().hex[:12]}"
    log_path = tmp_path_factory.mktemp("celery") / "worker.log"
    command = [
        sys.executable, "-m", "celery", "-A", "config", "worker",
        "--pool=solo", "--queues", queue, "--hostname", f"{queue}@%h",
        "--without-gossip", "--without-mingle", "--without-heartbeat", "--loglevel=INFO",
    ]  # fmt: skip
    with log_path.open("wb") as log:
        process = subprocess.Popen(command, cwd=PROJECT_ROOT, stdout=log, stderr=subprocess.STDOUT)
    try:
        yield CeleryWorker(queue, log_path, process)
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
