"""Hostile: schemathesis over the whole API schema against a deployment's stack, as a director and as a player.

Usage: python bench/hostile_bench.py [--database-url URL] [--redis-url URL] [--max-examples N] [--seed S] ...

The stack is bench/load_bench.py's (gunicorn with config/gunicorn_conf.py, a Celery worker, PostgreSQL and Redis,
DEBUG off, the API's throttles raised so that the run measures the API, not its limits). Through the services the
script makes a director (a DRF token) with an event whose Swiss division of four is started, a match the director
started, and an entry link for its side 0. Then ``schemathesis run`` reads ``/api/schema/`` from the server and
sends its generated cases (positive and negative, every operation, ``--max-examples`` each per phase) once with
``Authorization: Token ...`` and once with ``X-Entry-Token: ...``, checking each answer: no 5xx, a status the
schema documents, its content type and its body against the schema. Every request and answer goes to a HAR file;
the script counts them by status and prints, per caller, the cases, the 5xx (must be 0), the refusals (4xx by
status) and schemathesis's failures, with the errors in the server's log. The database, Redis data and the work
folder are removed at the end (``--keep`` keeps them).
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from benchdb import database_name, exit_on_sigterm, prepare_database, release_database, setup_django
from load_bench import OWN_KEYS, Process, redis_client, server_errors, stack_env, start_web, start_worker, wait_web
from report import heading, load

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/bgmatch_hostile_bench"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/12"
CHECKS = "not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance"
SCHEMATHESIS = Path(sys.executable).with_name("schemathesis")


def build() -> dict[str, dict[str, str]]:
    """The callers' headers, over an event with a started division and a match with an entry link."""
    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    from common.actor import Actor
    from games import services as games
    from games.access import new_entry_token, token_text
    from tournaments import services

    director = get_user_model().objects.create_user("director", password=None)
    actor = Actor(user=director)
    event = services.create_event(actor=actor, name="Hostile open")
    settings = services.DivisionSettings(name="Swiss", format="swiss", rounds_planned=2, match_length=3)
    division = services.create_division(event, actor=actor, settings=settings)
    for i in range(4):
        services.register_player(division, actor=actor, name=f"Player {i + 1}")
    services.start_division(division, actor=actor)
    one, two = games.create_player(display_name="Alice"), games.create_player(display_name="Bob")
    match = games.start_match(player1=one, player2=two, length=5, created_by=director)
    return {
        "director": {"Authorization": f"Token {Token.objects.create(user=director).key}"},
        "entry-link": {"X-Entry-Token": token_text(new_entry_token(match, 0))},
    }


def run_schemathesis(args: argparse.Namespace, port: int, headers: dict[str, str], har: Path) -> tuple[int, str, float]:
    command = [str(SCHEMATHESIS), "run", f"http://127.0.0.1:{port}/api/schema/?format=json", "--checks", CHECKS]
    command += ["--max-examples", str(args.max_examples), "--seed", str(args.seed), "--workers", str(args.st_workers)]
    command += ["--request-timeout", "60", "--suppress-health-check", "all", "--report", "har"]
    command += ["--report-har-path", str(har)]
    for name, value in headers.items():
        command += ["--header", f"{name}: {value}"]
    t0 = time.perf_counter()
    done = subprocess.run(  # in the work folder, where schemathesis keeps its cache
        command, cwd=har.parent, capture_output=True, text=True, check=False, timeout=args.timeout
    )
    return done.returncode, done.stdout + done.stderr, time.perf_counter() - t0


def count(har: Path) -> tuple[Counter[int], Counter[str]]:
    """Answers by status, and the 5xx by operation, from schemathesis's HAR file."""
    entries = json.loads(har.read_text())["log"]["entries"]
    statuses: Counter[int] = Counter(entry["response"]["status"] for entry in entries)
    failing: Counter[str] = Counter()
    for entry in entries:
        if entry["response"]["status"] >= 500:
            path = re.sub(r"/[0-9]+(?=/|$)", "/{id}", entry["request"]["url"].split("?")[0].split(":", 2)[-1])
            failing[f"{entry['request']['method']} {path.split('/', 1)[-1]}"] += 1
    return statuses, failing


def summary(output: str) -> list[str]:
    """schemathesis's own closing lines: the failures found by check, and its verdict."""
    lines = [line.rstrip() for line in output.splitlines() if line.strip()]
    start = next((i for i, line in enumerate(lines) if "SUMMARY" in line), max(0, len(lines) - 25))
    return lines[start:][-40:]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database-url", default=DEFAULT_DATABASE_URL, help="a throwaway database (made, dropped)")
    parser.add_argument("--redis-url", default=DEFAULT_REDIS_URL, help="broker and cache; emptied at start and end")
    parser.add_argument("--max-examples", type=int, default=60, help="cases per operation and phase")
    parser.add_argument("--seed", type=int, default=20261201, help="schemathesis's random seed")
    parser.add_argument("--st-workers", type=int, default=2, help="schemathesis's concurrent workers")
    parser.add_argument("--workers", type=int, default=3, help="gunicorn workers (WEB_WORKERS; compose's default)")
    parser.add_argument("--timeout", type=float, default=1800.0, help="most seconds one caller's run may take")
    parser.add_argument("--callers", default="director,entry-link", help="comma-separated: director,entry-link")
    parser.add_argument("--keep", action="store_true", help="keep the database, Redis data and logs at the end")
    args = parser.parse_args(argv)
    stack_args = argparse.Namespace(
        database_url=args.database_url,
        redis_url=args.redis_url,
        production_throttles=False,
        workers=args.workers,
        threads=1,
        worker_concurrency=1,
    )
    exit_on_sigterm()
    redis = redis_client(args.redis_url)
    if [key for key in redis.scan_iter(count=1000) if not key.startswith(OWN_KEYS)]:
        raise SystemExit(f"{args.redis_url} holds other data: name an unused Redis database")
    redis.flushdb()
    created = prepare_database(args.database_url)
    work = Path(tempfile.mkdtemp(prefix="bgmatch-hostile-"))
    env = stack_env(stack_args, work / "static")
    processes: list[Process] = []
    totals: dict[str, Any] = {}
    try:
        setup_django(args.database_url, env)
        from django.core.management import call_command
        from django.db import connections

        call_command("collectstatic", interactive=False, verbosity=0)
        callers = build()
        connections.close_all()
        web, port = start_web(stack_args, env, work)
        processes.append(web)
        processes.append(start_worker(stack_args, env, work))
        wait_web(web, port)
        print(f"database {database_name(args.database_url)}, gunicorn {args.workers} workers, DEBUG 0 ({load()})")
        for caller in [c.strip() for c in args.callers.split(",") if c.strip()]:
            heading(f"schemathesis as {caller}: {CHECKS}, --max-examples {args.max_examples}, seed {args.seed}")
            har = work / f"{caller}.har"
            code, output, wall = run_schemathesis(args, port, callers[caller], har)
            har.with_suffix(".log").write_text(output, encoding="utf-8")  # the whole output (--keep keeps it)
            statuses, failing = count(har)
            cases = sum(statuses.values())
            refusals = {status: n for status, n in sorted(statuses.items()) if 400 <= status < 500}
            errors = sum(n for status, n in statuses.items() if status >= 500)
            refused = sum(refusals.values())
            print(f"  {cases} cases in {wall:.0f} s; 5xx: {errors}; refusals (4xx): {refused} {refusals}")
            print(f"  2xx: {sum(n for s, n in statuses.items() if s < 300)}; schemathesis exit {code}")
            for line in summary(output):
                print(f"    {line}")
            for operation, n in failing.most_common(10):
                print(f"    5xx: {n}x {operation}")
            totals[caller] = {"cases": cases, "5xx": errors, "refusals": refusals, "exit": code}
        logged = server_errors(work / "web.log")
        print(f"\n  server log: {sum(logged.values())} errors")
        for line, n in logged.most_common(10):
            print(f"    {n}x {line}")
        print(json.dumps(totals))
        return 0 if all(t["5xx"] == 0 for t in totals.values()) else 1
    finally:
        for process in reversed(processes):
            process.stop()
        if not args.keep:
            redis.flushdb()
            shutil.rmtree(work, ignore_errors=True)
        release_database(args.database_url, created, keep=args.keep, kept=f"; logs in {work}")


if __name__ == "__main__":
    sys.exit(main())
