"""API throttles. Every request is counted under exactly one identity: a request made with an entry link per link
(a phone at the table), a logged-in user per account, anyone else per address. A club's whole room may share one
address, so its players' phones must not share one limit; and the address is the one the proxy in front saw
(common.ratelimit.client_ip), never one the client wrote in X-Forwarded-For. They count in common.cache.counters, so
they still hold, per process, while the shared cache is unreachable."""

from __future__ import annotations

from typing import Any

from rest_framework.request import Request
from rest_framework.throttling import SimpleRateThrottle

from common.api.auth import entry_token
from common.cache import counters
from common.ratelimit import client_ip


class CountedThrottle(SimpleRateThrottle):
    """A throttle whose request history is kept in the rate limits' counters (the shared cache, or this process's
    memory while it is unreachable)."""

    cache = counters


class EntryLinkThrottle(CountedThrottle):
    """Requests made with an entry link, per link (``API_RATE_ENTRY_LINK``)."""

    scope = "entry-link"

    def get_cache_key(self, request: Request, view: Any) -> str | None:
        token = entry_token(request)
        return None if token is None else self.cache_format % {"scope": self.scope, "ident": token.pk}


class AddressThrottle(CountedThrottle):
    """Anonymous requests without an entry link, per client address (``API_RATE_ANON``)."""

    scope = "anon"

    def get_cache_key(self, request: Request, view: Any) -> str | None:
        if entry_token(request) is not None or (request.user and request.user.is_authenticated):
            return None
        return self.cache_format % {"scope": self.scope, "ident": client_ip(request)}


class AccountThrottle(CountedThrottle):
    """Requests of a logged-in user, per account (``API_RATE_USER``)."""

    scope = "user"

    def get_cache_key(self, request: Request, view: Any) -> str | None:
        if entry_token(request) is not None or not (request.user and request.user.is_authenticated):
            return None
        return self.cache_format % {"scope": self.scope, "ident": request.user.pk}


class AnalysisRequestThrottle(CountedThrottle):
    """Requests for an analysis, per account (``API_RATE_ANALYSIS``, read at each request): each may cost GNU
    Backgammon minutes, and the tournaments' analyses wait behind them."""

    scope = "analysis"

    def get_rate(self) -> str:
        from django.conf import settings

        return str(settings.API_RATE_ANALYSIS)

    def get_cache_key(self, request: Request, view: Any) -> str | None:
        if request.method != "POST" or not (request.user and request.user.is_authenticated):
            return None
        return self.cache_format % {"scope": self.scope, "ident": request.user.pk}
