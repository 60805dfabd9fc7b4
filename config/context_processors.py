"""Template context the whole site shares."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest


def public_url(request: HttpRequest) -> dict[str, str]:
    """``join_url``: the address the players' phones use (``PUBLIC_URL``; "" when unset), which the director's
    dashboard and the venue display show as "Join at ..."."""
    return {"join_url": settings.PUBLIC_URL}
