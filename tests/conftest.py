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
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

PROJECT_ROOT = Path(__file__).resolve().parent.parent


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


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    missing = {"worker": worker_service_missing(), "browser": browser_service_missing()}
    for item in items:
        for marker, reason in missing.items():
            if reason and item.get_closest_marker(marker):
                item.add_marker(pytest.mark.skip(reason=reason))


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings: Any) -> None:
    """Tests log in often; the production hasher is slow on purpose."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _not_inside_a_task() -> None:
    """Celery marks "inside a task" in a process-wide flag while an eager task runs, and two eager tasks in two
    threads at once (the concurrency tests) can leave it set; this process is never a worker, so clear it."""
    from celery._state import _set_task_join_will_block

    _set_task_join_will_block(False)


@pytest.fixture(autouse=True)
def _live_parts_not_shared(settings: Any) -> None:
    """Tests look at a live part right after each change; sharing it for a few seconds between spectators has its
    own tests (tests/web/test_live_sharing.py), which turn it back on."""
    settings.LIVE_PART_SECONDS = 0


@pytest.fixture(autouse=True)
def _fresh_cache() -> Iterator[None]:
    """Rate limits and throttles count in the cache: every test starts from zero."""
    from django.core.cache import cache

    cache.clear()
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
