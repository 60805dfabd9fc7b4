"""Archive: ``import_event`` of one event archive, this checkout side by side with others (bench/README.md,
"Archive").

Usage: python bench/archive_bench.py [--baseline DIR ...] [--players N] [--length N] [--reps N]

What is built (on a throwaway PostgreSQL database, by this checkout's code): a Swiss rehearsal
(``tournaments.simulation.simulate_event``) of ``--players`` players (default 16) whose matches to ``--length``
points (default 3) are played move by move through the services, exported once with ``export_event``. What is
timed: ``import_event`` of that archive, in one process per checkout (this one and each ``--baseline``, a checkout
of the code before a change) on a database of its own migrated by its own code, ``--reps`` times (default 5) after
one warm-up, each import under a new address. The children run one after another, ``--rounds`` times (default 2),
so that the machine's load falls on every checkout alike. Printed: every import's wall and CPU time (this process
only; the server's is not counted) and the medians.

The databases are named after ``--database-url`` (default ``DATABASE_URL``, else
``postgres://postgres@127.0.0.1:5432/bgmatch_bench_archive``), with ``_build`` and ``_<n>`` appended, and dropped at
the end, also after an error or Ctrl-C.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchdb import REPO, environment, exit_on_sigterm, prepare_database, release_database, setup_django
from report import cpu, heading, load

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/bgmatch_bench_archive"
ENVIRONMENT = environment("archive")


def build(url: str, path: Path, players: int, length: int) -> None:
    """Play the rehearsal on ``url`` and write its archive to ``path``."""
    created = prepare_database(url)
    try:
        setup_django(url, ENVIRONMENT)
        from tournaments.models import Event
        from tournaments.services.archive import export_event
        from tournaments.simulation import simulate_event

        simulate_event(format="swiss", players=players, seed=7, entry_mode="moves", match_length=length)
        path.write_bytes(export_event(Event.objects.latest("id")))
    finally:
        release_database(url, created, keep=False)


def child(url: str, root: Path, path: Path, reps: int) -> None:
    """Time ``reps`` imports of the archive at ``path`` with the code of ``root``; print one JSON line each."""
    created = prepare_database(url)
    try:
        setup_django(url, ENVIRONMENT, root=root)
        from django.contrib.auth import get_user_model

        from common.actor import Actor
        from tournaments.services.archive import import_event

        data = path.read_bytes()
        actor = Actor(user=get_user_model().objects.create_user(username="archivist", password=None))
        import_event(data, slug="warm-up", actor=actor)
        for n in range(reps):
            wall, used = time.perf_counter(), time.process_time()
            import_event(data, slug=f"copy-{n}", actor=actor)
            print(json.dumps({"wall": time.perf_counter() - wall, "cpu": time.process_time() - used}), flush=True)
    finally:
        release_database(url, created, keep=False)


def database(url: str, suffix: str) -> str:
    return url.rstrip("/") + suffix


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database-url", default=os.environ.get("DATABASE_URL") or DEFAULT_DATABASE_URL)
    parser.add_argument("--baseline", action="append", default=[], help="another checkout to time the same way")
    parser.add_argument("--players", type=int, default=16)
    parser.add_argument("--length", type=int, default=3)
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--child", nargs=2, metavar=("ROOT", "ARCHIVE"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    exit_on_sigterm()
    if args.child:
        child(args.database_url, Path(args.child[0]), Path(args.child[1]), args.reps)
        return
    heading(f"Archive: import_event, {args.players} players, matches to {args.length}; {cpu()}")
    roots = [REPO, *(Path(b).resolve() for b in args.baseline)]
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "event.zip"
        build(database(args.database_url, "_build"), path, args.players, args.length)
        print(f"archive: {path.stat().st_size:,} bytes")
        times: dict[Path, list[dict[str, float]]] = {root: [] for root in roots}
        for round_ in range(args.rounds):
            for n, root in enumerate(roots):
                command = [sys.executable, __file__, "--child", str(root), str(path), "--reps", str(args.reps)]
                command += ["--database-url", database(args.database_url, f"_{n}")]
                run = subprocess.run(command, check=True, capture_output=True, text=True, cwd=root)
                lines = [json.loads(text) for text in run.stdout.splitlines() if text.startswith("{")]
                times[root] += lines
                walls = ", ".join(f"{line['wall']:.3f}" for line in lines)
                print(f"round {round_ + 1} {root.name}: wall {walls} s; {load()}")
    for root, runs in times.items():
        wall = statistics.median(r["wall"] for r in runs)
        used = statistics.median(r["cpu"] for r in runs)
        print(f"median {root}: wall {wall:.3f} s, CPU {used:.3f} s")


if __name__ == "__main__":
    main()
