"""Redis is unreachable while results come in: each result is stored and answered at once, as usual; its division's
standings are marked pending (the directors and the public see it); when Redis is back, ``reconcile`` (Celery
beat's task) does the follow-up that could not be sent, and the follow-up that Redis lost when it died.

Three dead brokers: a closed port (connection refused), a server that accepts connections and never answers (a
hung Redis, or a firewall that drops packets after the handshake), and a private redis-server this test starts and
kills (never the shared one). The Celery settings bound what a request can lose to a dead broker: about a second
for a connection that cannot be made, two for a server that does not answer (config/settings.py)."""

from __future__ import annotations

import logging
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from django.db import connection
from rest_framework.test import APIClient

from common.actor import Actor
from games.access import new_entry_token, token_text
from games.models import Match
from tests.conftest import tasks_run_eagerly
from tests.faults.conftest import (
    Workers,
    first_round,
    knockout,
    only_reconcile_catches_up,
    use_broker,
    wait_for,
    win_for_side_a,
)
from tournaments.models import Division, Pairing

#: What a request may spend on a dead broker, on top of its own work (settings: 1 s to connect, 2 s to answer).
REFUSED_BUDGET = 1.0
SILENT_BUDGET = 3.0


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def silent_server() -> Iterator[int]:
    """A TCP port that accepts connections (the kernel completes the handshake) and never answers."""
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(64)
        yield server.getsockname()[1]


def enter_result_through_the_api(client: APIClient, pairing: Pairing) -> tuple[Any, float]:
    """Side A wins the 1-point match, entered as the director through the API; the answer and its time."""
    match = Match.objects.get(pk=pairing.match_id)
    body = {"kind": "game-result", "expected_seq": match.seq, "winner": 0, "result": "single"}
    started = time.monotonic()
    response = client.post(f"/api/matches/{match.pk}/actions/", body, format="json")
    return response, time.monotonic() - started


def director_client(director: Actor) -> APIClient:
    client = APIClient()
    client.force_login(director.user)
    return client


def assert_directors_and_public_see_pending(client: APIClient, division: Division) -> None:
    event = division.event.slug
    api = client.get(f"/api/events/{event}/divisions/{division.slug}/")
    assert api.status_code == 200 and api.json()["standings_status"] == "pending", api.json()
    dashboard = client.get(f"/manage/{event}/")
    assert dashboard.status_code == 200 and "pending (being computed)" in dashboard.content.decode()
    public = APIClient().get(f"/events/{event}/{division.slug}/")
    assert public.status_code == 200 and "Standings pending" in public.content.decode()


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("dead", ["refused", "silent"])
def test_a_result_is_stored_and_answered_at_once_while_the_broker_is_dead(
    dead: str,
    silent_server: int,
    as_director: Actor,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    division = knockout(as_director, "Dead broker cup")
    semi = first_round(division)[0]
    port = free_port() if dead == "refused" else silent_server
    use_broker(monkeypatch, f"redis://127.0.0.1:{port}/0")
    client = director_client(as_director)

    with caplog.at_level(logging.WARNING, logger="tournaments"):
        response, elapsed = enter_result_through_the_api(client, semi)

    assert response.status_code == 201, response.json()
    assert response.json()["state"]["status"] == "finished"
    assert elapsed < (REFUSED_BUDGET if dead == "refused" else SILENT_BUDGET), f"{elapsed:.2f} s on a dead broker"
    assert Match.objects.get(pk=semi.match_id).status == Match.Status.FINISHED, "the result is stored"
    assert f"could not enqueue the follow-up of division {division.pk}" in caplog.text
    division = Division.objects.get(pk=division.pk)  # its pairing flagged due, which reconcile finds
    assert division.standings_state == Division.Work.PENDING
    assert_directors_and_public_see_pending(client, division)
    assert client.get("/health/").json()["broker"] == "error"


@pytest.mark.parametrize("dead", ["refused", "silent"])
def test_recompute_says_it_left_the_work_to_reconcile_when_the_broker_is_dead(
    dead: str, silent_server: int, as_director: Actor, monkeypatch: pytest.MonkeyPatch
) -> None:
    division = knockout(as_director, "Dead broker cup")
    port = free_port() if dead == "refused" else silent_server
    use_broker(monkeypatch, f"redis://127.0.0.1:{port}/0")
    url = f"/api/events/{division.event.slug}/divisions/{division.slug}/recompute/"
    response = director_client(as_director).post(url, {}, format="json")
    assert response.status_code == 503 and response["Retry-After"] == "60", response.content
    body = response.json()
    assert body["status"] == "left_to_reconcile" and body["code"] == "queue_unavailable"
    assert "reconcile recomputes them" in body["message"]
    division.refresh_from_db()
    assert division.standings_status == Division.Work.PENDING  # what reconcile looks for


# -- the whole story, with a real Redis that dies and a real worker ----------------------------------------------------


class PrivateRedis:
    """A redis-server of the test's own on a spare port, without persistence (what it holds dies with it)."""

    def __init__(self, tmp_path: Path) -> None:
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.log_path = tmp_path / "redis.log"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        argv = ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
        with self.log_path.open("ab") as log:
            self.process = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT)
        client = redis.Redis.from_url(self.url)
        try:
            wait_for("the private redis-server to answer", lambda: self._pings(client), deadline=15)
        finally:
            client.close()

    @staticmethod
    def _pings(client: redis.Redis) -> bool:
        try:
            return bool(client.ping())
        except redis.ConnectionError:
            return False

    def kill(self) -> None:
        assert self.process is not None
        self.process.kill()
        self.process.wait(timeout=15)

    def waiting(self, queue: str) -> int:
        client = redis.Redis.from_url(self.url)
        try:
            return int(client.llen(queue))
        finally:
            client.close()


@pytest.fixture
def private_redis(tmp_path: Path) -> Iterator[PrivateRedis]:
    server = PrivateRedis(tmp_path)
    try:
        server.start()
    except FileNotFoundError:
        pytest.fail("redis-server is not installed: the worker tests need it (CI starts Redis with it)")
    try:
        yield server
    finally:
        if server.process is not None and server.process.poll() is None:
            server.kill()


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="needs PostgreSQL (DATABASE_URL=postgres://...): the worker shares the test database",
)
def test_results_survive_a_redis_death_and_reconcile_catches_up(
    private_redis: PrivateRedis, as_director: Actor, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with tasks_run_eagerly():
        twin = knockout(as_director, "Twin cup")
        for pairing in first_round(twin):
            win_for_side_a(pairing, as_director)
    division = knockout(as_director, "Redis cup")
    semi_1, semi_2 = first_round(division)
    workers = Workers(tmp_path, private_redis.url)
    use_broker(monkeypatch, private_redis.url, queue=workers.queue)
    client = director_client(as_director)
    try:
        response, _ = enter_result_through_the_api(client, semi_1)
        assert response.status_code == 201
        assert private_redis.waiting(workers.queue) == 1, "the follow-up was sent, no worker has taken it yet"

        private_redis.kill()  # Redis dies, and the message it held with it
        response, elapsed = enter_result_through_the_api(client, semi_2)
        assert response.status_code == 201 and response.json()["state"]["status"] == "finished"
        assert elapsed < REFUSED_BUDGET, f"{elapsed:.2f} s on a dead Redis"
        assert Match.objects.filter(pk__in=(semi_1.match_id, semi_2.match_id), status="finished").count() == 2
        division = Division.objects.get(pk=division.pk)  # its pairings flagged due: reconcile finds them
        assert division.standings_state == Division.Work.PENDING
        assert_directors_and_public_see_pending(client, division)

        private_redis.start()  # back, empty: both follow-ups are gone
        assert private_redis.waiting(workers.queue) == 0
        only_reconcile_catches_up(division, twin, workers)
        api = client.get(f"/api/events/{division.event.slug}/divisions/{division.slug}/")
        assert api.json()["standings_status"] == "current"
    finally:
        workers.stop_all()


@pytest.mark.parametrize("dead", ["refused", "silent"])
def test_requests_go_on_without_the_cache_when_its_redis_is_dead(
    dead: str,
    silent_server: int,
    as_director: Actor,
    settings: Any,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """CACHE_URL's Redis holds the throttle and rate-limit counters and the spectators' shared copies: when it is
    down, results, live parts and entry links are answered as usual, without it (common/cache.py)."""
    from common import cache as failing_open

    port = free_port() if dead == "refused" else silent_server
    location = f"redis://127.0.0.1:{port}/0"
    settings.CACHES = {"default": {"BACKEND": "common.cache.FailOpenRedisCache", "LOCATION": location}}
    settings.LIVE_PART_SECONDS = 2
    monkeypatch.setattr(failing_open, "_last_logged", -failing_open._LOG_EVERY)
    division = knockout(as_director, "No cache cup")
    semi = first_round(division)[0]
    link = f"/play/{token_text(new_entry_token(Match.objects.get(pk=semi.match_id), 1))}/"

    with caplog.at_level(logging.WARNING, logger="common.cache"):
        response, elapsed = enter_result_through_the_api(director_client(as_director), semi)  # throttled via the cache
        live = APIClient().get(f"/events/{division.event.slug}/{division.slug}/live/pairings/")  # the shared copy
        opened = APIClient().get(link)  # the entry links' rate limit

    assert response.status_code == 201, response.content
    assert elapsed < (REFUSED_BUDGET if dead == "refused" else 3 * SILENT_BUDGET), f"{elapsed:.2f} s without the cache"
    assert Match.objects.get(pk=semi.match_id).status == Match.Status.FINISHED
    assert live.status_code == 200 and "P1" in live.content.decode()
    assert opened.status_code == 302
    assert "the cache is unreachable" in caplog.text
    assert "rate limits counted in this process" in caplog.text
    health = APIClient().get("/health/")
    assert health.status_code == 200 and health.json()["cache"] == "error"  # said, and the site still serves


@pytest.mark.parametrize("dead", ["refused", "silent"])
def test_rate_limits_hold_per_process_while_the_caches_redis_is_dead(
    dead: str, silent_server: int, settings: Any, django_user_model: Any
) -> None:
    """Without its shared counters, every limit still counts, in this process's memory (common/cache.py)."""
    port = free_port() if dead == "refused" else silent_server
    settings.CACHES = {
        "default": {"BACKEND": "common.cache.FailOpenRedisCache", "LOCATION": f"redis://127.0.0.1:{port}/0"}
    }
    django_user_model.objects.create_user(username="dora", password="right-password-123")
    client = APIClient()
    started = time.monotonic()
    logins = [client.post("/accounts/login/", {"username": "dora", "password": f"g{i}"}).status_code for i in range(25)]
    links = [client.get(f"/play/1.0.guess{i}:sig/").status_code for i in range(35)]
    elapsed = time.monotonic() - started
    assert logins == [200] * 20 + [429] * 5
    assert links == [303] * 30 + [429] * 5
    assert elapsed < 3 * SILENT_BUDGET, f"{elapsed:.1f} s for 60 requests: a dead cache is left alone between tries"
    from tests.test_rate_limits import api_rates

    with api_rates(anon="5/min"):
        assert [APIClient().get("/api/matches/").status_code for _ in range(7)] == [200] * 5 + [429] * 2
