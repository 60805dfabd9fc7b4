"""The room: what a check-in and a call cost at 200 entries (bench/README.md, "Venue").

Usage: DATABASE_URL=postgres://... python bench/venue_bench.py [--reps N] [--door-sizes 20,200] [--keep-db]

At the door (``--door-sizes``, 20 and 200 entries by default): an event of a division in registration with that
many entries and a second division of 20, the director logged in. Timed, as below: one check-in as the division
page sends it without a reload (htmx: its row answered, with the count and the message), its undo (the player
checked in outside the clock), and "Check in all the listed" with every entry listed (none checked in before).
The statements are counted at each size: they must not grow with the entries.

The event: a 128-entry Swiss and a 72-entry main with consolation (200 entries), in a venue of 40 tables, both
started: 40 matches are called to the tables, the others wait in the queue. Timed, each ``--reps`` times (median,
min, max; ``time.perf_counter``, rolled back after each call so every call starts from the same rows):

1. ``assign_tables``: one table freed (its match's result taken outside the clock), the next match of the queue
   called to it: what the call itself costs;
2. the sync that takes that result (``sync_division``), the call included; the same sync with the assignment
   taken out (what the sync cost before tables belonged to the venue), and in an event whose venue has a table for
   every match (nothing waits), side by side;
3. a player's phone polling the entry page's live part once the call is made (a 200 with the call), and again
   with its ETag (a 304).

The SQL statements of each are counted in one more run (``CaptureQueriesContext``; SAVEPOINTs left out).
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from benchdb import database_name, environment, exit_on_sigterm, prepare_database, release_database, setup_django

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/bgmatch_bench_venue"


class RollbackError(Exception):
    """Raised to roll a timed call back."""


def timed(fn: Callable[[], Any], reps: int, *, before: Callable[[], Any] | None = None) -> tuple[float, float, float]:
    from django.db import transaction

    times = []
    for _ in range(reps):
        try:
            with transaction.atomic():
                if before is not None:
                    before()
                gc.collect()
                start = time.perf_counter()
                fn()
                times.append(time.perf_counter() - start)
                raise RollbackError
        except RollbackError:
            pass
    return statistics.median(times), min(times), max(times)


def statements(fn: Callable[[], Any], *, before: Callable[[], Any] | None = None) -> int:
    from django.db import connection, transaction
    from django.test.utils import CaptureQueriesContext

    try:
        with transaction.atomic():
            if before is not None:
                before()
            with CaptureQueriesContext(connection) as captured:
                fn()
            raise RollbackError
    except RollbackError:
        pass
    return sum("SAVEPOINT" not in q["sql"] for q in captured.captured_queries)


def build(name: str, tables: int | None) -> tuple[Any, Any, Any]:
    """The event of the module docstring (``tables`` None: as many as needed); returns it, the director and the
    Swiss division."""
    from django.contrib.auth import get_user_model

    from common.actor import Actor
    from tournaments import services

    user = get_user_model().objects.create_user(username=f"director-{name}", password=None)
    actor = Actor(user=user)
    event = services.create_event(actor=actor, name=f"Venue {name}")
    if tables is not None:
        services.set_tables(event, actor=actor, names=[""] * tables)
    swiss = services.create_division(
        event, actor=actor, settings=services.DivisionSettings(name="Open", format="swiss", rounds_planned=5)
    )
    knockout = services.create_division(
        event, actor=actor, settings=services.DivisionSettings(name="Main", format="main-consolation")
    )
    for division, count, prefix in ((swiss, 128, "S"), (knockout, 72, "K")):
        for i in range(count):
            services.register_player(division, actor=actor, name=f"{name} {prefix}{i:03d}", rating=2000 - i)
        services.start_division(division, actor=actor)
    return event, actor, swiss


def finish_one(swiss: Any) -> Any:
    """The result of one seated Swiss match recorded (a director's scoresheet game), not yet taken by a sync."""
    from common.actor import SYSTEM
    from games import services as games
    from tournaments.models import Pairing

    seated = Pairing.objects.filter(division=swiss, table__isnull=False).select_related("match").order_by("id").first()
    games.record_game_result(
        seated.match_id, actor=SYSTEM, winner=0, kind=1, cube_value=8, expected_seq=seated.match.seq
    )
    return seated


def row(label: str, figures: tuple[float, float, float], count: int) -> None:
    median, low, high = (f"{v * 1000:.2f}" for v in figures)
    print(f"| {label} | {median} | {low} | {high} | {count} |")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database-url", default=None)
    parser.add_argument("--reps", type=int, default=15)
    parser.add_argument("--door-sizes", default="20,200", help="entries of the check-in division, comma-separated")
    parser.add_argument("--keep-db", action="store_true")
    args = parser.parse_args(argv)
    import os

    url = args.database_url or os.environ.get("DATABASE_URL") or DEFAULT_DATABASE_URL
    exit_on_sigterm()
    created = prepare_database(url, reuse_empty=True)
    try:
        setup_django(url, environment("venue"))
        from django.conf import settings

        # DEBUG off asks for the hashed files of `collectstatic`: the pages are answered with the sources' URLs.
        settings.STORAGES = {
            **settings.STORAGES,
            "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
        }
        from report import cpu, load

        print(f"{cpu()}; {load()} before")
        door(args.reps, [int(n) for n in args.door_sizes.split(",")])
        status = run(args.reps)
        print(f"\n{load()} after")
        return status
    finally:
        release_database(url, created, keep=args.keep_db, kept=database_name(url))


def door(reps: int, sizes: Sequence[int]) -> None:
    """The check-in rows, at each size (the module's docstring)."""
    print("| entries | what | median | min | max | statements |")
    print("| --- | --- | --- | --- | --- | --- |")
    for size in sizes:
        door_at(size, reps)
    print()


def door_at(size: int, reps: int) -> None:
    """The check-in rows at ``size`` entries."""
    from django.contrib.auth import get_user_model
    from django.test import Client

    from common.actor import Actor
    from tournaments import services
    from tournaments.models import Entry

    user = get_user_model().objects.create_user(username=f"door-{size}", password=None)
    actor = Actor(user=user)
    event = services.create_event(actor=actor, name=f"Door {size}")
    division = services.create_division(
        event, actor=actor, settings=services.DivisionSettings(name="Open", format="swiss", rounds_planned=5)
    )
    side = services.create_division(
        event, actor=actor, settings=services.DivisionSettings(name="Side", format="single")
    )
    for target, count, prefix in ((division, size, "O"), (side, 20, "S")):
        for i in range(count):
            services.register_player(target, actor=actor, name=f"Door{size} {prefix}{i:03d}", rating=2000 - i)
    director = Client(SERVER_NAME="localhost")
    director.force_login(user)
    url = f"/manage/{event.slug}/{division.slug}/"
    assert director.get(url).status_code == 200
    entries = list(division.entries.order_by("id"))
    middle = entries[len(entries) // 2]

    def send(data: dict[str, Any]) -> None:
        answer = director.post(url, data, HTTP_HX_REQUEST="true")
        assert answer.status_code == 200 and b'<tr id="entry-' in answer.content, answer.status_code
        assert b"<html" not in answer.content and b"Nothing was changed" not in answer.content

    check = lambda: send(  # noqa: E731
        {"action": "check-in", "target": str(middle.pk), f"check-in-{middle.pk}-present": "1"}
    )
    undo = lambda: send(  # noqa: E731
        {"action": "check-in", "target": str(middle.pk), f"check-in-{middle.pk}-present": "0"}
    )
    checked = lambda: Entry.objects.filter(pk=middle.pk).update(status=Entry.Status.CHECKED_IN)  # noqa: E731
    every = lambda: send(  # noqa: E731
        {"action": "check-in-all", "check-in-all-entries": [str(e.pk) for e in entries]}
    )
    for label, fn, before in (
        ("a check-in (htmx)", check, None),
        ("its undo", undo, checked),
        ("check in all the listed", every, None),
    ):
        median, low, high = (f"{v * 1000:.1f}" for v in timed(fn, reps, before=before))
        print(f"| {size} | {label} | {median} | {low} | {high} | {statements(fn, before=before)} |")
    assert not Entry.objects.filter(division=division, status=Entry.Status.CHECKED_IN).exists(), "rolled back"


def run(reps: int) -> int:
    from django.test import Client

    from games.access import new_entry_token, token_text
    from tournaments import services
    from tournaments.models import Pairing
    from tournaments.services.tables import assign_tables

    event, _actor, swiss = build("forty", 40)
    _roomy, _other, roomy_swiss = build("roomy", None)
    waiting = Pairing.objects.filter(division__event=event, status="ready", table__isnull=True).count()
    print(
        f"200 entries, 40 tables: {Pairing.objects.filter(division__event=event, table__isnull=False).count()} "
        f"matches called, {waiting} waiting; {reps} repetitions, milliseconds"
    )
    print()
    print("| what | median | min | max | statements |")
    print("| --- | --- | --- | --- | --- |")

    def free_one() -> None:
        seated = finish_one(swiss)
        Pairing.objects.filter(pk=seated.pk).update(status="finished")  # the result taken, outside the clock

    call = lambda: assign_tables(event.pk)  # noqa: E731
    row(
        "a call: one table freed, the next match called (`assign_tables`)",
        timed(call, reps, before=free_one),
        statements(call, before=free_one),
    )
    sync = lambda: services.sync_division(swiss.pk)  # noqa: E731
    row(
        "the sync taking one result, with its call (40 tables, a queue)",
        timed(sync, reps, before=lambda: finish_one(swiss)),
        statements(sync, before=lambda: finish_one(swiss)),
    )
    from tournaments.services import sync as sync_module

    kept = sync_module.assign_tables
    sync_module.assign_tables = lambda *args, **kwargs: []  # the sync as it was before tables: no assignment
    try:
        row(
            "the same sync without the assignment (the code before tables)",
            timed(sync, reps, before=lambda: finish_one(swiss)),
            statements(sync, before=lambda: finish_one(swiss)),
        )
    finally:
        sync_module.assign_tables = kept
    roomy_sync = lambda: services.sync_division(roomy_swiss.pk)  # noqa: E731
    row(
        "the same sync, a table for every match (no queue)",
        timed(roomy_sync, reps, before=lambda: finish_one(roomy_swiss)),
        statements(roomy_sync, before=lambda: finish_one(roomy_swiss)),
    )

    # A called match's phone: the call is made (committed), then its live part is polled.
    finish_one(swiss)
    services.sync_division(swiss.pk)
    called = (
        Pairing.objects.filter(division__event=event, table__isnull=False, match__seq=0).order_by("-called_at").first()
    )
    phone = Client(SERVER_NAME="localhost")
    phone.get(f"/play/{token_text(new_entry_token(called.match, 0))}/")
    live = f"/play/match/{called.match_id}/live/"
    first = phone.get(live)
    assert first.status_code == 200 and b"You are called" in first.content, first.status_code
    poll = lambda: phone.get(live)  # noqa: E731
    poll_304 = lambda: phone.get(live, HTTP_IF_NONE_MATCH=first["ETag"])  # noqa: E731
    row("the phone's poll showing the call (200)", timed(poll, reps), statements(poll))
    row("the phone's poll, nothing new (304)", timed(poll_304, reps), statements(poll_304))
    return 0


if __name__ == "__main__":
    sys.exit(main())
