"""Who directs what: an event's directors (and staff) have rights over that event, its divisions and its matches.

Registered into games/ at start-up (tournaments/apps.py): a director of an event directs every match of its
pairings, so the games services accept his corrections and decisions on them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db.models import Q

from common.actor import SYSTEM, Actor
from common.errors import ApplicationError, ErrorCode
from games.access import is_director, sides_of
from games.models import Match
from tournaments.models import Club, Event, Pairing, Playoff


def directs_event(user: Any, event: Event) -> bool:
    if user is None or not user.is_authenticated:
        return False
    return bool(user.is_staff or event.directors.filter(pk=user.pk).exists())


def check_directs(actor: Actor, event: Event) -> None:
    """Raise unless ``actor`` is a director of ``event`` (or staff, or the system).

    :raises ApplicationError: NOT_AUTHENTICATED for nobody, FORBIDDEN for anyone else.
    """
    _check_director(actor, lambda user: directs_event(user, event), "this event", event.name)


def directs_match(user: Any, match: Match) -> bool:
    """The DIRECTOR_CHECKS hook: ``user`` directs the event whose pairing (or playoff) created ``match``."""
    directs = Q(pairing__division__event__directors=user)
    directs |= Q(playoff_first__division__event__directors=user) | Q(playoff_final__division__event__directors=user)
    return Match.objects.filter(directs, pk=match.pk).exists()


def directed_matches(user: Any) -> Q:
    """The DIRECTED_MATCHES hook: the matches of the events ``user`` directs (their pairings' and playoffs')."""
    playoffs = Playoff.objects.filter(division__event__directors=user)
    return (
        Q(pk__in=Pairing.objects.filter(division__event__directors=user, match__isnull=False).values("match_id"))
        | Q(pk__in=playoffs.filter(first_match__isnull=False).values("first_match_id"))
        | Q(pk__in=playoffs.filter(final_match__isnull=False).values("final_match_id"))
    )


def check_answers(
    actor: Actor, match: Match, confirmation: str, asked: int | None, *, director_may: bool = True
) -> None:
    """Raise unless ``actor`` may answer for a result waiting for a confirmation (``confirmation``, the side
    ``asked``): a round's pairing's or a playoff's match's. The side asked answers; a director confirms (not
    ``director_may``: a dispute is the player's); a disputed result is a director's to decide.

    :raises ApplicationError: CONFLICT when the result waits for no confirmation; FORBIDDEN for anyone else."""
    if confirmation not in (Pairing.Confirmation.AWAITING, Pairing.Confirmation.DISPUTED):
        raise ApplicationError(ErrorCode.CONFLICT, "this result is not waiting for a confirmation")
    if director_may and actor.token is None and (actor is SYSTEM or is_director(actor.user, match)):
        return
    if confirmation == Pairing.Confirmation.DISPUTED:
        raise ApplicationError(ErrorCode.FORBIDDEN, "the result is disputed: a director decides")
    if asked is None or asked not in sides_of(actor, match):
        who = match.player(asked).display_name if asked is not None else "a director"
        raise ApplicationError(ErrorCode.FORBIDDEN, f"only {who} or a director can answer for this result")


def confirms_again(actor: Actor, match: Match, confirmation: str, asked: int | None) -> bool:
    """Whether ``actor`` is the player's side asked confirming a result already confirmed: the same answer sent
    twice (a phone sends a kept answer again when it cannot know the first arrived), harmless. A director's
    second confirmation is still refused as waiting for none (his pages and the API say so)."""
    if confirmation != Pairing.Confirmation.CONFIRMED:
        return False
    if actor.token is None and (actor is SYSTEM or is_director(actor.user, match)):
        return False
    return asked is not None and asked in sides_of(actor, match)


def disputes_again(actor: Actor, match: Match, confirmation: str, asked: int | None, *, same_reason: bool) -> bool:
    """Whether ``actor`` is the side asked sending again the dispute already recorded (the same reason): harmless,
    as :func:`confirms_again`."""
    if confirmation != Pairing.Confirmation.DISPUTED or not same_reason:
        return False
    return asked is not None and asked in sides_of(actor, match)


def directs_club(user: Any, club: Club) -> bool:
    if user is None or not user.is_authenticated:
        return False
    return bool(user.is_staff or club.directors.filter(pk=user.pk).exists())


def check_directs_club(actor: Actor, club: Club) -> None:
    """Raise unless ``actor`` is a director of ``club`` (or staff, or the system).

    :raises ApplicationError: NOT_AUTHENTICATED for nobody, FORBIDDEN for anyone else.
    """
    _check_director(actor, lambda user: directs_club(user, club), club.name, club.name)


def _check_director(actor: Actor, directs: Callable[[Any], bool], what: str, name: str) -> None:
    if actor is SYSTEM:
        return
    if actor.token is not None:
        raise ApplicationError(ErrorCode.FORBIDDEN, "an entry link cannot do a director's work")
    if actor.user is None or not actor.user.is_authenticated:
        raise ApplicationError(ErrorCode.NOT_AUTHENTICATED, f"log in as a director of {what}")
    if not directs(actor.user):
        raise ApplicationError(ErrorCode.FORBIDDEN, f"you are not a director of {name}")
