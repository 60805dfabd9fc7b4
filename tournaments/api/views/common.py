"""What the views of the tournaments API share: input checks, the error answers of the schema, permissions, and
the lookups that answer 404 for what does not exist or may not be seen."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib.auth import get_user_model
from drf_spectacular.utils import OpenApiResponse
from rest_framework import permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from common.api.auth import ReadOpenWriteAuthenticated, actor_of, entry_token
from common.api.errors import ErrorDoc
from common.errors import ApplicationError, ErrorCode
from games.access import sides_of
from games.api.schema import EntryTokenScheme  # noqa: F401  (registers the extension)
from tournaments.api.serializers.events import DirectorInput, DivisionSerializer
from tournaments.api.serializers.rounds import PairingSerializer
from tournaments.models import Division, Entry, Event, Pairing
from tournaments.selectors import api as reads


def valid(serializer_class: type[serializers.Serializer], data: Any, **context: Any) -> dict[str, Any]:
    serializer = serializer_class(data=data, context=context)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


def errors(*codes: int) -> dict[int, Any]:
    return {code: OpenApiResponse(ErrorDoc, description=_ERROR_TEXT[code]) for code in codes}


_ERROR_TEXT = {
    400: "invalid input (`fields`), or settings, entries or decisions the services refuse (`invalid_input`)",
    401: "not logged in (and no entry link where one is accepted)",
    403: "not allowed (not a director of this event, not the player asked, an entry link for a director's work)",
    404: "no such event, division, entry, pairing or player (or a private one)",
    409: "not now: the division has started, the round is not complete, the result is not awaiting an answer, ...",
}


class ReadOrActor(ReadOpenWriteAuthenticated):
    """Anyone reads; a user or an entry-link holder writes (what he may write is the services' decision)."""


class HasEntryToken(permissions.BasePermission):
    message = "send your entry link as the X-Entry-Token header"

    def has_permission(self, request: Request, view: Any) -> bool:
        return entry_token(request) is not None


def event_of(request: Request, slug: str) -> Event:
    event = reads.visible_event(request.user, slug)
    if event is None:
        raise ApplicationError(ErrorCode.NOT_FOUND, f"there is no event {slug!r}")
    return event


def division_of(request: Request, event: str, division: str) -> Division:
    found = reads.visible_division(request.user, event, division)
    if found is None:
        raise ApplicationError(ErrorCode.NOT_FOUND, f"there is no division {event}/{division}")
    return found


def entry_of(division: Division, entry_id: int) -> Entry:
    entry = reads.entry_of(division, entry_id)
    if entry is None:
        raise ApplicationError(ErrorCode.NOT_FOUND, f"{division.name} has no entry {entry_id}")
    return entry


def entry_field_of(division: Division, field: str, entry_id: int) -> Entry:
    """An entry named in the input: a field error when it is not one of the division's."""
    entry = reads.entry_of(division, entry_id)
    if entry is None:
        raise serializers.ValidationError({field: [f"{division.name} has no entry {entry_id}"]})
    return entry


def pairing_of(request: Request, pairing_id: int) -> Pairing:
    """The pairing, if its event is visible to the caller or the caller plays its match (an entry link of a
    private event's match answers for its own result)."""
    pairing = reads.pairing_row(pairing_id)
    if pairing is not None:
        event = pairing.division.event
        if event.public or reads.can_see_event(request.user, event.pk):
            return pairing
        if pairing.match is not None and sides_of(actor_of(request), pairing.match):
            return pairing
    raise ApplicationError(ErrorCode.NOT_FOUND, f"there is no pairing {pairing_id}")


def division_answer(division: Division, *, director: bool, code: int = status.HTTP_200_OK) -> Response:
    return Response(DivisionSerializer(division, context={"director": director}).data, status=code)


def pairing_answer(pairing_id: int) -> Response:
    return Response(PairingSerializer(reads.pairing_row(pairing_id)).data)


def director_to_add(request: Request, check: Callable[[], None]) -> Any:
    """The user named by a DirectorInput; an unknown name is told only to those ``check`` lets through (only
    directors learn which usernames exist)."""
    username = valid(DirectorInput, request.data)["username"]
    user = get_user_model().objects.filter(username=username).first()
    if user is None:
        check()
        raise serializers.ValidationError({"username": [f"there is no user {username!r}"]})
    return user
