"""Reads of the public event pages (tournaments/pages/ shapes them for the templates): the division with its
*fingerprint*, from which each live part's ETag is made; its pairings and rounds; the rounds its standings tables
exist for; an event's divisions with their players, current rounds and champions.

Each runs a fixed number of queries whatever the size of the field; the queries of each page are listed in the
module docstring of tournaments/views.py.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db.models import (
    BigIntegerField,
    Case,
    Count,
    F,
    IntegerField,
    Max,
    Min,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Sum,
    Value,
    When,
)
from django.db.models.functions import Coalesce, Length
from django.http import Http404

from games.analysis.selectors import counted_analyses
from games.models import Match
from tournaments.core import PLAYABLE, STILL_OPEN, UNCONFIRMED, play_order
from tournaments.models import Division, Entry, Event, Pairing, Playoff, Round, Standing
from tournaments.selectors.common import events_visible_to

PStatus = Pairing.Status
Confirmation = Pairing.Confirmation


def _code(field_name: str, values: Sequence[str]) -> Case:
    """A string column as a small integer (its place in ``values``, 0 for anything else), for the checksums."""
    whens = [When(**{field_name: value}, then=Value(n)) for n, value in enumerate(values, start=1)]
    return Case(*whens, default=Value(0), output_field=IntegerField())


def _per_division(qs: QuerySet[Any], aggregate: Any) -> Subquery:
    """``aggregate`` over the rows of ``qs`` that belong to the outer division (a correlated subquery)."""
    grouped = qs.filter(division=OuterRef("pk")).order_by().values("division").annotate(value=aggregate)
    return Subquery(grouped.values("value")[:1])


def _fingerprint() -> dict[str, Any]:
    """Annotations of a division that change whenever anything its live parts show changes.

    A checksum is a sum over rows of ``(id mod 1009 + 1) * (a weighted sum of the row's fields)``: a change to one
    field of one row always changes it (two rows' changes cancelling out would need a coincidence)."""
    weight = F("id") % 1009 + 1
    pairing = (
        Coalesce("entry_a_id", 0) * 3
        + Coalesce("entry_b_id", 0) * 5
        + Coalesce("winner_id", 0) * 7
        + Coalesce("match_id", 0) * 11
        + F("score_a") * 13
        + F("score_b") * 17
        + _code("status", PStatus.values) * 19
        + _code("confirmation", Confirmation.values) * 23
        + _code("decision", Pairing.Decision.values) * 29
        + Length("swapped_reason") * 31
        + Length("decision_reason") * 37
        + Length("reason") * 41
        + F("penalty_a") * 43
        + F("penalty_b") * 47
        + Coalesce("confirmation_side", 0) * 53
    )
    # What a board shows of its match: its state, whether it has started, the score and the winner. Not every move:
    # a spectator's pairings and bracket stay 304 while the tables play on, until a game or a match ends.
    shown_of_match = (
        _code("match__status", Match.Status.values) * 3
        + Case(When(match__seq__gt=0, then=Value(5)), default=Value(0), output_field=IntegerField())
        + F("match__score1") * 7
        + F("match__score2") * 11
        + Coalesce("match__winner_id", 0) * 13
    )
    entry = _code("status", Entry.Status.values) * 3 + Coalesce("seed", 0) * 5 + Length("place") * 7
    pairings, entries = Pairing.objects.all(), Entry.objects.all()
    return {
        "pairings_sum": _per_division(pairings, Sum(weight * pairing, output_field=BigIntegerField())),
        "matches_sum": _per_division(
            pairings.filter(match__isnull=False), Sum(weight * shown_of_match, output_field=BigIntegerField())
        ),
        "entries_sum": _per_division(entries, Sum(weight * entry, output_field=BigIntegerField())),
        "names_changed": _per_division(entries, Max("player__updated_at")),
        "entrants": _per_division(entries.filter(seed__isnull=False, late=False), Count("id")),
        "standings_rows": _per_division(Standing.objects.all(), Max("id")),  # every recompute writes new rows
        # The results a director corrected (None: none), which the page lists only when there are some.
        "corrected": _per_division(pairings.filter(decision=Pairing.Decision.DIRECTOR), Count("id")),
        # The playoff matches' results a director corrected, with his reasons (None: none), as the corrected
        # results and the playoffs' words say them.
        "corrected_playoffs": _per_division(
            Playoff.objects.exclude(first_correction="", final_correction=""),
            Sum(weight * (Length("first_correction") + Length("final_correction") * 3), output_field=BigIntegerField()),
        ),
        # What the playoffs' words and links show: each playoff's state, its matches, their results' confirmations,
        # and what each match's board shows (its state, score and winner), as for a round's matches.
        "playoffs_sum": _per_division(
            Playoff.objects.all(), Sum(weight * _playoff_shown(), output_field=BigIntegerField())
        ),
        "playoffs_open": _per_division(Playoff.objects.filter(status=Playoff.Status.ORDERED), Count("id")),
    }


def _playoff_shown() -> Any:
    """A playoff row's weighted sum of what its words show (:func:`_fingerprint`)."""
    shown = _code("status", Playoff.Status.values) * 3 + Coalesce("first_match_id", 0) * 5
    shown += Coalesce("final_match_id", 0) * 7 + _code("first_confirmation", Confirmation.values) * 11
    shown += _code("final_confirmation", Confirmation.values) * 13 + Coalesce("first_confirmation_side", 0) * 17
    shown += Coalesce("final_confirmation_side", 0) * 19 + F("length") * 23
    for which, factor in (("first_match", 29), ("final_match", 31)):
        match = _code(f"{which}__status", Match.Status.values) + Coalesce(f"{which}__score1", 0) * 37
        match += Coalesce(f"{which}__score2", 0) * 41 + Coalesce(f"{which}__winner_id", 0) * 43
        shown += match * factor
    return shown


def division_for_page(user: Any, event_slug: str, division_slug: str, *, standings: bool = False) -> Division:
    """The division with its event and its fingerprint (one query); with ``standings``, also the first and last
    rounds its standings tables exist for and how many there are, from which ``tournaments.pages.standings_view``
    knows them all without a query when they follow each other (as they do: one table per round played), and
    ``open_round``, the first Swiss round with a board still open (None: none).

    :raises Http404: for an unknown division, or one in an event ``user`` may not see (the same answer for both).
    """
    annotations = _fingerprint()
    if standings:
        tables = Standing.objects.all()
        annotations["tables_first"] = _per_division(tables, Min("after_round"))
        annotations["tables_last"] = _per_division(tables, Max("after_round"))
        annotations["tables_count"] = _per_division(tables, Count("after_round", distinct=True))
        # The first Swiss round with a board still open: its table and the later ones are "during" it.
        still_open = Pairing.objects.filter(STILL_OPEN, round__bracket=Round.Bracket.SWISS)
        annotations["open_round"] = _per_division(still_open, Min("round__number"))
    division = (
        Division.objects.filter(event__in=events_visible_to(user), event__slug=event_slug, slug=division_slug)
        .select_related("event")
        .annotate(**annotations)
        .first()
    )
    if division is None:
        raise Http404("no such division")
    return division


def pairings_of(division: Division) -> QuerySet[Pairing]:
    """The division's pairings with their round, players and match (not its engine state), in round order."""
    return (
        division.pairings.select_related("round", "entry_a__player", "entry_b__player", "match", "table")
        .defer("match__state")
        .order_by("round__number", "round__bracket", "board")
    )


def rounds_with_counts(division: Division) -> list[Round]:
    """The division's rounds in play order, each with ``n_open`` and ``n_played`` pairings and ``n_conditional``
    (pairings played only if needed) (one query)."""
    rounds = division.rounds.annotate(
        n_open=Count("pairings", filter=Q(pairings__status__in=PLAYABLE) | Q(pairings__confirmation__in=UNCONFIRMED)),
        n_played=Count("pairings", filter=Q(pairings__status=PStatus.FINISHED)),
        n_conditional=Count("pairings", filter=Q(pairings__conditional=True)),
    )
    return sorted(rounds, key=play_order)


def standings_rounds(division: Division) -> list[int]:
    """The rounds the division's standings tables exist for, in order (one query)."""
    tables = Standing.objects.filter(division=division).values_list("after_round", flat=True)
    return list(tables.order_by("after_round").distinct())


# -- the event page --------------------------------------------------------------------------------------------------


def divisions_with_players(event: Event) -> list[Division]:
    """The event's divisions in order, each with ``players``: its entries not withdrawn; ``being_played`` and
    ``to_play``: its matches under way, and those whose players are known and have not begun, each a subquery (no
    join of the entries with the pairings) or None for none (one query)."""
    playing = Q(entries__status__in=[s for s in Entry.Status.values if s != Entry.Status.WITHDRAWN])
    pairings = Pairing.objects.all()
    counted = event.divisions.annotate(
        players=Count("entries", filter=playing),
        being_played=_per_division(pairings.filter(status=Pairing.Status.PLAYING), Count("id")),
        to_play=_per_division(pairings.filter(status=Pairing.Status.READY), Count("id")),
    )
    return list(counted.order_by("id"))


def rounds_in_play(division_ids: Sequence[int]) -> dict[int, list[tuple[str, int | None, int]]]:
    """Per division: (bracket, its first round with a pairing still open or None, its last round) (one query)."""
    rounds: dict[int, list[tuple[str, int | None, int]]] = {pk: [] for pk in division_ids}
    for row in (
        Pairing.objects.filter(division__in=division_ids)
        .values("division", "round__bracket")
        .annotate(open_min=Min("round__number", filter=STILL_OPEN), last=Max("round__number"))
        .order_by()
    ):
        rounds[row["division"]].append((row["round__bracket"], row["open_min"], row["last"]))
    return rounds


def bracket_finals(divisions: Sequence[Division]) -> list[Pairing]:
    """The won pairings of the last round each bracket of ``divisions`` played, with their round and winner, by
    division, bracket and table (one query)."""
    last = (
        Pairing.objects.filter(
            division=OuterRef("division"), round__bracket=OuterRef("round__bracket"), winner__isnull=False
        )
        .order_by("-round__number")
        .values("round__number")[:1]
    )
    return list(
        Pairing.objects.filter(division__in=divisions, winner__isnull=False)
        .filter(round__number=Subquery(last))
        .select_related("round", "winner__player")
        .order_by("division", "round__bracket", "board")
    )


def table_leaders(divisions: Sequence[Division]) -> list[Standing]:
    """The rows ranked first in the latest standings table of each of ``divisions``, with their entry and player,
    by division and seed (one query)."""
    latest = Standing.objects.filter(division=OuterRef("division")).order_by("-after_round").values("after_round")[:1]
    return list(
        Standing.objects.filter(division__in=divisions, rank=1, after_round=Subquery(latest))
        .select_related("entry__player")
        .order_by("division", "entry__seed")
    )


# -- PR tables (from games' stored analysis) ---------------------------------------------------------------------


@dataclass(frozen=True)
class PrRow:
    """A player's figures over the analysed matches of a division or an event (gnubg's errors, normalised)."""

    player_id: int
    name: str
    plies: int
    matches: int
    decisions: int
    error: float
    luck: float

    @property
    def pr(self) -> float:
        """500 x (chequer error + cube error) / (unforced moves + close cube decisions), over all the matches."""
        return 500.0 * self.error / self.decisions if self.decisions else 0.0


def pr_table(*, division: Division | None = None, event: Event | None = None, min_decisions: int) -> list[PrRow]:
    """The players of a division's (or an event's) analysed public matches with at least ``min_decisions``
    decisions, by depth (plies) and then best PR first (one query). Only finished matches count, analysed as their
    log stands. Figures of different depths do not compare: a player analysed at two depths has a row at each."""
    rows = counted_analyses().filter(analysis__match__private=False)
    if division is not None:
        rows = rows.filter(analysis__match__pairing__division=division)
    if event is not None:
        rows = rows.filter(analysis__match__pairing__division__event=event)
    totals = (
        rows.values("player_id", "player__display_name", "analysis__plies")
        .annotate(
            matches=Count("analysis", distinct=True),
            total_decisions=Sum(F("unforced_moves") + F("close_cube_decisions")),
            total_error=Sum(F("chequer_error") + F("cube_error")),
            total_luck=Sum("luck"),
        )
        .filter(total_decisions__gte=max(1, min_decisions))
    )
    table = [
        PrRow(
            t["player_id"],
            t["player__display_name"],
            t["analysis__plies"],
            t["matches"],
            t["total_decisions"],
            t["total_error"],
            t["total_luck"],
        )
        for t in totals
    ]
    return sorted(table, key=lambda row: (row.plies, row.pr, row.name, row.player_id))


@dataclass(frozen=True)
class PrDepth:
    """The rows of a PR table at one depth (plies), best first."""

    plies: int
    rows: list[PrRow]


def pr_by_depth(rows: list[PrRow]) -> list[PrDepth]:
    """:func:`pr_table`'s rows cut into one table per depth, shallowest first."""
    depths: dict[int, list[PrRow]] = {}
    for row in rows:
        depths.setdefault(row.plies, []).append(row)
    return [PrDepth(plies, found) for plies, found in depths.items()]
