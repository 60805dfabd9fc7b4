"""Player names are text everywhere: two hostile names (a script element, and one that closes an attribute and opens
an element with a handler) are shown escaped on every public, entry and director page, in the live parts, the
printed sheets, the brackets and the SVG boards; in the CSV and .mat downloads they are data (no HTML type, and no
cell a spreadsheet would run).

The pages are found by following the site's own links from the event page and the director's pages, plus the
routes no page links to (live parts, entry pages); the per-page escaping tests of tests/web/ cover one name on one
page each.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from common.actor import SYSTEM, Actor
from games import services as games
from games.access import new_entry_token, token_text
from games.models import Match
from tests.tournaments.api.support import enter_result
from tournaments import services
from tournaments.models import Division, Pairing

pytestmark = pytest.mark.django_db

SCRIPT = "<script>alert(1)</script>"
ATTRIBUTE = '"><img src=x onerror=1>'
FORMULA = "=cmd|' /C calc'!A0"
#: What must never appear in an HTML answer (the raw markup of the names), and what shows they were there, escaped.
RAW = ("<script>alert", "<img src=x", "onerror=1>")
ESCAPED = ("&lt;script&gt;alert(1)&lt;/script&gt;", "&lt;img src=x onerror=1&gt;")


def _register(division: Division, actor: Actor, names: list[str]) -> None:
    for rating, name in enumerate(names):
        services.register_player(division, actor=actor, name=name, club=name, rating=2000 - rating)


@pytest.fixture
def hostile(as_director: Actor, director: Any) -> dict[str, Any]:
    """A public event with a Swiss played move by move, a scoresheet Swiss awaiting a confirmation and an
    elimination bracket, every one of them with the hostile names."""
    event = services.create_event(actor=as_director, name="Club night")

    def division(name: str, fmt: str, names: list[str], **settings: Any) -> Division:
        found = services.create_division(
            event, actor=as_director, settings=services.DivisionSettings(name=name, format=fmt, **settings)
        )
        _register(found, as_director, names)
        return services.start_division(found, actor=as_director)

    moves = division("Open", "swiss", [SCRIPT, ATTRIBUTE, FORMULA, "Ann"], match_length=3, rounds_planned=2)
    live = Pairing.objects.filter(division=moves, round__number=1).order_by("board").first()
    assert live is not None
    seq = games.record_opening_roll(live.match_id, actor=SYSTEM, dice=(3, 1), expected_seq=0).match.seq
    games.record_play(live.match_id, actor=SYSTEM, side=0, play="8/5 6/5", expected_seq=seq)
    sheet = division("Sheet", "swiss", [SCRIPT, ATTRIBUTE], match_length=1, rounds_planned=1, entry_mode="scoresheet")
    awaiting = enter_result(Pairing.objects.get(division=sheet), winner=0)
    bracket = division("Cup", "single", [ATTRIBUTE, SCRIPT, FORMULA, "Ben"], match_length=1, entry_mode="scoresheet")
    for found in (moves, sheet, bracket):  # what the follow-up task does after a commit (tests never commit)
        services.recompute_standings(found.pk)
    return {"event": event, "moves": moves, "live": live, "sheet": sheet, "awaiting": awaiting, "bracket": bracket}


def _links(html: str) -> set[str]:
    return {href for href in re.findall(r'href="(/[^"#?]*)', html) if not href.startswith("/static/")}


def _crawl(client: Client, start: list[str], inside: Callable[[str], bool]) -> dict[str, Any]:
    """Every page reachable from ``start`` through links that ``inside`` accepts: url -> response."""
    seen: dict[str, Any] = {}
    todo = list(start)
    while todo:
        url = todo.pop()
        if url in seen or not inside(url):
            continue
        response = client.get(url)
        seen[url] = response
        if response.status_code == 200 and response["Content-Type"].startswith("text/html"):
            todo += sorted(_links(response.content.decode()) - set(seen))
    return seen


def _check_html(url: str, response: Any) -> bool:
    """No hostile markup on the page; whether it shows a hostile name (escaped)."""
    assert response.status_code == 200, (url, response.status_code)
    html = response.content.decode()
    for raw in RAW:
        assert raw not in html, f"{url} shows {raw!r} as markup"
    return any(escaped in html for escaped in ESCAPED)


def _check_pages(pages: dict[str, Any], named: set[str]) -> None:
    """Every HTML page is safe, and each of ``named`` shows the names."""
    showing = {url for url, response in pages.items() if _check_html(url, response)}
    assert named <= showing, f"pages that should show the names and do not: {sorted(named - showing)}"


def _check_download(url: str, response: Any) -> None:
    assert response.status_code == 200, (url, response.status_code)
    assert not response["Content-Type"].startswith("text/html"), url
    assert response["Content-Disposition"].startswith("attachment"), url
    text = response.content.decode()
    assert SCRIPT in text or ATTRIBUTE in text, f"{url}: the names are data, kept as they are"
    if url.endswith(".csv"):
        cells = [cell for row in csv.reader(io.StringIO(text)) for cell in row]
        assert not any(cell.startswith(("=", "+", "-", "@")) for cell in cells), f"{url}: a formula cell"


def test_public_pages_and_downloads(client: Client, hostile: dict[str, Any]) -> None:
    event = hostile["event"]
    live_parts = [
        reverse("tournaments:division-live", args=[event.slug, d.slug, part])
        for d, parts in (
            (hostile["moves"], ("standings", "pairings")),
            (hostile["bracket"], ("standings", "pairings", "bracket")),
        )
        for part in parts
    ]
    start = [reverse("tournaments:event-list"), reverse("tournaments:event-detail", args=[event.slug]), *live_parts]
    pages = _crawl(client, start, lambda url: url.startswith(("/events/", "/matches/")))
    live = hostile["live"].match_id
    pages.update({url: client.get(url) for url in (f"/matches/{live}/board/?at=2", f"/matches/{live}/live/")})
    htmls = [url for url, r in pages.items() if r["Content-Type"].startswith("text/html")]
    downloads = [url for url in pages if url.endswith((".csv", ".mat"))]
    assert f"/matches/{live}/" in htmls and any(url.endswith("results.csv") for url in downloads)
    assert any(url.endswith(".mat") for url in downloads), downloads
    division_pages = {
        reverse("tournaments:division-detail", args=[event.slug, d.slug])
        for d in (hostile["moves"], hostile["sheet"], hostile["bracket"])
    }
    named = {f"/matches/{live}/", f"/matches/{live}/board/?at=2", f"/matches/{live}/live/", *division_pages}
    _check_pages({url: pages[url] for url in htmls}, named | set(live_parts[1:]))
    for url in downloads:
        _check_download(url, pages[url])
    results = pages[reverse("tournaments:division-results-csv", args=[event.slug, hostile["moves"].slug])]
    assert "'" + FORMULA in results.content.decode()  # the formula is kept as text behind a quote
    svg = pages[f"/matches/{live}/"].content.decode()
    assert "<svg" in svg and "&lt;script&gt;" in svg


def test_the_api_mat_export_keeps_names_as_data(client: Client, hostile: dict[str, Any]) -> None:
    response = client.get(reverse("games_api:match-export", args=[hostile["live"].match_id]))
    _check_download(response.request["PATH_INFO"], response)
    assert response["Content-Type"].startswith("text/plain")


def test_entry_pages(hostile: dict[str, Any]) -> None:
    phone = Client()
    for key, side in (("live", 0), ("awaiting", 1)):
        match = Match.objects.get(pk=hostile[key].match_id)
        assert phone.get(reverse("entry:exchange", args=[token_text(new_entry_token(match, side))])).status_code == 302
    urls = [
        reverse("entry:match", args=[hostile["live"].match_id]),
        reverse("entry:live", args=[hostile["live"].match_id]),
        reverse("entry:match", args=[hostile["awaiting"].match_id]),  # with the confirm-or-dispute panel
        reverse("pairing_entry:next"),
    ]
    _check_pages({url: phone.get(url) for url in urls}, set(urls))
    panel = phone.get(urls[2]).content.decode()
    assert reverse("pairing_entry:dispute", args=[hostile["awaiting"].pk]) in panel
    refused = phone.post(reverse("pairing_entry:dispute", args=[hostile["awaiting"].pk]), {"reason": ""})
    assert refused.status_code == 400
    for raw in RAW:
        assert raw not in refused.content.decode()


def test_director_pages_and_printed_sheets(director: Any, hostile: dict[str, Any]) -> None:
    client = Client()
    client.force_login(director)
    services.dispute_result(
        hostile["awaiting"],
        actor=Actor(token=new_entry_token(Match.objects.get(pk=hostile["awaiting"].match_id), 1)),
        reason=f"I won {ATTRIBUTE}",
    )
    pages = _crawl(client, ["/manage/"], lambda url: url.startswith("/manage/"))
    moves = hostile["moves"]
    expected = {
        f"/manage/{moves.event.slug}/{moves.slug}/",
        f"/manage/{moves.event.slug}/{moves.slug}/round/swiss/1/sheet/",
        f"/manage/{moves.event.slug}/{moves.slug}/round/swiss/1/scorecards/",
        f"/manage/{moves.event.slug}/{hostile['bracket'].slug}/final-standings/",
        f"/manage/{moves.event.slug}/{moves.slug}/match/{hostile['live'].key}/",
    }
    assert expected <= set(pages), sorted(expected - set(pages))
    _check_pages(pages, expected | {f"/manage/{moves.event.slug}/"})  # the dashboard shows the dispute
