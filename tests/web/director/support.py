"""What the tests of the directors' pages (tournaments/director/views/) share: a client logged in as someone, a
started Swiss division, the URLs of its pages, the rows a director's action can write, a result entered as a player
enters it, the HTML conventions every page keeps (CSRF on every form, labels, no inline script or style) and a
refusal's check (the service's message, what was typed, nothing written).

Set-up goes through the services; results are entered as players enter them. The tests' transaction never commits,
so the follow-up that a commit would run (sync and standings, eager Celery) is run by
``django_capture_on_commit_callbacks(execute=True)``.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from typing import Any

from django.test import Client

from common.actor import Actor
from games.models import Action, EntryToken, Match, Player
from games.services import record_game_result
from tests.factories import DivisionFactory, EventFactory
from tournaments import services
from tournaments.models import Club, Division, Entry, Event, Pairing, Round, Standing

EVIL = "<script>alert(1)</script>"
ESCAPED = "&lt;script&gt;alert(1)&lt;/script&gt;"


def client_for(user: Any = None, **kwargs: Any) -> Client:
    client = Client(**kwargs)
    if user is not None:
        client.force_login(user)
    return client


def swiss_division(director: Any, players: int, *, public: bool = True, name: str = "Club night") -> Division:
    """A started Swiss division of ``players`` (P01... rated 2010, 2000, ...: seed k is Pk), 3-point scoresheet
    matches, 3 rounds."""
    division = DivisionFactory(
        event=EventFactory(director=director, name=name, public=public),
        format="swiss",
        players=players,
        name="Open",
        match_length=3,
        entry_mode="scoresheet",
        rounds_planned=3,
        clock="2 min/pt",
    )
    return services.start_division(division, actor=Actor(user=director))


def pairing_at(division: Division, number: int, table: int) -> Pairing:
    return Pairing.objects.select_related("match").get(division=division, round__number=number, board=table)


def urls(division: Division, pairing: Pairing | None = None) -> dict[str, str]:
    event, slug = division.event.slug, division.slug
    base = f"/manage/{event}/{slug}/"
    pairing = pairing or pairing_at(division, 1, 1)
    return {
        "home": "/manage/",
        "event": f"/manage/{event}/",
        "division": base,
        "match": f"{base}match/{pairing.key}/",
        "sheet": f"{base}round/swiss/1/sheet/",
        "slips": f"{base}round/swiss/1/slips/",
        "scorecards": f"{base}round/swiss/1/scorecards/",
        "final-standings": f"{base}final-standings/",
    }


def rows() -> dict[str, int]:
    """How many rows each table a director's action can write holds."""
    models = (Event, Division, Entry, Player, Round, Pairing, Match, Action, EntryToken, Standing)
    counts = {model.__name__: model.objects.count() for model in models}
    counts["directors"] = Event.directors.through.objects.count()
    counts["checked_in"] = Entry.objects.filter(status=Entry.Status.CHECKED_IN).count()
    counts["withdrawn"] = Entry.objects.filter(status=Entry.Status.WITHDRAWN).count()
    counts["confirmed"] = Pairing.objects.filter(confirmation=Pairing.Confirmation.CONFIRMED).count()
    return counts


def win(match: Match, *, side: int, actor: Actor, games_won: tuple[int, ...] = (1, 2)) -> Match:
    """The player of ``side`` enters games he won from the scoresheet (a single, then a gammon: 3-0)."""
    match = Match.objects.get(pk=match.pk)
    for kind in games_won:
        recorded = record_game_result(match.pk, actor=actor, winner=side, kind=kind, expected_seq=match.seq)
        match = recorded.match
    return match


def text_of(response: Any) -> str:
    return response.content.decode()


class _Forms(HTMLParser):
    """The forms of a page with their inputs, the labels' ``for``, and the controls that need a label."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: list[dict[str, Any]] = []
        self.labels: set[str] = set()
        self.controls: list[dict[str, str | None]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "form":
            self.forms.append({"attrs": a, "inputs": []})
        elif tag in ("input", "select", "textarea", "button") and self.forms:
            self.forms[-1]["inputs"].append(a)
        if tag == "label" and a.get("for"):
            self.labels.add(a["for"] or "")
        if tag in ("select", "textarea") or (tag == "input" and a.get("type") not in ("hidden", "submit")):
            self.controls.append(a)


def check_html(html: str) -> None:
    """Every form is a POST with a CSRF token (but a search, a GET that changes nothing); every control has a label;
    no inline script, style or handler."""
    parsed = _Forms()
    parsed.feed(html)
    for form in parsed.forms:
        if form["attrs"].get("role") == "search":
            assert form["attrs"].get("method") == "get", form["attrs"]
            continue
        assert form["attrs"].get("method") == "post", form["attrs"]
        names = {i.get("name") for i in form["inputs"]}
        assert "csrfmiddlewaretoken" in names, form["attrs"]
    for control in parsed.controls:
        assert control.get("id") in parsed.labels or control.get("aria-label"), control
    assert not re.search(r"<script(?![^>]*\bsrc=)", html), "inline script"
    assert not re.search(r"\sstyle=", html), "inline style"
    assert not re.search(r"<style", html), "style element"
    assert not re.search(r"\son[a-z]+=", html), "inline event handler"
    assert len(set(re.findall(r'\sid="([^"]+)"', html))) == len(re.findall(r'\sid="([^"]+)"', html)), "duplicate id"


def sheet_links(page: str) -> list[str]:
    """The entry links an entry slips page prints as text (its QR codes are no hyperlinks: a click would bind a
    link to the director's browser)."""
    return re.findall(r"<code>(http://testserver/play/[^<]+/)</code>", page)


def refused(client: Client, url: str, data: dict[str, Any], message: str, *, status: int = 400) -> str:
    before = rows()
    response = client.post(url, data)
    page = text_of(response)
    assert response.status_code == status, page
    assert message in page, page
    assert "Nothing was changed." in page
    first = re.search(r"Nothing was changed\.</strong>\s*(\S)", page)
    assert first is not None and not first.group(1).islower(), "the sentence after it starts with a capital"
    assert rows() == before
    check_html(page)
    return page


def league(director: Any, players: int) -> Division:
    """Dora's "League" event with a round robin "A" of ``players`` players (P1 the best rated), 3-point scoresheet
    matches, started: every round is drawn at the start."""
    actor = Actor(user=director)
    event = services.create_event(actor=actor, name="League")
    settings = services.DivisionSettings(name="A", format="round-robin", entry_mode="scoresheet", match_length=3)
    division = services.create_division(event, actor=actor, settings=settings)
    for i in range(1, players + 1):
        services.register_player(division, actor=actor, name=f"P{i}", rating=2000 - i)
    return services.start_division(division, actor=actor)


CASUAL = "casual: no cube, every game one point"


def roster_club(director: Any, *names: str) -> Club:
    """The club Oslo BK, directed by ``director``, with ``names`` on its roster (each a new player of Oslo BK)."""
    club = services.create_club(actor=Actor(user=director), name="Oslo BK")
    for name in names:
        services.add_to_roster(club, actor=Actor(user=director), name=name, club_text="Oslo BK", new_player=True)
    return club
