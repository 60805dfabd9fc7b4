"""The Celery application "bgmatch".

Configuration comes from Django settings under the ``CELERY_`` prefix (see config/settings.py): with no
``CELERY_BROKER_URL`` tasks run eagerly in the calling process; with one, they go to the broker for a worker
started with ``celery -A config worker``. Tasks are found in each installed app's ``tasks.py``. What survives a
killed worker or a dead broker, and how long a request may wait on one, is set (and explained) in the Celery
section of config/settings.py.

Each worker also runs :class:`KeepTasksVisible` every ``REFRESH_SECONDS``: it tells Redis that the messages it holds
(reserved or running) are still being worked on, so that only a dead worker's messages outlive the visibility
timeout and are handed out again, and it records that the worker is alive (``/health/`` reads it: see
:func:`worker_heartbeats`).
"""

from __future__ import annotations

import logging
import os
import time
from pathlib import Path
from typing import Any

from celery import Celery, bootsteps
from celery.worker import state as worker_state

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

log = logging.getLogger(__name__)

#: Seconds between a worker's refreshes (a third of the visibility timeout set in config/settings.py).
REFRESH_SECONDS = 10.0
#: The Redis hash of the broker where each worker writes the time it was last alive.
HEARTBEATS_KEY = "bgmatch:worker-heartbeats"
#: A worker starting forgets the heartbeats of workers silent for this long.
FORGET_SECONDS = 24 * 3600.0

app = Celery("bgmatch")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


def _redis_channel(connection: Any) -> Any | None:
    """The broker channel when the broker is Redis (kombu's Redis channels have ``conn_or_acquire``), else None."""
    channel = connection.default_channel
    return channel if hasattr(channel, "conn_or_acquire") else None


def heartbeat_folder() -> Path | None:
    """Where the workers of a filesystem broker (``make venue``'s) write their heartbeats: beside its queue folder
    (None for another broker)."""
    if not str(app.conf.broker_url or "").startswith("filesystem://"):
        return None
    queue = (app.conf.broker_transport_options or {}).get("data_folder_in")
    return Path(queue).parent / "heartbeats" if queue else None


def write_heartbeat(folder: Path, hostname: str, now: float, forget_older_than: float | None = None) -> None:
    """Record in ``folder`` that worker ``hostname`` was alive at ``now`` (a file a worker, replaced whole)."""
    folder.mkdir(parents=True, exist_ok=True)
    name = hostname.replace(os.sep, "_")
    partial = folder / f".{name}.partial"
    partial.write_text(repr(now))
    os.replace(partial, folder / name)
    if forget_older_than is not None:
        for beat, at in read_heartbeats(folder).items():
            if now - at > forget_older_than:
                (folder / beat).unlink(missing_ok=True)


def read_heartbeats(folder: Path) -> dict[str, float]:
    """The time each worker of ``folder`` was last alive ({} when none ever wrote one)."""
    if not folder.is_dir():
        return {}
    beats = {}
    for path in folder.iterdir():
        if path.name.startswith("."):
            continue
        try:
            beats[path.name] = float(path.read_text())
        except (OSError, ValueError):  # removed meanwhile, or being replaced
            continue
    return beats


class KeepTasksVisible(bootsteps.StartStopStep):
    """A consumer step: every REFRESH_SECONDS, bump the delivery time Redis keeps for each message this worker
    holds (its "unacked index", which the visibility timeout is measured against), and write the heartbeat.

    A task that runs longer than the visibility timeout is therefore not handed to a second worker while its own
    lives; a worker killed with SIGKILL stops refreshing, and its messages come back once they are older than the
    visibility timeout."""

    requires = frozenset({"celery.worker.consumer.tasks:Tasks"})

    def __init__(self, parent: Any, **kwargs: Any) -> None:
        super().__init__(parent, **kwargs)
        self.tref: Any = None

    def start(self, c: Any) -> None:
        self.refresh(c, forget_older_than=FORGET_SECONDS)
        self.tref = c.timer.call_repeatedly(REFRESH_SECONDS, self.refresh, (c,), priority=10)

    def stop(self, c: Any) -> None:
        if self.tref is not None:
            self.tref.cancel()
            self.tref = None

    def refresh(self, c: Any, forget_older_than: float | None = None) -> None:
        try:
            channel = _redis_channel(c.connection)
            now = time.time()
            if channel is None:
                folder = heartbeat_folder()
                if folder is not None:
                    write_heartbeat(folder, c.hostname, now, forget_older_than)
                return
            held = {*worker_state.reserved_requests, *worker_state.active_requests}
            tags = {request.message.delivery_tag: now for request in held if request.message is not None}
            with channel.conn_or_acquire() as client:
                if tags:
                    client.zadd(channel.unacked_index_key, tags, xx=True)
                client.hset(HEARTBEATS_KEY, c.hostname, now)
                if forget_older_than is not None:  # workers gone for good (an old container's name)
                    beats = client.hgetall(HEARTBEATS_KEY).items()
                    gone = [name for name, at in beats if now - float(at) > forget_older_than]
                    if gone:
                        client.hdel(HEARTBEATS_KEY, *gone)
        except Exception as exc:  # the broker is down: the consumer reconnects by itself; try again next time
            log.warning("could not refresh this worker's messages in the broker: %s: %s", type(exc).__name__, exc)


app.steps["consumer"].add(KeepTasksVisible)


def worker_heartbeats() -> dict[str, float]:
    """Seconds since each worker last wrote its heartbeat (a Redis broker, or the filesystem broker of ``make
    venue``; {} when none ever did).

    :raises Exception: whatever the broker's client raises when it cannot be reached."""
    folder = heartbeat_folder()
    if folder is not None:
        now = time.time()
        return {name: now - at for name, at in read_heartbeats(folder).items()}
    with app.connection_for_read() as connection:
        connection.ensure_connection(max_retries=1, interval_start=0, interval_step=0, timeout=2)
        channel = _redis_channel(connection)
        if channel is None:
            return {}
        with channel.conn_or_acquire() as client:
            seen = client.hgetall(HEARTBEATS_KEY)
    now = time.time()
    return {name.decode() if isinstance(name, bytes) else name: now - float(at) for name, at in seen.items()}
