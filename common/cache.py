"""The shared cache (``CACHE_URL``, Redis): Django's Redis backend, made to fail open, and the counters of the rate
limits, which fall back to this process's memory.

The cache holds only what can be lost: rate-limit and throttle counters and the copies of live parts spectators
share (common/live.py). So when Redis cannot be reached, a request must go on as if the cache were empty: a read
finds nothing, a write is dropped, and every page, action and result is answered as usual. Connecting gives up
after a fraction of a second, and after a failure Redis is left alone for ``RETRY_AFTER`` seconds, so a dead or
silent Redis does not hold requests either. The failure is logged, at most once a minute per process, and
``/health/`` reports ``"cache": "error"``.

The rate limits and throttles count in :data:`counters`: the shared cache while it answers, and while it does not,
a cache in this process's memory. So guessing is still limited during an outage, per web process instead of
across them (with three processes, up to three times the limit), and the counts start afresh when Redis is back.
"""

from __future__ import annotations

import contextlib
import logging
import time
from typing import Any

from django.core.cache import caches
from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache
from redis.exceptions import RedisError

log = logging.getLogger(__name__)

#: Seconds to wait for Redis to accept a connection, and for an answer.
CONNECT_TIMEOUT, SOCKET_TIMEOUT = 0.5, 1.0
#: Seconds Redis is left alone after it failed (operations answer at once as without it), then tried again.
RETRY_AFTER = 5.0
_LOG_EVERY = 60.0
_last_logged = 0.0
_down_until = 0.0
_Errors = (RedisError, OSError)


def _unreachable(operation: str, exc: Exception) -> None:
    global _last_logged, _down_until
    now = time.monotonic()
    _down_until = now + RETRY_AFTER
    if now - _last_logged >= _LOG_EVERY:
        _last_logged = now
        log.warning(
            "the cache is unreachable (%s: %s: %s); going on without it, rate limits counted in this process",
            operation,
            type(exc).__name__,
            exc,
        )


def _resting() -> bool:
    """Whether Redis failed less than RETRY_AFTER seconds ago (and is not to be asked yet)."""
    return time.monotonic() < _down_until


class CacheRestingError(ConnectionError):
    """Redis was not asked: it failed less than RETRY_AFTER seconds ago."""


class FailOpenRedisCache(RedisCache):
    """:class:`RedisCache` whose every operation answers as an empty cache would when Redis cannot be reached."""

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        options = {"socket_connect_timeout": CONNECT_TIMEOUT, "socket_timeout": SOCKET_TIMEOUT}
        super().__init__(server, {**params, "OPTIONS": {**options, **params.get("OPTIONS", {})}})

    def strictly(self, operation: str, *args: Any, **kwargs: Any) -> Any:
        """``RedisCache``'s own ``operation``, which raises when Redis cannot be reached (CacheRestingError while it
        rests after a failure)."""
        if _resting():
            raise CacheRestingError("the cache failed moments ago")
        try:
            return getattr(RedisCache, operation)(self, *args, **kwargs)
        except _Errors as exc:
            _unreachable(operation, exc)
            raise

    def ping(self) -> bool:
        """Whether Redis answers now (asked even while it rests)."""
        try:
            return bool(self._cache.get_client(write=False).ping())
        except _Errors as exc:
            _unreachable("ping", exc)
            return False

    def get(self, key: Any, default: Any = None, version: int | None = None) -> Any:
        try:
            return self.strictly("get", key, default, version)
        except _Errors:
            return default

    def get_many(self, keys: Any, version: int | None = None) -> dict[Any, Any]:
        try:
            return self.strictly("get_many", keys, version)
        except _Errors:
            return {}

    def add(self, key: Any, value: Any, timeout: Any = None, version: int | None = None) -> bool:
        try:
            return self.strictly("add", key, value, timeout, version)
        except _Errors:
            return True  # as if the key were new

    def set(self, key: Any, value: Any, timeout: Any = None, version: int | None = None) -> None:
        with contextlib.suppress(*_Errors):
            self.strictly("set", key, value, timeout, version)

    def incr(self, key: Any, delta: int = 1, version: int | None = None) -> int:
        try:
            return self.strictly("incr", key, delta, version)
        except _Errors:
            return delta

    def delete(self, key: Any, version: int | None = None) -> bool:
        try:
            return self.strictly("delete", key, version)
        except _Errors:
            return False


class Counters:
    """Where the rate limits and throttles count: the shared cache while it answers, else this process's memory
    (module docstring). Offers what the counters use: ``get``, ``set``, ``add``, ``incr``."""

    def __init__(self) -> None:
        self.local = LocMemCache("bgmatch-counters", {"OPTIONS": {"MAX_ENTRIES": 100_000}})

    def _call(self, operation: str, *args: Any) -> Any:
        shared = caches["default"]
        if not isinstance(shared, FailOpenRedisCache):
            return getattr(shared, operation)(*args)
        try:
            return shared.strictly(operation, *args)
        except _Errors:
            return getattr(self.local, operation)(*args)

    def get(self, key: str, default: Any = None) -> Any:
        return self._call("get", key, default)

    def set(self, key: str, value: Any, timeout: float | None = None) -> None:
        self._call("set", key, value, timeout)

    def add(self, key: str, value: Any, timeout: float | None = None) -> bool:
        return bool(self._call("add", key, value, timeout))

    def incr(self, key: str, delta: int = 1) -> int:
        return int(self._call("incr", key, delta))


#: The rate limits' and throttles' counters (common.ratelimit, games.api.throttles).
counters = Counters()


def cache_status() -> str:
    """For /health/: "ok" when the shared cache answers, "error" when it does not (requests go on without it, rate
    limits count per process), "local" without CACHE_URL (each process has its own cache)."""
    shared = caches["default"]
    if not isinstance(shared, FailOpenRedisCache):
        return "local"
    return "ok" if shared.ping() else "error"
