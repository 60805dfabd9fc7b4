"""A small fixed-window rate limiter on Django's cache, for the doors that guessing goes through: the login form
and entry links. (The REST API uses DRF's throttles, configured in settings.)

With several web processes the cache must be shared (CACHE_URL=redis://...), or each process counts alone.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string


def client_ip(request: HttpRequest) -> str:
    """The client address as the proxy in front saw it (REMOTE_ADDR when there is no proxy)."""
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
    return forwarded.split(",")[-1].strip() if forwarded else request.META.get("REMOTE_ADDR", "")


def hit(scope: str, key: str, *, limit: int, window: int) -> bool:
    """Count one attempt; False once ``limit`` attempts were made within the current ``window`` seconds."""
    name = f"ratelimit:{scope}:{key}"
    if cache.add(name, 1, timeout=window):
        return True
    try:
        return cache.incr(name) <= limit
    except ValueError:  # expired between add and incr
        cache.add(name, 1, timeout=window)
        return True


def too_many(request: HttpRequest, window: int) -> HttpResponse:
    body = render_to_string("too_many.html", {"minutes": max(1, window // 60)}, request=request)
    response = HttpResponse(body, status=429)
    response["Retry-After"] = str(window)
    return response


def rate_limited(scope: str, *, limit: int, window: int, methods: tuple[str, ...] = ("POST",)) -> Callable:
    """Decorate a view: more than ``limit`` requests by one client address in ``window`` seconds get a 429 page."""

    def decorate(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @functools.wraps(view)
        def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if request.method in methods and not hit(scope, client_ip(request), limit=limit, window=window):
                return too_many(request, window)
            return view(request, *args, **kwargs)

        return wrapper

    return decorate
