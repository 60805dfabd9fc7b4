"""Analysis by GNU Backgammon: how many matches a CPU analyses per minute, how long a round takes, where the time goes.

Part 1 (no database): the worker's gnubg driver (games/analysis/engine.py) is fed the corpus's .mat files one after
the other, as a worker's long-lived gnubg is. For each match it records the CPU time gnubg used (from
/proc/PID/stat) and, inside gnubg, the .mat import, the analysis and the report; the process start is timed
apart (three starts). Matches per CPU-minute = matches / gnubg's CPU minutes.

Part 2 (PostgreSQL and Redis): a round of 32 seven-point matches of the corpus is imported into a throwaway
database, and the 32 analysis tasks are sent to a queue of their own; a real Celery worker (prefork) with one pool
process, then one with two, analyses them at 0 plies. The time is from the first task sent to the last analysis
stored, worker start excluded (each pool process starts its gnubg on its first match: included).

    python bench/analysis_bench.py                                      # part 1 only
    python bench/analysis_bench.py --database-url postgres://postgres@127.0.0.1:5432/bgmatch_bench_analysis \\
        --broker-url redis://127.0.0.1:6379/11                         # parts 1 and 2
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import benchdb

CORPUS = benchdb.REPO.parent / "shared" / "corpus" / "mat"
TICKS = os.sysconf("SC_CLK_TCK")


def corpus_files(corpus: Path, length: int | None = None) -> list[Path]:
    """The valid logs of the corpus (as ``python -m engine check`` says), of one match length if given."""
    from engine.formats.check import check_file

    files = sorted(p for p in corpus.rglob("*") if p.suffix in (".mat", ".txt"))
    out = []
    for path in files:
        report, _, _ = check_file(path, shown_as=str(path))
        if report["ok"] and (length is None or report["match_length"] == length):
            out.append(path)
    return out


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS  # utime, stime


def part1(files: list[Path], plies: int) -> dict[str, float]:
    from games.analysis.engine import Gnubg, gnubg_path

    starts = []
    for _ in range(3):
        gnubg = Gnubg(path=gnubg_path(), timeout=3600)
        began = time.perf_counter()
        gnubg._start()
        starts.append(time.perf_counter() - began)
        gnubg.close()
    gnubg = Gnubg(path=gnubg_path(), timeout=3600)
    cpu, wall, inside = 0.0, 0.0, {"import": 0.0, "analysis": 0.0, "report": 0.0}
    for path in files:
        text = path.read_text(encoding="utf-8-sig", errors="replace")
        if gnubg.process is None:
            gnubg._start()
        assert gnubg.process is not None
        before = cpu_seconds(gnubg.process.pid)
        began = time.perf_counter()
        gnubg.analyse(text, plies=plies)
        wall += time.perf_counter() - began
        cpu += cpu_seconds(gnubg.process.pid) - before
        for key in inside:
            inside[key] += gnubg.timings.inside.get(key, 0.0)
    gnubg.close()
    n = len(files)
    return {
        "plies": plies,
        "matches": n,
        "cpu_s": cpu,
        "wall_s": wall,
        "per_cpu_minute": n / (cpu / 60) if cpu else float("inf"),
        "start_s": statistics.median(starts),
        **{f"{k}_s": v for k, v in inside.items()},
        "transfer_s": wall - sum(inside.values()),
    }


def part2(url: str, broker: str, files: list[Path], concurrency: int) -> float:
    from django.core.management import call_command

    from games.models import Match, MatchAnalysis
    from games.tasks import analyse_match as analyse_match_task

    if not Match.objects.exists():
        for path in files:
            call_command("import_matches", str(path), stdout=open(os.devnull, "w"))  # noqa: SIM115
    MatchAnalysis.objects.all().delete()
    ids = list(Match.objects.order_by("id").values_list("id", flat=True))
    queue = f"bench-analysis-{uuid.uuid4().hex[:8]}"
    env = {**os.environ, "DATABASE_URL": url, "CELERY_BROKER_URL": broker, "CONN_MAX_AGE": "0"}
    command = [
        sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=prefork", f"--concurrency={concurrency}",
        "--queues", queue, "--hostname", f"{queue}@%h", "--without-gossip", "--without-mingle",
        "--without-heartbeat", "--loglevel=WARNING",
    ]  # fmt: skip
    log = Path(f"/tmp/{queue}.log")
    with log.open("wb") as out:
        worker = subprocess.Popen(command, cwd=benchdb.REPO, env=env, stdout=out, stderr=subprocess.STDOUT)
    try:
        from config.celery import app

        deadline = time.monotonic() + 120
        while not app.control.inspect(destination=[f"{queue}@{os.uname().nodename}"], timeout=1).ping():
            if time.monotonic() > deadline or worker.poll() is not None:
                raise SystemExit(f"the worker did not start; its log:\n{log.read_text()}")
        began = time.perf_counter()
        for match_id in ids:
            analyse_match_task.apply_async((match_id, 0), queue=queue)
        while MatchAnalysis.objects.filter(status=MatchAnalysis.Status.DONE).count() < len(ids):
            if worker.poll() is not None:
                raise SystemExit(f"the worker died; its log:\n{log.read_text()}")
            time.sleep(0.05)
        return time.perf_counter() - began
    finally:
        worker.terminate()
        worker.wait(timeout=60)
        log.unlink(missing_ok=True)


def report(r: dict[str, float]) -> None:
    n = r["matches"]

    def ms(key: str) -> str:
        return f"{r[key] / n * 1000:.0f} ms"

    print(
        f"{r['plies']:.0f} plies: {n:.0f} matches, {r['cpu_s']:.1f} s of gnubg CPU, "
        f"{r['per_cpu_minute']:.1f} matches per CPU-minute; per match: import {ms('import_s')}, "
        f"analysis {ms('analysis_s')}, report {ms('report_s')}, to and from gnubg {ms('transfer_s')}; "
        f"process start {r['start_s'] * 1000:.0f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--zero-ply-files", type=int, default=40, help="corpus files analysed at 0 plies")
    parser.add_argument("--two-ply-files", type=int, default=3, help="corpus files analysed at 2 plies")
    parser.add_argument("--database-url", help="a throwaway PostgreSQL database for part 2 (created and dropped)")
    parser.add_argument("--broker-url", help="the Redis broker for part 2")
    args = parser.parse_args()
    benchdb.exit_on_sigterm()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    if str(benchdb.REPO) not in sys.path:
        sys.path.insert(0, str(benchdb.REPO))
    url = args.database_url
    created = benchdb.prepare_database(url) if url else False
    try:
        settings = benchdb.environment("analysis", CELERY_BROKER_URL=args.broker_url or "")
        if url:
            benchdb.setup_django(url, settings)
        else:
            os.environ.update(settings)
            import django

            django.setup()
        files = corpus_files(args.corpus)
        zero = files[:: max(1, len(files) // max(1, args.zero_ply_files))][: args.zero_ply_files]
        two = files[:: max(1, len(files) // max(1, args.two_ply_files))][: args.two_ply_files]
        for plies, chosen in ((0, zero), (2, two)):
            report(part1(chosen, plies))
        if url and args.broker_url:
            sevens = corpus_files(args.corpus, length=7)
            round_files = (sevens * 2)[:32]
            for concurrency in (1, 2):
                seconds = part2(url, args.broker_url, round_files, concurrency)
                print(f"a round of 32 seven-point matches at 0 plies, {concurrency} pool process(es): {seconds:.1f} s")
    finally:
        if url:
            benchdb.release_database(url, created, keep=False)


if __name__ == "__main__":
    main()
