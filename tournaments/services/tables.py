"""The venue's tables: one numbering for the whole event, shared by all its divisions (docs/ARCHITECTURE.md, "Runtime").

The rules
- A pairing holds a table only while it is ready or being played and its match is made (both players known);
  byes, waiting slots and finished matches hold none. No two pairings hold the same table: the database refuses it
  (the partial unique constraint ``pairing_one_match_per_table``).
- :func:`assign_tables` frees the tables of the pairings no longer ready or playing, then gives each free table
  (not held back, lowest number first) to the next match waiting, in the order of
  :func:`tournaments.core.table_order` (earlier rounds first, the main flight before the consolation and the last
  chance, then the match waiting longest). A match one of whose players still sits at another table (a player
  entered in two divisions) waits: he cannot play two matches at once. Within a division a player plays his
  matches in that order: while his earlier match waits (in a round robin, for an opponent still playing), his
  later ones wait too, so that nobody is called to round 5 while his round-4 match is still to play. Assigning a
  table *calls* the match (``Pairing.called_at``): the players' phones, the director's dashboard and the venue
  display show the call until the match starts.
- A match reopened by a correction (or an undone forfeit) goes back to the table it was played at, where its
  players sit, while that table is free; taken by another match meanwhile, the match forgets it and waits in the
  queue like any other, called to the table it gets.
- With no tables given by the director, the venue has as many as needed: a match that finds no free table gets a
  new one, numbered after the last. With the director's tables (a count, or named tables), the other matches wait
  in the queue, in the same order, and take the tables as they free.
- The director moves a match to another table (or seats a waiting one by hand), holds a table back (no match is
  sent to it but by hand) and gives the venue's tables; each is followed by an assignment.

Locks: every function here runs with the event's row locked, the lock of its tables: the sync holds it through
:func:`tournaments.core.lock_division` (which locks the division's row and its event's), the director's changes
take it here (:func:`_lock_event`). Two divisions' results arriving at once are therefore assigned one after the
other, and neither can give a table the other just gave.

Cost: :func:`assign_tables` sends five reads (the pairings holding a table, the event's tables, the matches
reopened that name their table, the event's players, the matches waiting of players not at a table in their order,
read only until no table or no player is left) and at most three writes (the tables freed, the tables added, the
tables given), whatever the size of the event.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import closing

from django.db import transaction
from django.db.models import Max, Q, QuerySet
from django.utils import timezone

from common.actor import Actor
from common.bulk import update_rows
from common.errors import ApplicationError, ErrorCode
from tournaments.access import check_directs
from tournaments.core import PLAYABLE, TABLE_ORDER, lock_division, round_words
from tournaments.models import Entry, Event, Pairing, Table

Status = Pairing.Status

#: The most tables a director gives a venue (a count, or named tables).
MAX_TABLES = 500

#: A pairing waiting for a table: ready or being played, its match made, no table.
_WAITING = Q(table__isnull=True, status__in=PLAYABLE, match__isnull=False)


def assign_tables(event_id: int, *, tables_given: bool | None = None) -> list[int]:
    """Free the tables of the pairings no longer ready or playing and give the free tables to the matches waiting
    (the module's rules); returns the ids of the pairings called. The caller holds the event's lock.

    Only the matches waiting between two players not at a table are read, in their order, from the database, and
    only until every free table is given or every player is at a table: a round robin's start has 100,000 matches
    waiting and seats its first round, and a result in it frees two players, whose few matches are all it reads."""
    if tables_given is None:
        tables_given = Event.objects.filter(pk=event_id).values_list("tables_given", flat=True).get()
    in_event = Pairing.objects.filter(division__event_id=event_id)
    held = list(
        in_event.filter(table__isnull=False)
        .order_by()  # in no order: without the model's (its joins through the round, the division and the event)
        .values_list("pk", "table_id", "status", "entry_a__player_id", "entry_b__player_id")
    )
    seated = [row for row in held if row[2] in PLAYABLE]
    taken = {row[1] for row in seated}
    busy = {player for row in seated for player in (row[3], row[4])}
    venue = Table.objects.filter(event_id=event_id).order_by("number").values_list("pk", "number", "held", "name")
    labels = {pk: Table(number=number, name=name).label for pk, number, _held, name in venue}
    tables = [(pk, number, held_) for pk, number, held_, _name in venue]
    # A pairing over frees its table and keeps the table's name: the pages say where it was played.
    freed = [
        Pairing(pk=pk, table_id=None, called_at=None, played_at=labels.get(table_id, ""))
        for pk, table_id, status, _a, _b in held
        if status not in PLAYABLE
    ]
    free = [pk for pk, _number, held in tables if not held and pk not in taken]
    now = timezone.now()
    back, forgotten = _back_to_their_tables(in_event, labels, free, busy)
    # The event's players not at a table: only a match between two of them can start, and once none is left, no
    # other match can (after a result: the two players of the table freed, and those with nothing left to play).
    entered = Entry.objects.filter(division__event_id=event_id).order_by().values_list("player_id", flat=True)
    unseated = set(entered) - busy
    players = sorted(unseated)  # a copy: the set shrinks as the loop below seats
    # A player's earlier match of the same division comes first, even while his opponent in it is at another table.
    waiting = in_event.filter(_WAITING).filter(Q(entry_a__player_id__in=players) | Q(entry_b__player_id__in=players))
    queue = waiting.order_by(*TABLE_ORDER).values_list("pk", "division_id", "entry_a__player_id", "entry_b__player_id")
    to_seat: list[int] = []
    waits: set[tuple[int, int]] = set()  # (division, player): an earlier match of his in the division is waiting
    if unseated and (free or not tables_given):
        # The iterator is a generator: closing it ends the server-side cursor when the loop stops early.
        with closing(queue.iterator(chunk_size=2000)) as rows:  # type: ignore[type-var]
            for pk, division, a, b in rows:
                if (division, a) in waits or (division, b) in waits:
                    continue  # a round robin's player plays his rounds in order
                if a in busy or b in busy:
                    waits |= {(division, a), (division, b)}  # a player still at another table: the match waits
                    continue
                busy |= {a, b}
                unseated -= {a, b}
                to_seat.append(pk)
                if not unseated or (tables_given and len(to_seat) == len(free)):
                    break
    if not tables_given and len(to_seat) > len(free):
        last = max((number for _pk, number, _held in tables), default=0)
        added = Table.objects.bulk_create(
            Table(event_id=event_id, number=last + n) for n in range(1, len(to_seat) - len(free) + 1)
        )
        free += [table.pk for table in added]
    # Before the new seats: a freed table may be given again.
    update_rows(Pairing, freed + forgotten, ["table", "called_at", "played_at"])
    seats = back + list(zip(to_seat, free, strict=False))
    called = [Pairing(pk=pk, table_id=table, called_at=now, played_at="") for pk, table in seats]
    update_rows(Pairing, called, ["table", "called_at", "played_at"])
    return [p.pk for p in called]


def _back_to_their_tables(
    in_event: QuerySet[Pairing], labels: dict[int, str], free: list[int], busy: set[int]
) -> tuple[list[tuple[int, int]], list[Pairing]]:
    """The matches reopened (a result corrected or undone) that still name the table they were played at: each goes
    back to it, where its players sit, while it is free and they are at no other table (the table is taken off
    ``free`` and the players put in ``busy``); the others forget it and wait in the queue like any match, called
    to the table they get. Returns the (pairing, table) pairs seated back and the pairings that forget their table."""
    tables = {label: pk for pk, label in labels.items()}
    reopened = in_event.filter(_WAITING).exclude(played_at="").order_by("pk")
    back, forgotten = [], []
    for pk, played_at, a, b in reopened.values_list("pk", "played_at", "entry_a__player_id", "entry_b__player_id"):
        table = tables.get(played_at)
        if table in free and a not in busy and b not in busy:
            free.remove(table)
            busy |= {a, b}
            back.append((pk, table))
        else:
            forgotten.append(Pairing(pk=pk, table_id=None, called_at=None, played_at=""))
    return back, forgotten


def _lock_event(event: Event, actor: Actor) -> Event:
    check_directs(actor, event)
    return Event.objects.select_for_update().get(pk=event.pk)


def set_tables(event: Event, *, actor: Actor, names: Sequence[str] | None) -> list[Table]:
    """Give the venue's tables: ``names`` one per table, numbered from 1 in order ("" for a table known by its
    number alone), or None for as many as needed (the tables so far are kept, with their names). Returns the
    tables.

    :raises ApplicationError: INVALID_INPUT for no table, more than :data:`MAX_TABLES` or a name given twice;
        TABLE_OCCUPIED when a table that would go holds a match (move it first). Nothing is changed then."""
    if names is not None:
        names = [name.strip() for name in names]
        if not names:
            raise ApplicationError(
                ErrorCode.INVALID_INPUT, "Give at least one table, or leave it to as many as needed."
            )
        if len(names) > MAX_TABLES:
            raise ApplicationError(ErrorCode.INVALID_INPUT, f"Give 1 to {MAX_TABLES} tables, not {len(names)}.")
        named = [name for name in names if name]
        twice = sorted({name for name in named if named.count(name) > 1})
        if twice:
            raise ApplicationError(ErrorCode.INVALID_INPUT, f"Each table needs its own name: {', '.join(twice)} twice.")
    with transaction.atomic():
        event = _lock_event(event, actor)
        if names is not None:
            _replace_tables(event, names)
        Event.objects.filter(pk=event.pk).update(tables_given=names is not None)
        assign_tables(event.pk, tables_given=names is not None)
    return list(Table.objects.filter(event=event).order_by("number"))


def _replace_tables(event: Event, names: list[str]) -> None:
    gone = Table.objects.filter(event=event, number__gt=len(names))
    occupied = list(
        Pairing.objects.filter(table__in=gone).order_by("table__number").values_list("table__number", flat=True)
    )
    if occupied:
        listed = ", ".join(str(number) for number in occupied)
        raise ApplicationError(
            ErrorCode.TABLE_OCCUPIED,
            f"Table(s) {listed} hold a match: move it to another table first, or give {max(occupied)} tables or more. "
            "Nothing was changed.",
        )
    gone.delete()
    kept = {t.number: t for t in Table.objects.filter(event=event)}
    for number, name in enumerate(names, start=1):
        table = kept.get(number)
        if table is None:
            Table.objects.create(event=event, number=number, name=name)
        elif table.name != name:
            Table.objects.filter(pk=table.pk).update(name=name)


def hold_table(event: Event, number: int, *, actor: Actor, held: bool = True) -> Table:
    """Hold table ``number`` back (no match is sent to it but by hand; a match playing there goes on), or release
    it (``held`` False: it takes the next match waiting).

    :raises ApplicationError: UNKNOWN_TABLE for a table the venue does not have, CONFLICT for one already so."""
    with transaction.atomic():
        event = _lock_event(event, actor)
        table = _table(event, number)
        if table.held == held:
            state = "already held back" if held else "not held back"
            raise ApplicationError(ErrorCode.CONFLICT, f"{table.label} is {state}: nothing was changed.")
        Table.objects.filter(pk=table.pk).update(held=held)
        table.held = held
        assign_tables(event.pk, tables_given=event.tables_given)
    return table


def _table(event: Event, number: int, *, create: bool = False) -> Table:
    table = Table.objects.filter(event=event, number=number).first()
    if table is not None:
        return table
    if create and not event.tables_given and number >= 1:
        return Table.objects.create(event=event, number=number)
    count = Table.objects.filter(event=event).aggregate(last=Max("number"))["last"] or 0
    have = f"the venue's tables are 1 to {count}" if count else "the venue has no tables yet"
    raise ApplicationError(ErrorCode.UNKNOWN_TABLE, f"There is no table {number}: {have}.", table=number)


def _check_players_free(pairing: Pairing, event_id: int) -> None:
    """A match seated by hand: neither of its players is at another table of the event with a match not over (he
    would be called to two tables at once)."""
    entries = [pk for pk in (pairing.entry_a_id, pairing.entry_b_id) if pk is not None]
    players = Entry.objects.filter(pk__in=entries).values_list("player_id", flat=True)
    busy = (
        Pairing.objects.filter(division__event_id=event_id, table__isnull=False, status__in=PLAYABLE)
        .exclude(pk=pairing.pk)
        .filter(Q(entry_a__player__in=players) | Q(entry_b__player__in=players))
        .select_related("round", "division", "table", "entry_a__player", "entry_b__player")
        .order_by("table__number")
        .first()
    )
    if busy is None:
        return
    mine = busy.entry_a if busy.entry_a is not None and busy.entry_a.player_id in set(players) else busy.entry_b
    assert mine is not None
    raise ApplicationError(
        ErrorCode.CONFLICT,
        f"{mine.player.display_name} is still at {busy.table_label} ({busy.division.name}, "
        f"{round_words(busy.round, busy.division)}), a match not over: seat this one once that match is over (it "
        "then gets a table by itself), or move that one. Nothing was changed.",
    )


def seat_match(pairing: Pairing, number: int, *, actor: Actor) -> Pairing:
    """Send a ready or playing match to table ``number`` (held back or not): the director moves it, or seats by hand
    a match waiting in the queue. Its former table goes to the next match waiting. Without tables given by the
    director, a table past the last is added.

    :raises ApplicationError: MATCH_NOT_READY for a match not ready or playing (a bye, a slot waiting for its
        players, a match over); CONFLICT for a match seated by hand whose player is at another table with a match not
        over; TABLE_OCCUPIED for a table that holds another match; UNKNOWN_TABLE for a table the venue does not
        have. Nothing is changed then."""
    with transaction.atomic():
        division = lock_division(pairing.division_id)
        check_directs(actor, division.event)
        pairing = Pairing.objects.select_related("table").get(pk=pairing.pk)
        if pairing.status not in PLAYABLE or pairing.match_id is None:
            raise ApplicationError(
                ErrorCode.MATCH_NOT_READY,
                "Only a match ready or being played sits at a table: this one is not. Nothing was changed.",
            )
        if pairing.table_id is None:
            _check_players_free(pairing, division.event_id)
        table = _table(division.event, number, create=True)
        other = Pairing.objects.filter(table=table).exclude(pk=pairing.pk).select_related("round", "division").first()
        if other is not None:
            raise ApplicationError(
                ErrorCode.TABLE_OCCUPIED,
                f"{table.label} holds another match ({other.division.name}, "
                f"{round_words(other.round, other.division)}): move that one first. Nothing was changed.",
            )
        if pairing.table_id != table.pk:
            Pairing.objects.filter(pk=pairing.pk).update(table=table, called_at=timezone.now())
        assign_tables(division.event_id, tables_given=division.event.tables_given)
    pairing.refresh_from_db()
    return pairing
