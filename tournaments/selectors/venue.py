"""Reads of the room (the venue's tables, tournaments/services/tables.py): each table with the match it holds, the
calls (matches sent to a table and not started yet) and the queue of matches waiting for a table, in the order
they will get one. Two queries whatever the size of the event."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import OuterRef, Q, Subquery

from games.models import Action
from tournaments.core import PLAYABLE, call_stands, pairing_state, table_order
from tournaments.models import Event, Pairing, Table
from tournaments.selectors.director import DirectorBoard, director_board


@dataclass(frozen=True)
class Seat:
    """A table of the venue and the match it holds (None: free)."""

    table: Table
    pairing: Pairing | None

    @property
    def called(self) -> bool:
        """Its match was called and has not started."""
        pairing = self.pairing
        if pairing is None:
            return False
        return call_stands(pairing_state(pairing), pairing.called_at, getattr(pairing, "last_entry", None))

    @property
    def board(self) -> DirectorBoard | None:
        """Its match in its state as the division's page says it ("ready", "playing, 4-4"; None: free): a call is
        said beside it, not instead (a reopened match called to a new table is still being played)."""
        return None if self.pairing is None else director_board(self.pairing)


@dataclass(frozen=True)
class Venue:
    """The room: its tables in order, the calls (newest first) and the queue (next first)."""

    tables_given: bool
    seats: list[Seat]
    queue: list[Pairing] = field(default_factory=list)

    @property
    def calls(self) -> list[Pairing]:
        called = [s.pairing for s in self.seats if s.called and s.pairing is not None]
        return sorted(called, key=lambda p: (p.called_at.timestamp() if p.called_at else 0.0, p.pk), reverse=True)

    @property
    def playing(self) -> int:
        return sum(1 for s in self.seats if s.pairing is not None and not s.called)


#: When the pairing's match had its last entry (None before any).
_LAST_ENTRY = Action.objects.filter(match=OuterRef("match_id")).order_by("-seq").values("created_at")[:1]

_RELATED = ("round", "division", "entry_a__player", "entry_b__player", "match", "table")


def venue_of(event: Event) -> Venue:
    """The event's tables with their matches, the calls and the queue (two queries)."""
    tables = list(Table.objects.filter(event=event).order_by("number"))
    rows = (
        Pairing.objects.filter(division__event=event)
        .filter(Q(table__isnull=False) | Q(status__in=PLAYABLE, match__isnull=False))
        .select_related(*_RELATED)
        .defer("match__state")
        .annotate(last_entry=Subquery(_LAST_ENTRY))  # a call stands until an entry follows it
    )
    at: dict[int, Pairing] = {}
    queue: list[Pairing] = []
    for p in rows:
        if p.table_id is not None:
            at[p.table_id] = p
        else:
            queue.append(p)
    queue.sort(key=_queue_key)
    return Venue(event.tables_given, [Seat(t, at.get(t.pk)) for t in tables], queue)


def _queue_key(p: Pairing) -> tuple[object, ...]:
    created = p.match.created_at if p.match is not None else None
    return table_order(
        p.status == Pairing.Status.PLAYING, p.round.number, p.round.bracket, created, p.division_id, p.board
    )
