"""Live parts: the page fragments spectators and players poll (htmx, every few seconds) with the ETag of what they
show. Two helpers every live view uses:

* :func:`not_modified`: whether the client already holds the current ETag (then the answer is ``304``);
* :func:`shared_live_part`: hundreds of spectators poll the same part, so an anonymous visitor's poll of a public
  part is answered from a copy shared by all of them (Django's cache, ``settings.LIVE_PART_SECONDS``, 2 s by
  default) when one was made in the last seconds: the ETag and, once someone needed it, the rendered part. Such a
  poll sends no query at all; a change shows at most that much later. Logged-in visitors, who may direct the event
  or play the match, always get a fresh answer, and a private part (``Cache-Control: private``) is never shared.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.utils.http import parse_etags
from django.utils.translation import get_language

PUBLIC = "no-cache"  # the Cache-Control of a part anyone may see: revalidate every time, but shareable


def not_modified(request: HttpRequest, etag: str) -> bool:
    """Whether the client's ``If-None-Match`` names ``etag`` (weak comparison, as RFC 9110 asks for GET)."""
    sent = [tag.removeprefix("W/") for tag in parse_etags(request.headers.get("If-None-Match", ""))]
    return "*" in sent or etag in sent


def shared_live_part(request: HttpRequest, key: tuple[object, ...], answer: Callable[[], HttpResponse]) -> HttpResponse:
    """The live part named by ``key`` (everything its content depends on besides the language) for an anonymous
    visitor, from the shared copy when there is one: ``304`` when the client holds its ETag, else its body.

    ``answer`` makes the part as usual (with its ``ETag`` and ``Cache-Control``) when there is no copy, when the
    copy is an ETag alone and this client needs the body, and always for a logged-in visitor. Its answer is kept as
    the copy when it is public (``Cache-Control: no-cache``) and a ``200`` or a ``304``."""
    seconds = settings.LIVE_PART_SECONDS
    if seconds <= 0 or request.user.is_authenticated:
        return answer()
    name = "live-part:" + hashlib.sha256(repr((*key, get_language())).encode()).hexdigest()[:32]
    copy = cache.get(name)
    if copy is not None:
        etag, content = copy
        response: HttpResponse | None = None
        if not_modified(request, etag):
            response = HttpResponseNotModified()
        elif content is not None:
            response = HttpResponse(content)
        if response is not None:
            response["ETag"], response["Cache-Control"] = etag, PUBLIC
            return response
    response = answer()
    if response.get("Cache-Control") == PUBLIC and response.status_code in (200, 304):
        cache.set(name, (response["ETag"], response.content if response.status_code == 200 else None), seconds)
    return response
