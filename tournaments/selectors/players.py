"""What a player's page shows of his tournaments: his events with their divisions and his places, his points in
each season of his clubs, and his rating history on each rating list he is on.

Reads a fixed number of queries whatever the number of his events (each season of his clubs reads its table).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from games.models import Player
from tournaments.models import Rating, RatingChange, Season
from tournaments.selectors.clubs import clubs_visible_to
from tournaments.selectors.common import events_visible_to
from tournaments.selectors.points import division_results
from tournaments.selectors.seasons import season_table


@dataclass(frozen=True)
class EventPlace:
    event: Any
    division: Any
    place: str


@dataclass(frozen=True)
class SeasonPoints:
    season: Season
    rank: int
    points: float
    events: int


@dataclass(frozen=True)
class RatingHistory:
    rating: Rating
    changes: list[RatingChange] = field(default_factory=list)


@dataclass(frozen=True)
class PlayerRecord:
    events: list[EventPlace]
    seasons: list[SeasonPoints]
    ratings: list[RatingHistory]


def player_record(player: Player, user: Any) -> PlayerRecord:
    """His events (those ``user`` may see, the latest first), his season points and his rating histories."""
    events = events_visible_to(user).filter(divisions__entries__player=player).distinct()
    places = []
    for found in division_results(events):
        for took in found.players:
            if took.player_id == player.pk:
                places.append(
                    EventPlace(found.division.event, found.division, "" if took.place is None else str(took.place))
                )
    places.sort(key=lambda p: (p.event.starts_on is not None, p.event.starts_on, p.event.pk), reverse=True)
    seasons = []
    clubs = clubs_visible_to(user).filter(players=player)
    for season in Season.objects.filter(club__in=clubs).select_related("club").order_by("-starts_on", "pk"):
        for row in season_table(season).rows:
            if row.player_id == player.pk:
                seasons.append(SeasonPoints(season, row.rank, row.points, row.events))
    ratings = {
        r.rating_list_id: RatingHistory(r) for r in Rating.objects.filter(player=player).select_related("rating_list")
    }
    changes = RatingChange.objects.filter(player=player, rating_list_id__in=list(ratings)).select_related("match")
    for change in changes.order_by("rating_list_id", "order"):
        ratings[change.rating_list_id].changes.append(change)
    return PlayerRecord(places, seasons, sorted(ratings.values(), key=lambda h: h.rating.rating_list.name))
