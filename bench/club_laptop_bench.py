"""Load on ``make venue``: the club night's whole stack from one command, driven by bench/load_client.py.

Usage: python bench/club_laptop_bench.py [--database-url sqlite|postgres://...] [--tables 32] [--spectators 50]
       [--seconds 240] [--think 2] [--port 8640]

It starts ``python -m config.venue serve`` (what ``make venue`` runs: gunicorn, the Celery worker and the analysis
worker on the filesystem broker, beat, the backups) on a data folder in a temporary directory, on SQLite (the
venue's own, the default) or on a throwaway PostgreSQL database (``--database-url postgres://...``, made and
dropped). Through the project's services it sets up an event with a single-elimination division of ``2 *
--tables`` players (1-point matches entered move by move), makes both entry links of every round-1 match and, per
table, stand-alone matches to play after it. Then, in one load process (bench/load_client.py), for ``--seconds``:

- each table plays its round-1 match, then its stand-alone matches one after another, through
  ``POST /api/matches/{id}/actions/`` with the players' entry links, waiting ``--think`` seconds on average between
  actions (players at a board); the action that ends a match is timed apart;
- each of the 64 phones polls its match's live part every 3 s (``GET /matches/{id}/live/``, with ETags);
- the venue display polls its live part every 10 s and the director's dashboard (logged in) its venue part every
  5 s;
- ``--spectators`` spectators poll (half the division page's three parts every 5 s, half a match's every 3 s);
- a probe reads ``/health/`` once a second.

Then it waits until the broker's folder is empty and the division's standings are current, and checks from the
database that every match's log holds exactly the actions its client was answered 201 (none lost, none twice),
that it replays through the engine, and that the division's results, bracket and standings are in step. It prints
latencies by endpoint (median, p95, p99), statuses and the verdict; it stops the venue (SIGINT, as Ctrl-C) and
removes the folder at the end, also after an error.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from benchdb import database_name, exit_on_sigterm, prepare_database, release_database, setup_django
from games_bench import Server, machine
from load_bench import (
    ACTION,
    SEED,
    check_division,
    check_matches,
    kill_clients,
    percentile,
    report_phase,
    report_problems,
    report_tables,
    report_verdict,
    run_client,
    server_failures,
    spectators,
)
from load_client import ENDING
from report import cpu, heading, load

REPO = Path(__file__).resolve().parent.parent
#: Headers and variables the benchmark's own environment must not pass to the venue.
DROPPED = ("DATABASE_URL", "CELERY_BROKER_URL", "CELERY_RESULT_BACKEND", "CACHE_URL", "DEBUG", "SECRET_KEY")
DIRECTOR = "venue-bench-director"


def port_free(port: int) -> bool:
    with socket.socket() as probe:
        try:
            probe.bind(("0.0.0.0", port))
        except OSError:
            return False
        return True


class Venue(Server):
    """``python -m config.venue serve`` in its own session, its output in a log file (``wait_ready``: /health/)."""

    def __init__(self, folder: Path, port: int, database_url: str | None, log_path: Path) -> None:
        self.folder, self.port, self.log_path = folder, port, log_path
        env = {k: v for k, v in os.environ.items() if k not in DROPPED}
        env.update(
            VENUE_DATA_DIR=str(folder),
            PUBLIC_URL=f"http://127.0.0.1:{port}/",
            DJANGO_SUPERUSER_USERNAME=DIRECTOR,
            DJANGO_SUPERUSER_PASSWORD="venue-bench-not-a-secret",
            DJANGO_SUPERUSER_EMAIL="",
            # Every client here has one address: the API's limits are raised, so that the run measures the stack.
            API_RATE_ANON="1000000/min",
            API_RATE_USER="1000000/min",
            API_RATE_ENTRY_LINK="1000000/min",
        )
        if database_url:
            env["DATABASE_URL"] = database_url
        self.env = env
        self.log = log_path.open("wb")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "config.venue", "serve", "--port", str(port)],
            cwd=REPO,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=self.log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGINT)  # Ctrl-C
            try:
                self.process.wait(timeout=120)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=5)
        self.log.close()


def director_cookie() -> str:
    """A logged-in session of the venue's director, as the dashboard's browser holds it."""
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
    from django.contrib.sessions.backends.db import SessionStore

    user = get_user_model().objects.get(username=DIRECTOR)
    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    return f"sessionid={session.session_key}"


def build(args: argparse.Namespace) -> dict[str, Any]:
    """The event (load_bench's), and per table, after its round-1 match, ``--after`` stand-alone matches."""
    from load_bench import build as build_event

    import games.services
    from games.access import new_entry_token, token_text

    built = build_event(args)
    director = built["director"]
    one, two = (
        games.services.create_player(display_name="Table One"),
        games.services.create_player(display_name="Table Two"),
    )
    plays = []
    for i, table in enumerate(built["tables"]):
        then = []
        for j in range(args.after):
            match = games.services.start_match(player1=one, player2=two, length=args.length, created_by=director)
            tokens = [token_text(new_entry_token(match, side)) for side in (0, 1)]
            then.append({"match": match.pk, "tokens": tokens, "seed": SEED + 5000 + 100 * i + j})
        plays.append([table, *then])
    built["plays"] = plays
    return built


def watchers(args: argparse.Namespace, built: dict[str, Any]) -> list[dict[str, Any]]:
    """The phones, the venue display, the director's dashboard and the spectators."""
    event = built["division"].event.slug
    phones = [
        {"page": built["match_page"](t["match"]), "parts": [built["match_live"](t["match"])], "period": 3.0}
        for t in built["tables"]
        for _ in (0, 1)
    ]
    display = {
        "page": ("GET /display/{e}/", f"/display/{event}/"),
        "parts": [("GET /display/{e}/live/", f"/display/{event}/live/")],
        "period": 10.0,
    }
    dashboard = {
        "page": ("GET /manage/{e}/", f"/manage/{event}/"),
        "parts": [("GET /manage/{e}/live/venue/", f"/manage/{event}/live/venue/")],
        "period": 5.0,
        "headers": {"Cookie": director_cookie()},
    }
    return [*phones, display, dashboard, *spectators(args, built)]


def drain(venue: Venue, division_id: int, timeout: float = 300.0) -> float:
    """Until the broker's folder is empty and the division's standings are current (twice, a second apart)."""
    from tournaments.models import Division

    queue = venue.folder / "broker" / "queue"
    t0 = time.perf_counter()
    calm = 0
    while time.perf_counter() - t0 < timeout:
        if venue.process.poll() is not None:
            raise RuntimeError(f"the venue exited with status {venue.process.returncode}; see {venue.log_path}")
        status = Division.objects.values_list("standings_status", flat=True).get(pk=division_id)
        calm = calm + 1 if not any(queue.iterdir()) and status == Division.Work.CURRENT else 0
        if calm >= 2:
            return time.perf_counter() - t0
        time.sleep(1.0)
    raise RuntimeError(f"the venue's work did not drain in {timeout:.0f} s")


def summary(result: dict[str, Any], samples: Path | None = None) -> None:
    """The action's and the match-ending action's latencies, side by side, and where the ending's median falls
    among the other actions (the share of them slower than it); ``samples``: a JSON file to write both lists to
    (milliseconds), for a comparison of runs read later."""
    timed = {
        label: sorted(ns / 1e6 for e, st, ns in result["samples"] if e == label and st in (200, 201))
        for label in (ACTION, ENDING)
    }
    for label, ms in timed.items():
        if ms:
            print(
                f"  {label}: n {len(ms)}, median {statistics.median(ms):.1f} ms, p95 {percentile(ms, 95):.1f} ms, "
                f"p99 {percentile(ms, 99):.1f} ms"
            )
    if timed[ACTION] and timed[ENDING]:
        middle = statistics.median(timed[ENDING])
        slower = sum(ms > middle for ms in timed[ACTION]) / len(timed[ACTION])
        ratio = middle / statistics.median(timed[ACTION])
        print(
            f"  the ending's median is {ratio:.2f} times the other actions' median; {slower:.0%} of the other "
            "actions took longer than it"
        )
    by_kind = _by_kind(result)
    for (label, kind), ms in sorted(by_kind.items()):
        which = "the ending" if label == ENDING else "other actions"
        print(f"  {which}, {kind}: n {len(ms)}, median {statistics.median(ms):.1f} ms, p90 {percentile(ms, 90):.1f} ms")
    if samples is not None:
        kinds = {f"{'ending' if label == ENDING else 'other'} {kind}": ms for (label, kind), ms in by_kind.items()}
        samples.write_text(json.dumps({"actions": timed[ACTION], "endings": timed[ENDING], "by_kind": kinds}))


def _by_kind(result: dict[str, Any]) -> dict[tuple[str, str], list[float]]:
    """The answered actions' latencies (ms) by (ACTION or ENDING, the action's kind): a roll, a play, a double..."""
    found: dict[tuple[str, str], list[float]] = {}
    samples = result["samples"]
    for index, kind in result.get("kinds", []):
        label, status, ns = samples[index]
        if status in (200, 201):
            found.setdefault((label, kind), []).append(ns / 1e6)
    return {key: sorted(ms) for key, ms in found.items()}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database-url", default="sqlite", help="sqlite (the venue's own) or a throwaway postgres://")
    parser.add_argument("--tables", type=int, default=32, help="tables (round-1 matches; two phones each)")
    parser.add_argument("--spectators", type=int, default=50, help="spectators polling live parts")
    parser.add_argument("--length", type=int, default=1, help="match length in points")
    parser.add_argument("--after", type=int, default=6, help="stand-alone matches a table plays after round 1")
    parser.add_argument("--seconds", type=float, default=240.0, help="seconds of the load phase")
    parser.add_argument("--think", type=float, default=2.0, help="mean seconds a table waits between its actions")
    parser.add_argument("--port", type=int, default=8640, help="the venue's port (every interface)")
    parser.add_argument("--samples", type=Path, help="write the actions' latencies (ms) to this JSON file")
    parser.add_argument("--keep", action="store_true", help="keep the data folder (and a PostgreSQL database)")
    args = parser.parse_args(argv)
    args.baseline_matches, args.racers, args.race_length = 0, 0, 1  # load_bench's build: no baseline, no race
    if not port_free(args.port):
        raise SystemExit(f"port {args.port} is taken: name another with --port")
    exit_on_sigterm()
    postgres = args.database_url != "sqlite"
    created = prepare_database(args.database_url) if postgres else False
    work = Path(tempfile.mkdtemp(prefix="bgmatch-club-laptop-bench-"))
    folder = work / "venue-data"
    venue: Venue | None = None
    running: list[subprocess.Popen[bytes]] = []
    problems: list[str] = []
    started = time.perf_counter()
    try:
        venue = Venue(folder, args.port, args.database_url if postgres else None, work / "venue.log")
        venue.wait_ready(timeout=240.0)
        url = args.database_url if postgres else f"sqlite:///{folder / 'db.sqlite3'}"
        settings = {
            "DEBUG": "0",
            "SECRET_KEY": (folder / "secret_key").read_text().strip(),
            "CELERY_BROKER_URL": f"filesystem://localhost{folder / 'broker'}",
            "PUBLIC_URL": f"http://127.0.0.1:{args.port}/",
        }
        setup_django(url, settings)
        print(f"machine: {machine() if postgres else f'{cpu()}, SQLite {sqlite3.sqlite_version}'}")
        from django.db import connections

        built = build(args)
        connections.close_all()
        where = f"PostgreSQL {database_name(args.database_url)}" if postgres else "SQLite in the venue's data folder"
        print(
            f"venue: python -m config.venue serve on {where}; {args.tables} tables ({2 * args.tables} players, "
            f"{args.length}-point matches move by move, {args.after} stand-alone matches each after round 1)"
        )
        plan = {
            "port": args.port,
            "seed": SEED,
            "think": args.think,
            "phase": "load",
            "seconds": args.seconds,
            "tables": built["plays"],
            "spectators": watchers(args, built),
        }
        heading(
            f"Load: {args.tables} tables (think {args.think:.1f} s), {2 * args.tables} phones polling, the venue "
            f"display, the director's dashboard, {args.spectators} spectators, the health probe; {args.seconds:.0f} s"
        )
        before = load()
        result = run_client(plan, work, "venue", running)
        print(f"  load average at the start: {before[13:]}; at the end: {load()[13:]}")
        report_phase("venue", result, result["wall"])
        problems += server_failures(result, "venue")
        report_problems(result)
        seen = report_tables(result)
        summary(result, args.samples)
        heading("Drain, then checks")
        print(f"  drained {drain(venue, built['division'].pk):.1f} s after the load")
        problems += check_matches(seen) + check_division(built["division"].pk)
        report_verdict(problems, started, "no 5xx, no lost, duplicated or illegal action; division converged")
    finally:
        kill_clients(running)
        if "django" in sys.modules:
            from django.db import connections

            connections.close_all()
        if venue is not None:
            venue.stop()
        if postgres:
            release_database(args.database_url, created, keep=args.keep)
        if args.keep:
            print(f"kept {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
