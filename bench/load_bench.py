"""Load: a real gunicorn + PostgreSQL + Redis + Celery worker stack driven by a separate load process (bench/README.md).

Usage: python bench/load_bench.py [--database-url URL] [--tables N] [--spectators N] [--seconds S] ... (see --help)

The script makes a throwaway PostgreSQL database (``--database-url``, default ``bgmatch_load_bench`` on the local
server), migrates it and runs ``collectstatic`` into a temporary folder; it starts gunicorn serving
``config.wsgi:application`` with ``config/gunicorn_conf.py`` and a Celery worker (``celery -A config worker``) on
the Redis database of ``--redis-url``, both with a deployment's settings (DEBUG off, ``CONN_MAX_AGE=60`` as in
docker-compose.yml). At the end, also after an error, Ctrl-C or SIGTERM, it stops them, drops the database, empties
its Redis database and removes the folder. It refuses a database that already exists.

Through the project's services it sets up an event with a single-elimination division of ``2 * --tables``
players (moves entered move by move), starts it (round 1: ``--tables`` matches) and makes both entry links of
every match. Then, each phase run by ``bench/load_client.py`` in its own process:

1. Baseline: one table plays stand-alone matches while one reader reads the same pages and live parts one request
   at a time (each live part without an ETag, then with it), and a probe reads ``/health/`` once a second.
2. Load: ``--tables`` tables play their round-1 match to the end through the JSON API with their entry links,
   while ``--spectators`` spectators poll live parts with ETags (half the division page's three parts every
   5 s, half a match's live part every 3 s, the pages' own polling periods) and the probe reads ``/health/``;
   until every match is over or ``--seconds`` have passed. Then (2b) the spectators leave and the tables play on
   for at most ``--finish-seconds``, so that matches finish and the worker follows them up.
3. The worker drains: the script waits until the broker's queue is empty and the worker runs no task.
4. Race: ``--racers`` clients, each with its own entry links of one stand-alone match, send the same next action
   with the same expected sequence number at the same moment, ``--race-steps`` times.

Then it checks from the database: every match played (tables and race) has a log of seqs 1..seq, exactly the ones
the clients were answered 201, that replays through the engine (``games.services.rebuild_match``, rolled back)
to the cached state, and whose live state is the last one its client saw; every race step had one 201 and only
409s besides; the division's results, bracket and standings are in step (``sync_division`` and
``recompute_standings`` change nothing, rolled back). It prints throughput, latencies by endpoint (median, p95,
p99, by status), statuses, the share of 304 answers, and each endpoint's median under load over its baseline.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Sequence
from importlib import metadata
from pathlib import Path
from typing import Any

from benchdb import database_name, exit_on_sigterm, prepare_database, release_database, setup_django
from games_bench import free_port, machine, replay_problems
from report import heading, load

REPO = Path(__file__).resolve().parent.parent
BENCH_DIR = Path(__file__).resolve().parent
DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/bgmatch_load_bench"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/13"
SEED = 20240611
#: Redis keys this benchmark's stack writes (the broker's, Celery's, the API throttles' in the cache).
OWN_KEYS = (b"_kombu", b"celery", b"unacked", b"reply.celery", b":1:throttle_")
ACTION = "POST /api/matches/{id}/actions/"
CLOSED = ("finished", "forfeited", "void")
#: A deployment's settings (docker-compose.yml): DEBUG off, persistent connections, JSON logs at INFO, the cache
#: (throttles, rate limits) in Redis. ``load_settings`` is config.settings with STATIC_ROOT in a temporary folder.
BASE_ENV = {
    "DJANGO_SETTINGS_MODULE": "load_settings",
    "DEBUG": "0",
    "SECRET_KEY": "load-bench-not-a-secret-" + "x" * 40,
    "ALLOWED_HOSTS": "127.0.0.1,localhost",
    "CONN_MAX_AGE": "60",
    "LOG_LEVEL": "INFO",
    "LOG_FORMAT": "json",
}


# -- the stack ------------------------------------------------------------------------------------------------------


def stack_env(args: argparse.Namespace, static_root: Path) -> dict[str, str]:
    env = {
        **BASE_ENV,
        "DATABASE_URL": args.database_url,
        "CELERY_BROKER_URL": args.redis_url,
        "CACHE_URL": args.redis_url,
        "BGMATCH_LOAD_STATIC_ROOT": str(static_root),
    }
    if not args.production_throttles:
        # Every client here has one address and the race sends far faster than players do: the API's limits are
        # raised, so that the run measures the stack, not the throttles (bench/README.md, "Throttles").
        for name in ("API_RATE_ANON", "API_RATE_USER", "API_RATE_ENTRY_LINK", "API_RATE_ANALYSIS"):
            env[name] = "1000000/min"
    return env


class Process:
    """A server process in its own session (``stop()`` ends it and its children), output to a log file."""

    def __init__(self, name: str, command: list[str], env: dict[str, str], log_path: Path) -> None:
        self.name, self.log_path = name, log_path
        self.log = log_path.open("wb")
        full_env = {**os.environ, **env}
        full_env["PYTHONPATH"] = os.pathsep.join(p for p in (str(BENCH_DIR), full_env.get("PYTHONPATH", "")) if p)
        self.process = subprocess.Popen(
            command, cwd=REPO, env=full_env, stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True
        )

    def check_running(self) -> None:
        if self.process.poll() is not None:
            raise RuntimeError(f"{self.name} exited with status {self.process.returncode}; see {self.log_path}")

    def stop(self, timeout: float = 30.0) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)  # gunicorn's master and celery's main process stop their children
            try:
                self.process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)  # its own session: this process and its children only
                self.process.wait(timeout=5)
        self.log.close()


def start_web(args: argparse.Namespace, env: dict[str, str], logs: Path) -> tuple[Process, int]:
    port = free_port()
    web_env = {
        **env,
        "WEB_BIND": f"127.0.0.1:{port}",
        "WEB_WORKERS": str(args.workers),
        "WEB_THREADS": str(args.threads),
    }
    command = [sys.executable, "-m", "gunicorn", "config.wsgi:application", "--config", "config/gunicorn_conf.py"]
    return Process("gunicorn", command, web_env, logs / "web.log"), port


def start_worker(args: argparse.Namespace, env: dict[str, str], logs: Path) -> Process:
    command = [sys.executable, "-m", "celery", "-A", "config", "worker", "--loglevel=INFO"]
    command += ["--concurrency", str(args.worker_concurrency), "--hostname", "loadbench@%h"]
    return Process("celery worker", command, env, logs / "worker.log")


def wait_web(web: Process, port: int, timeout: float = 60.0) -> None:
    import http.client

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        web.check_running()
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            conn.request("GET", "/health/")
            response = conn.getresponse()
            body = response.read()
            if response.status == 200:
                return
        except OSError:
            body = b""
        time.sleep(0.3)
    raise RuntimeError(f"gunicorn did not answer /health/ with 200 in {timeout:.0f} s: {body[:200]!r}")


def wait_worker(worker: Process, timeout: float = 60.0) -> None:
    from config.celery import app

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        worker.check_running()
        if app.control.ping(timeout=1.0):
            return
    raise RuntimeError(f"the Celery worker did not answer a ping in {timeout:.0f} s; see {worker.log_path}")


def redis_client(url: str) -> Any:
    import redis

    return redis.Redis.from_url(url)


# -- the event --------------------------------------------------------------------------------------------------------


def build(args: argparse.Namespace) -> dict[str, Any]:
    """The event, its started division, stand-alone matches for the baseline and the race, and entry links."""
    from django.contrib.auth import get_user_model
    from django.urls import reverse

    from common.actor import Actor
    from games import services as games
    from games.access import new_entry_token, token_text
    from tournaments import services
    from tournaments.models import Pairing

    director = get_user_model().objects.create_user("director", password=None)
    actor = Actor(user=director)
    event = services.create_event(actor=actor, name="Load bench open")
    settings = services.DivisionSettings(
        name="Championship", format="single", match_length=args.length, seeding="random", draw_seed=SEED
    )
    division = services.create_division(event, actor=actor, settings=settings)
    for i in range(2 * args.tables):
        services.register_player(division, actor=actor, name=f"Player {i + 1:03d}")
    services.start_division(division, actor=actor)
    pairings = list(
        Pairing.objects.filter(division=division, round__number=1, match__isnull=False)
        .select_related("match")
        .order_by("board")
    )
    if len(pairings) != args.tables:
        raise RuntimeError(f"round 1 has {len(pairings)} matches, not {args.tables}")

    def links(match: Any) -> list[str]:
        return [token_text(new_entry_token(match, side)) for side in (0, 1)]

    tables = [{"match": p.match_id, "tokens": links(p.match), "seed": SEED + p.board} for p in pairings]
    one, two = games.create_player(display_name="Baseline One"), games.create_player(display_name="Baseline Two")

    def standalone(length: int) -> Any:
        return games.start_match(player1=one, player2=two, length=length, created_by=director)

    baseline = []
    for i in range(args.baseline_matches):
        match = standalone(args.length)
        baseline.append({"match": match.pk, "tokens": links(match), "seed": SEED + 1000 + i})
    race = standalone(args.race_length)
    division_path = reverse("tournaments:division-detail", args=[event.slug, division.slug])
    parts = [
        (
            f"GET /events/{{e}}/{{d}}/live/{part}/",
            reverse("tournaments:division-live", args=[event.slug, division.slug, part]),
        )
        for part in ("standings", "pairings", "bracket")
    ]
    watched = tables[0]["match"]
    return {
        "director": director,
        "division": division,
        "tables": tables,
        "baseline": baseline,
        "race": {"match": race.pk, "tokens": [links(race) for _ in range(args.racers)]},
        "division_page": ("GET /events/{e}/{d}/", division_path),
        "parts": parts,
        "match_page": lambda m: ("GET /matches/{id}/", reverse("games:match", args=[m])),
        "match_live": lambda m: ("GET /matches/{id}/live/", reverse("games:match-live", args=[m])),
        "watched": watched,
    }


def spectators(args: argparse.Namespace, built: dict[str, Any]) -> list[dict[str, Any]]:
    """Half follow the division page (its three live parts every 5 s), half one match's page (every 3 s)."""
    out = []
    tables = built["tables"]
    for i in range(args.spectators):
        if i % 2 == 0:
            out.append({"page": built["division_page"], "parts": built["parts"], "period": 5.0})
        else:
            match = tables[(i // 2) % len(tables)]["match"]
            out.append({"page": built["match_page"](match), "parts": [built["match_live"](match)], "period": 3.0})
    return out


# -- running a phase --------------------------------------------------------------------------------------------------


def run_client(plan: dict[str, Any], work: Path, name: str, running: list[subprocess.Popen[bytes]]) -> dict[str, Any]:
    plan_path, result_path = work / f"{name}-plan.json", work / f"{name}-result.json"
    plan_path.write_text(json.dumps(plan))
    command = [sys.executable, str(BENCH_DIR / "load_client.py"), str(plan_path), str(result_path)]
    env = {**os.environ, "PYTHONPATH": str(BENCH_DIR)}
    process = subprocess.Popen(command, cwd=REPO, env=env, start_new_session=True)
    running.append(process)
    try:
        status = process.wait()
    finally:
        running.remove(process)
    if status != 0:
        raise RuntimeError(f"the load process of phase {name} exited with status {status}")
    return json.loads(result_path.read_text())


def percentile(values: Sequence[float], q: int) -> float:
    if not values:
        return float("nan")
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1]


ORDER = (
    ACTION,
    "GET /api/matches/{id}/",
    "GET /events/{e}/{d}/",
    "GET /events/{e}/{d}/live/standings/",
    "GET /events/{e}/{d}/live/pairings/",
    "GET /events/{e}/{d}/live/bracket/",
    "GET /matches/{id}/",
    "GET /matches/{id}/live/",
    "GET /health/",
)


def group(samples: Sequence[Sequence[Any]]) -> dict[str, dict[str, list[float]]]:
    """endpoint -> status -> milliseconds."""
    out: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for endpoint, status, ns in samples:
        out[endpoint][str(status)].append(ns / 1e6)
    return out


def report_phase(title: str, result: dict[str, Any], wall: float) -> dict[str, dict[str, list[float]]]:
    grouped = group(result["samples"])
    print(f"\n  {title}: {len(result['samples'])} requests in {wall:.1f} s ({len(result['samples']) / wall:.0f}/s)")
    print(
        f"  {'endpoint':<38} {'n':>6} {'req/s':>6} {'304 share':>9} {'status':>6} {'median':>8} {'p95':>8} "
        f"{'p99':>8}   statuses"
    )
    for endpoint in sorted(grouped, key=lambda e: ORDER.index(e) if e in ORDER else len(ORDER)):
        by_status = grouped[endpoint]
        n = sum(len(v) for v in by_status.values())
        counts = ", ".join(f"{s}: {len(v)}" for s, v in sorted(by_status.items()))
        ok = len(by_status.get("200", [])) + len(by_status.get("304", []))
        share = f"{len(by_status.get('304', [])) / ok:.0%}" if ok and endpoint.startswith("GET") else ""
        everything = sorted(ms for v in by_status.values() for ms in v)
        print(
            f"  {endpoint:<38} {n:>6} {n / wall:>6.1f} {share:>9} {'all':>6} {statistics.median(everything):>8.1f} "
            f"{percentile(everything, 95):>8.1f} {percentile(everything, 99):>8.1f}   {counts}"
        )
        if len(by_status) > 1:
            for status, values in sorted(by_status.items()):
                values.sort()
                print(
                    f"  {'':<38} {len(values):>6} {'':>6} {'':>9} {status:>6} {statistics.median(values):>8.1f} "
                    f"{percentile(values, 95):>8.1f} {percentile(values, 99):>8.1f}"
                )
    return grouped


def server_failures(result: dict[str, Any], phase: str) -> list[str]:
    """5xx answers and requests that got no answer, as problems of the run."""
    failed = Counter(f"{e} {st}" for e, st, _ in result["samples"] if st == "network" or int(st) >= 500)
    return [f"{phase}: {count}x {what}" for what, count in sorted(failed.items())]


def report_problems(result: dict[str, Any], limit: int = 8) -> None:
    problems = result["problems"]
    if not problems:
        return
    print(f"\n  PROBLEMS seen by the clients: {len(problems)} (the first {min(limit, len(problems))} in full)")
    for problem in problems[:limit]:
        print(f"    {json.dumps(problem)[:1500]}")


def ratios(load_g: dict[str, dict[str, list[float]]], base_g: dict[str, dict[str, list[float]]]) -> None:
    print("\n  Under load over the baseline (same endpoint and status; medians and p95, milliseconds):")
    print(f"  {'endpoint':<38} {'status':>6} {'baseline':>9} {'load':>9} {'ratio':>7} {'p95 base':>9} {'p95 load':>9}")
    for endpoint in sorted(load_g, key=lambda e: ORDER.index(e) if e in ORDER else len(ORDER)):
        for status in sorted(load_g[endpoint]):
            base, under = base_g.get(endpoint, {}).get(status), load_g[endpoint][status]
            if not base or status not in ("200", "201", "304"):
                continue
            b, u = statistics.median(base), statistics.median(under)
            print(
                f"  {endpoint:<38} {status:>6} {b:>9.1f} {u:>9.1f} {u / b:>6.1f}x "
                f"{percentile(sorted(base), 95):>9.1f} {percentile(sorted(under), 95):>9.1f}"
            )


# -- draining and checking --------------------------------------------------------------------------------------------


def drain(args: argparse.Namespace, worker: Process, timeout: float = 180.0) -> float:
    """Wait until the broker's queue is empty and the worker runs no task (twice in a row, a second apart)."""
    from config.celery import app

    r = redis_client(args.redis_url)
    t0 = time.perf_counter()
    calm = 0
    while time.perf_counter() - t0 < timeout:
        worker.check_running()
        queued = r.llen("celery")
        active = app.control.inspect(timeout=1.0).active() or {}
        busy = sum(len(tasks) for tasks in active.values())
        calm = calm + 1 if queued == 0 and busy == 0 and active else 0
        if calm >= 2:
            return time.perf_counter() - t0
        time.sleep(0.5)
    raise RuntimeError(f"the worker did not drain in {timeout:.0f} s")


def check_matches(played: Sequence[dict[str, Any]]) -> list[str]:
    """Each match's log against what its client was answered and saw; each log replayed (rolled back)."""
    from django.db import transaction

    from games import selectors
    from games.models import Action, Match

    problems: list[str] = []
    rows = 0
    for seen in played:
        match_id, answered = seen["match"], seen["answered"]
        logged = list(Action.objects.filter(match_id=match_id).order_by("seq").values_list("seq", flat=True))
        rows += len(logged)
        if len(set(answered)) != len(answered):
            problems.append(f"match {match_id}: a seq was answered 201 twice")
        with transaction.atomic():
            match = Match.objects.select_for_update().select_related("player1", "player2").get(pk=match_id)
            if logged != list(range(1, match.seq + 1)):
                problems.append(f"match {match_id}: the log's seqs are not 1..{match.seq}")
            if sorted(answered) != logged:
                lost = sorted(set(answered) - set(logged))
                extra = sorted(set(logged) - set(answered))
                problems.append(
                    f"match {match_id}: answered 201 but not in the log {lost}; in the log, not answered {extra}"
                )
            live = selectors.live_state(match)
            now = {k: live[k] for k in ("seq", "status", "score", "winner", "position_id", "match_id")}
            if seen["last"] is not None and now != seen["last"]:
                problems.append(f"match {match_id}: the client last saw {seen['last']}, the database has {now}")
            problems += replay_problems(match)
    print(
        f"  {len(played)} matches, {rows} log rows: seqs 1..seq, equal to the seqs answered 201, the live state equal "
        f"to the client's last, the log replays to the cached state: {'ALL CONSISTENT' if not problems else 'PROBLEMS'}"
    )
    for problem in problems[:10]:
        print(f"    {problem}")
    return problems


def check_division(division_id: int) -> list[str]:
    """The division in step with its matches: each finished match's pairing has its result and winner; a sync
    and a recompute of the standings (both rolled back) change nothing."""
    from django.db import transaction

    from games.models import Match
    from tournaments.models import Division, Pairing, Standing
    from tournaments.services import recompute_standings, sync_division

    problems: list[str] = []
    pairings = list(
        Pairing.objects.filter(division_id=division_id).select_related("match", "winner", "round").order_by("id")
    )
    finished = [p for p in pairings if p.match is not None and p.match.status == Match.Status.FINISHED]
    for p in finished:
        if p.status != Pairing.Status.FINISHED or p.winner is None or p.winner.player_id != p.match.winner_id:
            problems.append(f"pairing {p.key}: match {p.match_id} finished, the pairing says {p.status}/{p.winner_id}")
    by_round = Counter((p.round.number, p.status) for p in pairings if p.match_id is not None)
    fields = ("after_round", "entry_id", "rank", "wins", "losses", "byes", "points_for", "points_against", "tiebreaks")

    def table() -> list[str]:
        return sorted(repr(v) for v in Standing.objects.filter(division_id=division_id).values_list(*fields))

    with transaction.atomic():
        stored = table()
        report = sync_division(division_id)
        recompute_standings(division_id)
        recomputed = table()
        transaction.set_rollback(True)
    closed = {p.key for p in pairings if p.match is not None and p.match.status in CLOSED}
    # A pairing copies its match's score; a match in progress tells the division nothing until it ends, so a sync
    # refreshes the scores of the matches still being played (the ones stopped by the deadline). Anything else
    # it would still change is follow-up work the worker left undone.
    in_play = [key for key in report.results if key not in closed]
    if [key for key in report.results if key in closed] or report.filled or report.matches or report.paired:
        problems.append(f"a sync after the drain still changes the division: {report}")
    if report.finished:
        problems.append("a sync after the drain finishes the division")
    if stored != recomputed:
        problems.append("the standings stored differ from a recompute after the drain")
    d = Division.objects.get(pk=division_id)
    rounds = ", ".join(f"round {n} {s}: {c}" for (n, s), c in sorted(by_round.items()))
    print(
        f"  division: {len(finished)} matches finished; pairings with a match: {rounds}; standings "
        f"{d.standings_status} (version {d.standings_version} of results {d.results_version}), {len(stored)} rows; "
        f"a sync and a recompute change nothing: {'YES' if not problems else 'NO'}"
        + (f" (besides the live scores of {len(in_play)} matches still in play)" if in_play else "")
    )
    for problem in problems[:10]:
        print(f"    {problem}")
    return problems


def check_race(result: dict[str, Any], racers: int) -> list[str]:
    problems = []
    for i, step in enumerate(result["steps"]):
        statuses = step["statuses"]
        if statuses.get("201", 0) != 1 or statuses.get("409", 0) != racers - 1:
            problems.append(f"step {i + 1} (expected seq {step['expected_seq']}, {step['kind']}): {statuses}")
        if step["winners"] and step["winners"] != [step["expected_seq"] + 1]:
            problems.append(f"step {i + 1}: the 201 recorded seq {step['winners']}")
    return problems


def worker_tasks(log_path: Path) -> str:
    """Tasks the worker ran, from its log: count and median seconds by task, failures and retries."""
    done: dict[str, list[float]] = defaultdict(list)
    other = Counter()
    pattern = re.compile(r"Task ([\w.]+)\[[^\]]+\] (succeeded in ([0-9.]+)s|raised|retry)")
    for line in log_path.read_text(errors="replace").splitlines():
        m = pattern.search(line)
        if m and m.group(3):
            done[m.group(1)].append(float(m.group(3)))
        elif m:
            other[f"{m.group(1)} {m.group(2)}"] += 1
    parts = [
        f"{name.rsplit('.', 1)[-1]} {len(v)}x (median {statistics.median(v):.2f} s, max {max(v):.2f} s)"
        for name, v in sorted(done.items())
    ]
    parts += [f"{k}: {v}" for k, v in sorted(other.items())]
    return "; ".join(parts) or "none"


def server_errors(log_path: Path) -> Counter[str]:
    """The server log's errors (a 5xx logs its traceback there), by message and the exception's last line."""
    out: Counter[str] = Counter()
    for line in log_path.read_text(errors="replace").splitlines():
        if not line.startswith("{"):
            if "Traceback" in line or "[ERROR]" in line or "[CRITICAL]" in line:
                out[line[:300]] += 1
            continue
        try:
            entry = json.loads(line)
        except ValueError:
            continue
        if entry.get("level") in ("ERROR", "CRITICAL"):
            last = (entry.get("exception") or "").strip().splitlines()[-1:] or [""]
            out[f"{entry.get('message', '')[:200]} | {last[0][:300]}"] += 1
    return out


# -- the phases -------------------------------------------------------------------------------------------------------

Grouped = dict[str, dict[str, list[float]]]


def phase_baseline(
    args: argparse.Namespace, built: dict[str, Any], plan: dict[str, Any], work: Path, running: list[Any]
) -> tuple[Grouped, list[str]]:
    heading("1. Baseline: one table, one reader (each live part without and with its ETag), health probe")
    watched = built["watched"]
    reader = [built["division_page"], *built["parts"], built["match_page"](watched), built["match_live"](watched)]
    phase = {
        **plan,
        "phase": "baseline",
        "seconds": args.baseline_seconds,
        "tables": [built["baseline"]],
        "spectators": [],
        "reader": reader,
        "warmup": 2 * args.workers,
    }
    result = run_client(phase, work, "baseline", running)
    grouped = report_phase("baseline", result, result["wall"])
    report_problems(result)
    actions = sum(len(s["answered"]) for s in result["tables"][0])
    cpu = result["cpu"] / result["wall"]
    print(f"  one table: {actions} actions in {result['tables_wall']:.1f} s; load process CPU {cpu:.2f}")
    return grouped, server_failures(result, "baseline") + check_matches([s for t in result["tables"] for s in t])


def report_tables(result: dict[str, Any]) -> list[dict[str, Any]]:
    seen = [s for t in result["tables"] for s in t]
    actions = sum(len(s["answered"]) for s in seen)
    over = sum(1 for s in seen if s["last"] and s["last"]["status"] in CLOSED)
    retried = sum(len(s["retried"]) for s in seen)
    stops = Counter(s["stopped"] or "match over" for s in seen)
    print(
        f"\n  tables: {actions} actions recorded in {result['tables_wall']:.1f} s: THROUGHPUT "
        f"{actions / result['tables_wall']:.1f} actions/s; {over} of {len(seen)} matches over; retries answered "
        f"from the log: {retried}; why tables stopped: {dict(stops)}"
    )
    print(f"  load process CPU: {result['cpu'] / result['wall']:.2f} of one CPU")
    return seen


def merge(*phases: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """What the clients saw of each match over several phases."""
    out: dict[int, dict[str, Any]] = {}
    for seen in phases:
        for s in seen:
            m = out.setdefault(s["match"], {"match": s["match"], "answered": [], "retried": [], "last": None})
            m["answered"] += s["answered"]
            m["retried"] += s["retried"]
            m["last"] = s["last"] or m["last"]
    return list(out.values())


def phase_load(
    args: argparse.Namespace,
    built: dict[str, Any],
    plan: dict[str, Any],
    work: Path,
    running: list[Any],
    base_g: Grouped,
    worker: Process,
) -> list[str]:
    heading(
        f"2. Load: {args.tables} tables play their match (think time {args.think:.1f} s) while "
        f"{args.spectators} spectators poll with ETags, and the health probe; at most {args.seconds:.0f} s"
    )
    phase = {
        **plan,
        "phase": "load",
        "seconds": args.seconds,
        "tables": [[t] for t in built["tables"]],
        "spectators": spectators(args, built),
    }
    before = load()
    result = run_client(phase, work, "load", running)
    print(f"  load average at the start: {before[13:]}; at the end: {load()[13:]}")
    load_g = report_phase("load", result, result["wall"])
    failures = server_failures(result, "load")
    offered = sum(len(s["parts"]) / s["period"] for s in phase["spectators"])
    polls = sum(1 for e, _, _ in result["samples"] if "/live/" in e)
    print(f"  the spectators' polling periods ask for {offered:.0f} polls/s; served {polls / result['wall']:.1f}/s")
    report_problems(result)
    seen = report_tables(result)
    if base_g:
        ratios(load_g, base_g)
    finish: list[dict[str, Any]] = []
    if args.finish_seconds > 0 and any(s["stopped"] == "deadline" for s in seen):
        heading(
            f"2b. The spectators leave; the tables play their matches on to the end (at most "
            f"{args.finish_seconds:.0f} s), with the health probe"
        )
        phase = {
            **plan,
            "phase": "finish",
            "seconds": args.finish_seconds,
            "tables": [[{**t, "seed": t["seed"] + 7919}] for t in built["tables"]],
            "spectators": [],
        }
        result = run_client(phase, work, "finish", running)
        report_phase("tables alone", result, result["wall"])
        failures += server_failures(result, "tables alone")
        report_problems(result)
        finish = report_tables(result)
    heading("3. Worker drain, then checks")
    drained = drain(args, worker)
    print(f"  drained {drained:.1f} s after the last phase; worker tasks: {worker_tasks(worker.log_path)}")
    return failures + check_matches(merge(seen, finish)) + check_division(built["division"].pk)


def phase_race(
    args: argparse.Namespace, built: dict[str, Any], plan: dict[str, Any], work: Path, running: list[Any]
) -> list[str]:
    heading(f"4. Race: {args.racers} clients send the same action with the same expected seq, {args.race_steps} times")
    phase = {**plan, "phase": "race", "racers": args.racers, "steps": args.race_steps, **built["race"]}
    result = run_client(phase, work, "race", running)
    totals: Counter[str] = Counter()
    for step in result["steps"]:
        totals.update(step["statuses"])
    race_problems = check_race(result, args.racers)
    winners = [w for step in result["steps"] for w in step["winners"]]
    print(
        f"  {len(result['steps'])} steps in {result['wall']:.1f} s: answers {dict(totals)}; steps with exactly one "
        f"201 and {args.racers - 1} 409s: {len(result['steps']) - len(race_problems)}"
    )
    grouped = group(result["samples"])
    for label in sorted(grouped):
        values = sorted(v for vs in grouped[label].values() for v in vs)
        median, p95 = statistics.median(values), percentile(values, 95)
        print(f"    {label}: {len(values)} answers, median {median:.1f} ms, p95 {p95:.1f} ms")
    report_problems(result)
    race_seen = {"match": built["race"]["match"], "answered": winners, "last": result["last"]}
    failures = server_failures(result, "race")
    return failures + [f"race: {p}" for p in race_problems] + check_matches([race_seen])


# -- main -------------------------------------------------------------------------------------------------------------


def report_verdict(problems: list[str], started: float, clean: str) -> None:
    """The verdict (``clean`` when there is no problem), the first problems, and the run's time."""
    print(f"\n  VERDICT: {clean if not problems else 'PROBLEMS'} ({len(problems)} problems)")
    for problem in problems[:20]:
        print(f"    {problem}")
    print(f"\ndone in {time.perf_counter() - started:.0f} s ({load()})")


def kill_clients(running: list[subprocess.Popen[bytes]]) -> None:
    """The load processes still running (an error or a signal ended the run)."""
    for process in running:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database-url", default=DEFAULT_DATABASE_URL, help="a throwaway database (made, dropped)")
    parser.add_argument("--redis-url", default=DEFAULT_REDIS_URL, help="broker and cache; emptied at start and end")
    parser.add_argument("--tables", type=int, default=32, help="tables (round-1 matches; twice as many players)")
    parser.add_argument("--spectators", type=int, default=300, help="spectators polling live parts")
    parser.add_argument("--length", type=int, default=1, help="match length in points")
    parser.add_argument("--seconds", type=float, default=75.0, help="most seconds of the load phase")
    parser.add_argument("--finish-seconds", type=float, default=90.0, help="most seconds the tables then play alone")
    parser.add_argument("--think", type=float, default=0.0, help="mean seconds a table waits between its actions")
    parser.add_argument("--baseline-seconds", type=float, default=20.0, help="seconds of the baseline phase")
    parser.add_argument("--baseline-matches", type=int, default=12, help="stand-alone matches for the baseline")
    parser.add_argument("--racers", type=int, default=64, help="clients racing on one match")
    parser.add_argument("--race-steps", type=int, default=30, help="sequence numbers raced for")
    parser.add_argument("--race-length", type=int, default=7, help="length of the raced match")
    parser.add_argument("--workers", type=int, default=3, help="gunicorn workers (WEB_WORKERS; compose's default)")
    parser.add_argument("--threads", type=int, default=1, help="threads per gunicorn worker (1: sync, more: gthread)")
    parser.add_argument("--worker-concurrency", type=int, default=2, help="Celery worker processes")
    parser.add_argument(
        "--production-throttles", action="store_true", help="keep the API's default per-address and per-link limits"
    )
    parser.add_argument("--skip", default="", help="comma-separated phases to skip: baseline,load,race")
    parser.add_argument("--keep", action="store_true", help="keep the database, Redis data and logs at the end")
    args = parser.parse_args(argv)
    skip = {s.strip() for s in args.skip.split(",") if s.strip()}
    if skip - {"baseline", "load", "race"}:
        parser.error(f"unknown phases {sorted(skip - {'baseline', 'load', 'race'})}")
    exit_on_sigterm()
    started = time.perf_counter()
    r = redis_client(args.redis_url)
    foreign = [key for key in r.scan_iter(count=1000) if not key.startswith(OWN_KEYS)]
    if foreign:
        raise SystemExit(f"{args.redis_url} holds other data ({foreign[0]!r}...): name an unused Redis database")
    r.flushdb()  # a previous run's leftovers: expiring throttle counters, the broker's bindings
    created = prepare_database(args.database_url)
    work = Path(tempfile.mkdtemp(prefix="bgmatch-load-"))
    env = stack_env(args, work / "static")
    processes: list[Process] = []
    running: list[subprocess.Popen[bytes]] = []
    problems: list[str] = []
    try:
        setup_django(args.database_url, env)
        from django.core.management import call_command
        from django.db import connections

        t0 = time.perf_counter()
        call_command("collectstatic", interactive=False, verbosity=0)
        print(f"machine: {machine()}, celery {metadata.version('celery')}, redis {r.info()['redis_version']}")
        print(
            f"database {database_name(args.database_url)}: created and migrated; collectstatic "
            f"{time.perf_counter() - t0:.1f} s ({load()})"
        )
        t0 = time.perf_counter()
        built = build(args)
        print(
            f"event: single elimination, {2 * args.tables} players, {args.length}-point matches entered move by move; "
            f"{args.tables} round-1 matches with both entry links; set up in {time.perf_counter() - t0:.1f} s"
        )
        connections.close_all()
        web, port = start_web(args, env, work)
        processes.append(web)
        worker = start_worker(args, env, work)
        processes.append(worker)
        wait_web(web, port)
        wait_worker(worker)
        kind = "sync" if args.threads == 1 else f"gthread, {args.threads} threads each"
        print(
            f"stack: gunicorn config.wsgi:application --config config/gunicorn_conf.py, {args.workers} workers "
            f"({kind}); celery -A config worker, concurrency {args.worker_concurrency}; broker and cache "
            f"{args.redis_url}; DEBUG 0, CONN_MAX_AGE 60; API throttles "
            f"{'as configured by default' if args.production_throttles else 'raised (see --production-throttles)'}"
        )
        plan = {"port": port, "seed": SEED, "think": args.think}
        base_g: dict[str, dict[str, list[float]]] = {}
        if "baseline" not in skip:
            base_g, found = phase_baseline(args, built, plan, work, running)
            problems += found
        if "load" not in skip:
            problems += phase_load(args, built, plan, work, running, base_g, worker)
        if "race" not in skip:
            problems += phase_race(args, built, plan, work, running)
        for process in processes:
            process.check_running()
        errors = server_errors(work / "web.log")
        print(f"\n  server log: {sum(errors.values())} errors")
        for line, count in errors.most_common(10):
            print(f"    {count}x {line}")
        report_verdict(problems, started, "no lost, duplicated or illegal action; division converged")
    finally:
        kill_clients(running)
        for process in reversed(processes):
            process.stop()
        release_database(args.database_url, created, keep=args.keep, kept=f", {args.redis_url} and the logs in {work}")
        if not args.keep:
            r.flushdb()
            shutil.rmtree(work, ignore_errors=True)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
