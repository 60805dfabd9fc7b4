"""Who calls the API, as every app's views ask it (docs/ARCHITECTURE.md, "common/"): the entry link a request
carried, its :class:`~common.actor.Actor`, and the permissions the views use.

The entry link itself is authenticated by games (games.api.auth.EntryTokenAuthentication): it leaves
``request.user`` anonymous and puts the link in ``request.auth``. It is the only credential that does (a session
leaves ``request.auth`` empty, a DRF token comes with its user), so a link is recognised here without knowing its
model.

This module is loaded while DRF reads its settings: it must not import ``rest_framework.views`` (or
drf-spectacular), which import those settings back.
"""

from __future__ import annotations

from typing import Any

from rest_framework import permissions
from rest_framework.request import Request

from common.actor import Actor


def entry_token(request: Request) -> Any:
    """The entry link (games.models.EntryToken) the request was authenticated with, or None."""
    if request.user and request.user.is_authenticated:
        return None
    return request.auth


def actor_of(request: Request) -> Actor:
    """The :class:`Actor` the services check: the entry link when one was sent, else the user."""
    return Actor(user=request.user, token=entry_token(request))


class IsAuthenticatedOrEntryToken(permissions.BasePermission):
    """A logged-in user or an entry-link holder (anonymous callers get 401). What they may do is the services'
    decision (their side only, directors only)."""

    def has_permission(self, request: Request, view: Any) -> bool:
        return bool(request.user and request.user.is_authenticated) or entry_token(request) is not None


class ReadOpenWriteAuthenticated(IsAuthenticatedOrEntryToken):
    """Anyone reads; a write needs a logged-in user or an entry link (anonymous callers get 401, as on every other
    write), and the view or service decides what they may do."""

    anonymous_reads = True  # the schema documents its reads with the empty security requirement (common.api.schema)

    def has_permission(self, request: Request, view: Any) -> bool:
        return request.method in permissions.SAFE_METHODS or super().has_permission(request, view)
