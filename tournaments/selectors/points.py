"""Master points of an event (contract H, ``manage.py master_points``): per player of each of its divisions, the
matches he won over the board, his place, and the points the system gives them (tournaments/points.py).

- **Matches won**: the counted results (:data:`tournaments.core.COUNTED`) of every flight of the division (main,
  consolation, last chance, Swiss rounds) won over the board: a bye, a forfeit (:data:`tournaments.core.FORFEITS`)
  and a match the games app marks forfeited are not matches won. Each counts at its pairing's length.
- **Places**: those of the main flight of the stored standings, by the rule the payouts are paid on
  (:func:`tournaments.selectors.common.flight_places_of`): a knockout's places as players go out (the champion once
  the final is played), a Swiss's or round robin's ranks, a Swiss into a knockout's knockout and then its Swiss
  ranks. A player with no place yet earns no placement points.
- **Players** of a division: the rows of its standings (every player who took part: seeded, or a late entry); before
  its start, its entries not withdrawn. Their number is the field of the placement formula.

Reads a fixed number of queries, whatever the number of divisions and the size of their fields
(:func:`division_results`, which a club's season table reads too).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from django.db.models import OuterRef, Q, QuerySet, Subquery
from django.db.models.functions import Coalesce

from games.models import Match
from tournaments import points
from tournaments.core import COUNTED_CONFIRMATIONS, FORFEITS
from tournaments.models import Division, Entry, Event, Pairing, Round, Standing
from tournaments.selectors.common import flight_places_of
from tournaments.standings.places import Place

#: The systems :func:`master_points` knows, by the name the command takes.
SYSTEMS = (points.USBGF,)


@dataclass(frozen=True)
class PlayerPoints:
    """One player's master points in one division."""

    name: str
    division: str
    place: Place | None
    earned: points.Earned


@dataclass(frozen=True)
class DivisionPoints:
    """A division's settings for master points and whether its places are final."""

    name: str
    slug: str
    players: int
    weight: float
    places_paid: int
    finished: bool
    standings_current: bool
    scored: list[PlayerPoints] = field(default_factory=list)  # best total first


@dataclass(frozen=True)
class EventPoints:
    event: Event
    system: str
    divisions: list[DivisionPoints] = field(default_factory=list)

    @property
    def players(self) -> list[PlayerPoints]:
        """Every division's players, division by division."""
        return [p for d in self.divisions for p in d.scored]


@dataclass(frozen=True)
class Took:
    """One player's part in one division: his place (None: none yet) and the lengths of the matches he won over the
    board."""

    entry_id: int
    player_id: int
    name: str
    place: Place | None
    lengths: list[int]


@dataclass(frozen=True)
class DivisionResults:
    division: Division
    players: list[Took]


def division_results(events: QuerySet[Event]) -> list[DivisionResults]:
    """What every player took in each division of ``events`` (in event and division order), read in four queries
    whatever the number of events, divisions and players: the divisions, their latest standings tables, the entries
    of those without standings yet, and the matches won over the board."""
    divisions = list(Division.objects.filter(event__in=events).select_related("event").order_by("event_id", "id"))
    ids = [d.pk for d in divisions]
    latest = Standing.objects.filter(division=OuterRef("division")).order_by("-after_round").values("after_round")[:1]
    rows: dict[int, list[Standing]] = defaultdict(list)
    table = Standing.objects.filter(division_id__in=ids, after_round=Subquery(latest)).select_related("entry__player")
    for row in table.order_by("rank", "entry__seed", "entry_id"):
        rows[row.division_id].append(row)
    waiting = [pk for pk in ids if pk not in rows]
    entries: dict[int, list[Entry]] = defaultdict(list)
    if waiting:
        found = Entry.objects.filter(division_id__in=waiting).exclude(status=Entry.Status.WITHDRAWN)
        for entry in found.select_related("player").order_by("seed", "id"):
            entries[entry.division_id].append(entry)
    won = _lengths_won(ids)
    results = []
    for division in divisions:
        if division.pk in rows:
            places = flight_places_of(division, rows[division.pk], Round.Bracket.MAIN)
            taken = [row.entry for row in rows[division.pk]]
        else:
            places, taken = {}, entries[division.pk]
        players = [Took(e.pk, e.player_id, e.player.display_name, places.get(e.pk), won.get(e.pk, [])) for e in taken]
        results.append(DivisionResults(division, players))
    return results


def master_points(event: Event, *, system: str = points.USBGF) -> EventPoints:
    """The master points of every player of the event's divisions, division by division, best total first.

    :raises ValueError: for a system not in :data:`SYSTEMS`.
    """
    if system not in SYSTEMS:
        raise ValueError(f"unknown points system {system!r}: use {', '.join(SYSTEMS)}")
    result = EventPoints(event, system)
    for found in division_results(Event.objects.filter(pk=event.pk)):
        division = found.division
        scored = DivisionPoints(
            division.name,
            division.slug,
            len(found.players),
            division.points_weight,
            division.points_places,
            division.status == Division.Status.FINISHED,
            division.standings_state == Division.Work.CURRENT,
        )
        for took in found.players:
            scored.scored.append(
                PlayerPoints(took.name, division.name, took.place, usbgf_of(event, division, took, len(found.players)))
            )
        scored.scored.sort(key=lambda p: (-p.earned.total, p.place or Place(10**9, 10**9), p.name))
        result.divisions.append(scored)
    return result


def usbgf_of(event: Event, division: Division, took: Took, players: int) -> points.Earned:
    """A player's USBGF master points in a division of ``players``."""
    return points.usbgf_points(
        took.lengths,
        None if took.place is None else (took.place.first, took.place.last),
        players,
        places_paid=division.points_places,
        event_weight=event.points_weight,
        division_weight=division.points_weight,
    )


def _lengths_won(division_ids: list[int]) -> dict[int, list[int]]:
    """The lengths of the matches each entry of the divisions won over the board, by entry id, a playoff's matches
    with the rounds' (a playoff is a real match; its result needs no confirmation) (one query)."""
    lengths: dict[int, list[int]] = defaultdict(list)
    for entry, length in wins_over_the_board(division_ids):
        lengths[entry].append(length)
    return lengths


def wins_over_the_board(division_ids: list[int]) -> QuerySet[Any]:
    """(winner's entry id, length) of every match won over the board in the divisions, the rounds' and the playoffs'
    (a playoff's once its result counts, as a round's) in one statement: a union whose parts are unordered (SQLite
    refuses an ORDER BY inside a compound statement)."""
    won = (
        Pairing.objects.filter(
            division_id__in=division_ids,
            status=Pairing.Status.FINISHED,
            confirmation__in=COUNTED_CONFIRMATIONS,
            winner__isnull=False,
            entry_a__isnull=False,
            entry_b__isnull=False,
        )
        .exclude(decision__in=FORFEITS)
        .exclude(match__status=Match.Status.FORFEITED)
        .values_list("winner_id", "length")
    )
    division = Coalesce(OuterRef("playoff_first__division_id"), OuterRef("playoff_final__division_id"))
    winner = Entry.objects.filter(division_id=division, player_id=OuterRef("winner_id")).values("pk")[:1]
    playoffs = (
        Match.objects.filter(
            Q(playoff_first__division_id__in=division_ids, playoff_first__first_confirmation__in=COUNTED_CONFIRMATIONS)
            | Q(
                playoff_final__division_id__in=division_ids, playoff_final__final_confirmation__in=COUNTED_CONFIRMATIONS
            ),
            status=Match.Status.FINISHED,
            winner__isnull=False,
        )
        .annotate(entry=Subquery(winner))
        .values_list("entry", "length")
    )
    return won.order_by().union(playoffs.order_by(), all=True)


def points_report(found: EventPoints) -> dict[str, Any]:
    """The master points as plain values (contract H's JSON, and the API's answer): ``place`` is the best place of a
    shared one (3 for "3-4"), ``places`` the place as shown; the points are floats, unrounded."""
    return {
        "event": found.event.slug,
        "system": found.system,
        "event_weight": float(found.event.points_weight),
        "divisions": [
            {
                "name": d.name,
                "slug": d.slug,
                "players": d.players,
                "weight": float(d.weight),
                "places_paid": d.places_paid,
                "finished": d.finished,
                "standings_current": d.standings_current,
            }
            for d in found.divisions
        ],
        "players": [
            {
                "name": p.name,
                "division": p.division,
                "place": None if p.place is None else p.place.first,
                "places": None if p.place is None else str(p.place),
                "match_wins": p.earned.match_wins,
                "match_win_points": float(p.earned.match_win_points),
                "placement_points": float(p.earned.placement_points),
                "total": float(p.earned.total),
            }
            for p in found.players
        ],
    }
