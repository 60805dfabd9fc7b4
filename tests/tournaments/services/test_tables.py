"""The venue's tables (tournaments/services/tables.py): one numbering for the event, a table only for a match that
can start, never two matches at one table across the divisions, a queue when the venue has fewer tables than
matches, and the director's moves, holds and tables given."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.db import IntegrityError, connection, transaction
from django.db.models import Q
from django.test import RequestFactory

import games.services
from common.actor import Actor
from common.errors import ApplicationError
from games.models import Match
from tests.tournaments.services.support import director_win, enter_win, open_pairings, pairing, run_in_threads
from tournaments import services
from tournaments.core import PLAYABLE
from tournaments.entry_panel import render_panel
from tournaments.models import Division, Event, Pairing, Table
from tournaments.selectors.venue import venue_of
from tournaments.services import tables

pytestmark = pytest.mark.django_db


def seated(event: Event) -> list[Pairing]:
    return list(
        Pairing.objects.filter(division__event=event, table__isnull=False)
        .select_related("table", "round")
        .order_by("id")
    )


def check_invariant(event: Event) -> None:
    """Every pairing at a table is ready or playing with both players known; no table holds two."""
    event = Event.objects.get(pk=event.pk)
    rows = seated(event)
    assert all(p.status in PLAYABLE and p.entry_a_id and p.entry_b_id and p.match_id for p in rows), [
        (p.key, p.status) for p in rows
    ]
    tables = [p.table_id for p in rows]
    assert len(tables) == len(set(tables))
    waiting = Pairing.objects.filter(division__event=event, status__in=PLAYABLE, table__isnull=True)
    if not event.tables_given and not Table.objects.filter(event=event, held=True).exists():
        # As many tables as needed: only a match whose player is still at another table waits.
        # As many tables as needed: only a match whose player is still at another table waits, or one whose player
        # has an earlier match of the division waiting (a round robin's rounds are played in order).
        players = {pl for p in rows for pl in (p.entry_a.player_id, p.entry_b.player_id)}
        earlier: set[tuple[int, int]] = set()
        for p in sorted(waiting.select_related("entry_a", "entry_b", "round"), key=lambda p: (p.round.number, p.pk)):
            mine = {p.entry_a.player_id, p.entry_b.player_id}
            before = {pl for division, pl in earlier if division == p.division_id}
            assert mine & (players | before), f"{p.key} waits with tables to be had"
            earlier |= {(p.division_id, pl) for pl in mine}


def test_byes_and_waiting_slots_hold_no_table_and_two_ready_rounds_do_not_share_one(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    """The issue's field: 11 players, main with consolation. Five byes and the slots still waiting hold no table;
    the three real first-round matches and the main round 2 matches of two bye-holders are ready at once, each at
    its own table, numbered from 1."""
    division = division_of("main-consolation", 11)
    services.start_division(division, actor=as_director)
    rows = seated(division.event)
    assert {p.status for p in Pairing.objects.filter(division=division, table__isnull=False)} <= set(PLAYABLE)
    assert not Pairing.objects.filter(division=division, table__isnull=False).exclude(status__in=PLAYABLE).exists()
    ready = Pairing.objects.filter(division=division, status=Pairing.Status.READY)
    assert len(rows) == ready.count() >= 4
    assert {p.round.number for p in rows} == {1, 2}, "main round 2 is ready beside round 1"
    assert sorted(p.table.number for p in rows) == list(range(1, len(rows) + 1))
    check_invariant(division.event)


def test_two_divisions_of_one_event_share_one_numbering_while_results_come_in(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    event = services.create_event(actor=as_director, name="Two flights")
    main = division_of("main-consolation", 11, event=event)
    swiss = services.create_division(
        event,
        actor=as_director,
        settings=services.DivisionSettings(name="Side", format="swiss", rounds_planned=3, auto_pair=True),
    )
    for i in range(1, 9):
        services.register_player(swiss, actor=as_director, name=f"S{i:02d}", rating=1800 - i)
    services.start_division(main, actor=as_director)
    services.start_division(swiss, actor=as_director)
    check_invariant(event)
    numbers = [p.table.number for p in seated(event)]
    assert sorted(numbers) == list(range(1, len(numbers) + 1)), "one numbering for the room"
    assert {p.division_id for p in seated(event)} == {main.pk, swiss.pk}
    played = 0
    while True:
        todo = open_pairings(main)[:1] + open_pairings(swiss)[:1]
        if not todo:
            break
        for p in todo:
            director_win(p, p.entry_a, as_director)
            played += 1
            check_invariant(event)
    assert played > 10
    assert not seated(event), "every table is free once everything is played"


def test_the_database_refuses_two_matches_at_one_table(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    division = division_of("swiss", 4)
    services.start_division(division, actor=as_director)
    first, second = seated(division.event)
    with pytest.raises(IntegrityError), transaction.atomic():
        Pairing.objects.filter(pk=second.pk).update(table=first.table)


def test_a_freed_table_goes_to_the_queue_in_round_then_flight_order(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    """Two tables for the issue's field: the earliest rounds' matches are seated, the rest wait; when a table frees,
    the next match of the stated order gets it and is called."""
    division = division_of("main-consolation", 11)
    services.set_tables(division.event, actor=as_director, names=["Feature table", ""])
    services.start_division(division, actor=as_director)
    rows = seated(division.event)
    assert [p.table.label for p in rows] and {p.table.label for p in rows} == {"Feature table", "Table 2"}
    assert {p.round.number for p in rows} == {1}, "round 1 first"
    queue = Pairing.objects.filter(division=division, status__in=PLAYABLE, table__isnull=True)
    assert queue.count() >= 2
    done = rows[0]
    director_win(pairing(division, done.key), pairing(division, done.key).entry_a, as_director)
    now = {p.pk: p for p in seated(division.event)}
    assert done.pk not in now
    newcomer = next(p for p in now.values() if p.table_id == done.table_id)
    assert newcomer.called_at is not None
    assert newcomer.round.number == 1, "the last round 1 match comes before the main round 2 matches"
    check_invariant(division.event)


def test_the_director_moves_holds_and_seats_by_hand(division_of: Callable[..., Division], as_director: Actor) -> None:
    division = division_of("swiss", 8)
    event = division.event
    services.set_tables(event, actor=as_director, names=["", "", "", "Feature table"])
    services.hold_table(event, 4, actor=as_director)
    services.start_division(division, actor=as_director)
    rows = seated(event)
    assert sorted(p.table.number for p in rows) == [1, 2, 3], "the held table gets no match by itself"
    waiting = Pairing.objects.get(division=division, status=Pairing.Status.READY, table__isnull=True)
    moved = services.seat_match(waiting, 4, actor=as_director)
    assert moved.table.label == "Feature table"
    with pytest.raises(ApplicationError, match="Table 1 holds another match"):
        services.seat_match(moved, 1, actor=as_director)
    with pytest.raises(ApplicationError, match="There is no table 9: the venue's tables are 1 to 4"):
        services.seat_match(moved, 9, actor=as_director)
    with pytest.raises(ApplicationError, match="hold a match"):
        services.set_tables(event, actor=as_director, names=["", ""])
    assert Table.objects.filter(event=event).count() == 4, "nothing was changed"
    check_invariant(event)


#: How long the first assignment waits for the second at the barrier. With the event's lock the second cannot come
#: (it waits for the first's commit), so the first goes on alone after this.
MEET_SECONDS = 3


@pytest.mark.skipif(connection.vendor != "postgresql", reason="needs PostgreSQL (DATABASE_URL=postgres://...)")
@pytest.mark.django_db(transaction=True)
def test_two_divisions_results_at_once_never_share_a_table(as_director: Actor, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two divisions' last matches finish at the same moment, in two connections; each result's follow-up frees its
    table and assigns the tables. A barrier holds each assignment between its reads and its writes until the other
    has read too: without the event's lock both read the same free tables and the same queue, and send the same
    waiting match to the two freed tables (one is lost). With it the second assignment cannot read before the
    first has committed, so the barrier is never met and each freed table goes to its own match."""
    event = services.create_event(actor=as_director, name="Rush hour")
    services.set_tables(event, actor=as_director, names=["", ""])
    flights = {}
    for name, players in (("A", 2), ("B", 2), ("C", 6)):
        settings = services.DivisionSettings(name=name, format="swiss", rounds_planned=1, match_length=1)
        flights[name] = services.create_division(event, actor=as_director, settings=settings)
        for i in range(1, players + 1):
            services.register_player(flights[name], actor=as_director, name=f"{name}{i}", rating=1900 - i)
        services.start_division(flights[name], actor=as_director)
    assert {p.division_id for p in seated(event)} == {flights["A"].pk, flights["B"].pk}, "C's three matches wait"

    barrier = threading.Barrier(2)
    reached = threading.local()
    write = tables.update_rows

    def meet_then_write(model: type[Pairing], rows: list[Pairing], fields: list[str]) -> None:
        if not getattr(reached, "done", False):  # the assignment's first write: its reads are done
            reached.done = True
            with contextlib.suppress(threading.BrokenBarrierError):  # the other waits for this one's commit
                barrier.wait(timeout=MEET_SECONDS)
        write(model, rows, fields)

    monkeypatch.setattr(tables, "update_rows", meet_then_write)
    results = [lambda p=p: enter_win(p, p.entry_a, actor=as_director) for p in seated(event)]
    run_in_threads(results)  # each result commits, then its follow-up runs in its thread

    check_invariant(event)
    assert {p.division_id for p in seated(event)} == {flights["C"].pk}
    assert len(seated(event)) == 2, "each freed table went to its own match of C"
    assert barrier.broken, "the two assignments ran one after the other"


def test_the_queue_is_read_in_table_order_and_a_round_robin_seats_its_first_round(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    """The matches waiting are read from the database in the order of ``table_order`` (TABLE_ORDER, its SQL form),
    and only as far as needed: a round robin's start seats every player once, in round 1, and leaves every later
    round waiting."""
    from tournaments.core import TABLE_ORDER, table_order

    event = services.create_event(actor=as_director, name="Two formats")
    robin = division_of("round-robin", 7, event=event)
    bracket = division_of("main-consolation", 11, event=event)
    services.start_division(bracket, actor=as_director)
    services.start_division(robin, actor=as_director)
    rows = seated(event)
    robin_rows = [p for p in rows if p.division_id == robin.pk]
    assert {p.round.number for p in robin_rows} == {1}
    assert len(robin_rows) == 3, "7 players: three matches and a bye in round 1"
    check_invariant(event)
    playing = Pairing.objects.filter(division=robin, table__isnull=True, status="ready").order_by("-round__number")[0]
    Pairing.objects.filter(pk=playing.pk).update(status=Pairing.Status.PLAYING)  # a match started before tables
    waiting = Pairing.objects.filter(division__event=event, status__in=PLAYABLE, match__isnull=False)
    in_sql = list(waiting.order_by(*TABLE_ORDER).values_list("pk", flat=True))
    in_python = sorted(
        waiting.select_related("round", "match"),
        key=lambda p: (
            *table_order(
                p.status == Pairing.Status.PLAYING,
                p.round.number,
                p.round.bracket,
                p.match.created_at,
                p.division_id,
                p.board,
            ),
            p.pk,
        ),
    )
    assert in_sql == [p.pk for p in in_python]
    assert in_sql[0] == playing.pk, "a match being played comes first"


def test_a_draw_writes_only_the_indexes_its_queries_need() -> None:
    """A pairing's round, division and table are indexed by the constraints that begin with them, and nothing
    else; the partial unique index of the tables held stays (the migration that dropped the table's own index
    must not take it along). A match's winner and creator are indexed only where there is one."""
    with connection.cursor() as cursor:
        constraints = connection.introspection.get_constraints(cursor, Pairing._meta.db_table)
        match_constraints = connection.introspection.get_constraints(cursor, Match._meta.db_table)
    assert constraints["pairing_one_match_per_table"]["unique"]
    assert constraints["pairing_one_match_per_table"]["columns"] == ["table_id"]
    indexed = sorted(tuple(c["columns"]) for c in constraints.values() if c["index"] or c["unique"])
    assert ("table_id",) in indexed  # the partial unique index, the only one on the column
    assert ("round_id",) not in indexed and ("division_id",) not in indexed
    assert ("round_id", "board") in indexed and ("division_id", "key") in indexed
    assert indexed.count(("winner_id",)) == 1 and "pairing_winner" in constraints
    match_indexed = sorted(tuple(c["columns"]) for c in match_constraints.values() if c["index"] or c["unique"])
    assert match_indexed.count(("winner_id",)) == 1 and "match_winner" in match_constraints
    assert match_indexed.count(("created_by_id",)) == 1 and "match_created_by" in match_constraints


def test_a_round_robin_player_is_called_to_his_rounds_in_order(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    """Nobody is called to a later round while his match of an earlier round is still to be played, even when his
    opponent in it is still at another table (the venue's tables are not the limit here: as many as needed)."""
    division = division_of("round-robin", 8, entry_mode="scoresheet", match_length=1)
    services.start_division(division, actor=as_director)
    event = division.event
    first = sorted(seated(event), key=lambda p: p.board)
    assert [p.round.number for p in first] == [1, 1, 1, 1]
    for board in first[:3]:  # three of round 1's four matches end; the fourth is still played
        director_win(pairing(division, board.key), board.entry_a, as_director)
        check_invariant(event)
        for p in seated(event):
            earliest = (
                Pairing.objects.filter(division=division, status__in=PLAYABLE)
                .filter(Q(entry_a__in=(p.entry_a_id, p.entry_b_id)) | Q(entry_b__in=(p.entry_a_id, p.entry_b_id)))
                .order_by("round__number")
                .values_list("round__number", flat=True)
                .first()
            )
            assert p.round.number == earliest, f"{p.key} is called while one of its players has round {earliest}"


def test_a_match_seated_by_hand_whose_player_is_at_another_table_is_refused(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    division = division_of("round-robin", 4, match_length=1)  # every match made at the draw, rounds 2-3 wait
    services.set_tables(division.event, actor=as_director, names=["", "", ""])
    services.start_division(division, actor=as_director)
    at = {p.table.number: p for p in seated(division.event)}
    assert sorted(at) == [1, 2], "round 2's matches wait: their players are at round 1's tables"
    waiting = Pairing.objects.filter(division=division, round__number=2).select_related("entry_a__player").first()
    assert waiting is not None and waiting.table_id is None
    mine = {waiting.entry_a_id, waiting.entry_b_id}
    busy = next(at[n] for n in sorted(at) if mine & {at[n].entry_a_id, at[n].entry_b_id})  # the first table
    name = (busy.entry_a if busy.entry_a_id in mine else busy.entry_b).player.display_name
    before = sorted((p.pk, p.table_id) for p in Pairing.objects.filter(division=division))
    with pytest.raises(ApplicationError) as refused:
        services.seat_match(waiting, 3, actor=as_director)
    assert refused.value.message.startswith(
        f"{name} is still at Table {busy.table.number} ({division.name}, Round 1), a "
        "match not over: seat this one once that match is over"
    )
    assert sorted((p.pk, p.table_id) for p in Pairing.objects.filter(division=division)) == before
    for p in at.values():
        director_win(p, p.entry_a, as_director)
    waiting.refresh_from_db()
    assert waiting.table_id is not None, "once its players' matches are over it gets a table by itself"


def test_a_reopened_match_goes_back_to_its_table_while_it_is_free(
    division_of: Callable[..., Division], as_director: Actor, django_capture_on_commit_callbacks: Any
) -> None:
    """A director's correction reopens a match whose table freed: its players sit there, and it goes back to it,
    not to the lowest free table; a table taken meanwhile is not named (the match waits and is called anew)."""
    division = division_of("swiss", 4, entry_mode="scoresheet", match_length=3)
    services.start_division(division, actor=as_director)
    first, second = (pairing(division, key) for key in ("swiss-1-1", "swiss-1-2"))
    assert (seated_at(first), seated_at(second)) == ("Table 1", "Table 2")
    with django_capture_on_commit_callbacks(execute=True):
        for winner, cube in ((0, 1), (1, 1), (1, 2)):  # 1-3: game 3 decides it
            record(second, winner, cube, as_director)
        director_win(pairing(division, first.key), first.entry_a, as_director)
    assert not Pairing.objects.filter(division=division, table__isnull=False).exists(), "both tables free"
    with django_capture_on_commit_callbacks(execute=True):
        games.services.replace_game_result(
            second.match_id, actor=as_director, game_number=3, winner=1, kind=1, cube_value=1, reason="misread"
        )
    second.refresh_from_db()
    assert (second.status, second.score_a, second.score_b) == (Pairing.Status.PLAYING, 1, 2)
    assert (seated_at(second), second.played_at) == ("Table 2", ""), "back at its table, not Table 1"
    check_invariant(division.event)


def reopened_after_its_table_went(
    division_of: Callable[..., Division], as_director: Actor, callbacks: Any
) -> tuple[Division, Pairing, Pairing]:
    """11 players, two tables: the match at Table 2 ends 1-3 and its table goes to another match (the newcomer);
    then a correction of its last game reopens it (1-2). Returns the division, the reopened match, the newcomer."""
    division = division_of("main-consolation", 11, entry_mode="scoresheet", match_length=3)
    services.set_tables(division.event, actor=as_director, names=["", ""])
    services.start_division(division, actor=as_director)
    done = next(p for p in seated(division.event) if p.table.number == 2)
    with callbacks(execute=True):
        for winner, cube in ((0, 1), (1, 1), (1, 2)):
            record(pairing(division, done.key), winner, cube, as_director)
    newcomer = Pairing.objects.get(division=division, table__number=2)
    assert newcomer.pk != done.pk and newcomer.called_at is not None
    with callbacks(execute=True):
        games.services.replace_game_result(
            done.match_id, actor=as_director, game_number=3, winner=1, kind=1, cube_value=1, reason="misread"
        )
    return division, pairing(division, done.key), newcomer


def test_a_reopened_match_whose_table_was_given_again_waits_and_names_no_table(
    division_of: Callable[..., Division], as_director: Actor, django_capture_on_commit_callbacks: Any
) -> None:
    division, done, newcomer = reopened_after_its_table_went(
        division_of, as_director, django_capture_on_commit_callbacks
    )
    assert done.status == Pairing.Status.PLAYING and done.table_id is None and done.played_at == ""
    assert Pairing.objects.get(division=division, table__number=2).pk == newcomer.pk
    check_invariant(division.event)
    # The next table freed goes to it first (it is being played), and calls its players to it.
    with django_capture_on_commit_callbacks(execute=True):
        director_win(pairing(division, newcomer.key), pairing(division, newcomer.key).entry_a, as_director)
    done.refresh_from_db()
    assert done.table_label == "Table 2" and done.called_at is not None
    assert done.pk in [p.pk for p in venue_of(division.event).calls], "the venue display shows the new call"
    phone = render_panel(RequestFactory().get("/"), Match.objects.get(pk=done.match_id), frozenset({0}))
    assert phone is not None and "You are called" in phone and "Table 2" in phone, "so does the phone"
    with django_capture_on_commit_callbacks(execute=True):
        record(done, 0, 1, as_director)  # the players went there: the call is answered
    assert done.pk not in [p.pk for p in venue_of(division.event).calls]
    assert render_panel(RequestFactory().get("/"), Match.objects.get(pk=done.match_id), frozenset({0})) is None


def seated_at(p: Pairing) -> str:
    return Pairing.objects.select_related("table").get(pk=p.pk).table_label


def record(p: Pairing, winner: int, cube: int, director: Actor) -> None:
    """The director enters one game of the pairing's scoresheet match: ``winner``'s single with the cube on ``cube``."""
    seq = Match.objects.get(pk=p.match_id).seq
    games.services.record_game_result(
        p.match_id, actor=director, winner=winner, kind=1, cube_value=cube, expected_seq=seq
    )
