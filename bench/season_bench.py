"""Season: a club's season table (its page, its CSV and its API) for a season of 200 events against one of 10, in
the same run (bench/README.md, "Season").

Usage: python bench/season_bench.py [--database-url postgres://...] [--reps N] [--events BIG,SMALL] [--keep-db]
       python bench/season_bench.py --reuse-db [--database-url ...] [--reps N]

What is built (on a throwaway PostgreSQL database): two clubs, each with a roster of 1,000 players (inserted in
bulk) and one season over all its events, one club with 200 events and one with 10 (``--events``). Each event is
a club night of one division of 16 to 32 players drawn from the roster (a seeded random draw), 5-point matches:
every other night a single-elimination knockout, the others a Swiss of 4 rounds. Entries are inserted in bulk; the
divisions are started, and every match is given a random result by the SYSTEM actor through
``games.services.record_game_result`` (one game worth the match), the division synced after each round
(``sync_division``, ``pair_next_round`` for the Swiss) and its standings computed once at the end
(``recompute_standings``), as the follow-up would. The season's table is the club's own table (a match won 1 point
times its length, places 10, 6, 4, 4, 2 for showing up). The season is created after its events, as a director who
starts counting a season late does. The database is then analysed (``ANALYZE``), as autovacuum keeps a database in
use.

What is timed: each request through Django's test ``Client`` in this process (the whole middleware stack, the
view, the template, no network and no server), DEBUG off, ``--reps`` times (default 9) after one warm-up request,
the small season's request and then the big one's each time, reported as median, min and max in milliseconds.
Anonymous spectators' shared copy of a page is off (``LIVE_PART_SECONDS=0``): every request makes the table. The
SQL statements of each request are counted in one more request (not timed); its size in bytes is shown. The ratio
is the big season's median over the small one's.

- season page: ``/clubs/<club>/seasons/<season>/``;
- season CSV: ``/clubs/<club>/seasons/<season>/table.csv``;
- season API: ``/api/clubs/<club>/seasons/<season>/``.

The script creates the database named in ``--database-url`` (default ``DATABASE_URL``, else
``postgres://postgres@127.0.0.1:5432/bgmatch_bench_season``), migrates it and drops it at the end, also after an
error or Ctrl-C. A database that already exists is used only if it has no tables; it is emptied at the end.
``--keep-db`` leaves everything in place; ``--reuse-db`` times such a database again without building anything
(run from another checkout, such as the code before a change, it times that code on the same clubs).
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from benchdb import (
    REPO,
    database_name,
    disconnect_division_followups,
    environment,
    exit_on_sigterm,
    prepare_database,
    release_database,
    setup_django,
)
from report import cpu, heading, load

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/bgmatch_bench_season"
SEED = 20261206
ROSTER = 1000
FIELD = (16, 32)  # players a night, from the fewest to the most
MATCH_LENGTH = 5
SWISS_ROUNDS = 4
#: One scoresheet game ends each match: (result kind, cube), at least MATCH_LENGTH points.
WINNING_GAMES = ((3, 2), (2, 4), (1, 8), (3, 4))
TABLE = {"per_win": 1, "times_length": True, "places": [10, 6, 4, 4], "showing_up": 2}
FIRST_NIGHT = dt.date(2026, 1, 5)
ENVIRONMENT = environment("season", LIVE_PART_SECONDS="0")


def setup_season_django(url: str) -> None:
    """Django on ``url`` with ENVIRONMENT; static files served from the sources (no ``collectstatic``)."""
    setup_django(url, ENVIRONMENT)
    from django.conf import settings

    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }


# -- building ----------------------------------------------------------------------------------------------------------


def play_division(division: Any, actor: Any, rng: random.Random) -> int:
    """Give every match of the started division a random result, round by round, until it is over; the number of
    results recorded."""
    from common.actor import SYSTEM
    from games import services as games
    from tournaments import services
    from tournaments.models import Division, Pairing

    recorded = 0
    while True:
        services.sync_division(division.pk)
        division.refresh_from_db()
        todo = Pairing.objects.filter(
            division=division, status__in=(Pairing.Status.READY, Pairing.Status.PLAYING), match__isnull=False
        )
        matches = list(todo.values_list("match_id", flat=True).order_by("id"))
        if matches:
            for match_id in matches:
                kind, cube = rng.choice(WINNING_GAMES)
                games.record_game_result(
                    match_id, actor=SYSTEM, winner=int(rng.random() < 0.5), kind=kind, cube_value=cube, expected_seq=0
                )
            recorded += len(matches)
            continue
        if division.status != Division.Status.RUNNING:
            return recorded
        if division.in_swiss_phase and division.rounds.count() < division.rounds_planned:
            services.pair_next_round(division, actor=actor)
        else:
            return recorded


def club_with_events(actor: Any, rng: random.Random, name: str, events: int) -> tuple[Any, int, int]:
    """A club of ROSTER players and ``events`` nights played; (the club, entries, results)."""
    from games.models import Player
    from tournaments import services
    from tournaments.models import Entry

    club = services.create_club(actor=actor, name=name)
    people = Player.objects.bulk_create(Player(display_name=f"{name} player {i:04d}") for i in range(ROSTER))
    club.players.add(*people)
    ratings = {p.pk: round(rng.gauss(1500, 150)) for p in people}
    entries = results = 0
    for night in range(events):
        event = services.create_event(
            actor=actor, name=f"{name} night {night + 1}", club=club, starts_on=FIRST_NIGHT + dt.timedelta(days=night)
        )
        knockout = night % 2 == 0
        settings = services.DivisionSettings(
            name="Main",
            format="single" if knockout else "swiss",
            match_length=MATCH_LENGTH,
            rounds_planned=0 if knockout else SWISS_ROUNDS,
        )
        division = services.create_division(event, actor=actor, settings=settings)
        field = rng.sample(people, rng.randint(*FIELD))
        Entry.objects.bulk_create(Entry(division=division, player=p, rating=ratings[p.pk]) for p in field)
        services.start_division(division, actor=actor)
        results += play_division(division, actor, rng)
        services.recompute_standings(division.pk)
        entries += len(field)
    return club, entries, results


def analyse() -> None:
    """ANALYZE the database: the planner's statistics of a database in use (autovacuum keeps them), not those of
    tables just filled in bulk."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")


def season_of(club: Any, actor: Any, events: int) -> Any:
    from tournaments import services

    last = FIRST_NIGHT + dt.timedelta(days=events)
    return services.create_season(
        club, actor=actor, name="Season", starts_on=FIRST_NIGHT, ends_on=last, table=TABLE, qualify=8
    )


# -- measuring ---------------------------------------------------------------------------------------------------------


@dataclass
class Measured:
    times: list[float]
    queries: int
    size: int

    @property
    def median(self) -> float:
        return statistics.median(self.times)


def requests_of(season: Any) -> list[tuple[str, str]]:
    base = f"/clubs/{season.club.slug}/seasons/{season.slug}/"
    return [
        ("season page", base),
        ("season CSV", f"{base}table.csv"),
        ("season API", f"/api/clubs/{season.club.slug}/seasons/{season.slug}/"),
    ]


def counted(client: Any, url: str) -> tuple[int, int]:
    """(statements, bytes) of one request."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    if response.status_code != 200:
        raise SystemExit(f"{url} answered {response.status_code}")
    return len(queries), len(response.content)


def compare(sizes: tuple[int, int], seasons: tuple[Any, Any], reps: int) -> list[tuple[str, Measured, Measured]]:
    """Each request of the big season and of the small one, side by side (``seasons``: big, small)."""
    from django.test import Client

    client = Client(SERVER_NAME="localhost")
    rows = []
    for (what, big_url), (_, small_url) in zip(requests_of(seasons[0]), requests_of(seasons[1]), strict=True):
        measured = []
        for url in (small_url, big_url):
            client.get(url)  # warm up
            measured.append(Measured([], *counted(client, url)))
        small, big = measured
        for _ in range(reps):
            for m, url in ((small, small_url), (big, big_url)):
                t0 = time.perf_counter()
                client.get(url)
                m.times.append(time.perf_counter() - t0)
        rows.append((what, small, big))
    heading(f"Season table, {sizes[0]} vs {sizes[1]} events")
    print(f"  {'request':<12} {'events':>6} {'median':>8} {'min':>8} {'max':>8} {'queries':>7} {'bytes':>9}   ratio")
    for what, small, big in rows:
        for label, m in ((sizes[1], small), (sizes[0], big)):
            print(
                f"  {what:<12} {label:>6} {m.median * 1e3:8.2f} {min(m.times) * 1e3:8.2f} {max(m.times) * 1e3:8.2f}"
                f" {m.queries:7d} {m.size:9,d}",
                end="",
            )
            if m is big:
                same = "same queries" if big.queries == small.queries else f"QUERIES {small.queries} -> {big.queries}"
                print(f"   x{big.median / small.median:.2f} (bytes x{big.size / small.size:.2f}); {same}")
            else:
                print()
    print(f"  ({load()})", flush=True)
    return rows


# -- main --------------------------------------------------------------------------------------------------------------


def machine() -> str:
    import django

    return f"{cpu()}; Python {platform.python_version()}, Django {django.get_version()}"


def sizes_of(text: str) -> tuple[int, int]:
    try:
        big, small = (int(n) for n in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"--events takes BIG,SMALL: two numbers of events, not {text!r}") from None
    if not 1 <= small <= big:
        raise argparse.ArgumentTypeError(f"--events BIG,SMALL with 1 <= SMALL <= BIG, not {text!r}")
    return big, small


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--database-url",
        default=os.environ.get("DATABASE_URL") or DEFAULT_DATABASE_URL,
        help="a PostgreSQL database (made and dropped; default: DATABASE_URL)",
    )
    parser.add_argument("--reps", type=int, default=9, help="timed repetitions of every request (default 9)")
    parser.add_argument(
        "--events", type=sizes_of, default=(200, 10), help="events of the big and the small season (default 200,10)"
    )
    parser.add_argument("--keep-db", action="store_true", help="leave the database in place")
    parser.add_argument(
        "--reuse-db", action="store_true", help="time the clubs of a database left by --keep-db (no build; kept)"
    )
    args = parser.parse_args(argv)
    if args.reps < 1:
        parser.error("--reps must be 1 or more")
    exit_on_sigterm()
    if args.reuse_db:
        return reuse(args.database_url, args.events, args.reps)
    created = prepare_database(args.database_url, reuse_empty=True)
    try:
        setup_season_django(args.database_url)
        from django.contrib.auth import get_user_model

        from common.actor import Actor

        # Building records thousands of results; the build syncs each division itself and computes its standings
        # once, at the end, as the follow-up would (no timed request sends a result).
        disconnect_division_followups()
        print(f"season bench: {machine()}; the code of {REPO}")
        print(f"database {database_name(args.database_url)}: migrated ({load()})", flush=True)
        rng = random.Random(SEED)
        actor = Actor(user=get_user_model().objects.create_user("season-bench", password=None))
        seasons = []
        for n, name in zip(args.events, ("Big", "Small"), strict=True):
            t0 = time.perf_counter()
            club, entries, results = club_with_events(actor, rng, f"{name} club", n)
            built = time.perf_counter() - t0
            t0 = time.perf_counter()
            seasons.append(season_of(club, actor, n))
            print(
                f"built {club.name}: {n} events, {entries:,} entries, {results:,} results in {built:.1f} s; its "
                f"season created in {time.perf_counter() - t0:.2f} s ({load()})",
                flush=True,
            )
        analyse()
        print(f"times in ms over {args.reps} repetitions (Django's test Client in process, DEBUG off)")
        compare(args.events, (seasons[0], seasons[1]), args.reps)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    finally:
        release_database(args.database_url, created, keep=args.keep_db)
    return 0


def reuse(url: str, sizes: tuple[int, int], reps: int) -> int:
    """Time the seasons of the clubs a run with ``--keep-db`` left in the database (with this code: its migrations
    are applied first)."""
    try:
        setup_season_django(url)
        from tournaments.models import Season

        print(f"season bench: {machine()}; the code of {REPO}")
        print(f"database {database_name(url)}, kept by an earlier run ({load()})", flush=True)
        seasons = tuple(Season.objects.select_related("club").get(club__name=f"{n} club") for n in ("Big", "Small"))
        analyse()
        print(f"times in ms over {reps} repetitions (Django's test Client in process, DEBUG off)")
        compare(sizes, (seasons[0], seasons[1]), reps)
    finally:
        release_database(url, False, keep=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
