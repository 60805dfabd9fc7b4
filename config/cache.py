"""The shared cache (``CACHE_URL``, Redis): Django's Redis backend, made to fail open.

The cache holds only what can be lost: rate-limit and throttle counters and the copies of live parts spectators
share (config/live.py). So when Redis cannot be reached, a request must go on as if the cache were empty: a read
finds nothing, a write is dropped, a counter starts again (the limits are not enforced until Redis is back), and
every page, action and result is answered as usual. Connecting gives up after a fraction of a second, so a silent
Redis does not hold requests either. The failure is logged, at most once a minute per process.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from django.core.cache.backends.redis import RedisCache
from redis.exceptions import RedisError

log = logging.getLogger(__name__)

#: Seconds to wait for Redis to accept a connection, and for an answer.
CONNECT_TIMEOUT, SOCKET_TIMEOUT = 0.5, 1.0
_LOG_EVERY = 60.0
_last_logged = 0.0


def _unreachable(operation: str, exc: Exception) -> None:
    global _last_logged
    now = time.monotonic()
    if now - _last_logged >= _LOG_EVERY:
        _last_logged = now
        log.warning("the cache is unreachable (%s: %s: %s); going on without it", operation, type(exc).__name__, exc)


class FailOpenRedisCache(RedisCache):
    """:class:`RedisCache` whose every operation answers as an empty cache would when Redis cannot be reached."""

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        options = {"socket_connect_timeout": CONNECT_TIMEOUT, "socket_timeout": SOCKET_TIMEOUT}
        super().__init__(server, {**params, "OPTIONS": {**options, **params.get("OPTIONS", {})}})

    def get(self, key: Any, default: Any = None, version: int | None = None) -> Any:
        try:
            return super().get(key, default, version)
        except (RedisError, OSError) as exc:
            _unreachable("get", exc)
            return default

    def get_many(self, keys: Any, version: int | None = None) -> dict[Any, Any]:
        try:
            return super().get_many(keys, version)
        except (RedisError, OSError) as exc:
            _unreachable("get_many", exc)
            return {}

    def add(self, key: Any, value: Any, timeout: Any = None, version: int | None = None) -> bool:
        try:
            return super().add(key, value, timeout, version)
        except (RedisError, OSError) as exc:
            _unreachable("add", exc)
            return True  # as if the key were new: a counter starts again

    def set(self, key: Any, value: Any, timeout: Any = None, version: int | None = None) -> None:
        try:
            super().set(key, value, timeout, version)
        except (RedisError, OSError) as exc:
            _unreachable("set", exc)

    def incr(self, key: Any, delta: int = 1, version: int | None = None) -> int:
        try:
            return super().incr(key, delta, version)
        except (RedisError, OSError) as exc:
            _unreachable("incr", exc)
            return delta

    def delete(self, key: Any, version: int | None = None) -> bool:
        try:
            return super().delete(key, version)
        except (RedisError, OSError) as exc:
            _unreachable("delete", exc)
            return False
