"""Who is calling, games' part: the entry link's authentication, reading a match, registering players. The
entry link a request carried, its actor and the permissions every app's views use are common.api.auth's.

Three ways in (docs/ARCHITECTURE.md, "The rooms of each app"): the browser's session, ``Authorization: Token <key>`` for
programs, and a player's per-side entry link sent as ``X-Entry-Token: <token text>``. An entry link, when sent, is the
credential of the request (it wins over a session): ``request.user`` is anonymous and ``request.auth`` is the
:class:`~games.models.EntryToken`. A forged or revoked link is refused with 403 and the access module's message. A link
a phone has opened belongs to that phone (games.access.claim_entry_token) and is refused here: whoever photographs a
slip cannot play for that player; an app asks the director for a link of its own.

This module is loaded by DRF's settings: it must not import ``rest_framework.views`` (or drf-spectacular), which
import those settings back. The OpenAPI description of the entry link lives in :mod:`games.api.schema`.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AnonymousUser
from rest_framework import exceptions, permissions
from rest_framework.authentication import BaseAuthentication
from rest_framework.request import Request

from common.api.auth import actor_of
from common.errors import ApplicationError
from games import access
from games.access import access_api_entry_token
from games.models import EntryToken, Match

ENTRY_TOKEN_HEADER = "X-Entry-Token"
#: What a client sends to authenticate (the ``WWW-Authenticate`` of a 401).
AUTHENTICATE_HEADER = 'Token realm="api"'


class EntryTokenRefused(exceptions.PermissionDenied):
    """A forged, malformed or revoked entry link (403, not 401: a credential was sent and is wrong for good)."""


class EntryTokenAuthentication(BaseAuthentication):
    """``X-Entry-Token: <token text>``: act for one side of one match."""

    def authenticate(self, request: Request) -> tuple[Any, EntryToken] | None:
        text = request.META.get("HTTP_X_ENTRY_TOKEN", "").strip()
        if not text:
            return None
        try:
            token = access_api_entry_token(text)  # refused for a link a phone has opened
        except ApplicationError as exc:
            raise EntryTokenRefused(exc.message) from None
        return AnonymousUser(), token

    def authenticate_header(self, request: Request) -> str:
        # The first authentication class names the scheme of a 401; a program's way in is a DRF token.
        return AUTHENTICATE_HEADER


def may_read(request: Request, match: Match) -> bool:
    """Public matches, and private ones for their players, directors and the holders of their entry links."""
    return access.may_read(actor_of(request), match)


class CanAddPlayersOrReadOnly(permissions.BasePermission):
    """Anyone reads; staff and users with ``games.add_player`` register players."""

    message = "only directors (staff, or users allowed to add players) can register players"
    anonymous_reads = True

    def has_permission(self, request: Request, view: Any) -> bool:
        if request.method in permissions.SAFE_METHODS:
            return True
        user = request.user
        return bool(user and user.is_authenticated and (user.is_staff or user.has_perm("games.add_player")))
