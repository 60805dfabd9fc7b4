"""Recording actions on PostgreSQL: the service layer, the HTTP API, 16 concurrent clients, import (bench/README.md).

Usage: python bench/games_bench.py [--database-url URL] [--corpus DIR] [--matches N] ... (see --help)

The script makes a throwaway PostgreSQL database (``--database-url``, default ``bgmatch_bench`` on the local
server), migrates it, and drops it at the end, also after an error, Ctrl-C or SIGTERM. It refuses a database
that already exists.

1. Service layer: ``--matches`` seeded 7-point matches played through ``games.services`` in process (seeded dice,
   a seeded choice among the legal plays, some doubles taken or dropped). Each call is timed, and its SQL
   statements, their time and the COMMIT's are recorded. Then one long match (``--long-length`` points, no
   doubles, so that it lasts many games): statements and time of its first and last 100 actions.
2. API in process (DRF's ``APIClient``, no server): one match, for the statements of each request.
3. HTTP API: gunicorn (``--workers`` sync workers) serving the project's WSGI application plus one bench-only
   route, ``POST /bench/bare/``: a bare DRF ``APIView`` with the action endpoint's authentication and permission
   classes that inserts one ``Player`` row. The benchmark wraps that application to count each request's SQL
   statements and to time it inside the server, and sends both back in response headers. One client
   (``http.client``, the DRF token of a staff user) plays the same seeded matches as step 1 through
   ``POST /api/matches/{id}/actions/``, each action followed by one bare request: median and p95 of each, and
   the ratio of their medians.
4. ``--clients`` concurrent clients (threads), each playing its own matches for ``--seconds``; then the same
   clients on the bare endpoint for ``--bare-seconds``. Afterwards every match played over HTTP is checked: its
   log's sequence numbers are 1..seq with no gap or repeat and exactly the ones the clients were answered, and
   ``services.rebuild_match`` (in a transaction rolled back) replays the log to the cached state and game rows.
5. ``manage.py import_matches`` over the corpus, in process: files, log rows and plays per second.
"""

from __future__ import annotations

import argparse
import cProfile
import http.client
import json
import os
import platform
import pstats
import random
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any

from benchdb import (
    database_name,
    environment,
    exit_on_sigterm,
    prepare_database,
    quiet_static_warning,
    release_database,
    setup_django,
)
from report import cpu, heading, load

REPO = Path(__file__).resolve().parent.parent
BENCH_DIR = Path(__file__).resolve().parent
DEFAULT_CORPUS = REPO.parent / "shared" / "corpus" / "mat"
DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/bgmatch_bench"
BARE_PATH = "/bench/bare/"
SEED = 20240611
DOUBLE_P = 0.08  # chance of doubling when the cube may be turned
TAKE_P = 0.75  # chance of taking a double
KINDS = ("opening-roll", "roll", "play", "double", "take", "drop")
CLOSED = ("finished", "forfeited", "void")
#: The benchmark's and the server's settings: a deployment's (DEBUG off, persistent database connections as in
#: docker-compose.yml), tasks run eagerly, quiet logging. One staff account plays every match here, far faster than
#: a person: its API limit (API_RATE_USER, per account) is raised so that the run measures the API, not the throttle.
SERVER_ENV = environment(
    "games", DJANGO_SETTINGS_MODULE="config.settings", CONN_MAX_AGE="60", API_RATE_USER="1000000/min"
)
#: Response headers the bench server adds: SQL statements, nanoseconds in the application, in the database.
QUERIES_HEADER, APP_HEADER, DB_HEADER = "X-Bench-Queries", "X-Bench-App-Ns", "X-Bench-Db-Ns"


# -- statistics ----------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Summary:
    """Milliseconds."""

    n: int
    median: float
    p95: float
    mean: float

    @classmethod
    def of(cls, ns: Iterable[int]) -> Summary:
        ms = [t / 1e6 for t in ns]
        if len(ms) < 2:
            value = ms[0] if ms else float("nan")
            return cls(len(ms), value, value, value)
        p95 = statistics.quantiles(ms, n=20, method="inclusive")[18]
        return cls(len(ms), statistics.median(ms), p95, statistics.fmean(ms))


HEADER = f"  {'':<30} {'n':>6} {'median':>8} {'p95':>8} {'mean':>8}   SQL statements per call"


def row(label: str, s: Summary, queries: str = "") -> str:
    return f"  {label:<30} {s.n:>6} {s.median:>8.2f} {s.p95:>8.2f} {s.mean:>8.2f}   {queries}"


def query_counts(counts: Sequence[int]) -> str:
    """``3`` when constant, else ``3-4 (3: 892x, 4: 16x)``."""
    if not counts:
        return ""
    seen = Counter(counts)
    if len(seen) == 1:
        return str(counts[0])
    detail = ", ".join(f"{k}: {v}x" for k, v in sorted(seen.items()))
    return f"{min(seen)}-{max(seen)} ({detail})"


# -- the players' choices (the same through the services and the API) ---------------------------------------------


@dataclass(frozen=True, slots=True)
class Choice:
    kind: str  # one of KINDS
    side: int | None = None
    dice: tuple[int, int] | None = None
    play: str | None = None

    def body(self, expected_seq: int) -> dict[str, Any]:
        body: dict[str, Any] = {"kind": self.kind, "expected_seq": expected_seq}
        if self.side is not None:
            body["side"] = self.side
        if self.dice is not None:
            body["dice"] = list(self.dice)
        if self.play is not None:
            body["play"] = self.play
        return body


def choose(
    rng: random.Random, kinds: Sequence[str], to_act: int | None, plays: Sequence[str], double_p: float = DOUBLE_P
) -> Choice:
    """The next action from what the match allows (the live state's ``legal_actions``, ``to_act``, ``legal_plays``).
    The same seed and the same match give the same actions through the services and through the API."""
    if "opening-roll" in kinds:
        while True:
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            if dice[0] != dice[1]:
                return Choice("opening-roll", dice=dice)
    assert to_act is not None, kinds
    if "take" in kinds:
        return Choice("take" if rng.random() < TAKE_P else "drop", to_act)
    if "double" in kinds and rng.random() < double_p:
        return Choice("double", to_act)
    if "roll" in kinds:
        return Choice("roll", to_act, dice=(rng.randint(1, 6), rng.randint(1, 6)))
    if "play" in kinds:
        return Choice("play", to_act, play=rng.choice(plays) if plays else "")
    raise RuntimeError(f"no action to choose among {list(kinds)}")


def engine_options(state: Any) -> tuple[list[str], int | None, list[str]]:
    """What :func:`choose` needs, from an engine ``MatchState``, worded as ``selectors.live_state`` words it."""
    from engine.game import Phase

    if state.is_over:
        return [], None, []
    game = state.game
    kinds = ["play" if k == "move" else k for k in game.legal_action_kinds()]
    plays = [str(p) for p in game.legal_plays()] if game.phase is Phase.MOVE else []
    return kinds, (game.actor if game.phase is not Phase.OPENING else None), plays


# -- database, Django and the bench server's hooks ------------------------------------------------------------------


def install_bare_route() -> None:
    """Add ``POST /bench/bare/`` to the project's URLconf: a bare DRF view that inserts one row.

    Its authentication is the project's default, as for the action endpoint, and so is its permission class. It
    runs in autocommit (one INSERT, committed by itself) and answers a small JSON body.
    """
    from django.urls import clear_url_caches, path
    from rest_framework import status
    from rest_framework.request import Request
    from rest_framework.response import Response
    from rest_framework.views import APIView

    import config.urls
    from common.api.auth import IsAuthenticatedOrEntryToken
    from games.models import Player

    class BareInsert(APIView):
        permission_classes = (IsAuthenticatedOrEntryToken,)

        def post(self, request: Request) -> Response:
            player = Player.objects.create(display_name="bare insert")
            return Response({"id": player.pk}, status=status.HTTP_201_CREATED)

    if not any(getattr(p, "name", None) == "bench-bare" for p in config.urls.urlpatterns):
        config.urls.urlpatterns.insert(0, path(BARE_PATH.lstrip("/"), BareInsert.as_view(), name="bench-bare"))
        clear_url_caches()


@dataclass(slots=True)
class Sample:
    """What one call sent to the database: its statements, their time, the COMMIT's time (nanoseconds)."""

    sql: list[str] = field(default_factory=list)
    sql_ns: int = 0
    commit_ns: int = 0


class QueryCounter:
    """A ``connection.execute_wrapper`` that keeps each statement and its time. BEGIN goes out with the first
    statement (psycopg) and is in its time; Django's per-request connection health check (``SELECT 1``, sent by
    psycopg directly) is not counted."""

    def __init__(self) -> None:
        self.sample = Sample()

    def __call__(self, execute: Callable[..., Any], sql: str, params: Any, many: bool, context: Any) -> Any:
        t0 = time.perf_counter_ns()
        try:
            return execute(sql, params, many, context)
        finally:
            self.sample.sql_ns += time.perf_counter_ns() - t0
            self.sample.sql.append(sql)

    def take(self) -> Sample:
        taken, self.sample = self.sample, Sample()
        return taken


@contextmanager
def counting_queries() -> Iterator[QueryCounter]:
    """Count and time this thread's statements and COMMITs on the default connection."""
    from django.db import connections

    conn = connections["default"]
    counter = QueryCounter()
    commit = conn.commit

    def timed_commit() -> None:
        t0 = time.perf_counter_ns()
        try:
            commit()
        finally:
            counter.sample.commit_ns += time.perf_counter_ns() - t0

    conn.commit = timed_commit  # type: ignore[method-assign]
    try:
        with conn.execute_wrapper(counter):
            yield counter
    finally:
        del conn.commit  # back to the class's method


def bench_wsgi() -> Any:
    """gunicorn's application factory (``games_bench:bench_wsgi()``): the project's WSGI application with the bare
    route, wrapped to send back each request's statements, time in the application and time in the database
    (statements and COMMIT) as response headers. The settings come from the environment the benchmark sets."""
    import django

    quiet_static_warning()
    django.setup()
    install_bare_route()
    from django.core.wsgi import get_wsgi_application

    inner = get_wsgi_application()

    def application(environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        t0 = time.perf_counter_ns()
        with counting_queries() as counter:

            def start(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
                app_ns = time.perf_counter_ns() - t0
                s = counter.sample
                headers = [
                    *headers,
                    (QUERIES_HEADER, str(len(s.sql))),
                    (APP_HEADER, str(app_ns)),
                    (DB_HEADER, str(s.sql_ns + s.commit_ns)),
                ]
                return start_response(status, headers, exc_info)

            return inner(environ, start)

    return application


def statement(sql: str) -> str:
    """``SELECT ... FOR UPDATE games_match``: what a statement does, for the report."""
    words = sql.split()
    upper = [w.upper() for w in words]
    table = ""
    for key in ("FROM", "INTO", "UPDATE"):
        if key in upper and upper.index(key) + 1 < len(words):
            table = words[upper.index(key) + 1].strip('"')
            break
    lock = " ... FOR UPDATE" if "FOR UPDATE" in sql.upper() else ""
    return f"{upper[0]}{lock} {table}".strip()


# -- 1. the service layer ----------------------------------------------------------------------------------------


@dataclass(slots=True)
class Timed:
    """One timed call (nanoseconds): its kind, SQL statements (None: not counted), its place in the match, and
    the database's part; over HTTP, the server's time in the application."""

    kind: str
    ns: int
    queries: int | None = None
    index: int = 0
    db_ns: int = 0
    app_ns: int | None = None


def record(match_id: int, choice: Choice, actor: Any, seq: int) -> Any:
    from games import services

    kind, side = choice.kind, choice.side
    if kind == "opening-roll":
        assert choice.dice is not None
        return services.record_opening_roll(match_id, actor=actor, dice=choice.dice, expected_seq=seq)
    assert side is not None
    if kind == "roll":
        assert choice.dice is not None
        return services.record_roll(match_id, actor=actor, side=side, dice=choice.dice, expected_seq=seq)
    if kind == "play":
        assert choice.play is not None
        return services.record_play(match_id, actor=actor, side=side, play=choice.play, expected_seq=seq)
    cube = {"double": services.offer_double, "take": services.take, "drop": services.drop}
    return cube[kind](match_id, actor=actor, side=side, expected_seq=seq)


def service_match(
    match_id: int,
    seed: int,
    actor: Any,
    counter: QueryCounter | None,
    sql_seen: dict[str, list[str]] | None = None,
    double_p: float = DOUBLE_P,
) -> list[Timed]:
    """Play a match to its end through the services; time every call (and count its statements)."""
    from games.engine_bridge import load_state
    from games.models import Match

    rng = random.Random(seed)
    match = Match.objects.get(pk=match_id)
    state, seq = load_state(match), match.seq
    clock = time.perf_counter_ns
    out: list[Timed] = []
    while True:
        kinds, to_act, plays = engine_options(state)
        if not kinds:
            return out
        choice = choose(rng, kinds, to_act, plays, double_p)
        if counter is not None:
            counter.take()
        t0 = clock()
        recorded = record(match_id, choice, actor, seq)
        ns = clock() - t0
        timed = Timed(choice.kind, ns, index=len(out))
        if counter is not None:
            sample = counter.take()
            timed.queries, timed.db_ns = len(sample.sql), sample.sql_ns + sample.commit_ns
            if sql_seen is not None:
                sql_seen.setdefault(f"{choice.kind} ({len(sample.sql)})", [statement(s) for s in sample.sql])
        out.append(timed)
        state, seq = recorded.state, recorded.match.seq


def by_kind(timed: Iterable[Timed]) -> list[tuple[str, list[Timed]]]:
    groups: dict[str, list[Timed]] = defaultdict(list)
    for t in timed:
        groups[t.kind].append(t)
    return sorted(groups.items(), key=lambda item: KINDS.index(item[0]) if item[0] in KINDS else len(KINDS))


def statements_of(items: Iterable[Timed]) -> str:
    return query_counts([t.queries for t in items if t.queries is not None])


def report_by_kind(title: str, timed: Sequence[Timed], bare: Sequence[Timed] = ()) -> None:
    print(f"\n{title}, milliseconds")
    print(HEADER)
    for kind, items in by_kind(timed):
        print(row(kind, Summary.of(t.ns for t in items), statements_of(items)))
    print(row("all actions", Summary.of(t.ns for t in timed), statements_of(timed)))
    if bare:
        print(row("bare insert", Summary.of(t.ns for t in bare), statements_of(bare)))


def report_server_side(timed: Sequence[Timed], bare: Sequence[Timed]) -> None:
    """The server's own view: time in the application (WSGI call to response start) and in the database."""
    print("  inside the server (application: from the WSGI call to the response's start; database: statements")
    print("  and COMMIT, not the connection health check), milliseconds:")
    for label, items in (("actions", timed), ("bare insert", bare)):
        if not items:
            continue
        app = Summary.of(t.app_ns or 0 for t in items)
        db = Summary.of(t.db_ns for t in items)
        print(
            f"    {label:<12} application median {app.median:.2f}, p95 {app.p95:.2f}, mean {app.mean:.2f}; "
            f"database mean {db.mean:.2f}; client-side mean {Summary.of(t.ns for t in items).mean:.2f}"
        )


def phase_services(args: argparse.Namespace, users: Users) -> None:
    from common.actor import Actor

    actor = Actor(user=users.user)  # staff, as over HTTP (may act for both sides)
    heading(f"1. Service layer: {args.matches} seeded {args.length}-point matches, in process")
    service_match(new_match(users, 1).pk, SEED - 1, actor, None)  # warm-up, not timed
    timed: list[Timed] = []
    sql_seen: dict[str, list[str]] = {}
    t0 = time.perf_counter()
    with counting_queries() as counter:
        for i in range(args.matches):
            timed += service_match(new_match(users, args.length).pk, SEED + i, actor, counter, sql_seen)
    wall = time.perf_counter() - t0
    print(f"  {len(timed)} actions in {wall:.1f} s ({len(timed) / wall:.0f} actions/s, one process, one connection)")
    report_by_kind("Service calls (each one transaction), by kind", timed)
    total = statistics.fmean(t.ns for t in timed) / 1e6
    db = statistics.fmean(t.db_ns for t in timed) / 1e6
    print(
        f"  mean per call {total:.2f} ms: database {db:.2f} ms (statements, with BEGIN, and COMMIT), "
        f"Python {total - db:.2f} ms (ORM, engine, services)"
    )
    print("\n  SQL statements per call, by kind (first seen):")
    for label, sql in sorted(sql_seen.items()):
        print(f"    {label:<18} {', '.join(sql)}")

    long = new_match(users, args.long_length)
    with counting_queries() as counter:
        long_timed = service_match(long.pk, SEED + 1000, actor, counter, double_p=0.0)
    long.refresh_from_db()
    print(
        f"\n  Long match: {args.long_length} points without doubles, {len(long_timed)} actions, "
        f"{long.games.count()} games ({long.score1}-{long.score2}); its first 100 and last 100 actions:"
    )
    for label, part in (("first 100", long_timed[:100]), ("last 100", long_timed[-100:])):
        kinds = "; ".join(f"{k} {statements_of(items)}" for k, items in by_kind(part))
        s = Summary.of(t.ns for t in part)
        print(f"    {label:<10} median {s.median:.2f} ms, p95 {s.p95:.2f} ms; statements: {kinds}")


# -- 2. the API in process ------------------------------------------------------------------------------------------


def phase_api_in_process(users: Users, profile: bool) -> None:
    from rest_framework.test import APIClient

    heading("2. API in process (APIClient, no server): SQL statements per request")
    client = APIClient(SERVER_NAME="localhost")  # an allowed host (DEBUG is off)
    client.credentials(HTTP_AUTHORIZATION=f"Token {users.token}")
    rng = random.Random(SEED + 2000)
    match = new_match(users, 3)
    state = client.get(f"/api/matches/{match.pk}/").json()["state"]
    timed: list[Timed] = []
    bare: list[Timed] = []
    sql_seen: dict[str, list[str]] = {}
    clock = time.perf_counter_ns
    profiler = cProfile.Profile() if profile else None
    with counting_queries() as counter:
        while state["legal_actions"] and state["status"] not in CLOSED:
            choice = choose(rng, state["legal_actions"], state["to_act"], state["legal_plays"])
            counter.take()
            if profiler:
                profiler.enable()
            t0 = clock()
            response = client.post(f"/api/matches/{match.pk}/actions/", choice.body(state["seq"]), format="json")
            ns = clock() - t0
            if profiler:
                profiler.disable()
            sample = counter.take()
            if response.status_code != 201:
                raise RuntimeError(f"the API refused {choice}: {response.status_code} {response.content!r}")
            sql_seen.setdefault(f"{choice.kind} ({len(sample.sql)})", [statement(s) for s in sample.sql])
            timed.append(Timed(choice.kind, ns, len(sample.sql), db_ns=sample.sql_ns + sample.commit_ns))
            state = response.json()["state"]
            t0 = clock()
            response = client.post(BARE_PATH, {}, format="json")
            ns = clock() - t0
            sample = counter.take()
            if response.status_code != 201:
                raise RuntimeError(f"the bare endpoint refused: {response.status_code} {response.content!r}")
            sql_seen.setdefault(f"bare ({len(sample.sql)})", [statement(s) for s in sample.sql])
            bare.append(Timed("bare", ns, len(sample.sql), db_ns=sample.sql_ns))
    report_by_kind(f"One 3-point match, {len(timed)} actions, APIClient with a DRF token", timed, bare)
    for label, items in (("action", timed), ("bare insert", bare)):
        total = statistics.fmean(t.ns for t in items) / 1e6
        db = statistics.fmean(t.db_ns for t in items) / 1e6
        print(f"  {label}: mean {total:.2f} ms, of which database {db:.2f} ms and Python {total - db:.2f} ms")
    print("\n  SQL statements per request, by kind (first seen):")
    for label, sql in sorted(sql_seen.items()):
        print(f"    {label:<18} {', '.join(sql)}")
    if profiler:
        print(f"\n  cProfile of the {len(timed)} action requests (top 40 by cumulative time):")
        pstats.Stats(profiler, stream=sys.stdout).sort_stats("cumulative").print_stats(40)


# -- 3 and 4. the HTTP API -----------------------------------------------------------------------------------------


def free_port() -> int:
    """A free port on 127.0.0.1: the first free one of ``BENCH_PORTS`` ("8700-8749") when it is set (a machine
    whose users each have a range), else one the system picks."""
    first, _, last = os.environ.get("BENCH_PORTS", "").partition("-")
    candidates = range(int(first), int(last or first) + 1) if first else [0]
    for port in candidates:
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return int(s.getsockname()[1])
    raise SystemExit(f"no free port in BENCH_PORTS={os.environ['BENCH_PORTS']}")


class Server:
    """gunicorn on 127.0.0.1 serving ``bench_wsgi()``, in its own session; ``stop()`` ends it."""

    def __init__(self, url: str, workers: int) -> None:
        self.port = free_port()
        env = {**os.environ, **SERVER_ENV, "DATABASE_URL": url}
        env["PYTHONPATH"] = os.pathsep.join(p for p in (str(BENCH_DIR), env.get("PYTHONPATH", "")) if p)
        command = [
            sys.executable,
            "-m",
            "gunicorn",
            "--bind",
            f"127.0.0.1:{self.port}",
            "--workers",
            str(workers),
            "--log-level",
            "warning",
            "games_bench:bench_wsgi()",
        ]
        self.process = subprocess.Popen(command, cwd=REPO, env=env, start_new_session=True)

    def wait_ready(self, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"gunicorn exited with status {self.process.returncode}")
            try:
                conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=5)
                conn.request("GET", "/health/")
                if conn.getresponse().status == 200:
                    return
            except OSError:
                pass
            time.sleep(0.2)
        raise RuntimeError("gunicorn did not answer /health/ in time")

    def stop(self) -> None:
        if self.process.poll() is not None:
            return
        self.process.send_signal(signal.SIGTERM)  # the master stops its workers
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)  # its own session: the master and its workers only
            self.process.wait(timeout=5)


class Client:
    """One HTTP client (``http.client``). gunicorn's sync workers close the connection after each response, so
    every request opens a new TCP connection, for the action endpoint and the bare one alike."""

    def __init__(self, port: int, token: str) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        self.headers = {"Authorization": f"Token {token}", "Content-Type": "application/json"}

    def request(self, method: str, path: str, body: dict[str, Any] | None = None) -> tuple[int, Any, Timed]:
        """(status, decoded JSON, timing: from sending the request to reading the last byte of the answer)."""
        data = json.dumps(body).encode() if body is not None else None
        t0 = time.perf_counter_ns()
        self.conn.request(method, path, body=data, headers=self.headers)
        response = self.conn.getresponse()
        raw = response.read()
        ns = time.perf_counter_ns() - t0
        queries, app, db = (response.getheader(h) for h in (QUERIES_HEADER, APP_HEADER, DB_HEADER))
        timed = Timed("", ns, int(queries or 0), db_ns=int(db or 0), app_ns=int(app) if app else None)
        return response.status, json.loads(raw) if raw else None, timed


@dataclass(slots=True)
class Played:
    """What one HTTP client did: timed actions and bare requests, errors, and the seqs each match answered."""

    actions: list[Timed] = field(default_factory=list)
    bare: list[Timed] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    seqs: dict[int, list[int]] = field(default_factory=dict)


def http_match(
    client: Client, match_id: int, seed: int, played: Played, *, bare: bool = False, deadline: float | None = None
) -> bool:
    """Play a match over HTTP until it ends (False: stopped by an error or by ``deadline``), each action followed
    by one bare insert when ``bare``."""
    rng = random.Random(seed)
    status, detail, _ = client.request("GET", f"/api/matches/{match_id}/")
    if status != 200:
        played.errors.append(f"GET match {match_id}: {status} {detail}")
        return False
    state = detail["state"]
    seqs = played.seqs.setdefault(match_id, [])
    while state["legal_actions"] and state["status"] not in CLOSED:
        if deadline is not None and time.monotonic() >= deadline:
            return False
        choice = choose(rng, state["legal_actions"], state["to_act"], state["legal_plays"])
        status, answer, timed = client.request("POST", f"/api/matches/{match_id}/actions/", choice.body(state["seq"]))
        if status != 201:
            played.errors.append(f"match {match_id} {choice}: {status} {answer}")
            return False
        timed.kind, timed.index = choice.kind, len(seqs)
        played.actions.append(timed)
        seqs.append(answer["action"]["seq"])
        state = answer["state"]
        if bare:
            status, answer, timed = client.request("POST", BARE_PATH, {})
            if status != 201:
                played.errors.append(f"bare: {status} {answer}")
                return False
            timed.kind = "bare"
            played.bare.append(timed)
    return True


def phase_http(args: argparse.Namespace, users: Users, server: Server) -> Played:
    heading(
        f"3. HTTP API: gunicorn, {args.workers} sync workers, one client; the same {args.matches} seeded "
        f"{args.length}-point matches as in 1, each action followed by one bare insert"
    )
    client = Client(server.port, users.token)
    warm = Played()
    for i in range(2 * args.workers):  # warm-up, not timed: each worker's first requests
        http_match(client, new_match(users, 1).pk, SEED - 10 - i, warm, bare=True)
    if warm.errors:
        raise RuntimeError(f"warm-up failed: {warm.errors[:3]}")
    played = Played()
    t0 = time.perf_counter()
    for i in range(args.matches):
        if not http_match(client, new_match(users, args.length).pk, SEED + i, played, bare=True):
            break
    wall = time.perf_counter() - t0
    for error in played.errors[:5]:
        print(f"  ERROR {error}")
    print(f"  {len(played.actions)} actions and {len(played.bare)} bare inserts in {wall:.1f} s")
    report_by_kind(
        "POST /api/matches/{id}/actions/ and POST /bench/bare/, client-side (request sent to last byte read)",
        played.actions,
        played.bare,
    )
    report_server_side(played.actions, played.bare)
    api, floor = Summary.of(t.ns for t in played.actions), Summary.of(t.ns for t in played.bare)
    print(
        f"\n  RATIO action / bare insert: median {api.median / floor.median:.2f}x (goal: at most 3x), "
        f"p95 {api.p95 / floor.p95:.2f}x, mean {api.mean / floor.mean:.2f}x"
    )
    return played


def run_threads(count: int, seconds: float, work: Callable[[int, float], None]) -> float:
    """Start ``count`` threads together, each running ``work(index, deadline)``; the wall time until all end."""
    barrier = threading.Barrier(count + 1)
    box = [0.0]

    def target(index: int) -> None:
        barrier.wait()
        work(index, box[0])

    threads = [threading.Thread(target=target, args=(i,), daemon=True) for i in range(count)]
    for thread in threads:
        thread.start()
    box[0] = time.monotonic() + seconds
    t0, cpu = time.perf_counter(), time.process_time()
    barrier.wait()
    for thread in threads:
        thread.join()
    wall = time.perf_counter() - t0
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    print(f"  (the clients' own process kept {(time.process_time() - cpu) / wall:.2f} of the {cpus} CPUs busy)")
    return wall


def phase_concurrent(args: argparse.Namespace, users: Users, server: Server) -> list[Played]:
    heading(
        f"4. {args.clients} concurrent clients (threads): {args.seconds:.0f} s of actions, each client on its own "
        f"matches, then {args.bare_seconds:.0f} s of bare inserts; gunicorn, {args.workers} sync workers"
    )
    matches = [[new_match(users, args.length).pk for _ in range(args.matches_per_client)] for _ in range(args.clients)]
    results = [Played() for _ in range(args.clients)]

    def play(index: int, deadline: float) -> None:
        client = Client(server.port, users.token)
        for j, match_id in enumerate(matches[index]):
            if not http_match(client, match_id, SEED + 5000 + 100 * index + j, results[index], deadline=deadline):
                return
        ran_out.append(index)  # every match finished before the deadline: this client stopped early

    ran_out: list[int] = []
    wall = run_threads(args.clients, args.seconds, play)
    if ran_out:
        print(f"  WARNING: {len(ran_out)} clients finished all their matches early (raise --matches-per-client)")
    actions = [t for p in results for t in p.actions]
    errors = [e for p in results for e in p.errors]
    done = sum(1 for p in results for seqs in p.seqs.values() if seqs)
    print(
        f"  {len(actions)} actions in {wall:.1f} s: THROUGHPUT {len(actions) / wall:.0f} actions/s "
        f"({len(actions) / wall / args.clients:.1f} per client), {done} matches; errors: {len(errors)}"
    )
    for error in errors[:5]:
        print(f"    {error}")
    if actions:
        rate = len(actions) / wall
        print(
            f"  (one request in flight per client: {args.clients} / {rate:.0f} per s "
            f"= {args.clients / rate * 1000:.0f} ms each)"
        )

    bare_results = [Played() for _ in range(args.clients)]

    def hammer(index: int, deadline: float) -> None:
        client = Client(server.port, users.token)
        while time.monotonic() < deadline:
            status, answer, timed = client.request("POST", BARE_PATH, {})
            if status != 201:
                bare_results[index].errors.append(f"bare: {status} {answer}")
                return
            timed.kind = "bare"
            bare_results[index].bare.append(timed)

    bare_wall = run_threads(args.clients, args.bare_seconds, hammer)
    bare = [t for p in bare_results for t in p.bare]
    print(f"  {len(bare)} bare inserts in {bare_wall:.1f} s: {len(bare) / bare_wall:.0f}/s")
    report_by_kind("Concurrent requests, client-side (including the wait for a free worker)", actions, bare)
    report_server_side(actions, bare)
    api, floor = Summary.of(t.ns for t in actions), Summary.of(t.ns for t in bare)
    print(
        f"\n  ratio action / bare insert under load: median {api.median / floor.median:.2f}x; the bare endpoint "
        f"serves {len(bare) / bare_wall / max(len(actions) / wall, 1e-9):.2f}x as many requests per second"
    )
    return results


# -- verification ---------------------------------------------------------------------------------------------------


def replay_problems(match: Any) -> list[str]:
    """Replay ``match``'s log through the engine (``services.rebuild_match``) and say what is wrong: the log does not
    replay, or it gives another state (with seq, status, score and winner) than the cached one, or other game rows.
    Call it inside ``transaction.atomic()`` with the match row locked (``select_for_update``): it marks that
    transaction to be rolled back, so the replay leaves the database as it was."""
    from django.db import transaction

    from games import services
    from games.models import Game

    game_fields = [f.name for f in Game._meta.fields if f.name not in ("id", "match")]
    before = (match.state, match.seq, match.status, match.score1, match.score2, match.winner_id)
    games_before = list(Game.objects.filter(match=match).order_by("number").values_list(*game_fields))
    try:
        rebuilt = services.rebuild_match(match)
    except Exception as exc:  # an illegal action in the log: the engine refuses the replay
        transaction.set_rollback(True)
        return [f"match {match.pk}: the log does not replay: {exc}"]
    after = (rebuilt.snapshot(), match.seq, match.status, match.score1, match.score2, match.winner_id)
    games_after = list(Game.objects.filter(match=match).order_by("number").values_list(*game_fields))
    transaction.set_rollback(True)
    problems = []
    if before != after:
        problems.append(f"match {match.pk}: replaying the log gives another state than the cached one")
    if games_before != games_after:
        problems.append(f"match {match.pk}: replaying the log gives other game rows")
    return problems


def verify(played: Sequence[Played]) -> None:
    """Every match the HTTP clients played: its log's seqs are 1..seq and exactly those the clients were answered
    (none lost, none twice), and replaying the log gives the cached state and game rows."""
    from django.db import transaction

    from games.models import Action, Match

    answered: dict[int, list[int]] = {}
    for p in played:
        for match_id, seqs in p.seqs.items():
            answered.setdefault(match_id, []).extend(seqs)
    problems: list[str] = []
    rows = 0
    for match_id, seqs in sorted(answered.items()):
        logged = list(Action.objects.filter(match_id=match_id).order_by("seq").values_list("seq", flat=True))
        rows += len(logged)
        with transaction.atomic():
            match = Match.objects.select_for_update().get(pk=match_id)
            if logged != list(range(1, match.seq + 1)):
                problems.append(f"match {match_id}: the log's seqs are not 1..{match.seq}")
            if sorted(seqs) != logged:
                problems.append(f"match {match_id}: {len(seqs)} actions answered, {len(logged)} in the log")
            problems += replay_problems(match)
    verdict = "ALL CONSISTENT" if not problems else f"{len(problems)} PROBLEMS"
    print(
        f"\n  Check of the {len(answered)} matches played over HTTP ({rows} log rows): seqs 1..seq without gap or "
        f"repeat, equal to the seqs answered, and each log replays to the cached state and game rows: {verdict}"
    )
    for problem in problems[:10]:
        print(f"    {problem}")


# -- 5. import ---------------------------------------------------------------------------------------------------


class _Discard:
    def write(self, text: str) -> int:
        return len(text)

    def flush(self) -> None:
        pass


def phase_import(corpus: Path) -> None:
    from django.core.management import CommandError, call_command

    from games.models import Action, Match

    heading("5. manage.py import_matches over the corpus, in process")
    if not corpus.is_dir():
        print(f"  no corpus at {corpus}: not timed (use --corpus)")
        return
    files = [p for p in corpus.rglob("*") if p.is_file() and p.suffix.lower() in (".mat", ".txt")]
    matches_before = Match.objects.count()
    last = Action.objects.order_by("-pk").values_list("pk", flat=True).first() or 0
    failed = ""
    t0 = time.perf_counter()
    try:
        call_command("import_matches", str(corpus), quiet=True, stdout=_Discard(), stderr=_Discard())
    except CommandError as exc:
        failed = f" ({exc})"
    wall = time.perf_counter() - t0
    new = Action.objects.filter(pk__gt=last)
    rows = new.count()
    plays = new.filter(kind="play").count()
    non_empty = new.filter(kind="play").exclude(play="").count()
    imported = Match.objects.count() - matches_before
    print(f"  {len(files)} files, {imported} imported{failed}, in {wall:.2f} s")
    print(
        f"  {len(files) / wall:.1f} files/s; {rows / wall:,.0f} log rows/s ({rows} rows); {plays / wall:,.0f} plays/s "
        f"({plays} plays; the {non_empty} not empty: {non_empty / wall:,.0f}/s)"
    )


# -- set-up and report -------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Users:
    user: Any  # staff: a director of every match, so it may act for both sides
    token: str
    players: tuple[Any, Any]


def make_users() -> Users:
    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    from games import services

    user = get_user_model().objects.create_user("bench", password=None, is_staff=True)
    token = Token.objects.create(user=user)
    players = (services.create_player(display_name="Bench One"), services.create_player(display_name="Bench Two"))
    return Users(user, token.key, players)


def new_match(users: Users, length: int) -> Any:
    from games import services

    return services.start_match(
        player1=users.players[0], player2=users.players[1], length=length, created_by=users.user
    )


def machine() -> str:
    from django.db import connection

    settings = {}
    with connection.cursor() as cursor:
        for name in ("server_version", "synchronous_commit", "fsync"):
            cursor.execute(f"SHOW {name}")
            settings[name] = cursor.fetchone()[0]
    versions = ", ".join(
        f"{name} {metadata.version(name)}" for name in ("Django", "djangorestframework", "gunicorn", "psycopg")
    )
    return (
        f"{cpu()}; Python {platform.python_version()}, {platform.system()} {platform.machine()}; "
        f"PostgreSQL {settings['server_version']} on the same machine (fsync {settings['fsync']}, "
        f"synchronous_commit {settings['synchronous_commit']}); {versions}"
    )


PHASES = ("services", "inprocess", "http", "concurrent", "import")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database-url", default=DEFAULT_DATABASE_URL, help="a throwaway database (made, dropped)")
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS, help="folder of .mat/.txt match logs")
    parser.add_argument("--matches", type=int, default=8, help="seeded matches for the service and HTTP timings")
    parser.add_argument("--length", type=int, default=7, help="their length in points")
    parser.add_argument("--long-length", type=int, default=15, help="length of the long match (early/late)")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn sync workers")
    parser.add_argument("--clients", type=int, default=16, help="concurrent HTTP clients")
    parser.add_argument("--seconds", type=float, default=25.0, help="how long the concurrent clients record actions")
    parser.add_argument("--bare-seconds", type=float, default=10.0, help="how long they then send bare inserts")
    parser.add_argument("--matches-per-client", type=int, default=6, help="matches made ready for each client")
    parser.add_argument("--skip", default="", help=f"comma-separated phases to skip: {','.join(PHASES)}")
    parser.add_argument("--profile", action="store_true", help="print a cProfile of the in-process API requests")
    parser.add_argument("--keep-db", action="store_true", help="leave the database in place at the end")
    args = parser.parse_args(argv)
    skip = {s.strip() for s in args.skip.split(",") if s.strip()}
    if skip - set(PHASES):
        parser.error(f"unknown phases {sorted(skip - set(PHASES))}; choose among {', '.join(PHASES)}")
    exit_on_sigterm()
    started = time.perf_counter()
    created = prepare_database(args.database_url)
    server: Server | None = None
    try:
        setup_django(args.database_url, SERVER_ENV)
        from django.db import connections

        install_bare_route()
        print(f"machine: {machine()}")
        print(f"database {database_name(args.database_url)}: created and migrated ({load()})")
        users = make_users()
        if "services" not in skip:
            phase_services(args, users)
        if "inprocess" not in skip:
            phase_api_in_process(users, args.profile)
        if not {"http", "concurrent"} <= skip:
            connections.close_all()
            server = Server(args.database_url, args.workers)
            server.wait_ready()
            played = []
            if "http" not in skip:
                played.append(phase_http(args, users, server))
            if "concurrent" not in skip:
                played += phase_concurrent(args, users, server)
            server.stop()
            server = None
            verify(played)
        if "import" not in skip:
            phase_import(args.corpus.resolve())
        print(f"\ndone in {time.perf_counter() - started:.0f} s ({load()})")
    finally:
        if server is not None:
            server.stop()
        release_database(args.database_url, created, keep=args.keep_db)
    return 0


if __name__ == "__main__":
    sys.exit(main())
