"""Spectators at championship scale: the same load through the nginx of deploy/nginx/ and straight at the app, side by
side (bench/README.md, "Through the proxy").

Usage: python bench/proxy_bench.py [--mode both|proxy|direct] [--spectators N] [--tables N] [--seconds S] ...

Each mode runs on its own throwaway PostgreSQL database (``--database-url``, made and dropped) and Redis database
(``--redis-url``, emptied at start and end), with the stack of bench/load_bench.py (gunicorn with
config/gunicorn_conf.py, ``--workers`` sync workers, a Celery worker, DEBUG off, CONN_MAX_AGE 60, the cache in
Redis) and the event it builds: a single-elimination division of ``2 * --tables`` players whose round-1 matches
(``--tables``) are played move by move through the JSON API with the players' entry links, as fast as the app
answers (bench/load_client.py's tables). Meanwhile ``--spectators`` spectators (bench/proxy_client.py) each load one
page and poll its live parts at the page's own period: two in five the division page (its standings, pairings and
bracket, every 5 s), two in five a match page (one of the 32, every 3 s), one in five the venue display (every
10 s). In ``proxy`` mode everything (tables and spectators) goes to nginx over TLS, which proxies to gunicorn; in
``direct`` mode straight to gunicorn. ``both`` runs ``proxy`` then ``direct`` and prints them side by side.

What it reports per mode: requests a second served at the front (the clients' count) and at the app (gunicorn's
access log), p50 and p95 at the front by kind of request (of the requests answered), the errors (no answer within
20 s, a 5xx, an unexpected status), the app's live-part requests per live-part address per second (1.0: one
request per address per second, whatever the number of spectators), and in proxy mode nginx's own time per
request (its access log's ``$request_time``) by cache status. Everything listens on 127.0.0.1 only
(``--port-base``: three ports from it, else the system's). The whole run is bounded by ``--seconds`` per mode,
plus the set-up.
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
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from benchdb import exit_on_sigterm, prepare_database, release_database, setup_django
from games_bench import free_port, machine
from load_bench import (
    BENCH_DIR,
    OWN_KEYS,
    REPO,
    SEED,
    Process,
    build,
    percentile,
    redis_client,
    stack_env,
    start_worker,
    wait_web,
    wait_worker,
)
from report import heading, load

#: The options a ``both`` run passes on to each mode's run.
OPTIONS = ("database_url", "redis_url", "tables", "spectators", "seconds", "connections", "length", "think", "workers",
           "worker_concurrency", "nginx_workers", "port_base")  # fmt: skip
DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/bgmatch_proxy_bench"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/14"
ACCESS = re.compile(r"\[(\d\d/\w+/\d{4}:\d\d:\d\d:\d\d) [^\]]*\] \\?\"(GET|POST|HEAD) (\S+) HTTP")


def spectator_plans(args: argparse.Namespace, built: dict[str, Any], display: str) -> list[dict[str, Any]]:
    out = []
    tables = built["tables"]
    for i in range(args.spectators):
        kind = i % 5
        if kind in (0, 1):
            spec = {"page": built["division_page"], "part_label": "GET /events/{e}/{d}/live/{part}/", "period": 5.0}
        elif kind in (2, 3):
            match = tables[(i // 5 * 2 + kind - 2) % len(tables)]["match"]
            spec = {"page": built["match_page"](match), "part_label": "GET /matches/{id}/live/", "period": 3.0}
        else:
            spec = {"page": ("GET /display/{e}/", display), "part_label": "GET /display/{e}/live/", "period": 10.0}
        out.append(spec)
    return out


def start_web(args: argparse.Namespace, env: dict[str, str], logs: Path, port: int) -> Process:
    web_env = {**env, "WEB_BIND": f"127.0.0.1:{port}", "WEB_WORKERS": str(args.workers), "WEB_THREADS": "1"}
    command = [sys.executable, "-m", "gunicorn", "config.wsgi:application", "--config", "config/gunicorn_conf.py"]
    return Process("gunicorn", command, web_env, logs / "web.log")


def app_requests(log_path: Path, start: int) -> list[tuple[str, str, str]]:
    """(second, method, path) of each request gunicorn logged after byte ``start`` of its log."""
    with log_path.open("rb") as f:
        f.seek(start)
        text = f.read().decode("utf-8", "replace")
    return [(m.group(1), m.group(2), m.group(3)) for m in ACCESS.finditer(text)]


def kind_of(method: str, path: str) -> str:
    if path.startswith("/api/"):
        return "tables (API)"
    if "/live/" in path:
        return "live parts"
    if path.startswith("/health/"):
        return "health"
    return "pages"


def summarise(result: dict[str, Any], app: list[tuple[str, str, str]], wall: float) -> dict[str, Any]:
    by_label: dict[str, list[float]] = {}
    statuses: Counter[str] = Counter()
    errors: Counter[str] = Counter()
    for label, status, ns in result["samples"]:
        statuses[str(status)] += 1
        if status != "network":  # the times of the requests answered
            by_label.setdefault(label, []).append(ns / 1e6)
        if status == "network" or int(status) >= 500 or int(status) not in (200, 201, 304):
            errors[f"{label} {status}"] += 1
    spectator_ms = sorted(v for label, vs in by_label.items() if not label.startswith("POST") for v in vs)
    kinds = Counter(kind_of(method, path) for _, method, path in app)
    live = [(second, path) for second, _, path in app if "/live/" in path]
    per_address = len(live) / len(set(live)) if live else float("nan")
    return {
        "wall": wall,
        "front_requests": len(result["samples"]),
        "front_rps": len(result["samples"]) / wall,
        "app_requests": len(app),
        "app_rps": len(app) / wall,
        "app_by_kind_rps": {k: v / wall for k, v in sorted(kinds.items())},
        "app_live_per_address_second": per_address,
        "live_addresses_per_second": len(set(live)) / wall if live else 0.0,
        "spectators_p50": statistics.median(spectator_ms) if spectator_ms else float("nan"),
        "spectators_p95": percentile(spectator_ms, 95),
        "by_label": {
            label: {"n": len(vs), "p50": statistics.median(vs), "p95": percentile(sorted(vs), 95)}
            for label, vs in sorted(by_label.items())
        },
        "statuses": dict(statuses),
        "errors": dict(errors),
        "problems": result["problems"][:5],
        "client_cpu": result["cpu"],
        "tables_finished": sum(
            1 for t in result["tables"] for m in t if m["last"] and m["last"]["status"] == "finished"
        ),
    }


def nginx_figures(log_path: Path) -> dict[str, Any]:
    """From nginx's access log (deploy/nginx/local.py's format: msec, status, cache status, request time, request):
    how each request was answered, and the time nginx took for it, p50 and p95 (ms), all and by cache status."""
    rows = [line.split(" ", 4) for line in log_path.read_text().splitlines()]
    times: dict[str, list[float]] = {}
    for _, _, cache, seconds, _ in rows:
        times.setdefault(cache, []).append(float(seconds) * 1000)
        times.setdefault("all", []).append(float(seconds) * 1000)
    return {
        "nginx_cache_status": {k: len(v) for k, v in times.items() if k != "all"},
        "nginx_ms": {k: (statistics.median(v), percentile(sorted(v), 95)) for k, v in sorted(times.items())},
    }


def run_mode(args: argparse.Namespace) -> dict[str, Any]:
    sys.path.insert(0, str(REPO))
    from deploy.nginx.local import LocalNginx, nginx_missing

    if args.mode == "proxy" and nginx_missing():
        raise SystemExit(f"proxy mode: {nginx_missing()}")
    r = redis_client(args.redis_url)
    foreign = [key for key in r.scan_iter(count=1000) if not key.startswith(OWN_KEYS) and b":1:" not in key]
    if foreign:
        raise SystemExit(f"{args.redis_url} holds other data ({foreign[0]!r}...): name an unused Redis database")
    r.flushdb()
    created = prepare_database(args.database_url)
    work = Path(tempfile.mkdtemp(prefix=f"bgmatch-proxy-{args.mode}-"))
    env = stack_env(args, work / "static")
    processes: list[Process] = []
    running: list[subprocess.Popen[bytes]] = []
    nginx: Any = None
    ports = [args.port_base + i for i in range(3)] if args.port_base else [free_port() for _ in range(3)]
    try:
        setup_django(args.database_url, env)
        from django.core.management import call_command
        from django.db import connections
        from django.urls import reverse

        call_command("collectstatic", interactive=False, verbosity=0)
        built = build(args)
        display = reverse("tournaments:event-display", args=[built["division"].event.slug])
        connections.close_all()
        web = start_web(args, env, work, ports[0])
        processes.append(web)
        worker = start_worker(args, env, work)
        processes.append(worker)
        wait_web(web, ports[0])
        wait_worker(worker)
        front = {"host": "127.0.0.1", "port": ports[0], "tls": False}
        if args.mode == "proxy":
            nginx = LocalNginx(work / "nginx", f"127.0.0.1:{ports[0]}", ports[1], ports[2], workers=args.nginx_workers)
            nginx.__enter__()
            front = {"host": "127.0.0.1", "port": ports[2], "tls": True}
        plan = {
            "front": front,
            "connections": args.connections,
            "seed": SEED,
            "think": args.think,
            "seconds": args.seconds,
            "tables": [[t] for t in built["tables"]],
            "spectators": spectator_plans(args, built, display),
        }
        plan_path, result_path = work / "plan.json", work / "result.json"
        plan_path.write_text(json.dumps(plan))
        start = (work / "web.log").stat().st_size
        before = load()
        command = [sys.executable, str(BENCH_DIR / "proxy_client.py"), str(plan_path), str(result_path)]
        client_env = {**os.environ, "PYTHONPATH": str(BENCH_DIR)}
        client = subprocess.Popen(command, cwd=REPO, env=client_env, start_new_session=True)
        running.append(client)
        if client.wait() != 0:
            raise RuntimeError(f"the load process exited with status {client.returncode}")
        running.remove(client)
        result = json.loads(result_path.read_text())
        summary = summarise(result, app_requests(work / "web.log", start), result["wall"])
        summary.update(
            {
                "mode": args.mode,
                "spectators": args.spectators,
                "tables": args.tables,
                "load_before": before,
                "load_after": load(),
                "machine": machine(),
            }
        )
        if nginx is not None:
            summary.update(nginx_figures(work / "nginx" / "access.log"))
        return summary
    finally:
        for process in running:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGKILL)
        if nginx is not None:
            nginx.stop()
        for process in reversed(processes):
            process.stop()
        release_database(args.database_url, created, keep=args.keep, kept=f", {args.redis_url} and the logs in {work}")
        if not args.keep:
            r.flushdb()
            shutil.rmtree(work, ignore_errors=True)


def show(summary: dict[str, Any]) -> None:
    heading(
        f"{summary['mode']}: {summary['spectators']} spectators, {summary['tables']} tables, {summary['wall']:.0f} s"
    )
    print(f"  load average before: {summary['load_before'][13:]}; after: {summary['load_after'][13:]}")
    print(f"  at the front: {summary['front_requests']} requests, {summary['front_rps']:.0f}/s")
    print(f"  at the app: {summary['app_requests']} requests, {summary['app_rps']:.0f}/s: {summary['app_by_kind_rps']}")
    print(
        f"  app live-part requests per address per second: {summary['app_live_per_address_second']:.2f} "
        f"({summary['live_addresses_per_second']:.0f} addresses polled a second)"
    )
    print(f"  spectators' requests: p50 {summary['spectators_p50']:.1f} ms, p95 {summary['spectators_p95']:.1f} ms")
    for label, figures in summary["by_label"].items():
        print(f"    {label}: {figures['n']} answers, p50 {figures['p50']:.1f} ms, p95 {figures['p95']:.1f} ms")
    print(f"  statuses {summary['statuses']}; errors {sum(summary['errors'].values())} {summary['errors']}")
    if "nginx_cache_status" in summary:
        print(f"  nginx cache status: {summary['nginx_cache_status']}")
        for status, (p50, p95) in summary["nginx_ms"].items():
            print(f"    nginx's own time, {status or '-'}: p50 {p50:.1f} ms, p95 {p95:.1f} ms")
    print(f"  client CPU {summary['client_cpu']:.0f} s; matches finished {summary['tables_finished']}")


def side_by_side(proxy: dict[str, Any], direct: dict[str, Any]) -> None:
    heading("side by side")
    rows = [
        ("requests/s at the front", "front_rps", "{:.0f}"),
        ("requests/s at the app", "app_rps", "{:.0f}"),
        ("app live-part requests per address per second", "app_live_per_address_second", "{:.2f}"),
        ("spectators' p50 (ms)", "spectators_p50", "{:.1f}"),
        ("spectators' p95 (ms)", "spectators_p95", "{:.1f}"),
    ]
    print(f"  {'':48} {'through nginx':>14} {'straight':>14}")
    for title, key, shape in rows:
        print(f"  {title:48} {shape.format(proxy[key]):>14} {shape.format(direct[key]):>14}")
    action = "POST /api/matches/{id}/actions/"
    for name, figure in (("tables' actions p50 (ms)", "p50"), ("tables' actions p95 (ms)", "p95")):
        values = [s["by_label"].get(action, {}).get(figure, float("nan")) for s in (proxy, direct)]
        print(f"  {name:48} {values[0]:>14.1f} {values[1]:>14.1f}")
    p50, p95 = proxy["nginx_ms"]["all"]
    print(f"  {'nginx own time p50 / p95 (ms), every request':48} {f'{p50:.1f} / {p95:.1f}':>14} {'':>14}")
    errors = [sum(s["errors"].values()) for s in (proxy, direct)]
    print(f"  {'errors':48} {errors[0]:>14} {errors[1]:>14}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mode", choices=("both", "proxy", "direct"), default="both")
    parser.add_argument("--database-url", default=DEFAULT_DATABASE_URL, help="a throwaway database (made, dropped)")
    parser.add_argument("--redis-url", default=DEFAULT_REDIS_URL, help="broker and cache; emptied at start and end")
    parser.add_argument("--tables", type=int, default=32, help="tables (round-1 matches; twice as many players)")
    parser.add_argument("--spectators", type=int, default=5000, help="spectators polling live parts")
    parser.add_argument("--seconds", type=float, default=60.0, help="seconds of load per mode")
    parser.add_argument("--connections", type=int, default=512, help="keep-alive connections the spectators share")
    parser.add_argument("--length", type=int, default=1, help="match length in points")
    parser.add_argument("--think", type=float, default=0.0, help="mean seconds a table waits between its actions")
    parser.add_argument("--workers", type=int, default=3, help="gunicorn workers (WEB_WORKERS; compose's default)")
    parser.add_argument("--worker-concurrency", type=int, default=2, help="Celery worker processes")
    parser.add_argument("--nginx-workers", type=int, default=2, help="nginx worker processes")
    parser.add_argument("--port-base", type=int, default=0, help="gunicorn, nginx HTTP and HTTPS on this port and up")
    parser.add_argument("--summary", default="", help="write the figures as JSON to this file")
    parser.add_argument("--keep", action="store_true", help="keep the database, Redis data and logs at the end")
    args = parser.parse_args(argv)
    if args.keep and args.mode == "both":
        parser.error("--keep: run one mode at a time")
    # what bench/load_bench.py's build() and stack_env() read
    args.baseline_matches, args.racers, args.race_length, args.production_throttles = 0, 1, 1, False
    exit_on_sigterm()
    if args.mode != "both":
        summary = run_mode(args)
        show(summary)
        if args.summary:
            Path(args.summary).write_text(json.dumps(summary))
        return 1 if summary["errors"] else 0
    summaries = {}
    with tempfile.TemporaryDirectory(prefix="bgmatch-proxy-bench-") as folder:
        for mode in ("proxy", "direct"):
            path = Path(folder) / f"{mode}.json"
            own = [f"--{name.replace('_', '-')}={value}" for name, value in vars(args).items() if name in OPTIONS]
            command = [sys.executable, __file__, *own, f"--mode={mode}", f"--summary={path}"]
            subprocess.run(command, cwd=REPO, check=False)
            if not path.exists():
                raise SystemExit(f"the {mode} run left no figures")
            summaries[mode] = json.loads(path.read_text())
    side_by_side(summaries["proxy"], summaries["direct"])
    return 1 if any(s["errors"] for s in summaries.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
