"""The load process of bench/load_bench.py: HTTP clients on asyncio, with no Django in this process.

Usage: python bench/load_client.py PLAN.json RESULT.json

The plan (written by load_bench.py) names the server's port, the phase and what each client does; the result file
gets every request (endpoint, status, nanoseconds) and what the clients saw of each match. Requests go out over
a new TCP connection each (``Connection: close``: gunicorn's sync workers close the connection after each answer
anyway); the time of a request runs from opening the connection to reading the answer's last byte (by its
``Content-Length``, as a browser does, not the connection's close), so it includes the wait for a free worker.

Phases:

- ``baseline``, ``load`` and ``finish``: ``tables`` play their matches through ``POST /api/matches/{id}/actions/``
  with the players' entry links (``X-Entry-Token``, the side to act's link), the expected sequence number and an
  idempotency key, choosing at random (seeded) among the actions and plays the last answer's live state allows;
  ``spectators`` load a page once and then poll its live parts as htmx does (``hx-get``, ``If-None-Match``); a
  probe reads ``/health/`` once a second. The phase ends at its deadline or when every table's match is over.
- ``race``: ``racers`` clients send the same next action of one match with the same expected sequence number at
  the same moment, ``steps`` times.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import re
import sys
import time
from dataclasses import dataclass, field
from html import unescape
from typing import Any

from games_bench import CLOSED, choose

TIMEOUT = 120.0  # seconds for one request, connection included
RETRIES = 3  # a request whose answer was lost (connection error, timeout, 5xx) is sent again with its key
NETWORK = "network"  # the status recorded for a request that got no HTTP answer
ENDING = "POST /api/matches/{id}/actions/ (ends the match)"


@dataclass(slots=True)
class Answer:
    status: int | str
    headers: dict[str, str]
    body: bytes
    ns: int

    def json(self) -> Any:
        return json.loads(self.body) if self.body else None


@dataclass(slots=True)
class Recorder:
    """Every request: (endpoint, status, nanoseconds); the kind of each action (its sample's index, "roll",
    "play", "double", ...); and the problems worth showing in full."""

    samples: list[tuple[str, int | str, int]] = field(default_factory=list)
    kinds: list[tuple[int, str]] = field(default_factory=list)
    problems: list[dict[str, Any]] = field(default_factory=list)

    def add(self, endpoint: str, answer: Answer) -> None:
        self.samples.append((endpoint, answer.status, answer.ns))

    def problem(self, what: str, request: dict[str, Any], answer: Answer) -> None:
        if len(self.problems) < 200:
            body = answer.body[:2000].decode("utf-8", "replace")
            self.problems.append({"what": what, "request": request, "status": answer.status, "body": body})


class Http:
    def __init__(self, port: int) -> None:
        self.port = port

    async def request(
        self, method: str, path: str, headers: dict[str, str] | None = None, body: dict[str, Any] | None = None
    ) -> Answer:
        data = json.dumps(body).encode() if body is not None else b""
        lines = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1", "Connection: close", "User-Agent: bgmatch-load"]
        if body is not None:
            lines += ["Content-Type: application/json", f"Content-Length: {len(data)}"]
        lines += [f"{k}: {v}" for k, v in (headers or {}).items()]
        raw = ("\r\n".join(lines) + "\r\n\r\n").encode() + data
        t0 = time.perf_counter_ns()
        try:
            return await asyncio.wait_for(self._exchange(raw, t0), TIMEOUT)
        except (OSError, TimeoutError, asyncio.IncompleteReadError, ValueError) as exc:
            return Answer(NETWORK, {}, f"{type(exc).__name__}: {exc}".encode(), time.perf_counter_ns() - t0)

    async def _exchange(self, raw: bytes, t0: int) -> Answer:
        reader, writer = await asyncio.open_connection("127.0.0.1", self.port)
        try:
            writer.write(raw)
            await writer.drain()
            reply = await read_answer(reader)
        finally:
            writer.close()
        ns = time.perf_counter_ns() - t0
        return parse(reply, ns)


async def read_answer(reader: asyncio.StreamReader) -> bytes:
    """An HTTP answer up to its last byte, as a browser reads it: the head, then ``Content-Length`` bytes, or the
    chunks up to the last one; to the connection's end only when the answer says neither. (What the server does
    after the last byte, before it closes the connection, is not the client's wait.)"""
    head = await reader.readuntil(b"\r\n\r\n")
    fields = dict(
        (name.strip().lower(), value.strip())
        for name, _, value in (line.partition(":") for line in head.decode("latin-1").split("\r\n")[1:] if line)
    )
    if "content-length" in fields:
        return head + await reader.readexactly(int(fields["content-length"]))
    if fields.get("transfer-encoding", "").lower() == "chunked":
        body = b""
        while True:
            size_line = await reader.readuntil(b"\r\n")
            size = int(size_line.split(b";")[0], 16)
            body += size_line + await reader.readexactly(size + 2)
            if size == 0:
                return head + body
    return head + await reader.read()


def parse(reply: bytes, ns: int) -> Answer:
    head, sep, body = reply.partition(b"\r\n\r\n")
    if not sep:
        raise ValueError(f"no complete HTTP answer ({len(reply)} bytes)")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split(" ", 2)[1])
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    if headers.get("transfer-encoding", "").lower() == "chunked":
        body = unchunk(body)
    return Answer(status, headers, body, ns)


def unchunk(body: bytes) -> bytes:
    out, rest = bytearray(), body
    while rest:
        size_line, _, rest = rest.partition(b"\r\n")
        size = int(size_line.split(b";")[0], 16)
        if size == 0:
            break
        out += rest[:size]
        rest = rest[size + 2 :]
    return bytes(out)


# -- tables ---------------------------------------------------------------------------------------------------------


ACTION = "POST /api/matches/{id}/actions/"


async def table(http: Http, rec: Recorder, spec: dict[str, Any], deadline: float, think: float) -> dict[str, Any]:
    """Play one match to its end (or to the deadline) from the players' entry links; what the table saw."""
    match_id, tokens = spec["match"], spec["tokens"]
    rng = random.Random(spec["seed"])
    path = f"/api/matches/{match_id}/actions/"
    seen: dict[str, Any] = {"match": match_id, "answered": [], "retried": [], "last": None, "stopped": ""}
    answer = await http.request("GET", f"/api/matches/{match_id}/", {"X-Entry-Token": tokens[0]})
    rec.add("GET /api/matches/{id}/", answer)
    if answer.status != 200:
        rec.problem("reading the match", {"match": match_id}, answer)
        seen["stopped"] = f"GET match {answer.status}"
        return seen
    state = answer.json()["state"]
    seen["last"] = {k: state[k] for k in ("seq", "status", "score", "winner", "position_id", "match_id")}
    while state["legal_actions"] and state["status"] not in CLOSED:
        if time.monotonic() >= deadline:
            seen["stopped"] = "deadline"
            break
        choice = choose(rng, state["legal_actions"], state["to_act"], state["legal_plays"])
        side = 0 if choice.side is None else choice.side
        body = choice.body(state["seq"])
        body["idempotency_key"] = f"m{match_id}-s{state['seq']}"
        for attempt in range(RETRIES + 1):
            answer = await http.request("POST", path, {"X-Entry-Token": tokens[side]}, body)
            rec.add(ACTION, answer)
            rec.kinds.append((len(rec.samples) - 1, choice.kind))
            if answer.status in (200, 201) or not (answer.status == NETWORK or int(answer.status) >= 500):
                break
            rec.problem("action, will retry" if attempt < RETRIES else "action", {"match": match_id, **body}, answer)
        if answer.status not in (200, 201):
            if answer.status != NETWORK and int(answer.status) < 500:
                rec.problem("action refused", {"match": match_id, **body}, answer)
            seen["stopped"] = f"{answer.status} on seq {state['seq'] + 1}"
            break
        reply = answer.json()
        (seen["answered"] if answer.status == 201 else seen["retried"]).append(reply["action"]["seq"])
        ended_game = reply["state"]["score"] != state["score"] and reply["state"]["status"] not in CLOSED
        if ended_game:  # a game won in a match that goes on: its result written, as the match's ending writes it
            rec.kinds[-1] = (rec.kinds[-1][0], f"{choice.kind}, ending a game")
        state = reply["state"]
        if state["status"] in CLOSED:  # the action that ends the match, timed apart
            rec.samples[-1] = (ENDING, *rec.samples[-1][1:])
        seen["last"] = {k: state[k] for k in ("seq", "status", "score", "winner", "position_id", "match_id")}
        if think:
            await asyncio.sleep(rng.uniform(0.5, 1.5) * think)
    return seen


async def one_after_another(
    http: Http, rec: Recorder, specs: list[dict[str, Any]], deadline: float, think: float
) -> list[dict[str, Any]]:
    """A table's matches, one after another until the deadline."""
    seen = []
    for spec in specs:
        if time.monotonic() >= deadline:
            break
        seen.append(await table(http, rec, spec, deadline, think))
        if seen[-1]["stopped"]:
            break
    return seen


# -- spectators -----------------------------------------------------------------------------------------------------


HX_GET = re.compile(r'hx-get="([^"]*/live/[^"]*)"')


def live_urls(html: bytes) -> list[str]:
    """The live parts' polling addresses in a page or a part, as htmx reads them (``hx-get``), in order."""
    return [unescape(url) for url in HX_GET.findall(html.decode("utf-8", "replace"))]


async def spectator(
    http: Http, rec: Recorder, page: tuple[str, str], parts: list[tuple[str, str]], period: float, deadline: float,
    rng: random.Random, stop: asyncio.Event, sent: dict[str, str] | None = None,
) -> None:  # fmt: skip
    """Load ``page`` once, then every ``period`` seconds poll each live part as htmx does: at the address in the
    part's ``hx-get`` (the page's, then each new answer's: it may carry where the client's view is), with the ETag
    the last answer from that address gave (the browser's cache keeps them by address). A part whose answer has no
    ``hx-get`` has stopped polling (the match is over). ``sent``: headers sent with every request (a director's
    session cookie)."""
    sent = sent or {}
    await sleep_until(rng.uniform(0, period), deadline, stop)
    if stop.is_set() or time.monotonic() >= deadline:
        return
    label, path = page
    answer = await http.request("GET", path, sent)
    rec.add(label, answer)
    if answer.status != 200:
        rec.problem("page", {"path": path}, answer)
    found = live_urls(answer.body)
    polled: dict[str, str] = {}  # label -> address now polled
    for part_label, part_path in parts:
        base = part_path.split("?")[0]
        polled[part_label] = next((url for url in found if url.split("?")[0] == base), part_path)
    etags: dict[str, str] = {}
    while polled and not stop.is_set() and time.monotonic() < deadline:
        started = time.monotonic()
        for label, path in list(polled.items()):
            headers = {"If-None-Match": etags[path]} if path in etags else {}
            answer = await http.request("GET", path, {**sent, **headers})
            rec.add(label, answer)
            if answer.status in (200, 304) and "etag" in answer.headers:
                etags[path] = answer.headers["etag"]
            elif answer.status not in (200, 304):
                rec.problem("live part", {"path": path, **headers}, answer)
            if answer.status == 200:
                urls = live_urls(answer.body)
                if urls:
                    polled[label] = urls[0]
                else:
                    del polled[label]
        await sleep_until(period - (time.monotonic() - started), deadline, stop)


async def sleep_until(seconds: float, deadline: float, stop: asyncio.Event) -> None:
    seconds = min(seconds, deadline - time.monotonic())
    if seconds > 0:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), seconds)


async def baseline_reader(http: Http, rec: Recorder, paths: list[tuple[str, str]], deadline: float) -> None:
    """One reader, one request at a time, each live part asked twice: without an ETag (200) and with it (304), at
    the address the pages' ``hx-get`` give (as the spectators poll it)."""
    known: dict[str, str] = {}
    while time.monotonic() < deadline:
        for label, path in paths:
            url = known.get(path.split("?")[0], path)
            answer = await http.request("GET", url)
            rec.add(label, answer)
            if answer.status != 200:
                rec.problem("baseline read", {"path": url}, answer)
            for found in live_urls(answer.body):
                known[found.split("?")[0]] = found
            if "etag" in answer.headers:
                answer = await http.request("GET", url, {"If-None-Match": answer.headers["etag"]})
                rec.add(label, answer)
            await asyncio.sleep(0.05)


async def health_probe(http: Http, rec: Recorder, deadline: float, stop: asyncio.Event) -> None:
    while not stop.is_set() and time.monotonic() < deadline:
        started = time.monotonic()
        answer = await http.request("GET", "/health/")
        rec.add("GET /health/", answer)
        if answer.status != 200:
            rec.problem("health", {"path": "/health/"}, answer)
        await sleep_until(1.0 - (time.monotonic() - started), deadline, stop)


async def run_play(plan: dict[str, Any]) -> dict[str, Any]:
    http, rec = Http(plan["port"]), Recorder()
    for _ in range(plan.get("warmup", 0)):  # each worker's first requests, not timed
        for _, path in plan.get("reader", []):
            await http.request("GET", path)
    deadline = time.monotonic() + plan["seconds"]
    stop = asyncio.Event()
    rng = random.Random(plan["seed"])
    watchers = [
        asyncio.create_task(
            spectator(
                http,
                rec,
                tuple(s["page"]),
                [tuple(p) for p in s["parts"]],
                s["period"],
                deadline,
                rng,
                stop,
                s.get("headers"),
            )
        )
        for s in plan["spectators"]
    ]
    watchers.append(asyncio.create_task(health_probe(http, rec, deadline, stop)))
    if plan.get("reader"):
        watchers.append(asyncio.create_task(baseline_reader(http, rec, [tuple(p) for p in plan["reader"]], deadline)))
    t0, cpu0 = time.perf_counter(), time.process_time()
    tables = await asyncio.gather(
        *(one_after_another(http, rec, specs, deadline, plan["think"]) for specs in plan["tables"])
    )
    tables_wall = time.perf_counter() - t0
    if plan.get("reader"):
        await asyncio.gather(*watchers)  # the baseline reads on for the whole phase
    stop.set()
    await asyncio.gather(*watchers)
    wall = time.perf_counter() - t0
    return {
        "samples": rec.samples,
        "kinds": rec.kinds,
        "problems": rec.problems,
        "tables": tables,
        "wall": wall,
        "tables_wall": tables_wall,
        "cpu": time.process_time() - cpu0,
    }


# -- the race -------------------------------------------------------------------------------------------------------


async def run_race(plan: dict[str, Any]) -> dict[str, Any]:
    """``racers`` clients, each with its own pair of entry links, send the same action with the same expected seq."""
    http, rec = Http(plan["port"]), Recorder()
    match_id, racers = plan["match"], plan["racers"]
    rng = random.Random(plan["seed"])
    path = f"/api/matches/{match_id}/actions/"
    answer = await http.request("GET", f"/api/matches/{match_id}/")
    state = answer.json()["state"]
    steps: list[dict[str, Any]] = []
    t0, cpu0 = time.perf_counter(), time.process_time()
    for _ in range(plan["steps"]):
        if not state["legal_actions"] or state["status"] in CLOSED:
            break
        choice = choose(rng, state["legal_actions"], state["to_act"], state["legal_plays"])
        side = 0 if choice.side is None else choice.side
        body = choice.body(state["seq"])
        data = json.dumps(body).encode()
        # Every client opens its connection first, then all send at once (one event-loop pass), then all read.
        conns = await asyncio.gather(*(asyncio.open_connection("127.0.0.1", http.port) for _ in range(racers)))
        raws = [
            (
                "\r\n".join(
                    [
                        f"POST {path} HTTP/1.1",
                        "Host: 127.0.0.1",
                        "Connection: close",
                        "Content-Type: application/json",
                        f"Content-Length: {len(data)}",
                        f"X-Entry-Token: {plan['tokens'][i][side]}",
                    ]
                )
                + "\r\n\r\n"
            ).encode()
            + data
            for i in range(racers)
        ]
        starts = []
        for (_, writer), raw in zip(conns, raws, strict=True):
            starts.append(time.perf_counter_ns())
            writer.write(raw)

        async def read(i: int, conns: list[Any] = conns, starts: list[int] = starts) -> Answer:
            reader, writer = conns[i]
            try:
                await writer.drain()
                reply = await asyncio.wait_for(reader.read(), TIMEOUT)
            finally:
                writer.close()
            return parse(reply, time.perf_counter_ns() - starts[i])

        answers = await asyncio.gather(*(read(i) for i in range(racers)), return_exceptions=True)
        statuses: dict[str, int] = {}
        winners: list[int] = []
        next_state = None
        for a in answers:
            if isinstance(a, BaseException):
                statuses[NETWORK] = statuses.get(NETWORK, 0) + 1
                continue
            rec.add(f"race {a.status}", a)
            statuses[str(a.status)] = statuses.get(str(a.status), 0) + 1
            if a.status == 201:
                reply = a.json()
                winners.append(reply["action"]["seq"])
                next_state = reply["state"]
            elif a.status != 409:
                rec.problem("race", {"match": match_id, **body}, a)
            elif a.json().get("seq") != state["seq"] + 1 and len(rec.problems) < 20:
                rec.problem("race 409 with another seq than the winner's", {"match": match_id, **body}, a)
        steps.append({"kind": choice.kind, "expected_seq": state["seq"], "statuses": statuses, "winners": winners})
        if next_state is None:
            break
        state = next_state
    return {
        "samples": rec.samples,
        "problems": rec.problems,
        "steps": steps,
        "last": {k: state[k] for k in ("seq", "status", "score", "winner", "position_id", "match_id")},
        "wall": time.perf_counter() - t0,
        "cpu": time.process_time() - cpu0,
    }


def main() -> int:
    plan_path, result_path = sys.argv[1:3]
    with open(plan_path) as f:
        plan = json.load(f)
    runner = run_race if plan["phase"] == "race" else run_play
    result = asyncio.run(runner(plan))
    result["pid"] = os.getpid()
    with open(result_path, "w") as f:
        json.dump(result, f)
    return 0


if __name__ == "__main__":
    sys.exit(main())
