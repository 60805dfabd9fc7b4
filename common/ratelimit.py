"""A small fixed-window rate limiter on Django's cache, for the doors that guessing goes through: the login form
and entry links. (The REST API uses DRF's throttles, configured in settings.)

With several web processes the cache must be shared (CACHE_URL=redis://...), or each process counts alone. The
counts are kept in :data:`common.cache.counters`: while the shared cache is unreachable, each process counts in its
own memory, so the limits still hold (per process) during an outage.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string

from common.cache import counters


def client_ip(request: HttpRequest) -> str:
    """The client address as the outermost of ``settings.TRUSTED_PROXIES`` proxies saw it; REMOTE_ADDR with none.

    Each proxy appends the address it saw to X-Forwarded-For, so only the last ``TRUSTED_PROXIES`` entries are
    trustworthy; anything before them the client may have written itself."""
    proxies = settings.TRUSTED_PROXIES
    forwarded = [part.strip() for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if part.strip()]
    if proxies <= 0 or not forwarded:
        return request.META.get("REMOTE_ADDR", "")
    return forwarded[-min(proxies, len(forwarded))]


def hit(scope: str, key: str, *, limit: int, window: int) -> bool:
    """Count one attempt; False once ``limit`` attempts were made within the current ``window`` seconds."""
    name = f"ratelimit:{scope}:{key}"
    if counters.add(name, 1, timeout=window):
        return True
    try:
        return counters.incr(name) <= limit
    except ValueError:  # expired between add and incr
        counters.add(name, 1, timeout=window)
        return True


def too_many(request: HttpRequest, window: int) -> HttpResponse:
    body = render_to_string("too_many.html", {"minutes": max(1, window // 60)}, request=request)
    response = HttpResponse(body, status=429)
    response["Retry-After"] = str(window)
    return response


def spent(scope: str, key: str, *, limit: int) -> bool:
    """Whether ``limit`` attempts were already counted in the current window (without counting one more)."""
    return (counters.get(f"ratelimit:{scope}:{key}") or 0) >= limit


def rate_limited(
    scope: str,
    *,
    limit: int,
    window: int,
    methods: tuple[str, ...] = ("POST",),
    failures_only: bool = False,
) -> Callable:
    """Decorate a view: more than ``limit`` requests by one client address in ``window`` seconds get a 429 page.

    With ``failures_only`` only the refused requests (an answer of 400 or more, or a redirect to a refusal marked
    ``response.refusal = True``) are counted, and an address that
    has spent its refusals is refused everything until the window ends: guessing is stopped, while a room full of
    players opening their own valid links from one address is not."""

    def decorate(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @functools.wraps(view)
        def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if request.method not in methods:
                return view(request, *args, **kwargs)
            key = client_ip(request)
            if failures_only:
                if spent(scope, key, limit=limit):
                    return too_many(request, window)
                response = view(request, *args, **kwargs)
                if response.status_code >= 400 or getattr(response, "refusal", False):
                    hit(scope, key, limit=limit, window=window)
                return response
            if not hit(scope, key, limit=limit, window=window):
                return too_many(request, window)
            return view(request, *args, **kwargs)

        return wrapper

    return decorate
