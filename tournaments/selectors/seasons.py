"""A club's season table: each player's points over the club's events of the season, by the season's system.

The club's events whose first day falls in the season count (an event without dates counts once it has started on
a day in the span: its ``created_at``). Every division of each event counts; per player and event the points are
those the system gives his matches won over the board and his place, as the master points read them
(:func:`tournaments.selectors.points.division_results`: counted results, the standings' places), so a correction
that changes a result or a place changes the table when it is next read. A player who took part in an event
(he is in its standings) showed up.

Order: points (more first), then events played (fewer first: the same points in fewer nights), then name; players
level on points and events share the rank. The top ``qualify`` (if set) are above the playoff line.

Reads a fixed number of queries whatever the number of events and players.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from django.db.models import Q, QuerySet

from tournaments import points
from tournaments.models import Event, Season
from tournaments.selectors.points import division_results, usbgf_of


@dataclass
class SeasonRow:
    rank: int
    player_id: int
    name: str
    points: float
    events: int
    match_wins: int
    qualified: bool = False


@dataclass(frozen=True)
class SeasonTable:
    season: Season
    events: list[Event] = field(default_factory=list)
    rows: list[SeasonRow] = field(default_factory=list)


def season_events(season: Season) -> QuerySet[Event]:
    """The club's events of the season, in date order."""
    in_span = Q(starts_on__gte=season.starts_on, starts_on__lte=season.ends_on)
    undated = Q(starts_on__isnull=True, created_at__date__gte=season.starts_on, created_at__date__lte=season.ends_on)
    return Event.objects.filter(in_span | undated, club_id=season.club_id).order_by("starts_on", "created_at", "id")


def club_table(season: Season) -> points.ClubTable:
    table = season.table or {}
    return points.ClubTable(
        per_win=float(table.get("per_win", 1.0)),
        times_length=bool(table.get("times_length", False)),
        places=tuple(float(p) for p in table.get("places", [])),
        showing_up=float(table.get("showing_up", 0.0)),
    )


def season_table(season: Season) -> SeasonTable:
    """The season's table (see the module's terms)."""
    events = list(season_events(season))
    totals: dict[int, float] = defaultdict(float)
    played: dict[int, set[int]] = defaultdict(set)
    wins: dict[int, int] = defaultdict(int)
    names: dict[int, str] = {}
    table = club_table(season)
    multipliers = (season.table or {}).get("multipliers", {})
    for found in division_results(season_events(season)):
        division, event = found.division, found.division.event
        for took in found.players:
            if season.system == Season.System.USBGF:
                earned: points.Earned | points.ClubEarned = usbgf_of(event, division, took, len(found.players))
            else:
                place = None if took.place is None else (took.place.first, took.place.last)
                multiplier = float(multipliers.get(event.slug, 1.0))
                earned = points.club_points(table, took.lengths, place, multiplier=multiplier)
            totals[took.player_id] += earned.total
            played[took.player_id].add(event.pk)
            wins[took.player_id] += earned.match_wins
            names[took.player_id] = took.name
    ordered = sorted(names, key=lambda p: (-round(totals[p], 9), len(played[p]), names[p], p))
    rows: list[SeasonRow] = []
    for position, player in enumerate(ordered, start=1):
        row = SeasonRow(position, player, names[player], totals[player], len(played[player]), wins[player])
        previous = rows[-1] if rows else None
        if previous and (round(previous.points, 9), previous.events) == (round(row.points, 9), row.events):
            row.rank = previous.rank
        row.qualified = bool(season.qualify) and row.rank <= season.qualify
        rows.append(row)
    return SeasonTable(season, events, rows)
