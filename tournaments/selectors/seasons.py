"""A club's season table: each player's points over the club's events of the season, by the season's system.

The club's events whose first day falls in the season count (an event without dates counts once it has started on
a day in the span: its ``created_at``). Every division of each event counts once it has started (its players are
drawn): a player registered for a night not yet begun has earned nothing, not even for showing up. Per player and
event the points are those the system gives his matches won over the board and his place, as the master points read
them (:func:`tournaments.selectors.points.division_results`: counted results, the standings' places). A player who
took part in an event (he is in its standings) showed up.

What each event gives each player is stored (:class:`tournaments.models.SeasonPoints`): :func:`season_contributions`
computes an event's rows, and a task writes them after the event's follow-up computed its standings
(tournaments/services/seasons.py), so a correction that changes a result or a place changes the table once its
follow-up has run. :func:`season_table` sums the stored rows: one query with aggregation, whatever the number of
events.

Order: points (more first), then events played (fewer first: the same points in fewer nights), then name; players
level on points and events share the rank (the season's tie rule). The top ``qualify`` (if set) are above the
playoff line; players sharing a rank across the line are none of them qualified but *tied at the line*, for a playoff
or a tie-break to settle (who of them goes through is the club's call, not the table's).

Reads a fixed number of queries whatever the number of events and players.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field

from django.db.models import Count, Q, QuerySet, Sum

from tournaments import points, universal_club_table
from tournaments.models import Division, Event, Round, Season, SeasonPoints
from tournaments.selectors.playoffs import ordinal
from tournaments.selectors.points import DivisionResults, Took, division_results, usbgf_of

Earned = points.Earned | points.ClubEarned | points.UniversalEarned


@dataclass
class SeasonRow:
    rank: int
    player_id: int
    name: str
    points: float
    events: int
    match_wins: int
    qualified: bool = False
    tied_at_line: bool = False


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


class _Scorer:
    """How the season's system scores one player's part in one division."""

    def __init__(self, season: Season, divisions: list[DivisionResults]) -> None:
        self.season = season
        stored = season.table or {}
        self.multipliers = stored.get("multipliers", {})
        self.club = club_table(season)
        self.basis = stored.get("basis", "players")
        self.figures: dict[str, dict[str, object]] = {}
        self.rounds: dict[int, int] = {}
        if season.system == Season.System.BACKGAMES:
            self.figures = universal_club_table.with_changes(stored.get("figures", {}))
            self.rounds = _main_rounds([found.division.pk for found in divisions])

    def earned(self, division: Division, took: Took, players: int) -> Earned:
        event = division.event
        place = None if took.place is None else (took.place.first, took.place.last)
        multiplier = float(self.multipliers.get(event.slug, 1.0))
        if self.season.system == Season.System.USBGF:
            return usbgf_of(event, division, took, players)
        if self.season.system == Season.System.BACKGAMES:
            level = self.figures[division.level]
            rounds = self.rounds.get(division.pk, 0)
            return points.universal_points(
                level, len(took.lengths), place, players=players, rounds=rounds, basis=self.basis,
                multiplier=multiplier,
            )  # fmt: skip
        return points.club_points(self.club, took.lengths, place, multiplier=multiplier)


def _main_rounds(division_ids: list[int]) -> dict[int, int]:
    """The rounds of each division's main flight (a knockout's rounds, a Swiss's or round robin's rounds paired, a
    Swiss into a knockout's both), by division id (one query)."""
    main = (Round.Bracket.MAIN, Round.Bracket.SWISS, Round.Bracket.ROUND_ROBIN)
    found = Round.objects.filter(division_id__in=division_ids, bracket__in=main).values("division_id")
    return dict(found.annotate(n=Count("id")).values_list("division_id", "n"))


def season_contributions(season: Season, event_ids: Sequence[int] | None = None) -> list[SeasonPoints]:
    """What each of the season's events (those of ``event_ids`` only, if given; one outside the span gives
    nothing) gives each player who took part in a started division, as unsaved rows: his divisions of the event
    together, his best place. Reads a fixed number of queries (:func:`division_results`)."""
    events = season_events(season)
    if event_ids is not None:
        events = events.filter(pk__in=event_ids)
    started = [
        found for found in division_results(events) if found.division.status != Division.Status.REGISTRATION
    ]  # fmt: skip
    scorer = _Scorer(season, started)
    rows: dict[tuple[int, int], SeasonPoints] = {}
    for found in started:
        event = found.division.event
        for took in found.players:
            earned = scorer.earned(found.division, took, len(found.players))
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
        rows.append(row)
    _draw_the_line(rows, season.qualify)
    return SeasonTable(season, listed, rows)


def _draw_the_line(rows: list[SeasonRow], qualify: int) -> None:
    """Mark the top ``qualify`` qualified; the players sharing a rank that the line cuts through are tied at the
    line instead (none of them is qualified until a playoff or a tie-break settles it)."""
    if not qualify:
        return
    shared: dict[int, int] = defaultdict(int)
    for row in rows:
        shared[row.rank] += 1
    for row in rows:
        last = row.rank + shared[row.rank] - 1
        row.tied_at_line = row.rank <= qualify < last
        row.qualified = last <= qualify


def _figure(value: float) -> str:
    return f"{value:g}"


def season_rules(season: Season) -> list[str]:
    """The season's scoring rules in words, as its public page shows them under the table (a query for the names of
    the events counted more, when there are any)."""
    stored = season.table or {}
    weighted = {slug: x for slug, x in stored.get("multipliers", {}).items() if x != 1}
    names = dict(season_events(season).filter(slug__in=weighted).values_list("slug", "name")) if weighted else {}
    multipliers = [f"{names.get(slug, slug)} x{_figure(float(x))}" for slug, x in weighted.items()]
    if season.system == Season.System.USBGF:
        rules = [
            "USBGF master points. Each match won over the board (not a bye or a forfeit) earns event weight x "
            "division weight x √(its length) / 3.",
            "Places earn event weight x division weight x 0.6 x log2(players) x the place's factor: 1 for 1st, 0.7 "
            "for 2nd, 1/(place - 1) from 3rd, for the places each division pays (4 unless it names more); players "
            "sharing places share their factors.",
        ]
    elif season.system == Season.System.BACKGAMES:
        basis = {"players": "the field's size", "rounds": "the rounds played", "higher": "the field's size or the "
                 "rounds played, whichever gives more"}[stored.get("basis", "players")]  # fmt: skip
        figures = universal_club_table.with_changes(stored.get("figures", {}))
        per_win = ", ".join(f"{level} {_figure(figures[level]['per_win'])}" for level in universal_club_table.LEVELS)
        rules = [
            f"BackGames' universal club table, read by the division's level and {basis}: a place's figure (1st, "
            "1/2 tie, 2nd, 2/3 tie, 3rd, 3/4 tie, 4th, 5-8 tie) or the points of the matches won over the board "
            f"(each: {per_win}), whichever is higher.",
        ]
    else:
        table = club_table(season)
        places = ", ".join(f"{ordinal(n)}: {_figure(p)}" for n, p in enumerate(table.places, start=1)) or "none"
        times = " times its length" if table.times_length else ""
        rules = [
            f"The club's own table. Each match won over the board: {_figure(table.per_win)} "
            f"point{'' if table.per_win == 1 else 's'}{times}.",
            f"Points by place: {places}; players sharing places split their points.",
            f"For playing a night: {_figure(table.showing_up)} point{'' if table.showing_up == 1 else 's'}.",
        ]
    if multipliers:
        rules.append(f"Events counted more: {', '.join(multipliers)}.")
    rules.append(
        "A night counts once it has started (its players are drawn): registering for a night not yet begun earns "
        "nothing."
    )
    rules.append(
        "A playoff for a tie within a night is a real match: its matches won over the board count as matches won."
    )
    rules.append("Ties: more points first, then fewer events played; players level on both share the rank.")
    if season.qualify:
        rules.append(
            f"The top {season.qualify} qualify for the playoff; players tied across the line are tied at the line, "
            "for a playoff or a tie-break to settle."
        )
    return rules


@dataclass(frozen=True)
class FiguresRow:
    band: str
    figures: list[float]


@dataclass(frozen=True)
class LevelFigures:
    level: str
    per_win: float
    players: list[FiguresRow]
    rounds: list[FiguresRow]


def season_figures(season: Season) -> list[LevelFigures]:
    """The universal club table a BackGames season counts by (the default with the club's figures), level by level;
    empty for the other systems."""
    if season.system != Season.System.BACKGAMES:
        return []
    table = universal_club_table.with_changes((season.table or {}).get("figures", {}))

    def rows(level: str, basis: str, bands: tuple[str, ...]) -> list[FiguresRow]:
        return [FiguresRow(band, [table[level][basis][band][p] for p in universal_club_table.PLACES]) for band in bands]

    return [
        LevelFigures(
            level,
            table[level]["per_win"],
            rows(level, "players", universal_club_table.PLAYER_BANDS),
            rows(level, "rounds", universal_club_table.ROUND_BANDS),
        )
        for level in universal_club_table.LEVELS
    ]


def season_points(season: Season) -> dict[int, float]:
    """Each player's points in the season, by player id (a division open by points checks entries against them)."""
    return {row.player_id: row.points for row in season_table(season).rows}
