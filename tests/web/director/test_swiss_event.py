"""A whole Swiss event run from the directors' pages, from the event's creation to its final standings: players
registered from a list, checked in, the rounds paired, results entered from the entry links the sheets print
(each link on its player's slip, none on the wall), and the sheets' no-store header."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

import pytest
import segno
from django.test import Client
from django.urls import Resolver404, resolve

from common.actor import Actor
from games.access import access_entry_token
from games.models import EntryToken
from tests.web.director.support import ESCAPED, EVIL, check_html, client_for, pairing_at, sheet_links, text_of, win
from tournaments import services
from tournaments.models import Division, Event, Pairing, Round

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks")]


PLAYERS_CSV = f"""name,club,country,rating,seed
Anna Berg,Oslo BK,NO,1900,
Bo Ek,Malmo BK,SE,1850,
Cleo Dahl,,DK,1800,
Dan Vik,Oslo BK,NO,1750,
Eva Lund,,SE,1700,
Finn Aas,,NO,1650,
Gro Moe,,NO,1600,
{EVIL},Evil club,GB,1550,
"""


def test_a_director_runs_a_swiss_event(dora: Any, django_capture_on_commit_callbacks: Any) -> None:
    client = client_for(dora)

    # The event and its division.
    created = client.post(
        "/manage/",
        {
            "action": "create-event",
            "create-event-name": "Spring Open",
            "create-event-venue": "Oslo BK",
            "create-event-time_zone": "Europe/Oslo",
            "create-event-starts_on": "2026-04-11",
            "create-event-ends_on": "2026-04-12",
            "create-event-public": "on",
        },
    )
    assert created.status_code == 302 and created["Location"] == "/manage/spring-open/"
    event = Event.objects.get(slug="spring-open")
    assert (event.time_zone, str(event.ends_on), event.public) == ("Europe/Oslo", "2026-04-12", True)
    assert event.analyse_imported is False  # not ticked
    assert list(event.directors.all()) == [dora]
    dashboard = client.get("/manage/spring-open/")
    assert "Event “Spring Open” created" in text_of(dashboard)

    created = client.post(
        "/manage/spring-open/",
        {
            "action": "create-division",
            "create-division-name": "Open",
            "create-division-format": "swiss",
            "create-division-match_length": "3",
            "create-division-round_lengths": "swiss:3=5",
            "create-division-crawford": "on",
            "create-division-variant": "standard",
            "create-division-entry_mode": "scoresheet",
            "create-division-clock": "2 min/point + 12 s delay",
            "create-division-seeding": "rating",
            "create-division-tiebreaks": "buchholz, points-diff",
            "create-division-rounds_planned": "3",
            "create-division-last_chance_places": "0",
        },
    )
    assert created.status_code == 302 and created["Location"] == "/manage/spring-open/open/"
    division = Division.objects.get(event=event)
    assert (division.round_lengths, division.tiebreaks) == ({"swiss:3": 5}, ["buchholz", "points-diff"])
    assert (division.format, division.rounds_planned, division.entry_mode) == ("swiss", 3, "scoresheet")

    # Eight players by paste, then the start.
    division_url = "/manage/spring-open/open/"
    imported = client.post(division_url, {"action": "import", "import-text": PLAYERS_CSV})
    assert imported.status_code == 302
    assert division.entries.count() == 8
    assert "8 players registered from the list." in text_of(client.get(division_url))
    started = client.post(division_url, {"action": "start"})
    assert started.status_code == 302
    division.refresh_from_db()
    assert division.status == "running"
    round_1 = list(Pairing.objects.filter(division=division, round__number=1).order_by("board"))
    assert len(round_1) == 4 and all(p.match_id for p in round_1)

    dashboard = text_of(client.get("/manage/spring-open/"))
    assert "Round 1" in dashboard and dashboard.count(">ready<") == 8  # on each board and at each table
    assert ESCAPED in dashboard and EVIL not in dashboard
    check_html(dashboard)

    # The pairing sheet, for the wall: no entry link on it.
    wall = text_of(client.get("/manage/spring-open/open/round/swiss/1/sheet/"))
    assert "2 min/point + 12 s delay" in wall and "<svg" not in wall and "/play/" not in wall
    assert EntryToken.objects.count() == 0, "printing the wall sheet makes no link"
    # The entry slips: one per player, a QR code each, linking to that player's entry page.
    sheet = client.get("/manage/spring-open/open/round/swiss/1/slips/")
    assert sheet.status_code == 200
    assert {part.strip() for part in sheet["Cache-Control"].split(",")} == {"private", "no-store"}
    page = text_of(sheet)
    assert "2 min/point + 12 s delay" in page and "3-point matches" in page and "Spring Open" in page
    assert ESCAPED in page and EVIL not in page
    check_html(page)
    links = sheet_links(page)
    assert len(links) == 8 and page.count("<svg") == 8
    tokens = {}
    for url in links:
        assert segno.make_qr(url).svg_inline(scale=3) in page  # the QR code encodes exactly this link
        token = access_entry_token(urlsplit(url).path.removeprefix("/play/").removesuffix("/"))
        tokens[(token.match_id, token.side)] = token
    assert set(tokens) == {(p.match_id, side) for p in round_1 for side in (0, 1)}
    assert sheet_links(text_of(client.get("/manage/spring-open/open/round/swiss/1/slips/"))) == links  # printed again
    assert page.count('class="slip"') == 8
    for url in links:  # written out too, for a phone without a camera
        assert f"No camera? Type: <code>{url}</code>" in page
    assert EntryToken.objects.count() == 8
    follow_entry_link(links[0])

    # Players enter their results with the links; one match is under way, then every one finishes.
    link = {key: Actor(token=token) for key, token in tokens.items()}
    first = round_1[0]
    win(first.match, side=0, actor=link[(first.match_id, 0)], games_won=(1,))
    dashboard = text_of(client.get("/manage/spring-open/"))
    assert "playing, 1\u20130" in dashboard
    with django_capture_on_commit_callbacks(execute=True):
        win(first.match, side=0, actor=link[(first.match_id, 0)], games_won=(2,))
        for p in round_1[1:]:
            win(p.match, side=0, actor=link[(p.match_id, 0)])
    assert all(pairing_at(division, 1, t).confirmation == "awaiting" for t in (1, 2, 3, 4))
    with django_capture_on_commit_callbacks(execute=True):
        for p in round_1[1:]:
            services.confirm_result(p, actor=link[(p.match_id, 1)])

    # The queue: the director confirms the last result.
    dashboard = text_of(client.get("/manage/spring-open/"))
    assert "Results waiting for you" in dashboard and "awaiting confirmation by" in dashboard
    assert f'name="target" value="{first.pk}"' in dashboard
    assert f"/manage/spring-open/open/match/{first.key}/" in dashboard
    check_html(dashboard)
    with django_capture_on_commit_callbacks(execute=True):
        confirmed = client.post("/manage/spring-open/", {"action": "confirm", "target": first.pk})
    assert confirmed.status_code == 302
    assert pairing_at(division, 1, 1).confirmation == "confirmed"
    dashboard = text_of(client.get("/manage/spring-open/"))
    assert "Result confirmed" in dashboard and "No result is waiting for a confirmation" in dashboard
    assert dashboard.count("finished, 3\u20130") == 4

    # Round 2.
    paired = client.post(division_url, {"action": "pair-next"})
    assert paired.status_code == 302
    assert Round.objects.filter(division=division).count() == 2
    page = text_of(client.get(division_url))
    assert "Round 2 is paired." in page and "2 of 3 rounds paired." in page
    check_html(page)
    dashboard = text_of(client.get("/manage/spring-open/"))
    assert "Round 2" in dashboard and dashboard.count(">ready<") == 8  # on each board and at each table
    standings = text_of(client.get("/manage/spring-open/open/final-standings/"))
    assert "Not final:" in standings and ESCAPED in standings
    assert '<th scope="col">Buchholz</th>' in standings and '<th scope="col">buchholz</th>' not in standings
    check_html(standings)
    cards = text_of(client.get("/manage/spring-open/open/round/swiss/2/scorecards/"))
    assert cards.count('class="scorecard"') == 4 and ESCAPED in cards and EVIL not in cards
    check_html(cards)


def follow_entry_link(url: str) -> None:
    """A player follows a link of the sheet: the token is accepted, and the entry page (when it is routed: another
    part of the project builds it) opens without an account."""
    path = urlsplit(url).path
    access_entry_token(path.removeprefix("/play/").removesuffix("/"))
    try:
        resolve(path)
    except Resolver404:
        return
    assert Client().get(path, follow=True).status_code == 200
