"""A club's season table: each player's points over the club's events of the season, by the season's system.

The club's events whose first day falls in the season count (an event without dates counts once it has started on
a day in the span: its ``created_at``). Every division of each event counts; per player and event the points are
those the system gives his matches won over the board and his place, as the master points read them
(:func:`tournaments.selectors.points.division_results`: counted results, the standings' places). A player who took
part in an event (he is in its standings) showed up.

What each event gives each player is stored (:class:`tournaments.models.SeasonPoints`): :func:`season_contributions`
computes an event's rows, and a task writes them after the event's follow-up computed its standings
(tournaments/services/seasons.py), so a correction that changes a result or a place changes the table once its
follow-up has run. :func:`season_table` sums the stored rows: one query with aggregation, whatever the number of
events.

Order: points (more first), then events played (fewer first: the same points in fewer nights), then name; players
level on points and events share the rank. The top ``qualify`` (if set) are above the playoff line.

Reads a fixed number of queries whatever the number of events and players.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from django.db.models import Count, Q, QuerySet, Sum

from tournaments import points
from tournaments.models import Event, Season, SeasonPoints
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


def season_contributions(season: Season, event_ids: Sequence[int] | None = None) -> list[SeasonPoints]:
    """What each of the season's events (those of ``event_ids`` only, if given; one outside the span gives
    nothing) gives each player who took part, as unsaved rows: his divisions of the event together, his best place.
    Reads a fixed number of queries (:func:`division_results`)."""
    events = season_events(season)
    if event_ids is not None:
        events = events.filter(pk__in=event_ids)
    table = club_table(season)
    multipliers = (season.table or {}).get("multipliers", {})
    rows: dict[tuple[int, int], SeasonPoints] = {}
    for found in division_results(events):
        division, event = found.division, found.division.event
        for took in found.players:
            if season.system == Season.System.USBGF:
                earned: points.Earned | points.ClubEarned = usbgf_of(event, division, took, len(found.players))
            else:
                place = None if took.place is None else (took.place.first, took.place.last)
                multiplier = float(multipliers.get(event.slug, 1.0))
                earned = points.club_points(table, took.lengths, place, multiplier=multiplier)
            row = rows.setdefault(
                (event.pk, took.player_id), SeasonPoints(season=season, event=event, player_id=took.player_id, points=0)
            )
            row.points += earned.total
            row.match_wins += earned.match_wins
            if took.place is not None and (row.place_first is None or took.place.first < row.place_first):
                row.place_first, row.place_last = took.place.first, took.place.last
    return list(rows.values())


#: What the pages and the API show of a season's event.
EVENT_FIELDS = ("slug", "name", "starts_on", "ends_on", "status", "club_id", "created_at")


def season_table(season: Season, *, events: bool = True) -> SeasonTable:
    """The season's table (see the module's terms), summed from the stored rows; its events too unless not
    ``events`` (a CSV lists none)."""
    listed = list(season_events(season).only(*EVENT_FIELDS)) if events else []
    summed = (
        SeasonPoints.objects.filter(season=season)
        .values("player_id", "player__display_name")
        .annotate(total=Sum("points"), played=Count("event_id"), wins=Sum("match_wins"))
        .values_list("player_id", "player__display_name", "total", "played", "wins")
    )
    found = sorted(summed, key=lambda p: (-round(p[2], 9), p[3], p[1], p[0]))
    rows: list[SeasonRow] = []
    for position, (player, name, total, played, wins) in enumerate(found, start=1):
        row = SeasonRow(position, player, name, total, played, wins)
        previous = rows[-1] if rows else None
        if previous and (round(previous.points, 9), previous.events) == (round(row.points, 9), row.events):
            row.rank = previous.rank
        row.qualified = bool(season.qualify) and row.rank <= season.qualify
        rows.append(row)
    return SeasonTable(season, listed, rows)
