"""Import: ``python manage.py import_matches`` over the corpus, side by side with ``python -m engine check`` over
the same files, and optionally with the import of another checkout (the code before a change) in the same run
(bench/README.md, "Import").

Usage: python bench/import_bench.py [--corpus DIR] [--baseline DIR ...] [--jobs N ...] [--reps N]
[--database-url postgres://...]

Each repetition runs, for this checkout and then for each ``--baseline`` (a checkout of the code to compare with,
e.g. ``git worktree add /tmp/before <commit>``; the option may be given more than once): the check command over
every corpus file, then the import command over the same files into an emptied database. Both are separate
processes, timed by the wall clock from start to exit (Python's and Django's start-up included, as a director
running them pays); the import's own summary line gives its time without the start-up ("... in S s"). Printed:
each run, then the medians and the ratios import / check (the goal: at most 1.5) and, for each baseline,
baseline / this (the goal: at least 4); and the CPU time of each process (user and system, its worker processes
included; the database server's is not counted), which a busy machine disturbs less than the wall clock. With
``--jobs N`` (may be given more than once) this checkout's import is also run as ``import_matches --jobs N`` in
every repetition, just after its import as a director runs it (no option), in the same database.

The script creates the database named in ``--database-url`` (default ``DATABASE_URL``, else
``postgres://postgres@127.0.0.1:5432/bgmatch_bench_import``) for this checkout and one beside it for each
baseline (its name with ``_b1``, ``_b2``, ...), migrates each with its own checkout (an older checkout has the
schema its code writes), empties its tables before every import and drops them at the end, also after an error
or Ctrl-C. A database that already exists is used only if it has no tables.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from benchdb import REPO, database_name, environment, exit_on_sigterm, prepare_database, release_database
from report import cpu, heading, load

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/bgmatch_bench_import"
DEFAULT_CORPUS = REPO.parent / "shared" / "corpus" / "mat"
ENVIRONMENT = environment("import")
SUMMARY = re.compile(r"(\d+) imported, (\d+) invalid, (\d+) unreadable in ([\d.]+) s")
TABLES = "games_action, games_game, games_entrytoken, games_match, games_player"


@dataclass
class Runs:
    """The times of one checkout, in seconds: the check, the import, the import without its start-up (wall clock);
    the CPU time of the check's and the import's processes."""

    label: str
    check: list[float] = field(default_factory=list)
    import_: list[float] = field(default_factory=list)
    inside: list[float] = field(default_factory=list)
    check_cpu: list[float] = field(default_factory=list)
    import_cpu: list[float] = field(default_factory=list)


def corpus_files(corpus: Path) -> list[str]:
    files = sorted(str(p) for p in corpus.rglob("*") if p.is_file() and p.suffix.lower() in (".mat", ".txt"))
    if not files:
        raise SystemExit(f"no .mat or .txt files under {corpus}: name the corpus with --corpus")
    return files


def timed(command: Sequence[str], cwd: Path, env: dict[str, str]) -> tuple[float, float, str]:
    """Run ``command`` in ``cwd``; its wall-clock time, its CPU time (user and system, of the process alone: not
    the database server's) and its standard output (an error stops the benchmark)."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, check=False)
    elapsed = time.perf_counter() - started
    now = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1):  # the check exits 1 for an invalid file: still timed
        raise SystemExit(f"{' '.join(command[:4])} ... in {cwd} exited {done.returncode}: {done.stderr[-2000:]}")
    return elapsed, now.ru_utime + now.ru_stime - used.ru_utime - used.ru_stime, done.stdout


def empty_tables(url: str) -> None:
    import psycopg
    from benchdb import _database_url

    with psycopg.connect(_database_url(url), autocommit=True) as conn:
        conn.execute(f"TRUNCATE {TABLES} RESTART IDENTITY CASCADE")


def run_once(runs: Runs, tree: Path, files: list[str], url: str, options: Sequence[str] = ()) -> None:
    env = {**os.environ, **ENVIRONMENT, "DATABASE_URL": url, "PYTHONPATH": str(tree)}
    check, check_cpu, _ = timed([sys.executable, "-m", "engine", "check", *files], tree, env)
    empty_tables(url)
    imported, import_cpu, out = timed([sys.executable, "manage.py", "import_matches", *options, *files], tree, env)
    found = SUMMARY.search(out.strip().splitlines()[-1] if out.strip() else "")
    if found is None or int(found[1]) != len(files):
        raise SystemExit(f"the import in {tree} did not import every file: {out[-500:]}")
    runs.check.append(check)
    runs.import_.append(imported)
    runs.inside.append(float(found[4]))
    runs.check_cpu.append(check_cpu)
    runs.import_cpu.append(import_cpu)
    print(
        f"  {runs.label:<10} check {check:6.2f} s   import {imported:6.2f} s (inside the command {found[4]} s)"
        f"   import/check x{imported / check:.2f}   CPU: check {check_cpu:5.2f} s, import {import_cpu:5.2f} s"
        f" (x{import_cpu / check_cpu:.2f})   ({load()})",
        flush=True,
    )


def summary(all_runs: list[Runs]) -> None:
    heading("medians")
    for runs in all_runs:
        check, imported, inside = (statistics.median(v) for v in (runs.check, runs.import_, runs.inside))
        print(
            f"  {runs.label:<10} check {check:6.2f} s   import {imported:6.2f} s (inside {inside:5.2f} s)"
            f"   import/check x{imported / check:.2f} (median of the runs' ratios"
            f" x{statistics.median(i / c for i, c in zip(runs.import_, runs.check, strict=True)):.2f})"
            f"   CPU: check {statistics.median(runs.check_cpu):5.2f} s,"
            f" import {statistics.median(runs.import_cpu):5.2f} s"
        )
    this = all_runs[0]
    for before in all_runs[1:]:
        ratios = [b / t for b, t in zip(before.import_, this.import_, strict=True)]
        inside = [b / t for b, t in zip(before.inside, this.inside, strict=True)]
        print(
            f"  import, {before.label} / this: x{statistics.median(ratios):.2f} (runs: "
            f"{', '.join(f'x{r:.2f}' for r in ratios)}); without the start-up x{statistics.median(inside):.2f};"
            f" CPU x{statistics.median(b / t for b, t in zip(before.import_cpu, this.import_cpu, strict=True)):.2f}"
        )


def _beside(url: str, n: int) -> str:
    """The URL of the database of the ``n``-th baseline: ``url``'s database name with ``_b<n>``."""
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path=f"{parts.path}_b{n}"))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS, help="the match logs (default: the corpus)")
    parser.add_argument(
        "--baseline",
        type=Path,
        action="append",
        default=[],
        help="a checkout of the code to compare with, run side by side (may be given more than once)",
    )
    parser.add_argument(
        "--jobs",
        type=int,
        action="append",
        default=[],
        help="also run this checkout's import with --jobs N (may be given more than once)",
    )
    parser.add_argument("--reps", type=int, default=3, help="repetitions (default 3)")
    parser.add_argument(
        "--database-url",
        default=os.environ.get("DATABASE_URL") or DEFAULT_DATABASE_URL,
        help="a PostgreSQL database (made and dropped; default: DATABASE_URL)",
    )
    args = parser.parse_args(argv)
    if args.reps < 1:
        parser.error("--reps must be 1 or more")
    for baseline in args.baseline:
        if not (baseline / "manage.py").is_file():
            parser.error(f"--baseline {baseline} is not a checkout of the project (no manage.py)")
    files = corpus_files(args.corpus)
    exit_on_sigterm()
    if any(jobs < 1 for jobs in args.jobs):
        parser.error("--jobs must be 1 or more")
    runs_of: list[tuple[str, Path, str, list[str]]] = [("this", REPO, args.database_url, [])]
    runs_of += [(f"jobs {jobs}", REPO, args.database_url, ["--jobs", str(jobs)]) for jobs in args.jobs]
    runs_of += [
        (f"baseline{n}" if len(args.baseline) > 1 else "baseline", tree.resolve(), _beside(args.database_url, n), [])
        for n, tree in enumerate(args.baseline, start=1)
    ]
    trees = list(dict.fromkeys((tree, url) for _, tree, url, _ in runs_of))  # each database once
    made: list[tuple[str, bool]] = []
    try:
        for tree, url in trees:
            made.append((url, prepare_database(url, reuse_empty=True)))
            env = {**os.environ, **ENVIRONMENT, "DATABASE_URL": url, "PYTHONPATH": str(tree)}
            subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=tree, env=env, check=True)
        print(f"import bench: {cpu()}; Python {sys.version.split()[0]}; {len(files)} files from {args.corpus}")
        print(f"databases {', '.join(database_name(url) for _, url in trees)}: migrated ({load()})", flush=True)
        all_runs = [Runs(label) for label, _, _, _ in runs_of]
        for rep in range(1, args.reps + 1):
            heading(f"run {rep} of {args.reps}")
            for runs, (_, tree, url, options) in zip(all_runs, runs_of, strict=True):
                run_once(runs, tree, files, url, options)
        summary(all_runs)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    finally:
        for url, created in made:
            release_database(url, created, keep=False)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
