"""Kombu's filesystem transport (``make venue``'s broker: no server), with each message written whole before a worker
can take it.

Kombu's own writes a message's file in place, so a worker listing the folder at that moment could take an empty or
half-written file, fail to read it and lose the message. Here the message is written under a name no worker takes
(a leading dot, a ``.partial`` suffix) and renamed into place, which is atomic on one disk. File names start with
the time in nanoseconds, zero-padded, so that workers, which take files in name order, take messages in the order
they were sent, across restarts too.
"""

from __future__ import annotations

import os
import time
import uuid
from typing import Any

from kombu.exceptions import ChannelError
from kombu.transport import filesystem
from kombu.utils.encoding import str_to_bytes
from kombu.utils.json import dumps


class Channel(filesystem.Channel):
    def _put(self, queue: Any, payload: Any, **kwargs: Any) -> None:  # type: ignore[override]
        name = f"{time.time_ns():020d}_{uuid.uuid4()}.{queue}.msg"
        final = os.path.join(self.data_folder_out, name)
        partial = os.path.join(self.data_folder_out, f".{name}.partial")
        try:
            with open(partial, "wb") as out:
                out.write(str_to_bytes(dumps(payload)))
            os.replace(partial, final)
        except OSError as exc:
            raise ChannelError(f"Cannot add file {final!r} to directory") from exc


class Transport(filesystem.Transport):
    Channel = Channel
