"""The night's cash sheet: for each division of an event, what came in (fees by way of paying, the side pool), what
went back (refunds), what the house keeps, the prizes as the standings pay them now, and what is left in the box."""

from __future__ import annotations

from dataclasses import dataclass

from tournaments.core import has_fees, pool_of
from tournaments.models import Division, Entry, Event
from tournaments.selectors.common import SIDE_POOL, payouts_of, standings_table
from tournaments.standings import cash


@dataclass(frozen=True)
class PrizeLine:
    """One prize paid: the player, his place, which table pays it, and how much (cents)."""

    name: str
    place: str
    flight: str
    cents: int


@dataclass(frozen=True)
class DivisionCash:
    division: Division
    sheet: cash.Sheet
    prizes: list[PrizeLine]
    refunded: list[str]  # players withdrawn before the start and refunded
    not_paid: list[str]  # players in the field who have not paid their entry fee

    @property
    def fee_methods(self) -> dict[str, int]:
        return dict(cash.method_counts(self.sheet.pool.fees))

    @property
    def side_methods(self) -> dict[str, int]:
        return dict(cash.method_counts(self.sheet.pool.side))


@dataclass(frozen=True)
class EventCash:
    divisions: list[DivisionCash]

    @property
    def total_in(self) -> int:
        """Fees and side pools paid in, with the added money."""
        return sum(d.sheet.paid_in + d.sheet.pool.added for d in self.divisions)

    @property
    def total_out(self) -> int:
        """Refunds and prizes."""
        return sum(d.sheet.refunded + d.sheet.paid_out for d in self.divisions)

    @property
    def total_left(self) -> int:
        return sum(d.sheet.left_over for d in self.divisions)


def division_cash(division: Division) -> DivisionCash:
    """A division's cash sheet (a fixed number of queries whatever the field)."""
    pool = pool_of(division)
    rows = standings_table(division)
    payouts = payouts_of(division, rows)
    by_entry = {row.entry_id: row for row in rows}
    prizes: list[PrizeLine] = []
    side = 0
    for entry_id, flights in payouts.paid.items():
        row = by_entry[entry_id]
        for flight, cents in flights.items():
            if not cents:
                continue
            place = row.places.get("main" if flight == SIDE_POOL else flight, "") or str(row.rank)
            prizes.append(PrizeLine(row.entry.player.display_name, place, flight, cents))
            side += cents if flight == SIDE_POOL else 0
    prizes.sort(key=lambda line: (line.flight == SIDE_POOL, line.flight, -line.cents, line.name))
    total = sum(line.cents for line in prizes)
    entries = division.entries.select_related("player").order_by("player__display_name")
    refunded = [e.player.display_name for e in entries if e.refunded]
    not_paid = [
        e.player.display_name
        for e in entries
        if division.entry_fee and not e.paid and e.status != Entry.Status.WITHDRAWN
    ]
    sheet = cash.Sheet(pool, prizes=total - side, side_prizes=side)
    return DivisionCash(division, sheet, prizes, refunded, not_paid)


def event_cash(event: Event) -> EventCash:
    """The cash sheet of each division of the event that takes fees or has added money, in the event's order."""
    divisions = [d for d in event.divisions.order_by("id") if has_fees(d)]
    return EventCash([division_cash(d) for d in divisions])
