"""``make venue``'s broker, Kombu's filesystem transport with whole writes (config/broker.py): a worker listing the
queue's folder while a message is being written does not take it half-written; messages are taken in the order
they were sent."""

from __future__ import annotations

from pathlib import Path
from queue import Empty
from typing import Any

import pytest
from kombu import Connection
from kombu.transport import filesystem
from kombu.utils.json import dumps as real_dumps

import config.broker

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
