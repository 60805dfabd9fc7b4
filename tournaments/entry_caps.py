"""Divisions open by rating or by points: who a division's entry cap refuses, and why.

A division may be open only to players rated under N (``rating_under``) or N and more (``rating_from``) on its
event's rating list, and only to players with fewer than N points (``points_under``) in a season of its club
(``points_season``). A player not yet on the list counts at the list's starting rating; a player with no points in
the season has 0. The services refuse to enter or check in a player outside the cap with the reason these functions
give, unless the director overrides it with his own reason (kept on the entry).

The season's points are read by the season table (tournaments/selectors/seasons.py), which this layer may not
import: :func:`plug_season_points` hands it over when the app is ready.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from games.models import Player
from tournaments.models import Division, Rating, Season

#: How a season's points are read, per player id (set by :func:`plug_season_points`).
_season_points: list[Callable[[Season], dict[int, float]]] = []


def plug_season_points(read: Callable[[Season], dict[int, float]]) -> None:
    _season_points[:] = [read]


def is_capped(division: Division) -> bool:
    return division.rating_under is not None or division.rating_from is not None or division.points_under is not None


@dataclass(frozen=True)
class Candidate:
    """Someone to enter: a player on record (``player_id``), or a new one (None) by his name."""

    name: str
    player_id: int | None


def refusals(division: Division, candidates: Iterable[Candidate]) -> list[str | None]:
    """Why the division's caps refuse each candidate (None: within them), in the candidates' order. Reads the
    ratings in one statement and the season's points once, whatever the number of candidates."""
    people = list(candidates)
    if not is_capped(division):
        return [None for _ in people]
    ids = [c.player_id for c in people if c.player_id is not None]
    ratings: dict[int, float] = {}
    start = 1500.0
    rating_list = division.event.rating_list
    if rating_list is not None and (division.rating_under is not None or division.rating_from is not None):
        start = rating_list.start
        found = Rating.objects.filter(rating_list=rating_list, player_id__in=ids).values_list("player_id", "rating")
        ratings = dict(found)
    points: dict[int, float] = {}
    if division.points_season is not None and _season_points:
        points = _season_points[0](division.points_season)
    reasons = []
    for c in people:
        rating = ratings.get(c.player_id, start) if c.player_id is not None else start
        earned = points.get(c.player_id, 0.0) if c.player_id is not None else 0.0
        reasons.append(_refusal(division, c.name, rating, c.player_id is not None and c.player_id in ratings, earned))
    return reasons


def refusal_of(division: Division, name: str, player: Player | None) -> str | None:
    """Why the division's caps refuse one player (None: within them)."""
    return refusals(division, [Candidate(name, None if player is None else player.pk)])[0]


def _refusal(division: Division, name: str, rating: float, rated: bool, points: float) -> str | None:
    listed = division.event.rating_list
    unrated = "" if rated else f" (new on {listed}'s list, he counts at its start)" if listed else " (unrated)"
    if division.rating_under is not None and rating >= division.rating_under:
        cap = division.rating_under
        word = "above" if round(rating) > cap else "at"
        return (
            f"{name}'s rating {rating:,.0f}{unrated} is {word} this division's cap of {cap:,}: it is open to players "
            f"rated under {cap:,}"
        )
    if division.rating_from is not None and rating < division.rating_from:
        floor = division.rating_from
        return (
            f"{name}'s rating {rating:,.0f}{unrated} is below this division's floor of {floor:,}: it is open to "
            f"players rated {floor:,} or more"
        )
    season = division.points_season
    if division.points_under is not None and season is not None and points >= division.points_under:
        most = f"{division.points_under:,g}"
        return (
            f"{name} has {points:,.2f} points in {season.name}, not under this division's cap of {most}: it is open "
            f"to players with fewer than {most} points in {season.name}"
        )
    return None
