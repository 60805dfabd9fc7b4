"""Through the repository's nginx (deploy/nginx/bgmatch.conf.template, run by deploy/nginx/local.py) in front of the
app: the micro-cache keeps what anonymous spectators read, and nothing that depends on who asks.

These tests need Debian's nginx (/usr/sbin/nginx, installed by .ci/run) and openssl; without them they are skipped
with the reason. ``BGMATCH_TEST_PORTS=LOW-HIGH`` keeps nginx's ports in that range (else the system picks them).
"""

from __future__ import annotations

import html
import http.client
import os
import re
import socket
import ssl
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.core.signals import request_started
from django.test import Client

import common.audience
from deploy.nginx.local import LocalNginx, nginx_missing
from games.access import new_entry_token, token_text
from tests.games.conftest import cast, drive, new_match  # noqa: F401 (fixtures)
from tests.web.test_live_sharing import swiss
from tournaments.models import Pairing

pytestmark = [
    pytest.mark.skipif(nginx_missing() is not None, reason=str(nginx_missing())),
    pytest.mark.django_db(transaction=True),
]


def _free_ports(count: int) -> list[int]:
    wanted = os.environ.get("BGMATCH_TEST_PORTS", "")
    candidates = range(int(wanted.split("-")[0]), int(wanted.split("-")[1]) + 1) if wanted else [0] * 50
    found: list[int] = []
    for candidate in candidates:
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", candidate))
            except OSError:
                continue
            port = probe.getsockname()[1]
        if port not in found:
            found.append(port)
        if len(found) == count:
            return found
    raise RuntimeError("no free port for nginx")


@pytest.fixture
def proxy(live_server: Any, tmp_path: Path) -> Iterator[LocalNginx]:
    upstream = live_server.url.removeprefix("http://")
    http_port, https_port = _free_ports(2)
    with LocalNginx(tmp_path / "nginx", upstream, http_port, https_port) as nginx:
        yield nginx


@pytest.fixture
def app_hits() -> Iterator[list[str]]:
    """The paths (with their query) of the requests that reached the app."""
    seen: list[str] = []

    def count(sender: Any, environ: dict[str, Any] | None = None, **kwargs: Any) -> None:
        if environ is not None:
            query = environ.get("QUERY_STRING", "")
            seen.append(environ["PATH_INFO"] + ("?" + query if query else ""))

    request_started.connect(count, dispatch_uid="test_proxy.count")
    yield seen
    request_started.disconnect(dispatch_uid="test_proxy.count")


def get(proxy: LocalNginx, path: str, *, cookie: str = "", etag: str = "") -> http.client.HTTPResponse:
    """GET ``path`` from nginx over TLS (its certificate is self-signed); the body is read."""
    connection = http.client.HTTPSConnection(
        "127.0.0.1", proxy.https_port, timeout=30, context=ssl._create_unverified_context()
    )
    headers = {"Host": "localhost"}
    if cookie:
        headers["Cookie"] = cookie
    if etag:
        headers["If-None-Match"] = etag
    connection.request("GET", path, headers=headers)
    response = connection.getresponse()
    response.body = response.read()  # type: ignore[attr-defined]
    connection.close()
    return response


def session_of(user: Any) -> str:
    client = Client()
    client.force_login(user)
    return f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"


def test_two_directors_asking_the_same_page_each_get_their_own(
    proxy: LocalNginx, django_user_model: Any, app_hits: list[str]
) -> None:
    dora, emil = (django_user_model.objects.create_user(username=name, password=None) for name in ("dora", "emil"))
    division, other = swiss(dora), swiss(emil)
    links = (f'href="/manage/{division.event.slug}/"'.encode(), f'href="/manage/{other.event.slug}/"'.encode())
    for _ in range(2):
        mine, yours = get(proxy, "/manage/", cookie=session_of(dora)), get(proxy, "/manage/", cookie=session_of(emil))
        assert mine.status == yours.status == 200
        assert links[0] in mine.body and links[1] not in mine.body  # type: ignore[attr-defined]
        assert links[1] in yours.body and links[0] not in yours.body  # type: ignore[attr-defined]
        assert "private" in mine.getheader("Cache-Control", "") and mine.getheader("X-Cache-Status") in ("", None)
    assert app_hits.count("/manage/") == 4
    # The public division page asked by a director is his own too, and is not kept for anonymous visitors.
    page = f"/events/{division.event.slug}/{division.slug}/"
    assert get(proxy, page, cookie=session_of(dora)).getheader("X-Cache-Status") == "BYPASS"
    assert get(proxy, page).getheader("X-Cache-Status") == "MISS"
    assert get(proxy, page).getheader("X-Cache-Status") == "HIT"
    assert get(proxy, page, cookie=session_of(emil)).getheader("X-Cache-Status") == "BYPASS"
    assert app_hits.count(page) == 3


def test_a_players_entry_page_is_never_cached(proxy: LocalNginx, director: Any, app_hits: list[str]) -> None:
    division = swiss(director)
    pairing = Pairing.objects.filter(division=division, match__isnull=False).first()
    assert pairing is not None and pairing.match is not None
    opened = get(proxy, f"/play/{token_text(new_entry_token(pairing.match, 1))}/")
    assert opened.status == 302
    cookie = opened.getheader("Set-Cookie", "").split(";")[0]
    assert cookie.startswith(settings.SESSION_COOKIE_NAME + "=")
    page = f"/play/match/{pairing.match.pk}/"
    for _ in range(3):
        mine = get(proxy, page, cookie=cookie)
        assert mine.status == 200 and "no-store" in mine.getheader("Cache-Control", "")
        assert mine.getheader("X-Cache-Status") in ("", None)
        live = get(proxy, page + "live/", cookie=cookie)
        assert live.status == 200 and "private" in live.getheader("Cache-Control", "")
    assert app_hits.count(page) == 3 and app_hits.count(page + "live/") == 3
    # A visitor without the player's session is refused, not handed his page.
    assert get(proxy, page).status == 403


def test_an_anonymous_live_part_reaches_the_app_once_per_expiry(
    proxy: LocalNginx, director: Any, app_hits: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """However many spectators ask at once, one request per copy reaches the app (proxy_cache_lock); a spectator
    holding the ETag gets a 304 from nginx. (The copy is kept 30 s here, so that the count does not depend on how
    fast this machine sends the requests.)"""
    monkeypatch.setattr(common.audience, "LIVE_SECONDS", 30)
    division = swiss(director)
    part = f"/events/{division.event.slug}/{division.slug}/live/standings/"
    with ThreadPoolExecutor(max_workers=16) as pool:
        answers = list(pool.map(lambda _: get(proxy, part), range(200)))
    assert {a.status for a in answers} == {200}
    assert len({a.body for a in answers}) == 1  # type: ignore[attr-defined]
    assert {a.getheader("X-Cache-Status") for a in answers} <= {"MISS", "HIT", "UPDATING"}
    assert app_hits.count(part) == 1
    etag = answers[0].getheader("ETag", "")
    assert etag and get(proxy, part, etag=etag).status == 304
    assert app_hits.count(part) == 1


LIVE_GET = re.compile(r'<section id="live"[^>]*? hx-get="([^"]+)"')
MOVE_ITEM = re.compile(r'<li id="move-(\d+)">')


class Spectator(threading.Thread):
    """One browser on a match page through nginx: loads the page, then polls its live part every ``period``
    seconds with the ETag of what it shows, at the address the last answer's ``hx-get`` gives (as htmx does), on
    one keep-alive connection, until ``stop``."""

    def __init__(self, proxy: LocalNginx, page: str, period: float, stop: threading.Event) -> None:
        super().__init__(daemon=True)
        self.proxy, self.page, self.period, self.stop = proxy, page, period, stop
        self.addresses: set[str] = set()
        self.statuses: list[int] = []
        self.last_body = b""
        self.error: BaseException | None = None

    def fetch(self, connection: http.client.HTTPSConnection, path: str, etag: str) -> http.client.HTTPResponse:
        headers = {"Host": "localhost", **({"If-None-Match": etag} if etag else {})}
        connection.request("GET", path, headers=headers)
        response = connection.getresponse()
        response.body = response.read()  # type: ignore[attr-defined]
        return response

    def run(self) -> None:
        context = ssl._create_unverified_context()
        connection = http.client.HTTPSConnection("127.0.0.1", self.proxy.https_port, timeout=30, context=context)
        try:
            body: bytes = self.fetch(connection, self.page, "").body  # type: ignore[attr-defined]
            address, etag = html.unescape(LIVE_GET.search(body.decode())[1]), ""  # type: ignore[index]
            while not self.stop.wait(self.period):
                self.addresses.add(address)
                answer = self.fetch(connection, address, etag)
                self.statuses.append(answer.status)
                if answer.status == 200:
                    self.last_body, etag = answer.body, answer.getheader("ETag", "")  # type: ignore[attr-defined]
                    found = LIVE_GET.search(self.last_body.decode())
                    address = html.unescape(found[1]) if found else address
        except BaseException as exc:  # reported by the test
            self.error = exc
        finally:
            connection.close()


def test_spectators_of_a_match_reach_the_app_about_once_a_second_while_moves_are_entered(
    proxy: LocalNginx,
    new_match: Any,  # noqa: F811 (the fixture)
    drive: Any,  # noqa: F811 (the fixture)
    app_hits: list[str],
) -> None:
    """Twelve spectators poll a match's live part every 0.3 s (ten times the page's rate) while a turn (a roll and
    its play) is entered every 0.15 s: every one of them polls the match's one address, and the app sees at most
    about one request a second for it (one per expired copy), not one per move (or per client and move) as when the
    address named the list the client showed. Once the moves stop, every spectator catches up with the match within
    seconds."""
    match = new_match(length=15)
    driver = drive(match, seed=5)
    driver.turns(2)
    live = f"/matches/{match.pk}/live/"
    stop = threading.Event()
    spectators = [Spectator(proxy, f"/matches/{match.pk}/", 0.3, stop) for _ in range(12)]
    for spectator in spectators:
        spectator.start()
    started, actions = time.monotonic(), 0
    while time.monotonic() - started < 8:
        driver.turns(1)  # a roll and its play
        actions += 1
        time.sleep(0.15)
    elapsed = time.monotonic() - started
    time.sleep(4)  # nginx's copy (1 s) and the app's own (2 s) expire; every spectator polls again
    stop.set()
    for spectator in spectators:
        spectator.join(timeout=60)
        assert spectator.error is None, spectator.error
    assert actions >= 20
    assert set().union(*(s.addresses for s in spectators)) == {live}, "one address for all, whatever they show"
    hits = [hit for hit in app_hits if hit.startswith(live)]
    polls = sum(len(s.statuses) for s in spectators)
    assert polls >= 12 * elapsed, "the spectators polled"
    assert len(hits) <= elapsed + 4 + 2, f"{len(hits)} of {polls} polls reached the app in {elapsed + 4:.0f} s"
    shown = Client().get(f"/matches/{match.pk}/").content.decode()
    latest = MOVE_ITEM.findall(shown)
    assert latest and all(MOVE_ITEM.findall(s.last_body.decode()) == latest for s in spectators)
