"""The load process of bench/proxy_bench.py: thousands of spectators and the playing tables, on asyncio, with no
Django in this process.

Usage: python bench/proxy_client.py PLAN.json RESULT.json

The plan names the front (host, port, TLS or not), the tables (played as bench/load_client.py plays them, through
the JSON API with the players' entry links) and the spectators: each loads its page once, then polls its live part
at the page's own period (``hx-trigger``), at the address the last answer's ``hx-get`` gives, with the ETag the
last answer from that address gave, as htmx does in a browser. Requests go over a pool of ``connections``
keep-alive connections shared by all the spectators (a browser keeps its connection; a pool keeps the client's own
work bounded); a front that closes the connection after an answer (gunicorn's sync workers) gets a new one. The
time of a request runs from writing it on its connection (or opening one) to reading the answer's last byte; the
wait for a free connection is the client's own, and left out (at most ``TIMEOUT``, then the request fails).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import ssl
import sys
import time
from typing import Any

from load_client import NETWORK, Answer, Recorder, live_urls, one_after_another, sleep_until

TIMEOUT = 20.0


class Pool:
    """Keep-alive HTTP/1.1 connections to one front, handed to one request at a time."""

    def __init__(self, host: str, port: int, tls: bool, size: int) -> None:
        self.host, self.port, self.size = host, port, size
        self.context: ssl.SSLContext | None = None
        if tls:
            self.context = ssl.create_default_context()
            self.context.check_hostname = False
            self.context.verify_mode = ssl.CERT_NONE  # the benchmark's own self-signed certificate
        self.idle: asyncio.Queue[tuple[asyncio.StreamReader, asyncio.StreamWriter] | None] = asyncio.Queue()
        for _ in range(size):
            self.idle.put_nowait(None)  # a slot without a connection yet

    async def request(
        self, method: str, path: str, headers: dict[str, str] | None = None, body: dict[str, Any] | None = None
    ) -> Answer:
        data = json.dumps(body).encode() if body is not None else b""
        lines = [f"{method} {path} HTTP/1.1", "Host: localhost", "User-Agent: bgmatch-proxy-bench"]
        if body is not None:
            lines += ["Content-Type: application/json", f"Content-Length: {len(data)}"]
        lines += [f"{k}: {v}" for k, v in (headers or {}).items()]
        raw = ("\r\n".join(lines) + "\r\n\r\n").encode() + data
        asked = time.perf_counter_ns()
        try:
            slot = await asyncio.wait_for(self.idle.get(), TIMEOUT)
        except TimeoutError:
            return Answer(NETWORK, {}, b"no free connection", time.perf_counter_ns() - asked)
        t0 = time.perf_counter_ns()  # the time of a request starts once it has a connection
        try:
            left = max(0.1, TIMEOUT - (t0 - asked) / 1e9)
            answer, keep, slot = await asyncio.wait_for(self._connect_and_exchange(slot, raw, t0, method), left)
        except (OSError, TimeoutError, asyncio.IncompleteReadError, ValueError, ssl.SSLError) as exc:
            if slot is not None:
                slot[1].close()
            self.idle.put_nowait(None)
            return Answer(NETWORK, {}, f"{type(exc).__name__}: {exc}".encode(), time.perf_counter_ns() - t0)
        if keep:
            self.idle.put_nowait(slot)
        else:
            slot[1].close()
            self.idle.put_nowait(None)
        return answer

    async def _connect_and_exchange(
        self, slot: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None, raw: bytes, t0: int, method: str
    ) -> tuple[Answer, bool, tuple[asyncio.StreamReader, asyncio.StreamWriter]]:
        if slot is None:
            slot = await asyncio.open_connection(self.host, self.port, ssl=self.context)
        answer, keep = await self._exchange(slot, raw, t0, method)
        return answer, keep, slot

    @staticmethod
    async def _exchange(
        slot: tuple[asyncio.StreamReader, asyncio.StreamWriter], raw: bytes, t0: int, method: str
    ) -> tuple[Answer, bool]:
        reader, writer = slot
        writer.write(raw)
        await writer.drain()
        head = await reader.readuntil(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split(" ", 2)[1])
        headers = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            if name:
                headers[name.strip().lower()] = value.strip()
        if status in (204, 304) or method == "HEAD":
            body = b""
        elif headers.get("transfer-encoding", "").lower() == "chunked":
            body = await _chunks(reader)
        elif "content-length" in headers:
            body = await reader.readexactly(int(headers["content-length"]))
        else:
            body = await reader.read()
            headers["connection"] = "close"
        keep = headers.get("connection", "").lower() != "close"
        return Answer(status, headers, body, time.perf_counter_ns() - t0), keep


async def _chunks(reader: asyncio.StreamReader) -> bytes:
    out = bytearray()
    while True:
        size = int((await reader.readuntil(b"\r\n")).split(b";")[0], 16)
        if size == 0:
            await reader.readuntil(b"\r\n")
            return bytes(out)
        out += await reader.readexactly(size)
        await reader.readexactly(2)


async def spectator(pool: Pool, rec: Recorder, spec: dict[str, Any], deadline: float, rng: random.Random) -> None:
    """Load the page (at a random moment of the first period), then poll its live part every period."""
    label, path = spec["page"]
    period = spec["period"]
    stop = asyncio.Event()
    await sleep_until(rng.uniform(0, period), deadline, stop)
    if time.monotonic() >= deadline:
        return
    answer = await pool.request("GET", path)
    rec.add(label, answer)
    if answer.status != 200:
        rec.problem("page", {"path": path}, answer)
        return
    polled = live_urls(answer.body)
    etags: dict[str, str] = {}
    while polled and time.monotonic() < deadline:
        started = time.monotonic()
        for i, url in enumerate(list(polled)):
            headers = {"If-None-Match": etags[url]} if url in etags else {}
            answer = await pool.request("GET", url, headers)
            rec.add(spec["part_label"], answer)
            if answer.status in (200, 304) and "etag" in answer.headers:
                etags[url] = answer.headers["etag"]
            elif answer.status not in (200, 304):
                rec.problem("live part", {"path": url, **headers}, answer)
            if answer.status == 200:
                found = live_urls(answer.body)
                polled[i] = found[0] if found else ""
        polled = [url for url in polled if url]
        await sleep_until(period - (time.monotonic() - started), deadline, stop)


async def run(plan: dict[str, Any]) -> dict[str, Any]:
    front = plan["front"]
    pool = Pool(front["host"], front["port"], front["tls"], plan["connections"])
    tables_pool = Pool(front["host"], front["port"], front["tls"], max(1, len(plan["tables"])))
    rec = Recorder()
    rng = random.Random(plan["seed"])
    deadline = time.monotonic() + plan["seconds"]
    t0, cpu0 = time.perf_counter(), time.process_time()
    watchers = [asyncio.create_task(spectator(pool, rec, s, deadline, rng)) for s in plan["spectators"]]
    tables = await asyncio.gather(
        *(one_after_another(tables_pool, rec, specs, deadline, plan["think"]) for specs in plan["tables"])  # type: ignore[arg-type]
    )
    tables_wall = time.perf_counter() - t0
    await asyncio.gather(*watchers)
    wall = time.perf_counter() - t0
    return {
        "samples": rec.samples,
        "problems": rec.problems,
        "tables": tables,
        "wall": wall,
        "tables_wall": tables_wall,
        "cpu": time.process_time() - cpu0,
    }


def main() -> int:
    plan_path, result_path = sys.argv[1:3]
    with open(plan_path) as f:
        plan = json.load(f)
    with contextlib.suppress(ValueError, OSError):
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, 16384)), hard))
    result = asyncio.run(run(plan))
    result["pid"] = os.getpid()
    with open(result_path, "w") as f:
        json.dump(result, f)
    return 0


if __name__ == "__main__":
    sys.exit(main())
