"""Who directs what: an event's directors (and staff) have rights over that event, its divisions and its matches.

Registered into games/ at start-up (tournaments/apps.py): a director of an event directs every match of its
pairings, so the games services accept his corrections and decisions on them.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Q

from games.access import SYSTEM, Actor
from games.errors import ApplicationError, ErrorCode
from games.models import Match
from tournaments.models import Event, Pairing


def directs_event(user: Any, event: Event) -> bool:
    if user is None or not user.is_authenticated:
        return False
    return bool(user.is_staff or event.directors.filter(pk=user.pk).exists())


def check_directs(actor: Actor, event: Event) -> None:
    """Raise unless ``actor`` is a director of ``event`` (or staff, or the system).

    :raises ApplicationError: NOT_AUTHENTICATED for nobody, FORBIDDEN for anyone else.
    """
    if actor is SYSTEM:
        return
    if actor.token is not None:
        raise ApplicationError(ErrorCode.FORBIDDEN, "an entry link cannot do a director's work")
    if actor.user is None or not actor.user.is_authenticated:
        raise ApplicationError(ErrorCode.NOT_AUTHENTICATED, "log in as a director of this event")
    if not directs_event(actor.user, event):
        raise ApplicationError(ErrorCode.FORBIDDEN, f"you are not a director of {event.name}")


def directs_match(user: Any, match: Match) -> bool:
    """The DIRECTOR_CHECKS hook: ``user`` directs the event whose pairing created ``match``."""
    return Pairing.objects.filter(match=match, division__event__directors=user).exists()


def directed_matches(user: Any) -> Q:
    """The DIRECTED_MATCHES hook: the matches of the events ``user`` directs."""
    return Q(pk__in=Pairing.objects.filter(division__event__directors=user, match__isnull=False).values("match_id"))
