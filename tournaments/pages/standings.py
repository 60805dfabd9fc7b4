"""The standings table of a division's page: its rows with the tie-break, place and prize columns, the rounds a
table exists for, and the notes beside the prizes.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournaments.models import Division, Round, Standing
from tournaments.pages.words import TIEBREAK_COLUMNS, StrOrPromise, TiebreakColumn
from tournaments.selectors.common import SIDE_POOL, Payouts, main_place_of, payouts_of, standings_table
from tournaments.selectors.playoffs import PlayoffView, playoffs_of
from tournaments.selectors.public import (
    standings_rounds,
)
from tournaments.standings.payouts import cents_text


@dataclass(frozen=True)
class StandingRow:
    row: Standing
    tiebreaks: list[int | str]
    places: list[str] = field(default_factory=list)  # elimination: the place in each of the view's flights
    prizes: list[str] = field(default_factory=list)  # the published payouts, one per column of the view's table


@dataclass
class StandingsView:
    rows: list[StandingRow]
    rounds: list[int]
    after_round: int | None
    asked: int | None
    tiebreaks: list[TiebreakColumn]
    flights: list[tuple[str, StrOrPromise]] = field(default_factory=list)  # (bracket, its place column's words)
    prize_columns: list[StrOrPromise] = field(default_factory=list)  # the published payout table's columns
    prizes_to_come: bool = False  # a published payout table whose paid places nobody holds yet: no empty column
    # The registration seeds beside the names; not once a Swiss into a knockout has drawn its knockout, whose own
    # seeds (the Swiss places) are the ones its pairings and bracket show on the same page.
    seeds: bool = True
    # How playoffs settled ties, or that one is ordered ("Tie at 3rd settled by a playoff: A beat B 1-0."): the
    # page says each one's words and links its matches' pages.
    playoffs: list[PlayoffView] = field(default_factory=list)
    during: bool = False  # the table is of a round still being played ("Standings during round 2")
    byes_won: bool = True  # a bye counts as a win, said beside the wins ("3 (1 bye)"); not in an elimination


def _standings_rounds(division: Division) -> list[int] | None:
    """The rounds the division's standings tables exist for, from :func:`division_for_page`'s ``standings``
    annotations (None: not read, or not a run of consecutive rounds)."""
    if not hasattr(division, "tables_count"):
        return None
    first, last, count = (getattr(division, f"tables_{name}") for name in ("first", "last", "count"))
    if not count:
        return []
    return list(range(first, last + 1)) if count == last - first + 1 else None


def standings_view(division: Division, asked: int | None) -> StandingsView:
    """The table after ``asked`` (default: the latest) and the rounds a table exists for (two queries; one when
    the division was read with ``standings=True``)."""
    rounds = _standings_rounds(division)
    if rounds is None:
        rounds = standings_rounds(division)
    chosen = asked if asked is not None else (rounds[-1] if rounds else None)
    found = standings_table(division, after_round=chosen) if chosen in rounds else []
    codes = [] if division.is_elimination else division.tiebreaks
    tiebreaks = [TIEBREAK_COLUMNS[code] for code in codes if code in TIEBREAK_COLUMNS]
    flights = place_columns(found)
    latest = not rounds or chosen == max(rounds)
    payouts = payouts_of(division, found) if latest else Payouts()
    if not payouts.published:
        payouts = Payouts()
    rows = [
        StandingRow(
            row,
            [row.tiebreaks.get(t.code, "") for t in tiebreaks],
            [
                main_place_of(division, row) if latest and f == Round.Bracket.MAIN else row.places.get(f, "")
                for f, _ in flights
            ],
            prize_cells(payouts, row.entry_id),
        )
        for row in found
    ]
    shown = [r for r in rounds if r > 0]
    # In the Swiss of a Swiss into a knockout (or before any paid place is held) every prize cell would be empty:
    # no column then, and the table says when the prizes show.
    to_come = payouts.published and not any(any(row.prizes) for row in rows)
    if to_come:
        rows = [replace(row, prizes=[]) for row in rows]
    return StandingsView(
        rows=rows,
        rounds=shown,
        after_round=chosen,
        asked=asked,
        tiebreaks=tiebreaks,
        flights=flights,
        prize_columns=[] if to_come else prize_columns(payouts),
        prizes_to_come=to_come,
        seeds=not division.knockout_drawn,
        playoffs=playoffs_of(division),
        during=_during(division, chosen),
        byes_won=not division.is_elimination,
    )


def _during(division: Division, chosen: int | None) -> bool:
    """Whether the table after round ``chosen`` is of a Swiss round still being played: it or an earlier round has
    a board still open (``open_round``, read with the division; a round robin's latest table is "so far", a
    knockout's table and an elimination's have no round)."""
    open_round = getattr(division, "open_round", None)
    if not chosen or open_round is None or (division.knockout_drawn and chosen > division.rounds_planned):
        return False
    return open_round <= chosen


#: The words of each flight's place column (elimination standings).
PLACE_WORDS: dict[str, StrOrPromise] = {
    Round.Bracket.MAIN: gettext_lazy("Place"),
    Round.Bracket.CONSOLATION: gettext_lazy("Consolation place"),
    Round.Bracket.LAST_CHANCE: gettext_lazy("Last-chance place"),
}


#: The words of each flight's prize column.
PRIZE_WORDS: dict[str, StrOrPromise] = {
    Round.Bracket.MAIN: gettext_lazy("Prize"),
    Round.Bracket.CONSOLATION: gettext_lazy("Consolation prize"),
    Round.Bracket.LAST_CHANCE: gettext_lazy("Last-chance prize"),
    SIDE_POOL: gettext_lazy("Side pool"),
}


def prize_columns(payouts: Payouts) -> list[StrOrPromise]:
    """The prize columns of a table: one per paid flight, and the total when more than one flight pays."""
    columns = [PRIZE_WORDS[flight] for flight in payouts.flights]
    return [*columns, gettext_lazy("Total prize")] if len(columns) > 1 else columns


def prize_cells(payouts: Payouts, entry_id: int) -> list[str]:
    """An entry's prizes under :func:`prize_columns` (empty where it earns nothing), as 123.45."""
    cells = ["" if cents is None else cents_text(cents) for cents in payouts.of(entry_id)]
    if len(cells) > 1:
        total = payouts.total(entry_id)
        cells.append(cents_text(total) if total else "")
    return cells


def remainder_notes(payouts: Payouts) -> list[str]:
    """What rounding to cents left over, what shared places pay beyond the table, and (once the division is over)
    the prizes of places nobody reached, and the prizes one prize per player leaves unpaid, per flight: said beside
    the table."""
    left = [
        _("%(flight)s: %(cents)s left over by rounding to cents.")
        % {"flight": PRIZE_WORDS[flight], "cents": cents_text(cents)}
        for flight, cents in payouts.remainder.items()
        if cents
    ]
    over = [
        _(
            "%(flight)s: %(cents)s more than the table pays, as players who share a place are each paid the prize "
            "of its best place."
        )
        % {"flight": PRIZE_WORDS[flight], "cents": cents_text(cents)}
        for flight, cents in payouts.over.items()
        if cents
    ]
    unreached = [
        _("%(flight)s: %(cents)s left over, the prizes of places nobody reached.")
        % {"flight": PRIZE_WORDS[flight], "cents": cents_text(cents)}
        for flight, cents in payouts.unreached.items()
        if cents
    ]
    forgone = [
        _("%(flight)s: %(cents)s left over, not paid to players who have a larger prize (one prize per player).")
        % {"flight": PRIZE_WORDS[flight], "cents": cents_text(cents)}
        for flight, cents in payouts.forgone.items()
        if cents
    ]
    waiting = [
        _("%(flight)s: %(cents)s waits for the places of its players still playing.")
        % {"flight": PRIZE_WORDS[flight], "cents": cents_text(cents)}
        for flight, cents in payouts.waiting.items()
        if cents
    ]
    return waiting + left + over + unreached + forgone


def place_columns(rows: Iterable[Standing]) -> list[tuple[str, StrOrPromise]]:
    """The flights with a place in any of the rows, in the order main, consolation, last chance."""
    held = {flight for row in rows for flight in row.places}
    return [(flight, words) for flight, words in PLACE_WORDS.items() if flight in held]
