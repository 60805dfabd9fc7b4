"""Reads of the API: the event or division a user may see, entries, pairings, ratings and their history.

Each runs a fixed number of queries whatever the size of the field, and loads what the serializers of
:mod:`tournaments.api.serializers` read (so rendering adds no query). Visibility follows
``tournaments.events_visible_to``: what lies in an event the user may not see is not found.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Count, F, Q, QuerySet

from games.models import EntryToken, Player
from tournaments.models import Division, Entry, Event, Pairing, Rating, RatingChange, RatingList, Round
from tournaments.selectors.common import events_visible_to, pairings_of
from tournaments.selectors.playoffs import playoff_to_play

_PAIRING_RELATED = (
    "round",
    "division__event",
    "entry_a__player",
    "entry_b__player",
    "match__player1",
    "match__player2",
    "table",
)


def visible_event(user: Any, slug: str) -> Event | None:
    return events_visible_to(user).select_related("rating_list", "club").filter(slug=slug).first()


def visible_division(user: Any, event_slug: str, division_slug: str) -> Division | None:
    """The division, with its event and ``playoff_to_play`` (a playoff to play, its rounds over), in one query."""
    return (
        Division.objects.filter(event__in=events_visible_to(user), event__slug=event_slug, slug=division_slug)
        .annotate(playoff_to_play=playoff_to_play())
        .select_related("event")
        .first()
    )


def can_see_event(user: Any, event_id: int) -> bool:
    return events_visible_to(user).filter(pk=event_id).exists()


def division_summaries(event: Event) -> list[Division]:
    """The event's divisions, each with ``entry_count`` (entries not withdrawn) and ``playoff_to_play`` (a playoff
    for a tie to play though its rounds are over), in one query."""
    playing = Q(entries__status__in=[s for s in Entry.Status.values if s != Entry.Status.WITHDRAWN])
    counted = event.divisions.annotate(entry_count=Count("entries", filter=playing), playoff_to_play=playoff_to_play())
    return list(counted.order_by("id"))


def events_of(user: Any) -> QuerySet[Event]:
    """The events ``user`` may see, each with ``playoff_to_play`` (one of its divisions finished has a playoff for
    a tie to play) read in the same statement."""
    return events_visible_to(user).annotate(playoff_to_play=playoff_to_play("division__event"))


def event_directors(event: Event) -> list[str]:
    return list(event.directors.order_by("username").values_list("username", flat=True))


def entries_of(division: Division) -> list[Entry]:
    """Seeded entries in seed order, then the others in the order they registered."""
    return list(division.entries.select_related("player").order_by(F("seed").asc(nulls_last=True), "id"))


def entry_of(division: Division, entry_id: int) -> Entry | None:
    entry = division.entries.select_related("player").filter(pk=entry_id).first()
    if entry is not None:
        entry.division = division
    return entry


def pairing_row(pairing_id: int) -> Pairing | None:
    """A pairing with its round, division, event, players and match (for the access check and the answer)."""
    return Pairing.objects.select_related(*_PAIRING_RELATED).filter(pk=pairing_id).first()


def pairings_in(division: Division, *, bracket: str | None = None, number: int | None = None) -> QuerySet[Pairing]:
    """The division's pairings with their round, players and match (the result they show), optionally of one bracket
    and/or one round number, in bracket, round and board order (a query, for the API to page)."""
    pairings = division.pairings.select_related("round", "entry_a__player", "entry_b__player", "match", "table")
    if bracket is not None:
        pairings = pairings.filter(round__bracket=bracket)
    if number is not None:
        pairings = pairings.filter(round__number=number)
    return pairings.order_by("round__bracket", "round__number", "board")


def round_pairings(division: Division, rnd: Round) -> list[Pairing]:
    return pairings_of(division, round=rnd)


def rating_table(rating_list: RatingList) -> tuple[list[Rating], dict[int, int]]:
    """The list's ratings, best first, and each row's rank (equal ratings share a rank)."""
    rows = list(rating_list.ratings.select_related("player").order_by("-rating", "player__display_name", "player_id"))
    ranks: dict[int, int] = {}
    for position, row in enumerate(rows, start=1):
        previous = rows[position - 2] if position > 1 else None
        ranks[row.pk] = ranks[previous.pk] if previous is not None and previous.rating == row.rating else position
    return rows, ranks


def rating_history(rating_list: RatingList, player: Player, user: Any) -> tuple[list[RatingChange], set[int]]:
    """The player's rating changes in match order, and the ids of the private matches among them that ``user``
    may see (those of events visible to him)."""
    changes = list(
        RatingChange.objects.filter(rating_list=rating_list, player=player).select_related("match").order_by("order")
    )
    private = [c.match_id for c in changes if c.match.private]
    visible: set[int] = set()
    if private:
        visible = set(
            Pairing.objects.filter(match_id__in=private, division__event__in=events_visible_to(user)).values_list(
                "match_id", flat=True
            )
        )
    return changes, visible


def token_player(token: EntryToken) -> Player:
    """The player an entry link stands for (its side of its match)."""
    field = "matches_as_player1" if token.side == 0 else "matches_as_player2"
    return Player.objects.get(**{field: token.match_id})
