"""Tournaments: Swiss pairing, bracket draws, standings and ratings, pure and through the services (bench/README.md).

Usage: DJANGO_SETTINGS_MODULE=config.settings DATABASE_URL=postgres://... python bench/tournaments_bench.py [--quick]

Every measurement is timed ``--reps`` times (5; 3 with ``--quick``) and reported as median, min and max. The pure
algorithms run on values built in memory; the services run on PostgreSQL, and their SQL statements are counted in
one more run with ``django.test.utils.CaptureQueriesContext`` (not timed, so that logging the statements does not
slow the timed runs).

1. Swiss round 6 of a 1,024-player field after 5 rounds of random results: ``pair_round`` on ``SwissPlayer``
   values, and ``pair_next_round`` on a Swiss division whose 5 rounds were paired by the services and whose results
   were recorded with ``games.services.record_game_result`` (the SYSTEM actor: a director's entry, so no
   confirmation is needed). Goal: under 1 s.
   1b. Round 18 of a 40-player field after 17 rounds (a long event, where few pairings are left). Goal: under 1 s.
2. The same with 10,000 players: ``pair_round``, and the service only with ``--service-10k`` (a build of 3 to 5
   minutes on a shared 2-CPU machine). Goal: under 10 s.
3. A 512-player draw: ``plan_bracket`` for each elimination format (last chance with 8 places), and
   ``start_division`` of a 512-entry main-consolation division (and, for comparison, a double-elimination one):
   rows written and statements. Goal: under 0.5 s.
4. Standings of a 1,024-player Swiss after 9 rounds: ``standings()`` with buchholz, sonneborn-berger, points-diff,
   and ``recompute_standings`` (one table per round) with every table, the last table or nothing to write, with
   the statements for 128 and for 1,024 players. Goal: under 1 s, and a statement count that does not grow with
   the field.
5. Ratings of a whole event: ``rate()`` over the 2,048 matches of 4 rounds of the 1,024-player Swiss, and
   ``recompute_ratings`` of the rating list attached to its event.
6. Round robins: ``start_division`` of 200 and 500 players (goals 2 s and 5 s) and of 321 and 350 players in a
   double round robin (the largest a division takes), every match drawn at once; at most 3 repetitions.

Service calls that write (``pair_next_round``, ``start_division``, the sync that takes one result) run inside a
transaction that is rolled back after each repetition, so every repetition starts from the same rows; their time
has no COMMIT. The SAVEPOINT statements that the rolled-back transaction adds are not counted. The COPY statements
the services write rows with are in Django's query log and are counted. ``recompute_standings`` and
``recompute_ratings`` are timed committed.

The script creates the database named in ``DATABASE_URL`` (or ``--database-url``), migrates it and drops it at the
end, also after an error or Ctrl-C. A database that already exists is used only if it is empty (as ``createdb``
leaves it); it is emptied again at the end. ``--keep-db`` leaves everything in place.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import math
import os
import platform
import pstats
import random
import re
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from importlib import metadata
from pathlib import Path
from typing import Any

from benchdb import (
    database_name,
    disconnect_division_followups,
    environment,
    exit_on_sigterm,
    prepare_database,
    release_database,
    setup_django,
)
from report import cpu, heading, load

REPO = Path(__file__).resolve().parent.parent

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/bgmatch_bench_tournaments"
SEED = 20240611
MATCH_LENGTH = 5
#: One scoresheet game ends each match: (result kind, cube) with at least MATCH_LENGTH points, drawn at random, so
#: that points-diff separates players as in a real event (6, 8, 8 or 12 points to 0).
WINNING_GAMES = ((3, 2), (2, 4), (1, 8), (3, 4))
TIEBREAKS = ("buchholz", "sonneborn-berger", "points-diff")
ELIMINATION = (
    ("single", {}),
    ("main-consolation", {}),
    ("progressive-consolation", {}),
    ("main-consolation-lastchance", {"last_chance_places": 8}),
    ("double-elimination", {}),
)
#: The settings of a deployment (DEBUG off), tasks run eagerly (no broker), quiet logging.
ENVIRONMENT = environment("tournaments")


@dataclass(frozen=True)
class Sizes:
    swiss: int  # items 1, 4 (large field) and 5
    swiss_small: int  # item 4: the statement count of a smaller field
    swiss_big: int  # item 2
    bracket: int  # item 3
    reps: int


FULL = Sizes(swiss=1024, swiss_small=128, swiss_big=10_000, bracket=512, reps=5)
QUICK = Sizes(swiss=128, swiss_small=32, swiss_big=2_048, bracket=64, reps=3)


# -- results ---------------------------------------------------------------------------------------------------------


@dataclass
class Measured:
    item: str
    what: str
    size: str
    times: list[float]  # seconds
    queries: int | None = None
    goal: float | None = None  # seconds
    note: str = ""
    load: float = 0.0
    error: str = ""

    @property
    def median(self) -> float:
        return statistics.median(self.times) if self.times else math.nan

    def verdict(self) -> str:
        if self.error:
            return "FAILS"
        if self.goal is None or not self.times:
            return ""
        return "met" if self.median < self.goal else "NOT met"


RESULTS: list[Measured] = []


def record(*args: Any, **kwargs: Any) -> Measured:
    """Keep a measurement (the arguments of :class:`Measured`) with the load average of now, and print it."""
    m = Measured(*args, **kwargs)
    if QUICK_SIZES:
        m.goal = None  # the goals are for the full sizes
    m.load = os.getloadavg()[0] if hasattr(os, "getloadavg") else 0.0
    RESULTS.append(m)
    if m.error:
        print(f"  {m.item} {m.what} [{m.size}]: {m.error}", flush=True)
    else:
        q = "" if m.queries is None else f", {m.queries} statements"
        print(
            f"  {m.item} {m.what} [{m.size}]: median {fmt(m.median)} (min {fmt(min(m.times))}, max "
            f"{fmt(max(m.times))}, n={len(m.times)}){q}{'  ' + m.note if m.note else ''}",
            flush=True,
        )
    return m


def fmt(seconds: float) -> str:
    if math.isnan(seconds):
        return "-"
    return f"{seconds * 1000:.1f} ms" if seconds < 1 else f"{seconds:.2f} s"


def print_table() -> None:
    heading("Summary")
    rows = [("item", "what", "size", "median", "min", "max", "n", "SQL", "goal", "", "load", "note")]
    for m in RESULTS:
        if m.error:
            timing: tuple[str, ...] = ("-", "-", "-", "-", "-")
        else:
            queries = "" if m.queries is None else str(m.queries)
            timing = (fmt(m.median), fmt(min(m.times)), fmt(max(m.times)), str(len(m.times)), queries)
        note = m.error[:60] if m.error else m.note
        rows.append((m.item, m.what, m.size, *timing, fmt_goal(m.goal), m.verdict(), f"{m.load:.1f}", note))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]) - 1)]
    for n, r in enumerate(rows):
        cells = [
            c.ljust(w) if i in (0, 1, 2, 9) else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths, strict=False))
        ]
        print("  " + "  ".join(cells) + "  " + r[-1])
        if n == 0:
            print("  " + "  ".join("-" * w for w in widths))


def fmt_goal(goal: float | None) -> str:
    return "" if goal is None else f"< {fmt(goal)}"


# -- timing and counting -------------------------------------------------------------------------------------------


def repeat(
    fn: Callable[[], Any], reps: int, *, rollback: bool = False, before: Callable[[], Any] | None = None
) -> list[float]:
    """Seconds per call, ``reps`` calls. ``rollback``: each call in a transaction rolled back afterwards.
    ``before`` runs before each call, outside the clock."""
    from django.db import transaction

    times = []
    for _ in range(reps):
        if before is not None:
            before()
        gc.collect()
        if rollback:
            with transaction.atomic():
                t0 = time.perf_counter()
                fn()
                times.append(time.perf_counter() - t0)
                transaction.set_rollback(True)
        else:
            t0 = time.perf_counter()
            fn()
            times.append(time.perf_counter() - t0)
    return times


#: Transaction control, left out of the counts: BEGIN and COMMIT of a committed call (Django logs them), and the
#: SAVEPOINTs that stand for them when a call runs inside the rolled-back transaction.
_CONTROL = re.compile(r"^\s*(BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE SAVEPOINT|ROLLBACK TO SAVEPOINT)\b", re.IGNORECASE)
_TABLE = re.compile(r'^\s*(SELECT\b.*?\bFROM|INSERT INTO|UPDATE|DELETE FROM)\s+"(\w+)"', re.IGNORECASE | re.DOTALL)


@dataclass
class Statements:
    sql: list[str] = field(default_factory=list)

    @property
    def count(self) -> int:
        return len(self.sql)

    def breakdown(self, top: int = 6) -> str:
        """The most frequent statement kinds: ``512x INSERT games_match``."""
        kinds: Counter[str] = Counter()
        for sql in self.sql:
            m = _TABLE.match(sql)
            kinds[f"{m.group(1).split()[0].upper()} {m.group(2)}" if m else sql.split()[0].upper()] += 1
        return ", ".join(f"{n}x {k}" for k, n in kinds.most_common(top))


@contextmanager
def counted() -> Iterator[Statements]:
    """The statements sent on the default connection, transaction control left out. CaptureQueriesContext keeps at most
    9,000 statements (Django's ``queries_log``); an execute wrapper counts them too, and is used past that."""
    from django.db import connection, reset_queries
    from django.test.utils import CaptureQueriesContext

    seen: list[str] = []

    def wrapper(execute: Callable[..., Any], sql: str, params: Any, many: bool, context: Any) -> Any:
        seen.append(sql)
        return execute(sql, params, many, context)

    out = Statements()
    reset_queries()
    with CaptureQueriesContext(connection) as captured, connection.execute_wrapper(wrapper):
        yield out
    logged = [q["sql"] for q in captured.captured_queries if not _CONTROL.match(q["sql"])]
    wrapped = [s for s in seen if not _CONTROL.match(s)]
    out.sql = logged if len(captured) < 9000 else wrapped


def count_once(fn: Callable[[], Any], *, rollback: bool = False, before: Callable[[], Any] | None = None) -> Statements:
    from django.db import transaction

    if before is not None:
        before()
    if not rollback:
        with counted() as stmts:
            fn()
        return stmts
    with transaction.atomic():
        with counted() as stmts:
            fn()
        transaction.set_rollback(True)
    return stmts


PROFILE = False
QUICK_SIZES = False


def profile_once(
    label: str, fn: Callable[[], Any], *, rollback: bool = False, before: Callable[[], Any] | None = None
) -> None:
    """With ``--profile``: one more call under cProfile, the 25 costliest functions by cumulative time."""
    if not PROFILE:
        return
    from django.db import transaction

    if before is not None:
        before()
    profiler = cProfile.Profile()
    with transaction.atomic():
        profiler.enable()
        fn()
        profiler.disable()
        if rollback:
            transaction.set_rollback(True)
    print(f"\n  -- cProfile of {label} --")
    stats = pstats.Stats(profiler, stream=sys.stdout)
    stats.sort_stats("cumulative").print_stats(25)


# -- pure Swiss fields -------------------------------------------------------------------------------------------


@dataclass
class SwissField:
    players: dict[int, Any]  # id -> SwissPlayer before the next round
    results: list[Any]  # tiebreakers.Result of every round played
    matches: list[Any]  # ratings.RatedMatch of every match played


def simulate_swiss(n: int, rounds: int, seed: int = SEED) -> SwissField:
    """``rounds`` rounds of ``pair_round`` with random winners (a coin toss) and points as in WINNING_GAMES."""
    from tournaments.pairing.swiss import SwissPlayer, pair_round
    from tournaments.ratings import RatedMatch
    from tournaments.standings.tiebreakers import Result

    rng = random.Random(seed)
    players = {i: SwissPlayer(id=i, rank=i) for i in range(1, n + 1)}
    results, matches = [], []
    for number in range(1, rounds + 1):
        for p in pair_round(players.values()).pairings:
            a = players[p.a]
            if p.b is None:
                players[p.a] = replace(a, score=a.score + 1, had_bye=True)
                results.append(Result(number, p.a, None, p.a))
                continue
            b = players[p.b]
            a_wins = rng.random() < 0.5
            kind, cube = rng.choice(WINNING_GAMES)
            points = kind * cube
            players[p.a] = replace(a, score=a.score + a_wins, opponents=a.opponents | {p.b})
            players[p.b] = replace(b, score=b.score + (not a_wins), opponents=b.opponents | {p.a})
            winner, loser = (p.a, p.b) if a_wins else (p.b, p.a)
            results.append(Result(number, p.a, p.b, winner, points if a_wins else 0, 0 if a_wins else points))
            matches.append(RatedMatch(len(matches) + 1, winner, loser, MATCH_LENGTH))
    return SwissField(players, results, matches)


@contextmanager
def recursion_limit(limit: int) -> Iterator[None]:
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, limit))
    try:
        yield
    finally:
        sys.setrecursionlimit(old)


# -- 1 and 2: Swiss pairing, pure -------------------------------------------------------------------------------


def pure_swiss(item: str, n: int, reps: int, goal: float, *, played: int = 5) -> None:
    from tournaments.pairing.swiss import NoPairingError, pair_round

    heading(f"{item}. pair_round: round {played + 1} of {n:,} players after {played} rounds of random results (pure)")
    raised = 2 * n + 1000  # an earlier search recursed once per board: n / 2 frames
    with recursion_limit(raised):
        t0 = time.perf_counter()
        try:
            swiss = simulate_swiss(n, played)
        except NoPairingError as exc:
            record(item, "pair_round", f"{n:,} players", [], goal=goal, error=f"while simulating: {exc}")
            return
        print(f"  {played} rounds simulated in {time.perf_counter() - t0:.1f} s", flush=True)
    players = list(swiss.players.values())
    try:
        t0 = time.perf_counter()
        result = pair_round(players)
    except NoPairingError as exc:
        took = time.perf_counter() - t0
        record(item, "pair_round", f"{n:,} players", [], goal=goal, error=f"after {took:.2f} s: {exc}")
        return
    except RecursionError as exc:
        took = time.perf_counter() - t0
        record(
            item,
            "pair_round, as it is",
            f"{n:,} players",
            [],
            goal=goal,
            error=f"RecursionError after {took:.1f} s ({exc}); limit {sys.getrecursionlimit()}",
        )
        times = []
        with recursion_limit(raised):
            times = repeat(lambda: pair_round(players), reps)
        record(
            item,
            "pair_round, recursion limit raised",
            f"{n:,} players",
            times,
            goal=goal,
            note=f"sys.setrecursionlimit({raised})",
        )
        return
    times = repeat(lambda: pair_round(players), reps)
    bye = " and a bye" if result.bye is not None else ""
    score = {p.id: p.score for p in players}
    floats = sum(1 for p in result.pairings if p.b is not None and score[p.a] != score[p.b])
    record(
        item,
        "pair_round",
        f"{n:,} players",
        times,
        goal=goal,
        note=f"{len(result.pairings) - (result.bye is not None)} boards{bye}, {floats} across score groups",
    )


# -- building divisions through the services ----------------------------------------------------------------------


@dataclass
class Bench:
    actor: Any
    rng: random.Random


def new_bench() -> Bench:
    from django.contrib.auth import get_user_model

    from common.actor import Actor

    user = get_user_model().objects.create_user("tournaments-bench", password=None)
    return Bench(Actor(user=user), random.Random(SEED))


def new_division(bench: Bench, fmt: str, players: int, *, rating_list: Any = None, **settings: Any) -> Any:
    """An event with one division and ``players`` entries. The players and entries are inserted in bulk (what
    ``register_player`` inserts, without a transaction each); everything after goes through the services."""
    from games.models import Player
    from tournaments import services
    from tournaments.models import Entry

    event = services.create_event(actor=bench.actor, name=f"Bench {fmt} {players}", rating_list=rating_list)
    division = services.create_division(
        event,
        actor=bench.actor,
        settings=services.DivisionSettings(name=f"{fmt} {players}", format=fmt, match_length=MATCH_LENGTH, **settings),
    )
    people = Player.objects.bulk_create(Player(display_name=f"Player {i:05d}") for i in range(1, players + 1))
    Entry.objects.bulk_create(
        Entry(division=division, player=p, rating=round(bench.rng.gauss(1500, 150))) for p in people
    )
    return division


def record_round(bench: Bench, division: Any, number: int) -> int:
    """A random result for every match of the round: one scoresheet game won by a coin toss, entered by the
    SYSTEM actor (a director's entry: no confirmation needed)."""
    from common.actor import SYSTEM
    from games import services as games
    from tournaments.models import Pairing

    pairings = Pairing.objects.filter(division=division, round__number=number, match__isnull=False)
    done = 0
    for match_id in pairings.values_list("match_id", flat=True).order_by("board"):
        kind, cube = bench.rng.choice(WINNING_GAMES)
        winner = int(bench.rng.random() < 0.5)
        games.record_game_result(match_id, actor=SYSTEM, winner=winner, kind=kind, cube_value=cube, expected_seq=0)
        done += 1
    return done


@dataclass
class Build:
    """Times of building a Swiss division round by round (seconds)."""

    start: float = 0.0
    recorded: int = 0  # rounds whose results are recorded and synced
    verbose: bool = False  # a line per round (long builds)
    results: list[float] = field(default_factory=list)
    syncs: list[tuple[float, int]] = field(default_factory=list)  # (seconds, statements) per round's results
    pairs: list[tuple[int, float]] = field(default_factory=list)  # (round paired, seconds), committed

    def show(self, n: int) -> None:
        per_round = ", ".join(f"{t:.1f}" for t in self.results)
        print(f"  built {n:,} players: start_division {self.start:.1f} s; results per round (s) {per_round}")
        if self.syncs:
            syncs = ", ".join(f"{t:.2f} s/{q}" for t, q in self.syncs)
            print(f"  sync_division after each round's results (time/statements): {syncs}")
        if self.pairs:
            pairs = ", ".join(f"r{r} {t:.2f} s" for r, t in self.pairs)
            print(f"  pair_next_round while building (committed): {pairs}", flush=True)


def play_rounds(bench: Bench, division: Any, build: Build, upto: int) -> None:
    """Record the results of the last round paired and sync, then pair the next round, and so on until ``upto``
    rounds are played (results recorded and synced) and the next one is not paired yet."""
    from tournaments import services

    while True:
        paired = division.rounds.count()
        if build.recorded < paired:
            t0 = time.perf_counter()
            record_round(bench, division, paired)
            build.results.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            with counted() as stmts:
                services.sync_division(division.pk)
            build.syncs.append((time.perf_counter() - t0, stmts.count))
            build.recorded = paired
            if build.verbose:
                print(
                    f"  round {paired}: results {build.results[-1]:.1f} s, sync {build.syncs[-1][0]:.1f} s", flush=True
                )
        if paired >= upto:
            return
        t0 = time.perf_counter()
        services.pair_next_round(division, actor=bench.actor)
        build.pairs.append((paired + 1, time.perf_counter() - t0))


def start_swiss(bench: Bench, n: int, rounds: int, *, rating_list: Any = None) -> tuple[Any, Build]:
    from tournaments import services

    division = new_division(
        bench, "swiss", n, rating_list=rating_list, rounds_planned=rounds, tiebreaks=list(TIEBREAKS)
    )
    build = Build()
    t0 = time.perf_counter()
    services.start_division(division, actor=bench.actor)
    build.start = time.perf_counter() - t0
    return division, build


# -- 1. Swiss pairing through the service ---------------------------------------------------------------------------


def service_pair(item: str, bench: Bench, division: Any, n: int, reps: int, goal: float) -> Measured:
    from tournaments import services

    division.refresh_from_db()
    number = division.rounds.count() + 1

    def call() -> None:
        services.pair_next_round(division, actor=bench.actor)

    times = repeat(call, reps, rollback=True)
    stmts = count_once(call, rollback=True)
    profile_once(f"pair_next_round ({n:,} players)", call, rollback=True)
    m = record(
        item, f"pair_next_round (round {number})", f"{n:,} players", times, stmts.count, goal, note="rolled back"
    )
    print(f"    statements: {stmts.breakdown()}")
    return m


def service_noop_sync(item: str, division: Any, n: int, reps: int) -> None:
    """What every result's follow-up task pays before doing anything: a sync with nothing to change."""
    from tournaments import services

    done = division.rounds.count()
    times = repeat(lambda: services.sync_division(division.pk), reps)
    stmts = count_once(lambda: services.sync_division(division.pk))
    record(item, f"sync_division, nothing to do ({done} rounds)", f"{n:,} players", times, stmts.count, note="context")


def service_result_sync(item: str, bench: Bench, division: Any, n: int, reps: int) -> None:
    """What one result's follow-up task pays to take it: the next round is paired (every one of its boards open),
    one result is recorded, and ``sync_division`` is timed. All of it is rolled back; only the sync is timed."""
    from django.db import transaction

    from common.actor import SYSTEM
    from games import services as games
    from tournaments import services
    from tournaments.models import Pairing

    division.refresh_from_db()
    times: list[float] = []
    taken: list[list[str]] = []
    with transaction.atomic():
        services.pair_next_round(division, actor=bench.actor)
        number = division.rounds.count()
        boards = Pairing.objects.filter(division=division, round__number=number, match__isnull=False)
        matches = list(boards.order_by("board").values_list("match_id", flat=True)[: reps + 1])
        open_boards = boards.count()
        for rep, match_id in enumerate(matches):
            with transaction.atomic():
                games.record_game_result(match_id, actor=SYSTEM, winner=0, kind=3, cube_value=2, expected_seq=0)
                gc.collect()
                if rep < reps:
                    t0 = time.perf_counter()
                    report = services.sync_division(division.pk)
                    times.append(time.perf_counter() - t0)
                else:
                    with counted() as stmts:
                        report = services.sync_division(division.pk)
                taken.append(report.results)
                transaction.set_rollback(True)
        transaction.set_rollback(True)
    assert all(len(results) == 1 for results in taken), taken
    record(
        item,
        f"sync_division taking one result (round {number})",
        f"{n:,} players",
        times,
        stmts.count,
        note=f"rolled back; {open_boards} boards open",
    )
    print(f"    statements: {stmts.breakdown()}")


# -- 3. brackets -----------------------------------------------------------------------------------------------------


def plan_caches() -> list[Any]:
    """The memo caches (``functools.lru_cache``/``cache``) of the bracket and draw modules, if any."""
    from tournaments import core
    from tournaments.pairing import brackets, elimination

    return [f for m in (brackets, elimination, core) for f in vars(m).values() if hasattr(f, "cache_clear")]


def clear_plan_caches() -> None:
    """A plan is computed once per process and then cached (when the code caches it): clearing the caches times
    what a worker pays the first time it meets a division."""
    for f in plan_caches():
        f.cache_clear()


def pure_brackets(n: int, reps: int, goal: float) -> None:
    from tournaments.pairing.brackets import plan_bracket

    heading(f"3. plan_bracket: every match of a {n}-player draw, each format (pure)")
    caches = plan_caches()
    if caches:
        names = ", ".join(f"{f.__module__}.{f.__qualname__}" for f in caches)
        print(f"  cached by {names}: cleared before each timed call, and timed once more from the cache")
    for fmt, options in ELIMINATION:
        clear_plan_caches()
        plan = plan_bracket(n, fmt, **options)  # untimed first call
        call = lambda fmt=fmt, options=options: plan_bracket(n, fmt, **options)  # noqa: E731
        times = repeat(call, reps, before=clear_plan_caches)
        extra = ", 8 last-chance places" if options else ""
        note = f"{len(plan.nodes)} matches{extra}"
        if caches:
            warm = repeat(call, reps)
            note += f"; from the cache {fmt_us(statistics.median(warm))}"
        record("3", f"plan_bracket {fmt}", f"{n} players", times, goal=goal, note=note)


def fmt_us(seconds: float) -> str:
    return f"{seconds * 1e6:.0f} us" if seconds < 1e-3 else fmt(seconds)


def service_start(
    bench: Bench, fmt: str, n: int, reps: int, goal: float | None, *, item: str = "3", **settings: Any
) -> None:
    from tournaments import services
    from tournaments.models import Pairing, Round

    division = new_division(bench, fmt, n, **settings)
    written: dict[str, int] = {}

    def call() -> None:
        services.start_division(division, actor=bench.actor)

    def call_and_count_rows() -> None:
        call()
        written["rounds"] = Round.objects.filter(division=division).count()
        written["pairings"] = Pairing.objects.filter(division=division).count()
        written["matches"] = Pairing.objects.filter(division=division, match__isnull=False).count()

    times = repeat(call, reps, rollback=True, before=clear_plan_caches)
    stmts = count_once(call, rollback=True, before=clear_plan_caches)
    from django.db import transaction

    with transaction.atomic():
        call_and_count_rows()
        transaction.set_rollback(True)
    profile_once(f"start_division ({fmt}, {n} entries)", call, rollback=True, before=clear_plan_caches)
    kinds = Counter(s.split()[0].upper() for s in stmts.sql)
    rows = (
        f"{written['rounds']} rounds, {written['pairings']} pairings, {written['matches']} matches inserted; "
        f"{n} seeds set"
    )
    cold = "; plan caches cleared before each call" if plan_caches() else ""
    what = f"start_division {fmt}" + (" (double)" if settings.get("double_round_robin") else "")
    record(item, what, f"{n} entries", times, stmts.count, goal, note=f"rolled back; {rows}{cold}")
    print(f"    statements by kind: {dict(kinds)}; most frequent: {stmts.breakdown()}")


# -- 4. standings ----------------------------------------------------------------------------------------------------


def pure_standings(n: int, reps: int, goal: float) -> None:
    from tournaments.standings.tiebreakers import Tiebreak, standings

    heading(f"4. standings(): {n:,} players after 9 rounds, tie-breaks {', '.join(TIEBREAKS)} (pure)")
    with recursion_limit(2 * n + 1000):
        swiss = simulate_swiss(n, 9)
    order = [Tiebreak(code) for code in TIEBREAKS]
    players = sorted(swiss.players)
    times = repeat(lambda: standings(swiss.results, order, players), reps)
    record("4", "standings(), final table", f"{n:,} players", times, goal=goal, note=f"{len(swiss.results)} results")

    def every_round() -> None:
        for after in range(1, 10):
            standings([r for r in swiss.results if r.round <= after], order, players)

    times = repeat(every_round, reps)
    record("4", "standings(), the 9 tables", f"{n:,} players", times, note="what the service computes")


def service_standings(division: Any, n: int, reps: int, goal: float | None) -> Measured:
    """``recompute_standings`` in its three cases, committed: every table to write (none stored), the last table to
    write (a result of the current round: the stored last table is deleted before each call, outside the clock),
    and nothing to write. It computes every table in all three."""
    from tournaments import services
    from tournaments.models import Standing

    stored = Standing.objects.filter(division=division)
    rounds = division.rounds.count()

    def none_stored() -> None:
        stored.delete()

    def last_stale() -> None:
        stored.filter(after_round=rounds).delete()

    call = lambda: services.recompute_standings(division.pk)  # noqa: E731
    rows = call()
    m = None
    for label, before, goal_here in (
        ("every table written", none_stored, goal),
        ("the last table written", last_stale, goal),
        ("nothing written", None, None),
    ):
        times = repeat(call, reps, before=before)
        stmts = count_once(call, before=before)
        written = f"{rows:,} rows computed"
        what = f"recompute_standings ({rounds} tables), {label}"
        measured = record("4", what, f"{n:,} players", times, stmts.count, goal_here, note=written)
        m = m or measured
        print(f"    statements: {stmts.breakdown()}")
    profile_once(f"recompute_standings ({n:,} players, every table)", call, before=none_stored)
    assert m is not None
    return m


# -- 5. ratings ------------------------------------------------------------------------------------------------------


def pure_ratings(n: int, reps: int) -> None:
    from tournaments.ratings import rate

    heading(f"5. rate(): the matches of 4 rounds of a {n:,}-player Swiss (pure)")
    with recursion_limit(2 * n + 1000):
        swiss = simulate_swiss(n, 4)
    times = repeat(lambda: rate(swiss.matches), reps)
    record("5", "rate()", f"{len(swiss.matches):,} matches", times, note=f"{n:,} players")


def service_ratings(rating_list: Any, reps: int) -> None:
    from tournaments import services

    rated = services.recompute_ratings(rating_list.pk)
    times = repeat(lambda: services.recompute_ratings(rating_list.pk), reps)
    stmts = count_once(lambda: services.recompute_ratings(rating_list.pk))
    profile_once("recompute_ratings", lambda: services.recompute_ratings(rating_list.pk))
    record("5", "recompute_ratings", f"{rated:,} matches", times, stmts.count, note=f"{rated * 2:,} history rows")
    print(f"    statements: {stmts.breakdown()}")


# -- the Swiss divisions: items 1, 4 and 5 through the services ------------------------------------------------------


def swiss_services(bench: Bench, sizes: Sizes) -> None:
    from tournaments import services

    reps = sizes.reps
    n, small = sizes.swiss, sizes.swiss_small
    heading(f"1, 4. Swiss divisions of {small:,} players through the services (9 rounds)")
    division, build = start_swiss(bench, small, 9)
    play_rounds(bench, division, build, 5)
    service_pair("1", bench, division, small, reps, 1.0)
    play_rounds(bench, division, build, 9)
    build.show(small)
    service_standings(division, small, reps, 1.0)

    heading(f"1, 4, 5. A Swiss division of {n:,} players through the services (9 rounds; rating list on the event)")
    rating_list = services.create_rating_list(actor=bench.actor, name="Bench list")
    division, build = start_swiss(bench, n, 9, rating_list=rating_list)
    play_rounds(bench, division, build, 4)
    service_ratings(rating_list, reps)
    play_rounds(bench, division, build, 5)
    build.show(n)
    service_pair("1", bench, division, n, reps, 1.0)
    service_noop_sync("1", division, n, reps)
    service_result_sync("1", bench, division, n, reps)
    play_rounds(bench, division, build, 9)
    build.show(n)
    service_standings(division, n, reps, 1.0)
    service_noop_sync("4", division, n, reps)


def swiss_service_big(bench: Bench, n: int, reps: int) -> None:
    from django.db import transaction

    from tournaments import services

    heading(f"2. A Swiss division of {n:,} players through the services")
    division = new_division(bench, "swiss", n, rounds_planned=6, tiebreaks=list(TIEBREAKS))
    t0 = time.perf_counter()
    try:
        with transaction.atomic():
            services.start_division(division, actor=bench.actor)
            took = time.perf_counter() - t0
            transaction.set_rollback(True)
        record("2", "start_division (pairs round 1)", f"{n:,} players", [took], note="rolled back; once")
    except RecursionError:
        record(
            "2",
            "start_division (pairs round 1)",
            f"{n:,} players",
            [],
            goal=10.0,
            error=f"RecursionError after {time.perf_counter() - t0:.1f} s: every pairing of this field fails",
        )
    print(f"  from here on the recursion limit is raised to {2 * n + 1000}", flush=True)
    with recursion_limit(2 * n + 1000):
        division.refresh_from_db()
        build = Build(verbose=True)
        t0 = time.perf_counter()
        services.start_division(division, actor=bench.actor)
        build.start = time.perf_counter() - t0
        print(f"  start_division {build.start:.1f} s", flush=True)
        play_rounds(bench, division, build, 5)
        build.show(n)
        service_pair("2", bench, division, n, reps, 10.0)
        service_noop_sync("2", division, n, reps)
        service_result_sync("2", bench, division, n, reps)


# -- report ------------------------------------------------------------------------------------------------------


def machine() -> str:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SHOW server_version")
        server = cursor.fetchone()[0]
    return (
        f"{cpu()}; Python {platform.python_version()}, {platform.system()} {platform.machine()}; "
        f"PostgreSQL {server}; Django {metadata.version('Django')}, psycopg {metadata.version('psycopg')}"
    )


#: Pure: swiss, swiss-big, brackets, standings, ratings. Services: start (item 3), divisions (items 1, 4, 5).
def code_version() -> str:
    """The commit, and a digest of the working tree's tournaments/ and games/ Python files (they change often)."""
    import hashlib
    import subprocess

    try:
        head = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True, text=True, check=True
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        head = "unknown"
    digest = hashlib.sha1()
    files = sorted(p for d in ("tournaments", "games") for p in (REPO / d).rglob("*.py") if "migrations" not in p.parts)
    for path in files:
        digest.update(str(path.relative_to(REPO)).encode())
        digest.update(path.read_bytes())
    newest = max(p.stat().st_mtime for p in files)
    changed = time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(newest))
    return f"commit {head}; tournaments/ and games/ digest {digest.hexdigest()[:12]} (newest file {changed} UTC)"


PHASES = ("swiss", "swiss-big", "swiss-long", "brackets", "standings", "ratings", "start", "round-robin", "divisions")


def main(argv: Sequence[str] | None = None) -> int:
    global PROFILE, QUICK_SIZES
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--database-url",
        default=os.environ.get("DATABASE_URL") or DEFAULT_DATABASE_URL,
        help="a PostgreSQL database (made and dropped; default: DATABASE_URL)",
    )
    parser.add_argument("--quick", action="store_true", help="small sizes, 3 repetitions (under a minute)")
    parser.add_argument("--reps", type=int, help="repetitions of each measurement (default 5, quick 3)")
    parser.add_argument(
        "--service-10k",
        action="store_true",
        help="also build the 10,000-player Swiss through the services (3 to 5 minutes)",
    )
    parser.add_argument("--skip", default="", help=f"comma-separated phases to skip: {','.join(PHASES)}")
    parser.add_argument("--profile", action="store_true", help="print a cProfile of one call of each service")
    parser.add_argument("--keep-db", action="store_true", help="leave the database and its rows in place")
    args = parser.parse_args(argv)
    sizes = QUICK if args.quick else FULL
    if args.reps:
        sizes = replace(sizes, reps=args.reps)
    skip = {s.strip() for s in args.skip.split(",") if s.strip()}
    if skip - set(PHASES):
        parser.error(f"unknown phases {sorted(skip - set(PHASES))}; choose among {', '.join(PHASES)}")
    PROFILE, QUICK_SIZES = args.profile, args.quick
    exit_on_sigterm()
    started = time.perf_counter()
    created = prepare_database(args.database_url, reuse_empty=True)
    try:
        setup_django(args.database_url, ENVIRONMENT)

        # Building the fields records thousands of results; none of the timed calls sends these signals.
        disconnect_division_followups()
        print(f"machine: {machine()}")
        print(f"code: {code_version()}")
        print(
            f"database {database_name(args.database_url)}: migrated ({load()}); "
            f"{'quick' if args.quick else 'full'} sizes, {sizes.reps} repetitions"
        )
        if "swiss" not in skip:
            pure_swiss("1", sizes.swiss, sizes.reps, 1.0)
        if "swiss-big" not in skip:
            pure_swiss("2", sizes.swiss_big, sizes.reps, 10.0)
        if "swiss-long" not in skip:
            pure_swiss("1b", 40, sizes.reps, 1.0, played=17)
        if "brackets" not in skip:
            pure_brackets(sizes.bracket, sizes.reps, 0.5)
        if "standings" not in skip:
            pure_standings(sizes.swiss, sizes.reps, 1.0)
        if "ratings" not in skip:
            pure_ratings(sizes.swiss, sizes.reps)
        bench = new_bench()
        if "start" not in skip:
            heading(f"3. start_division of {sizes.bracket}-entry elimination divisions through the service")
            service_start(bench, "main-consolation", sizes.bracket, sizes.reps, 0.5)
            service_start(bench, "double-elimination", sizes.bracket, sizes.reps, None)
        if "round-robin" not in skip:
            heading("6. start_division of round robins through the service: every round and match drawn at once")
            reps = max(1, min(sizes.reps, 3))
            for n, double, goal in ((200, False, 2.0), (500, False, 5.0), (321, True, None), (350, True, None)):
                if QUICK_SIZES:
                    n //= 5
                service_start(bench, "round-robin", n, reps, goal, item="6", double_round_robin=double)
        if "divisions" not in skip:
            swiss_services(bench, sizes)
        if args.service_10k:
            swiss_service_big(bench, sizes.swiss_big, max(1, min(sizes.reps, 3)))
        print_table()
        print(f"\ndone in {time.perf_counter() - started:.0f} s ({load()})")
    finally:
        release_database(args.database_url, created, keep=args.keep_db)
    return 0


if __name__ == "__main__":
    sys.exit(main())
