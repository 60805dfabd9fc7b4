"""``make venue``'s broker, Kombu's filesystem transport with whole writes (config/broker.py): a worker listing the
queue's folder while a message is being written does not take it half-written; messages are taken in the order
they were sent."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path
from queue import Empty
from typing import Any

import pytest
from django.test import Client
from kombu import Connection
from kombu.transport import filesystem
from kombu.utils.json import dumps as real_dumps

import config.broker
from config.celery import app as celery_app
from tests.test_foundation import load_settings

TRANSPORT = "config.broker:Transport"


def channel_on(folder: Path, transport: str = TRANSPORT) -> Any:
    (folder / "queue").mkdir(parents=True)
    options = {"data_folder_in": str(folder / "queue"), "data_folder_out": str(folder / "queue")}
    return Connection("filesystem://localhost/", transport=transport, transport_options=options).channel()


def test_a_message_being_written_is_not_taken(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    channel = channel_on(tmp_path)
    seen_while_writing = []

    def dumps_while_a_worker_looks(payload: Any) -> str:
        try:
            seen_while_writing.append(channel._get("celery"))
        except Empty:
            seen_while_writing.append("nothing yet")
        return real_dumps(payload)

    monkeypatch.setattr(config.broker, "dumps", dumps_while_a_worker_looks)
    monkeypatch.setattr(filesystem, "dumps", dumps_while_a_worker_looks)
    channel._put("celery", {"body": "the bracket of division 7"})
    assert seen_while_writing == ["nothing yet"]
    assert channel._get("celery") == {"body": "the bracket of division 7"}


def test_messages_are_taken_in_the_order_they_were_sent(tmp_path: Path) -> None:
    channel = channel_on(tmp_path)
    for i in range(30):
        channel._put("celery", {"body": i})
    assert [channel._get("celery")["body"] for _ in range(30)] == list(range(30))


@pytest.mark.django_db
def test_health_reports_the_workers_of_the_venues_filesystem_broker(
    client: Client, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``make venue`` has no Redis: its workers say they are alive in the broker's folder, and /health/ reads it
    there (a worker started, then stopped and silent past WORKER_LATE_SECONDS: "late")."""
    broker = tmp_path / "broker"
    for name in ("queue", "taken", "control"):
        (broker / name).mkdir(parents=True)
    url = f"filesystem://localhost{broker}"
    options = load_settings(monkeypatch, CELERY_BROKER_URL=url, DEBUG="1")["CELERY_BROKER_TRANSPORT_OPTIONS"]
    monkeypatch.delenv("CELERY_BROKER_URL", raising=False)  # Celery reads it before its own configuration
    monkeypatch.setitem(celery_app.conf, "task_always_eager", False)
    monkeypatch.setitem(celery_app.conf, "broker_url", url)
    monkeypatch.setitem(celery_app.conf, "broker_transport_options", options)
    assert client.get("/health/").json()["workers"] == "none"

    command = [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=solo", "--hostname", "venue@laptop"]
    command += ["--without-gossip", "--without-mingle", "--without-heartbeat", "--loglevel=INFO"]
    log_path = tmp_path / "worker.log"
    with log_path.open("wb") as log:
        worker = subprocess.Popen(
            command,
            cwd=Path(config.broker.__file__).resolve().parent.parent,
            env={**os.environ, "CELERY_BROKER_URL": url},
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    try:
        deadline = time.monotonic() + 90
        while client.get("/health/").json()["workers"] != "ok" and worker.poll() is None:
            assert time.monotonic() < deadline, "no heartbeat in 90 s\n" + log_path.read_text()
            time.sleep(0.5)
        assert worker.poll() is None, log_path.read_text()
        seen = client.get("/health/workers/").json()
        assert seen["workers"] == "ok" and list(seen["seen_seconds_ago"]) == ["venue@laptop"]
    finally:
        worker.terminate()
        worker.wait(timeout=30)
    beat = broker / "heartbeats" / "venue@laptop"
    beat.write_text(repr(time.time() - 3600))
    assert client.get("/health/").json()["workers"] == "late"
