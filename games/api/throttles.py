"""API throttles: a request made with an entry link is counted per link (a phone at the table), not per address
(a club's whole room may share one address)."""

from __future__ import annotations

from typing import Any

from rest_framework.request import Request
from rest_framework.throttling import SimpleRateThrottle

from games.api.auth import entry_token


class EntryLinkThrottle(SimpleRateThrottle):
    scope = "entry-link"

    def get_cache_key(self, request: Request, view: Any) -> str | None:
        token = entry_token(request)
        return None if token is None else self.cache_format % {"scope": self.scope, "ident": token.pk}
