"""A registered player's details corrected by a director: a name typed wrong at the door, a club or a country
missing. The player's record is corrected (games.services.correct_player): every page, slip, print and export of
every event he played shows the new name.

Refused, with nothing stored: a player entered in an event the director does not direct (its director corrects
him); a name that another player entered in one of the same divisions has (two players of one name are told apart
in it, as a registration tells them); in a club's event, a name another record of the club's roster has (the same
person is one record: the club's directors merge the two; another person is told apart).
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import Q

from common.actor import Actor
from common.errors import ApplicationError, ErrorCode
from games.models import Player
from games.services import correct_player
from tournaments.access import check_directs
from tournaments.models import Club, Division, Entry, Event
from tournaments.names import spaced, told_apart


def correct_player_details(entry: Entry, *, actor: Actor, name: str, club: str, country: str) -> Player:
    """Correct the name, club and country of ``entry``'s player, as the director of its event.

    :raises ApplicationError: FORBIDDEN (not the director of every event the player is entered in); CONFLICT (the
        name is another player's in one of his divisions or on the club's roster); INVALID_INPUT (what is wrong
        with a value, as at a registration)."""
    event = entry.division.event
    check_directs(actor, event)
    player = entry.player
    others = Event.objects.filter(divisions__entries__player=player).exclude(pk=event.pk).distinct()
    for other in others:
        try:
            check_directs(actor, other)
        except ApplicationError:
            raise ApplicationError(
                ErrorCode.FORBIDDEN,
                f"{player.display_name} is also entered in {other.name}, which you do not direct: a director of "
                "both events, or an administrator, corrects him",
            ) from None
    wanted = spaced(name)
    try:
        with transaction.atomic():
            if wanted.casefold() != player.display_name.casefold():
                _check_name_free(player, wanted, club)
            return correct_player(player.pk, display_name=name, club=club, country=country)
    except ApplicationError as refused:  # said of whom: a list of players is on the page
        message = f"{player.display_name} is not corrected: {refused.message}"
        raise ApplicationError(refused.code, message, **refused.extra) from None


def _check_name_free(player: Player, name: str, club: str) -> None:
    """No other player entered in one of ``player``'s divisions is called ``name``, nor another record on the
    roster of his clubs (those whose roster he is on, or whose events he entered)."""
    divisions = Division.objects.filter(entries__player=player)
    taken = (
        Entry.objects.filter(division__in=divisions, player__display_name__iexact=name)
        .exclude(player=player)
        .select_related("division", "player")
        .order_by("pk")
        .first()
    )
    apart = f'"{told_apart(name, club)}"'
    if taken is not None:
        raise ApplicationError(
            ErrorCode.CONFLICT,
            f"{taken.player.display_name} is already entered in {taken.division.name}: tell the two apart in the "
            f"name, such as {apart}",
        )
    clubs = Club.objects.filter(Q(players=player) | Q(events__divisions__entries__player=player))
    rostered = Player.objects.filter(clubs__in=clubs, display_name__iexact=name, merged_into__isnull=True)
    rostered = rostered.exclude(pk=player.pk)
    if rostered.exists():
        raise ApplicationError(
            ErrorCode.CONFLICT,
            f"{name} is on the club's roster already, another record: if they are one person, merge the two records "
            f"on the club's page; if not, tell them apart in the name, such as {apart}",
        )
