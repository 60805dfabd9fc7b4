"""Cache-Control by audience: what a shared cache (the nginx micro-cache in front, deploy/nginx/) may keep, decided in
one place for every route.

Two audiences:

* **Shared** (:func:`shared`): what a public event shows an anonymous visitor, the same for every one of them: the
  home page, the events, a division and its rounds, their live parts, the venue display, a match page, its board
  and live part, the downloads. An answer to an anonymous visitor (no session cookie) that is a ``200`` or a
  ``304``, sets no cookie and that the view did not mark private (a private event, a private match) says
  ``Cache-Control: public, max-age=0, s-maxage=N``: a shared cache may hand it to everyone for N seconds
  (:data:`LIVE_SECONDS`, 1 s, or :data:`SETTLED_SECONDS` for what has finished: :func:`settled`), while a browser
  asks again each time (and gets a ``304`` when its ETag is current). It does not vary by ``Cookie``: the visitor
  has none that changes the answer, and the proxy does not use its copies for a visitor who has a session.
  Everything else on such a route (a logged-in visitor, a player holding an entry link in his session, a private
  event, a 404) is private, as below.
* **Private** (:data:`PRIVATE`, or a route under one of :data:`PRIVATE_PREFIXES`): what depends on who asks: the
  directors' pages, the players' entry pages, the API, the admin, the accounts, the health checks. Their answers
  say ``private`` and ``no-store`` (``no-cache`` instead when they carry an ETag, so that the browser may ask with
  it), whatever the view set.

:class:`CacheByAudienceMiddleware` applies the rule to every answer; a route with no decision (neither decorated
nor under a private prefix) is answered as private, and the test of the URL map (tests/test_cache_audience.py)
fails until it gets one.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final, TypeVar

from django.conf import settings
from django.http import HttpRequest, HttpResponseBase
from django.urls import ResolverMatch
from django.utils.cache import patch_cache_control

_Response = TypeVar("_Response", bound=HttpResponseBase)

#: Seconds a shared cache may keep what can change any moment (live parts, pages of what is in play).
LIVE_SECONDS = 1
#: Seconds a shared cache may keep what has finished (a finished match, a complete round, a finished division).
SETTLED_SECONDS: Final = 60
#: The routes under these paths depend on who asks, whatever their views say.
PRIVATE_PREFIXES: Final = ("admin/", "manage/", "play/", "api/", "accounts/", "health/")


@dataclass(frozen=True, slots=True)
class Shared:
    """The audience of a route whose anonymous answers a shared cache may keep ``seconds`` (None:
    :data:`LIVE_SECONDS`; longer once settled)."""

    seconds: int | None = None


class _Private:
    def __repr__(self) -> str:
        return "PRIVATE"


#: The audience of a route whose answers depend on who asks.
PRIVATE: Final = _Private()
Audience = Shared | _Private


def shared(view: Callable[..., Any] | None = None, *, seconds: int | None = None) -> Any:
    """Mark ``view`` as showing anonymous visitors what a shared cache may keep (``@shared`` or
    ``@shared(seconds=N)``)."""

    def mark(function: Callable[..., Any]) -> Callable[..., Any]:
        function.audience = Shared(seconds)  # type: ignore[attr-defined]
        return function

    return mark(view) if view is not None else mark


def private(view: Callable[..., Any]) -> Callable[..., Any]:
    """Mark ``view`` as depending on who asks: never kept by a shared cache."""
    view.audience = PRIVATE  # type: ignore[attr-defined]
    return view


def settled(response: _Response) -> _Response:
    """Mark ``response`` as showing what has finished: a shared cache may keep it :data:`SETTLED_SECONDS`."""
    response.settled = True  # type: ignore[attr-defined]
    return response


def audience_of(view: Callable[..., Any], route: str) -> Audience | None:
    """The audience of the route ``route`` (as Django's resolver spells it) served by ``view``; None when nobody
    decided."""
    decided = getattr(view, "audience", None)
    if isinstance(decided, Shared | _Private):
        return decided
    if route.lstrip("^").startswith(PRIVATE_PREFIXES):
        return PRIVATE
    return None


def _says_private(response: HttpResponseBase) -> bool:
    said = response.get("Cache-Control", "")
    return "private" in said or "no-store" in said


def _shareable(request: HttpRequest, response: HttpResponseBase) -> bool:
    """Whether this answer is the same for every anonymous visitor (see the module docstring)."""
    return (
        request.method in ("GET", "HEAD")
        and response.status_code in (200, 304)
        and settings.SESSION_COOKIE_NAME not in request.COOKIES
        and not response.cookies
        and not _says_private(response)
    )


def make_public(response: HttpResponseBase, seconds: int) -> None:
    """``Cache-Control: public`` for ``seconds`` in a shared cache, and no ``Vary: Cookie``."""
    response["Cache-Control"] = f"public, max-age=0, s-maxage={seconds}"
    if response.has_header("Vary"):
        kept = [v.strip() for v in response["Vary"].split(",") if v.strip() and v.strip().lower() != "cookie"]
        if kept:
            response["Vary"] = ", ".join(kept)
        else:
            del response["Vary"]


def make_private(response: HttpResponseBase) -> None:
    """``Cache-Control: private``, and ``no-store`` unless the view asked for ``no-cache`` with an ETag."""
    said = response.get("Cache-Control", "")
    if "no-store" in said or not (response.has_header("ETag") and "no-cache" in said):
        patch_cache_control(response, private=True, no_store=True)
    else:
        patch_cache_control(response, private=True, no_cache=True)


class CacheByAudienceMiddleware:
    """Set ``Cache-Control`` by the route's audience (module docstring). Placed before the session and CSRF
    middleware, so that it sees the cookies they set and the ``Vary`` they add."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        match: ResolverMatch | None = getattr(request, "resolver_match", None)
        audience = audience_of(match.func, match.route) if match is not None else None
        if isinstance(audience, Shared) and _shareable(request, response):
            seconds = audience.seconds if audience.seconds is not None else LIVE_SECONDS
            make_public(response, SETTLED_SECONDS if getattr(response, "settled", False) else seconds)
        else:
            make_private(response)
        return response
