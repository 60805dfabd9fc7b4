"""Round robins started committed: ``start_division`` of a round robin with its COMMIT (the deferred foreign-key
checks included), side by side with another checkout (the code before a change) in the same run (bench/README.md,
"Round robins started committed").

Usage: python bench/round_robin_bench.py [--baseline DIR] [--reps N] [--fields 200,500,350d] [--database-url ...]

Each field (``N`` players, ``Nd`` for a double round robin) is started ``--reps`` times (3) by this checkout and,
with ``--baseline`` (a checkout of the code to compare with, e.g. ``git worktree add /tmp/before <commit>``), by
that one, the two alternating run by run so that both see the same load. Every start is a separate process
(``--child``) on the database of its checkout: it registers the players (inserted in bulk), then times one call of
``start_division`` made outside any transaction, so that the time ends with the service's COMMIT; the rows are
then deleted. Printed with every start: the load average before it, and the CPU time it took in this process and
in the server's process serving it (read from /proc: with the server on the same machine), which a busy machine
stretches less than the wall-clock time. After each start, round 1's first three matches are forfeited one by one
and the division's sync that takes each result is timed (committed), as the follow-up task runs it after every
result. Printed at the end: the medians and baseline / this, of the starts and of the syncs.

The script creates one database per checkout (``--database-url``, default ``DATABASE_URL``, else
``postgres://postgres@127.0.0.1:5432/bgmatch_bench_rr``; the baseline's with ``_base`` appended), each migrated
by its own checkout, and drops them at the end, also after an error or Ctrl-C.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
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
from report import cpu, load

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/bgmatch_bench_rr"
ENVIRONMENT = environment("round-robin")
#: Results entered after each start, each followed by the sync that takes it, timed.
SYNCS = 3
#: What a start leaves, emptied after it (the players and the event's rows go with them).
TABLES = (
    "tournaments_pairing, games_match, tournaments_table, tournaments_round, tournaments_entry, tournaments_division, "
    "tournaments_event, games_player"
)


def parse_field(text: str) -> tuple[int, bool]:
    double = text.endswith("d")
    return int(text.rstrip("d")), double


def child(root: Path, url: str, players: int, double: bool) -> None:
    """One committed start by the checkout at ``root``; prints one JSON line."""
    setup_django(url, ENVIRONMENT, root=root)
    disconnect_division_followups()
    import random

    from django.contrib.auth import get_user_model
    from django.db import connection

    from common.actor import Actor
    from games.models import Player
    from tournaments import services
    from tournaments.models import Entry, Pairing

    if not Path(services.__file__).resolve().is_relative_to(root.resolve()):
        raise SystemExit(f"the start would time {services.__file__}, not the checkout at {root}")

    user, _ = get_user_model().objects.get_or_create(username="round-robin-bench")
    actor = Actor(user=user)
    event = services.create_event(actor=actor, name=f"Round robin {players}")
    division = services.create_division(
        event,
        actor=actor,
        settings=services.DivisionSettings(
            name="Round robin", format="round-robin", match_length=5, double_round_robin=double
        ),
    )
    rng = random.Random(players)
    people = Player.objects.bulk_create(Player(display_name=f"Player {i:05d}") for i in range(1, players + 1))
    Entry.objects.bulk_create(Entry(division=division, player=p, rating=round(rng.gauss(1500, 150))) for p in people)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
        cursor.execute("SELECT pg_backend_pid()")
        (backend,) = cursor.fetchone()
    before = load()
    server0, client0, t0 = server_cpu(backend), time.process_time(), time.perf_counter()
    services.start_division(division, actor=actor)  # its own transaction: the time ends with the COMMIT
    seconds = time.perf_counter() - t0
    client, server = time.process_time() - client0, server_cpu(backend) - server0
    pairings = Pairing.objects.filter(division=division).count()
    syncs = [_result_synced(division, board) for board in range(1, SYNCS + 1)]
    with connection.cursor() as cursor:
        cursor.execute(f"TRUNCATE {TABLES} CASCADE")
    out = {"seconds": seconds, "client": client, "server": server, "pairings": pairings, "load": before}
    print(json.dumps(out | {"syncs": syncs}))


def _result_synced(division: Any, board: int) -> float:
    """Round 1's match at ``board`` forfeited (its result in), then the seconds of the division's sync that takes it
    (its own transaction, committed), as the follow-up task runs it after every result."""
    from common.actor import SYSTEM
    from games import services as games
    from tournaments import services
    from tournaments.models import Pairing

    pairing = Pairing.objects.get(division=division, round__number=1, board=board)
    games.forfeit_match(pairing.match_id, actor=SYSTEM, loser_side=1, reason="the bench's result")
    t0 = time.perf_counter()
    services.sync_division(division.pk)
    return time.perf_counter() - t0


def server_cpu(pid: int) -> float:
    """The CPU seconds (user and system) the server's process ``pid`` has used, read from /proc: the server runs on
    this machine. NaN when it cannot be read (a server elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return math.nan
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def run_child(root: Path, url: str, players: int, double: bool) -> dict[str, object]:
    command = [sys.executable, str(Path(__file__).resolve()), "--child", str(root), "--database-url", url]
    command += ["--fields", f"{players}{'d' if double else ''}"]
    # In the checkout's own folder: Celery puts the working folder first on sys.path as it loads, so a child run from
    # another checkout would time that one's code.
    done = subprocess.run(command, cwd=root, capture_output=True, text=True, check=False)
    if done.returncode:
        raise SystemExit(f"the start by {root} failed:\n{done.stdout}{done.stderr}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--database-url", default=os.environ.get("DATABASE_URL", DEFAULT_DATABASE_URL))
    parser.add_argument("--baseline", type=Path, help="another checkout to time side by side")
    parser.add_argument("--reps", type=int, default=3, help="starts of each field by each checkout (3)")
    parser.add_argument("--fields", default="200,500,350d", help="players per field, d for double (200,500,350d)")
    parser.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    fields = [parse_field(f) for f in args.fields.split(",") if f]
    if args.child:
        (players, double), *_ = fields
        child(args.child, args.database_url, players, double)
        return 0
    exit_on_sigterm()
    checkouts = [("this", REPO, args.database_url)]
    if args.baseline:
        checkouts.append(("baseline", args.baseline.resolve(), f"{args.database_url}_base"))
    for label, root, _url in checkouts:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=root, capture_output=True, text=True)
        print(f"{label}: {root} at {commit.stdout.strip() or 'unknown commit'}")
    print(f"machine: {cpu()}; {load()}")
    created = {url: prepare_database(url, reuse_empty=True) for _label, _root, url in checkouts}
    times: dict[tuple[str, int, bool], list[float]] = {}
    cpus: dict[tuple[str, int, bool], list[float]] = {}
    syncs: dict[tuple[str, int, bool], list[float]] = {}
    try:
        for players, double in fields:
            for rep in range(1, args.reps + 1):
                for label, root, url in checkouts:
                    out = run_child(root, url, players, double)
                    seconds, client, server = (float(str(out[k])) for k in ("seconds", "client", "server"))
                    times.setdefault((label, players, double), []).append(seconds)
                    cpus.setdefault((label, players, double), []).append(client + server)
                    synced = [float(x) for x in out["syncs"]]  # type: ignore[attr-defined]
                    syncs.setdefault((label, players, double), []).extend(synced)
                    kind = "double round robin" if double else "round robin"
                    print(
                        f"  {players} players, {kind}, start {rep}, {label}: {seconds:.2f} s; CPU: this process "
                        f"{client:.2f} s, the server's {server:.2f} s ({out['pairings']} pairings; before it: "
                        f"{out['load']}); a result's sync: {', '.join(f'{x:.3f}' for x in synced)} s",
                        flush=True,
                    )
        print("\nmedians (committed start_division, COMMIT included; CPU: this process and the server's together):")
        for players, double in fields:
            key = ("this", players, double)
            this, this_cpu = statistics.median(times[key]), statistics.median(cpus[key])
            this_sync = statistics.median(syncs[key])
            line = f"  {players}{' double' if double else ''}: this {this:.2f} s (CPU {this_cpu:.2f} s)"
            sync_line = f"  {players}{' double' if double else ''}, a result's sync: this {this_sync:.3f} s"
            if args.baseline:
                key = ("baseline", players, double)
                base, base_cpu = statistics.median(times[key]), statistics.median(cpus[key])
                line += f", baseline {base:.2f} s (CPU {base_cpu:.2f} s), baseline / this {base / this:.2f}"
                line += f" (CPU {base_cpu / this_cpu:.2f})"
                base_sync = statistics.median(syncs[key])
                sync_line += f", baseline {base_sync:.3f} s, baseline / this {base_sync / this_sync:.1f}"
            print(line)
            print(sync_line)
        print(f"\ndone ({load()})")
    finally:
        for url, made in created.items():
            print(f"dropping {database_name(url)}")
            release_database(url, made, keep=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
