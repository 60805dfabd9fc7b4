"""The directors' pages (tournaments/director/): who may open them, a whole Swiss event run from them, refusals
that show the service's message and write nothing, the pairing sheet's entry links and its no-store header, HTML
conventions (CSRF on every form, labels, escaping, no inline script or style) and query counts that do not grow
with the field.

Set-up goes through the services (STYLE.md 4.7); results are entered as players enter them, with the entry links
printed on the pairing sheet. The tests' transaction never commits, so the follow-up that a commit would run
(sync and standings, eager Celery) is run by ``django_capture_on_commit_callbacks(execute=True)``.
"""

from __future__ import annotations

import random
import re
from html.parser import HTMLParser
from typing import Any
from urllib.parse import urlsplit

import pytest
import segno
from django.db import connection
from django.test import Client, override_settings
from django.test.utils import CaptureQueriesContext
from django.urls import Resolver404, resolve, reverse

from games import services as games
from games.access import Actor, access_entry_token, new_entry_token
from games.models import Action, EntryToken, Match, Player
from tests.factories import DivisionFactory, EventFactory
from tournaments import services
from tournaments.models import Division, Entry, Event, Pairing, Round, Standing
from tournaments.simulation import run_division

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks")]

EVIL = "<script>alert(1)</script>"
ESCAPED = "&lt;script&gt;alert(1)&lt;/script&gt;"


# -- the cast --------------------------------------------------------------------------------------------------------


@pytest.fixture
def otto(django_user_model: Any) -> Any:
    """Directs another event."""
    user = django_user_model.objects.create_user("otto", password=None)
    services.create_event(actor=Actor(user=user), name="Otto's cup")
    return user


@pytest.fixture
def sam(django_user_model: Any) -> Any:
    """A user with an account and no event."""
    return django_user_model.objects.create_user("sam", password=None)


@pytest.fixture
def stella(django_user_model: Any) -> Any:
    return django_user_model.objects.create_user("stella", password=None, is_staff=True)


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


@pytest.fixture
def swiss(dora: Any) -> Division:
    return swiss_division(dora, 8)


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
        recorded = games.record_game_result(match.pk, actor=actor, winner=side, kind=kind, expected_seq=match.seq)
        match = recorded.match
    return match


def text_of(response: Any) -> str:
    return response.content.decode()


# -- HTML checks -----------------------------------------------------------------------------------------------------


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
    """Every form is a POST with a CSRF token; every control has a label; no inline script, style or handler."""
    parsed = _Forms()
    parsed.feed(html)
    for form in parsed.forms:
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


# -- access ----------------------------------------------------------------------------------------------------------

PAGES = ("event", "division", "match", "sheet", "slips", "scorecards", "final-standings")


@pytest.mark.parametrize("page", PAGES)
@pytest.mark.parametrize(
    ("who", "public", "status"),
    [
        ("anonymous", True, 302),
        ("sam", True, 403),
        ("otto", True, 403),
        ("sam", False, 404),
        ("otto", False, 404),
        ("dora", True, 200),
        ("stella", True, 200),
        ("dora", False, 200),
        ("stella", False, 200),
    ],
)
def test_who_opens_a_page(
    page: str, who: str, public: bool, status: int, request: pytest.FixtureRequest, dora: Any
) -> None:
    division = swiss_division(dora, 4, public=public)
    url = urls(division)[page]
    user = None if who == "anonymous" else request.getfixturevalue(who)
    before = rows()
    response = client_for(user).get(url)
    assert response.status_code == status
    if status == 302:
        assert response["Location"].startswith("/accounts/login/?next=/manage/")
    if status == 403:
        assert "You are not a director of Club night" in text_of(response)
    if status == 404:
        assert "Club night" not in text_of(response) and "Not found" in text_of(response)
    if status != 200 or page != "slips":
        assert rows() == before  # refusals (and pages other than the slips) write nothing
    if status != 302:
        assert {part.strip() for part in response["Cache-Control"].split(",")} == {"private", "no-store"}


@pytest.mark.parametrize(
    ("page", "data"),
    [
        ("event", {"action": "add-director", "add-director-username": "sam"}),
        ("event", {"action": "create-division", "create-division-name": "B", "create-division-format": "single",
                   "create-division-match_length": "5", "create-division-variant": "standard",
                   "create-division-entry_mode": "moves", "create-division-seeding": "rating",
                   "create-division-rounds_planned": "0", "create-division-last_chance_places": "0"}),
        ("division", {"action": "register", "register-name": "Intruder"}),
        ("division", {"action": "pair-next"}),
        ("match", {"action": "undo", "undo-reason": "because", "undo-expected_seq": "0"}),
        ("match", {"action": "forfeit", "forfeit-loser": "", "forfeit-kind": "no-show", "forfeit-reason": "late"}),
    ],
)  # fmt: skip
@pytest.mark.parametrize(
    ("who", "public", "status"),
    [
        ("anonymous", True, 302),
        ("sam", True, 403),
        ("otto", True, 403),
        ("otto", False, 404),
        ("sam", False, 404),
    ],
)
def test_only_directors_post(
    page: str, data: dict[str, str], who: str, public: bool, status: int, request: pytest.FixtureRequest, dora: Any
) -> None:
    division = swiss_division(dora, 4, public=public)
    user = None if who == "anonymous" else request.getfixturevalue(who)
    before = rows()
    response = client_for(user).post(urls(division)[page], data)
    assert response.status_code == status
    assert rows() == before


@pytest.mark.parametrize("who", ["dora", "stella"])
def test_the_events_list_shows_what_one_directs(who: str, request: pytest.FixtureRequest, otto: Any) -> None:
    mine = swiss_division(request.getfixturevalue("dora"), 2, name="Dora's night").event
    page = text_of(client_for(request.getfixturevalue(who)).get("/manage/"))
    assert mine.name.replace("'", "&#x27;") in page
    assert ("Otto&#x27;s cup" in page) == (who == "stella")
    check_html(page)


def test_a_user_without_events_sees_an_empty_list_and_the_form(sam: Any, swiss: Division) -> None:
    page = text_of(client_for(sam).get("/manage/"))
    assert "You do not direct any event yet" in page and "Club night" not in page
    assert 'name="create-event-name"' in page
    assert 'name="create-event-analyse_imported"' in page and "Analyse imported matches" in page


def test_the_event_form_turns_on_the_analysis_of_imported_matches(sam: Any) -> None:
    created = client_for(sam).post(
        "/manage/",
        {"action": "create-event", "create-event-name": "Imports", "create-event-time_zone": "UTC",
         "create-event-analyse_imported": "on"},
    )  # fmt: skip
    assert created.status_code == 302 and created["Location"] == "/manage/imports/"
    assert Event.objects.get(slug="imports").analyse_imported is True


def test_unknown_event_division_round_or_match_is_a_404_page(dora: Any, swiss: Division) -> None:
    client = client_for(dora)
    base = f"/manage/{swiss.event.slug}/{swiss.slug}/"
    for url in (
        "/manage/nope/",
        f"/manage/{swiss.event.slug}/nope/",
        f"{base}match/swiss-9-9/",
        f"{base}round/swiss/7/sheet/",
        f"{base}round/main/1/scorecards/",
    ):
        response = client.get(url)
        assert response.status_code == 404, url
        assert "Not found" in text_of(response)


def test_the_login_page(swiss: Division) -> None:
    response = Client().get("/manage/", follow=True)
    page = text_of(response)
    assert response.redirect_chain[-1][0].startswith("/accounts/login/")
    assert 'name="username"' in page and 'name="password"' in page and 'name="next" value="/manage/"' in page
    check_html(page)


# -- a whole event ---------------------------------------------------------------------------------------------------

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


def _links(page: str) -> list[str]:
    return re.findall(r'<a href="(http://testserver/play/[^"]+/)"', page)


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
    assert "Round 1" in dashboard and dashboard.count(">ready<") == 4
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
    links = _links(page)
    assert len(links) == 8 and page.count("<svg") == 8
    tokens = {}
    for url in links:
        assert segno.make_qr(url).svg_inline(scale=3) in page  # the QR code encodes exactly this link
        token = access_entry_token(urlsplit(url).path.removeprefix("/play/").removesuffix("/"))
        tokens[(token.match_id, token.side)] = token
    assert set(tokens) == {(p.match_id, side) for p in round_1 for side in (0, 1)}
    assert _links(text_of(client.get("/manage/spring-open/open/round/swiss/1/slips/"))) == links  # printed again
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
    assert "Round 2" in dashboard and dashboard.count(">ready<") == 4
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


# -- registration ----------------------------------------------------------------------------------------------------


@pytest.fixture
def registering(dora: Any) -> Division:
    actor = Actor(user=dora)
    event = services.create_event(actor=actor, name="Club night")
    division = services.create_division(
        event, actor=actor, settings=services.DivisionSettings(name="Open", format="single", seeding="manual")
    )
    services.register_player(division, actor=actor, name="Ann", seed=1)
    services.register_player(division, actor=actor, name="Ben")
    return division


def test_register_check_in_seed_and_withdraw(dora: Any, registering: Division) -> None:
    client, url = client_for(dora), f"/manage/{registering.event.slug}/{registering.slug}/"
    page = text_of(client.get(url))
    check_html(page)
    response = client.post(
        url,
        {"action": "register", "register-name": EVIL, "register-club": "X", "register-country": "gb",
         "register-rating": "1720", "register-seed": "3"},
    )  # fmt: skip
    assert response.status_code == 302
    evil = Entry.objects.get(player__display_name=EVIL)
    assert (evil.player.country, evil.rating, evil.seed) == ("GB", 1720.0, 3)
    page = text_of(client.get(url))
    assert ESCAPED in page and EVIL not in page

    ben = Entry.objects.get(player__display_name="Ben")
    assert (
        client.post(url, {"action": "check-in", "target": ben.pk, f"check-in-{ben.pk}-present": "1"}).status_code == 302
    )
    assert Entry.objects.get(pk=ben.pk).status == "checked_in"
    page = text_of(client.get(url))
    assert "Ben is checked in." in page and "Undo check-in" in page
    client.post(url, {"action": "check-in", "target": ben.pk, f"check-in-{ben.pk}-present": "0"})
    assert Entry.objects.get(pk=ben.pk).status == "registered"

    assert client.post(url, {"action": "seed", "target": ben.pk, f"seed-{ben.pk}-seed": "2"}).status_code == 302
    assert Entry.objects.get(pk=ben.pk).seed == 2

    response = client.post(url, {"action": "withdraw", "target": evil.pk, f"withdraw-{evil.pk}-reason": "ill"})
    assert response.status_code == 302
    evil.refresh_from_db()
    assert (evil.status, evil.withdrawal_reason) == ("withdrawn", "ill")


def test_a_csv_file_can_be_uploaded(dora: Any, registering: Division) -> None:
    from django.core.files.uploadedfile import SimpleUploadedFile

    upload = SimpleUploadedFile("players.csv", "name,club\nCarl,Oslo\nDina,\n".encode("utf-8-sig"), "text/csv")
    url = f"/manage/{registering.event.slug}/{registering.slug}/"
    response = client_for(dora).post(url, {"action": "import", "import-file": upload})
    assert response.status_code == 302
    assert set(registering.entries.values_list("player__display_name", flat=True)) == {"Ann", "Ben", "Carl", "Dina"}


# -- refusals: the service's message, what was typed, nothing written ------------------------------------------------


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


def test_a_bad_list_registers_nobody_and_lists_the_bad_lines(dora: Any, registering: Division) -> None:
    url = f"/manage/{registering.event.slug}/{registering.slug}/"
    text = "name,club,country,rating,seed\nCarl,,NO,1800,\n,,,,\nDina,,Norway,abc,\n"
    page = refused(
        client_for(dora),
        url,
        {"action": "import", "import-text": text},
        "fix these lines and send the list again: line 3: the name is empty; line 4: country &#x27;Norway&#x27; is "
        "not a two-letter code, rating &#x27;abc&#x27; is not a number",  # every problem of a line, not the first
    )
    assert "Carl,,NO,1800," in page  # the list stays in the form
    assert page.lower().count("nothing was") == 1, "nothing written: said once"


def test_a_list_without_a_header_row_reads_its_columns_in_the_documented_order(
    dora: Any, registering: Division
) -> None:
    url = f"/manage/{registering.event.slug}/{registering.slug}/"
    before = registering.entries.count()
    response = client_for(dora).post(
        url, {"action": "import", "import-text": "Carl Berg,Oslo BK,NO,1800,\nDina Dahl\n"}
    )
    assert response.status_code == 302
    carl = registering.entries.select_related("player").get(player__display_name="Carl Berg")
    assert (carl.player.club, carl.player.country) == ("Oslo BK", "NO")
    assert registering.entries.count() == before + 2
    refused(
        client_for(dora),
        url,
        {"action": "import", "import-text": "Eva,,Norway\n"},
        "fix these lines and send the list again: line 1: country &#x27;Norway&#x27; is not a two-letter code",
    )


def test_refused_registration_keeps_what_was_typed(dora: Any, registering: Division) -> None:
    url = f"/manage/{registering.event.slug}/{registering.slug}/"
    page = refused(
        client_for(dora),
        url,
        {"action": "register", "register-name": "Cleo Dahl", "register-club": "Oslo BK", "register-seed": "1"},
        "seed 1 is already taken in Open",
        status=409,
    )
    assert 'value="Cleo Dahl"' in page and 'value="Oslo BK"' in page


def test_refused_form_input_is_a_field_error(dora: Any, registering: Division) -> None:
    url = f"/manage/{registering.event.slug}/{registering.slug}/"
    page = refused(
        client_for(dora),
        url,
        {"action": "register", "register-name": "", "register-seed": "x"},
        "This field is required.",
    )
    assert 'aria-invalid="true"' in page


def test_a_manual_seeding_refusal_names_who_has_no_seed(dora: Any, registering: Division) -> None:
    url = f"/manage/{registering.event.slug}/{registering.slug}/"
    refused(
        client_for(dora),
        url,
        {"action": "start"},
        "manual seeding needs seeds 1 to 2, each once; without a seed: Ben",
        status=409,
    )


def test_a_division_with_unknown_settings_is_refused(dora: Any, registering: Division) -> None:
    page = refused(
        client_for(dora),
        f"/manage/{registering.event.slug}/",
        {"action": "create-division", "create-division-name": "Side", "create-division-format": "swiss",
         "create-division-match_length": "5", "create-division-variant": "standard",
         "create-division-entry_mode": "moves", "create-division-seeding": "rating",
         "create-division-tiebreaks": "buchholz, coin-toss", "create-division-rounds_planned": "4",
         "create-division-last_chance_places": "0"},
        "unknown tie-break &#x27;coin-toss&#x27;",
    )  # fmt: skip
    assert 'value="buchholz, coin-toss"' in page and '<details class="panel" open>' in page


def test_an_event_keeps_one_director(dora: Any, registering: Division) -> None:
    refused(
        client_for(dora),
        f"/manage/{registering.event.slug}/",
        {"action": "remove-director", "target": dora.pk},
        "an event keeps at least one director: add another one first",
        status=409,
    )


def test_directors_are_added_and_removed(dora: Any, sam: Any, registering: Division) -> None:
    client, url = client_for(dora), f"/manage/{registering.event.slug}/"
    refused(client, url, {"action": "add-director", "add-director-username": "nobody"}, "There is no user “nobody”.")
    assert client.post(url, {"action": "add-director", "add-director-username": "sam"}).status_code == 302
    assert set(registering.event.directors.all()) == {dora, sam}
    assert client_for(sam).get(url).status_code == 200
    assert client.post(url, {"action": "remove-director", "target": sam.pk}).status_code == 302
    assert list(registering.event.directors.all()) == [dora]
    assert client_for(sam).get(url).status_code == 403


def test_an_incomplete_round_is_not_paired(dora: Any, swiss: Division) -> None:
    refused(
        client_for(dora),
        f"/manage/{swiss.event.slug}/{swiss.slug}/",
        {"action": "pair-next"},
        "Round 1 is not complete: a result is still to come or to be confirmed in P01 v ",
        status=409,
    )


def test_the_csrf_token_is_required(dora: Any, registering: Division) -> None:
    client = client_for(dora, enforce_csrf_checks=True)
    url = f"/manage/{registering.event.slug}/{registering.slug}/"
    before = rows()
    response = client.post(url, {"action": "register", "register-name": "Carl"})
    assert response.status_code == 403 and "CSRF verification failed" in text_of(response)
    assert rows() == before
    page = client.get(url)
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', text_of(page)).group(1)
    ok = client.post(url, {"action": "register", "register-name": "Carl", "csrfmiddlewaretoken": token})
    assert ok.status_code == 302 and registering.entries.count() == 3


def test_an_unknown_action_or_target_writes_nothing(dora: Any, swiss: Division) -> None:
    client, url = client_for(dora), f"/manage/{swiss.event.slug}/{swiss.slug}/"
    refused(client, url, {"action": "explode"}, "This form is not known here")
    refused(
        client,
        url,
        {"action": "withdraw", "target": "999999", "withdraw-999999-reason": "x"},
        "no longer exists",
        status=404,
    )


# -- decisions and corrections ---------------------------------------------------------------------------------------


@pytest.fixture
def round_one_played(swiss: Division, django_capture_on_commit_callbacks: Any) -> Division:
    """Round 1 played: side a won everywhere, every result confirmed by the opponent."""
    round_1 = list(Pairing.objects.filter(division=swiss, round__number=1).select_related("match"))
    with django_capture_on_commit_callbacks(execute=True):
        for p in round_1:
            win(p.match, side=0, actor=Actor(token=new_entry_token(p.match, 0)))
    with django_capture_on_commit_callbacks(execute=True):
        for p in round_1:
            services.confirm_result(p, actor=Actor(token=new_entry_token(p.match, 1)))
    return swiss


@pytest.fixture
def round_two(dora: Any, round_one_played: Division) -> Division:
    """... and round 2 paired."""
    services.pair_next_round(round_one_played, actor=Actor(user=dora))
    return round_one_played


def test_a_correction_is_refused_once_a_later_match_started_unless_overridden(
    dora: Any, round_two: Division, django_capture_on_commit_callbacks: Any
) -> None:
    earlier = pairing_at(round_two, 1, 1)
    winner = earlier.entry_a_id
    later = Pairing.objects.filter(division=round_two, round__number=2).filter(entry_a=winner).first() or (
        Pairing.objects.get(division=round_two, round__number=2, entry_b=winner)
    )
    win(later.match, side=0, actor=Actor(token=new_entry_token(later.match, 0)), games_won=(1,))  # under way
    client, url = client_for(dora), urls(round_two, earlier)["match"]
    page = text_of(client.get(url))
    assert "unless you tick Override" in page and 'name="replace-result-game_number"' in page
    check_html(page)
    seq = Match.objects.get(pk=earlier.match_id).seq
    data = {
        "action": "replace-result",
        "replace-result-game_number": "1",
        "replace-result-winner": "1",
        "replace-result-kind": "1",
        "replace-result-cube_value": "1",
        "replace-result-reason": "wrong winner on the scoresheet",
        "replace-result-expected_seq": str(seq),
    }
    page = refused(
        client, url, data, "this result cannot be corrected: a later match that depends on it has started", status=409
    )
    assert 'value="wrong winner on the scoresheet"' in page
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url, {**data, "replace-result-override": "on"})
    assert response.status_code == 302
    match = Match.objects.get(pk=earlier.match_id)
    assert (match.score1, match.score2, match.status) == (2, 1, "in_progress")
    assert "The result of game 1 is replaced." in text_of(client.get(url))


def test_a_stale_correction_is_refused(dora: Any, round_two: Division) -> None:
    earlier = pairing_at(round_two, 1, 2)
    refused(
        client_for(dora),
        urls(round_two, earlier)["match"],
        {"action": "undo", "undo-reason": "typo", "undo-expected_seq": "1"},
        "the match has moved on",
        status=409,
    )


def test_reopen_and_undo(dora: Any, round_two: Division, django_capture_on_commit_callbacks: Any) -> None:
    earlier = pairing_at(round_two, 1, 3)  # nobody of it has started round 2
    client, url = client_for(dora), urls(round_two, earlier)["match"]
    seq = Match.objects.get(pk=earlier.match_id).seq
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url, {"action": "reopen", "reopen-reason": "scored wrong", "reopen-expected_seq": seq})
    assert response.status_code == 302
    assert Match.objects.get(pk=earlier.match_id).status == "in_progress"
    seq = Match.objects.get(pk=earlier.match_id).seq
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url, {"action": "undo", "undo-reason": "game 1 too", "undo-expected_seq": seq})
    assert response.status_code == 302
    assert Match.objects.get(pk=earlier.match_id).score == (0, 0)


@pytest.mark.parametrize("where", ["division", "match"])
def test_a_forfeit(where: str, dora: Any, swiss: Division) -> None:
    pairing = pairing_at(swiss, 1, 2)
    client = client_for(dora)
    loser = pairing.entry_b
    value = f"{pairing.key}:{loser.pk}" if where == "division" else str(loser.pk)
    url = urls(swiss, pairing)[where]
    data = {"action": "forfeit", "forfeit-loser": value, "forfeit-kind": "no-show", "forfeit-reason": ""}
    refused(client, url, data, "This field is required.")
    response = client.post(url, {**data, "forfeit-reason": "not at the table after 15 minutes"})
    assert response.status_code == 302
    pairing = pairing_at(swiss, 1, 2)
    assert (pairing.decision, pairing.winner_id, pairing.match.status) == (
        "forfeit-no-show",
        pairing.entry_a_id,
        "forfeited",
    )


def test_penalty_points(dora: Any, swiss: Division) -> None:
    pairing = pairing_at(swiss, 1, 1)
    client, url = client_for(dora), urls(swiss, pairing)["match"]
    data = {"action": "penalty", "penalty-against": pairing.entry_b_id, "penalty-points": "1", "penalty-reason": "late"}
    assert client.post(url, data).status_code == 302
    pairing = pairing_at(swiss, 1, 1)
    assert (pairing.penalty_b, pairing.match.score1) == (1, 1)
    assert "1 penalty points against P05." in text_of(client.get(url))
    response = client.post(url, {**data, "penalty-points": "1", "penalty-reason": "late again"})
    assert response.status_code == 302
    pairing = pairing_at(swiss, 1, 1)
    assert (pairing.penalty_b, pairing.decision, pairing.match.status) == (2, "forfeit-penalty", "forfeited")


def test_two_players_are_swapped(dora: Any, swiss: Division) -> None:
    first, second = pairing_at(swiss, 1, 1).entry_a, pairing_at(swiss, 1, 2).entry_a
    client, url = client_for(dora), urls(swiss)["division"]
    data = {"action": "swap", "swap-first": first.pk, "swap-second": second.pk, "swap-reason": "same club"}
    assert client.post(url, data).status_code == 302
    assert pairing_at(swiss, 1, 1).entry_a_id == second.pk and pairing_at(swiss, 1, 2).entry_a_id == first.pk
    assert "same club" in text_of(client.get(url))


def test_a_disputed_result_is_decided_by_a_director(
    dora: Any, swiss: Division, django_capture_on_commit_callbacks: Any
) -> None:
    pairing = pairing_at(swiss, 1, 3)
    with django_capture_on_commit_callbacks(execute=True):
        win(pairing.match, side=0, actor=Actor(token=new_entry_token(pairing.match, 0)))
    services.dispute_result(pairing, actor=Actor(token=new_entry_token(pairing.match, 1)), reason=f"I won {EVIL}")
    client = client_for(dora)
    dashboard = text_of(client.get(urls(swiss)["event"]))
    assert "disputed" in dashboard and f"I won {ESCAPED}" in dashboard and EVIL not in dashboard
    match_page = text_of(client.get(urls(swiss, pairing)["match"]))
    assert "Dispute:" in match_page and "Confirm as director" in match_page
    check_html(match_page)
    with django_capture_on_commit_callbacks(execute=True):
        assert client.post(urls(swiss, pairing)["match"], {"action": "confirm"}).status_code == 302
    assert pairing_at(swiss, 1, 3).confirmation == "confirmed"
    refused(
        client,
        urls(swiss, pairing)["match"],
        {"action": "confirm"},
        "This result is not waiting for a confirmation",
        status=409,
    )


def test_the_standings_status_is_shown(dora: Any, swiss: Division) -> None:
    from tournaments.tasks import advance_division

    client = client_for(dora)
    services.schedule_followup(swiss.pk)  # what a result does: the standings are pending until the task runs
    for page in ("event", "division"):
        assert "pending (being computed)" in text_of(client.get(urls(swiss)[page]))
    advance_division.on_failure(RuntimeError(f"database gone {EVIL}"), "task-id", (swiss.pk,), {}, None)
    for page in ("event", "division"):
        dashboard = text_of(client.get(urls(swiss)[page]))
        assert "failed" in dashboard and f"RuntimeError: database gone {ESCAPED}" in dashboard
    assert "database gone" in text_of(client.get(urls(swiss)["final-standings"]))


def test_an_elimination_round_sheet(dora: Any) -> None:
    actor = Actor(user=dora)
    event = services.create_event(actor=actor, name="Cup")
    division = services.create_division(
        event, actor=actor, settings=services.DivisionSettings(name="Main", format="single")
    )
    for i in range(1, 6):
        services.register_player(division, actor=actor, name=f"P{i}", rating=2000 - i)
    services.start_division(division, actor=actor)
    client, base = client_for(dora), "/manage/cup/main/round/main/"
    first = text_of(client.get(base + "1/sheet/"))
    assert first.count(">bye<") == 3 and len(_links(text_of(client.get(base + "1/slips/")))) == 2  # 4 plays 5
    second = text_of(client.get(base + "2/sheet/"))
    assert "winner of" in second.lower()  # 2 v 3; seed 1 waits for 4 v 5
    assert len(_links(text_of(client.get(base + "2/slips/")))) == 2
    check_html(second)
    cards = text_of(client.get(base + "2/scorecards/"))
    assert cards.count('class="scorecard"') == 1
    page = text_of(client.get("/manage/cup/main/"))
    assert "waiting for earlier results" in page and "Main round 1" in page
    check_html(page)


def divisions_part(dashboard: str) -> str:
    """The dashboard's divisions with their current rounds (the queue for tables above lists later rounds' matches
    waiting for their players)."""
    return dashboard[dashboard.index('id="divisions-heading"') :]


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


def test_a_round_robin_shows_its_current_round(dora: Any) -> None:
    division = league(dora, 4)
    client = client_for(dora)
    dashboard = divisions_part(text_of(client.get("/manage/league/")))
    assert "Round 1" in dashboard and "Round 2" not in dashboard and "Round 3" not in dashboard
    early = pairing_at(division, 3, 1)  # a round-3 match played early
    win(early.match, side=1, actor=Actor(token=new_entry_token(early.match, 1)), games_won=(1,))
    dashboard = divisions_part(text_of(client.get("/manage/league/")))
    assert "Round 1" in dashboard and "Round 2" not in dashboard and "Round 3" in dashboard
    page = text_of(client.get("/manage/league/a/"))
    assert page.count('<details class="round" open>') == 2 and page.count('<details class="round">') == 1


def test_a_round_robin_match_not_made_yet_is_made_by_the_director(dora: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from tournaments import core

    monkeypatch.setattr(core, "ROUND_ROBIN_AHEAD", 2)  # each player's next two matches, so that round 3 has none
    monkeypatch.setattr(core, "ROUND_ROBIN_DRAWN_MATCHES", 1)
    division = league(dora, 6)
    later = pairing_at(division, 4, 1)
    assert later.match is None and later.status == Pairing.Status.READY
    client = client_for(dora)
    url = f"/manage/league/a/match/{later.key}/"
    assert f'<a href="{url}">manage' in text_of(client.get("/manage/league/a/")), "its round's table links to it"
    page = text_of(client.get(url))
    assert "Its match is not made yet: a round robin makes each player's next 2 matches ahead of play" in page
    assert "its players are not known" not in page and 'value="make-match"' in page
    answer = client.post(url, {"action": "make-match"}, follow=True)
    assert "The match is made: its players can enter it from their entry links." in text_of(answer)
    later = pairing_at(division, 4, 1)
    assert later.match is not None and later.match.status == Match.Status.SCHEDULED
    assert (later.match.player1_id, later.match.player2_id) == (later.entry_a.player_id, later.entry_b.player_id)
    assert later.match.source.endswith(f"/{later.key}") and later.match.length == 3
    page = text_of(client.get(url))
    assert "Its match is not made yet" not in page and f'href="/play/match/{later.match.pk}/"' in page
    assert Match.objects.filter(pk=later.match.pk).count() == 1
    again = client.post(url, {"action": "make-match"})  # twice (a double tap): refused, still one match
    assert again.status_code == 409 and "This pairing&#x27;s match is already made." in text_of(again)
    assert pairing_at(division, 4, 1).match_id == later.match.pk


CASUAL = "casual: no cube, every game one point"


@pytest.fixture
def casual(dora: Any) -> Division:
    """A started casual round robin of 4 (3-point scoresheet matches); round 1 table 1 has a game entered."""
    actor = Actor(user=dora)
    event = services.create_event(actor=actor, name="Beginners")
    settings = services.DivisionSettings(
        name="Casual", format="round-robin", entry_mode="scoresheet", match_length=3, casual=True
    )
    division = services.create_division(event, actor=actor, settings=settings)
    for i in range(1, 5):
        services.register_player(division, actor=actor, name=f"P{i}", rating=2000 - i)
    services.start_division(division, actor=actor)
    win(pairing_at(division, 1, 1).match, side=0, actor=actor, games_won=(1,))
    return division


def test_a_casual_divisions_header_says_so(dora: Any, casual: Division) -> None:
    header = text_of(client_for(dora).get("/manage/beginners/casual/"))
    assert f"3 points · {CASUAL} ·" in " ".join(header.split())
    assert "3 points · casual · 4 players" in " ".join(text_of(client_for(dora).get("/manage/beginners/")).split())


@pytest.mark.parametrize("page", ["sheet", "slips", "scorecards"])
def test_a_casual_divisions_prints_say_what_is_played(dora: Any, casual: Division, page: str) -> None:
    printed = text_of(client_for(dora).get(f"/manage/beginners/casual/round/round-robin/1/{page}/"))
    assert CASUAL in printed and "Crawford" not in printed
    check_html(printed)


def test_a_casual_score_card_has_no_cube_column_and_no_gammon_points(dora: Any, casual: Division) -> None:
    cards = text_of(client_for(dora).get("/manage/beginners/casual/round/round-robin/1/scorecards/"))
    assert ">Cube<" not in cards and "gammon" not in cards
    assert cards.count("<tr><td>1</td><td></td><td></td><td></td><td></td></tr>") == 2  # game, winner, points, scores


def test_a_casual_match_page_asks_only_who_won_a_game(dora: Any, casual: Division) -> None:
    """Correcting a game asks only who won it; a gammon or a cube sent anyway is refused with the reason."""
    first = pairing_at(casual, 1, 1)
    client, url = client_for(dora), f"/manage/beginners/casual/match/{first.key}/"
    page = text_of(client.get(url))
    assert ">Cube<" not in page and "<td>Single</td>" in page
    for name in ("kind", "cube_value"):
        assert re.search(rf'<input type="hidden" name="replace-result-{name}" value="1"', page), name
        assert f'<select name="replace-result-{name}"' not in page, name
    check_html(page)
    data = {
        "action": "replace-result",
        "replace-result-game_number": "1",
        "replace-result-winner": "1",
        "replace-result-reason": "wrong on the scoresheet",
        "replace-result-expected_seq": str(Match.objects.get(pk=first.match_id).seq),
    }
    for kind, cube, words in (("2", "1", "no gammons"), ("1", "2", "no doubling cube")):
        refused(client, url, {**data, "replace-result-kind": kind, "replace-result-cube_value": cube}, words)


def started_cup(dora: Any) -> Division:
    """An 8-player main with consolation and last chance (two places), started."""
    actor = Actor(user=dora)
    event = services.create_event(actor=actor, name="Cup")
    settings = services.DivisionSettings(name="Main", format="main-consolation-lastchance", last_chance_places=2)
    division = services.create_division(event, actor=actor, settings=settings)
    for i in range(1, 9):
        services.register_player(division, actor=actor, name=f"P{i}", rating=2000 - i)
    services.start_division(division, actor=actor)
    return division


def test_last_chance_places_are_closed(dora: Any) -> None:
    division = started_cup(dora)
    client, url = client_for(dora), "/manage/cup/main/"
    page = text_of(client.get(url))
    assert "Close the last-chance places" in page and 'name="register-place"' in page
    assert client.post(url, {"action": "close-last-chance"}).status_code == 302
    division.refresh_from_db()
    assert division.last_chance_closed
    assert "The last-chance places are closed." in text_of(client.get(url))


def test_a_start_with_only_the_checked_in_players(dora: Any, registering: Division) -> None:
    client, url = client_for(dora), f"/manage/{registering.event.slug}/{registering.slug}/"
    ann = registering.entries.get(player__display_name="Ann")
    services.check_in(ann, actor=Actor(user=dora))
    services.register_player(registering, actor=Actor(user=dora), name="Cid", seed=2)
    services.check_in(registering.entries.get(player__display_name="Cid"), actor=Actor(user=dora))
    assert client.post(url, {"action": "start", "start-only_checked_in": "on"}).status_code == 302
    assert registering.entries.get(player__display_name="Ben").status == "withdrawn"
    assert Pairing.objects.filter(division=registering).count() == 1


def test_a_late_entry_plays_the_next_round(dora: Any, round_one_played: Division) -> None:
    """Late entry is open while at most half the Swiss rounds are paired; the late player is paired next round.
    (Found here: a late entry used to get no seed, and Swiss pairs and ranks by seed, so he was never paired.)"""
    client, url = client_for(dora), urls(round_one_played)["division"]
    response = client.post(url, {"action": "register", "register-name": "Late Larry", "register-rating": "1500"})
    assert response.status_code == 302  # late entry is open: 1 of 3 rounds paired
    late = Entry.objects.get(player__display_name="Late Larry")
    assert late.late
    assert client.post(url, {"action": "pair-next"}).status_code == 302
    paired = Pairing.objects.filter(division=round_one_played, round__number=2)
    assert late.pk in {e for p in paired for e in (p.entry_a_id, p.entry_b_id)}


def test_a_withdrawn_players_seed_can_be_given_to_another(dora: Any, registering: Division) -> None:
    client, url = client_for(dora), f"/manage/{registering.event.slug}/{registering.slug}/"
    services.register_player(registering, actor=Actor(user=dora), name="Cid", seed=3)
    ben, cid = (registering.entries.get(player__display_name=n) for n in ("Ben", "Cid"))
    services.set_seed(ben, actor=Actor(user=dora), seed=2)
    response = client.post(url, {"action": "withdraw", "target": ben.pk, f"withdraw-{ben.pk}-reason": "ill"})
    assert response.status_code == 302
    response = client.post(url, {"action": "seed", "target": cid.pk, f"seed-{cid.pk}-seed": "2"})
    assert response.status_code == 302, text_of(response)


# -- query counts ----------------------------------------------------------------------------------------------------


def queries(client: Client, url: str) -> int:
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    assert response.status_code == 200
    return len(captured)


def busy(director: Any, players: int, name: str) -> Division:
    """A started Swiss division with one match under way and one result awaiting confirmation."""
    division = swiss_division(director, players, name=name)
    under_way, awaiting = pairing_at(division, 1, 1), pairing_at(division, 1, 2)
    win(under_way.match, side=0, actor=Actor(token=new_entry_token(under_way.match, 0)), games_won=(1,))
    win(awaiting.match, side=1, actor=Actor(token=new_entry_token(awaiting.match, 1)))
    services.sync_division(division.pk)
    return division


@pytest.mark.parametrize("page", ["event", "division", "sheet", "slips", "match", "final-standings"])
def test_query_counts_do_not_grow_with_the_field(page: str, dora: Any, stella: Any) -> None:
    small, large = busy(dora, 8, "Small"), busy(dora, 32, "Large")
    for user in (dora, stella):
        client = client_for(user)
        client.get(urls(small)[page]), client.get(urls(large)[page])  # the sheet's first print makes the links
        assert queries(client, urls(small)[page]) == queries(client, urls(large)[page])


def test_the_counts(dora: Any) -> None:
    """The figures reported for the pages (update them knowingly)."""
    division = busy(dora, 32, "Large")
    client = client_for(dora)
    first_print = queries(client, urls(division)["slips"])
    counts = {page: queries(client, urls(division)[page]) for page in ("event", "division", "slips", "sheet")}
    # session, user, division (or event), "directs it?", then: divisions, rounds, current rounds, boards, the
    # venue's tables and their matches (2), queue, directors | entries, rounds, current rounds, boards | round,
    # boards, savepoint, entry links, release | round, boards
    assert counts == {"event": 12, "division": 8, "slips": 9, "sheet": 6}
    assert first_print == counts["slips"] + 2 * 16 - 2  # a new link per side of 16 matches but the 2 made in busy()


def _no_show_forfeited(dora: Any, swiss: Division, capture: Any) -> tuple[Pairing, Client, str]:
    """Board 2 of round 1 forfeited by its second player (a no-show), from the director's match page."""
    pairing = pairing_at(swiss, 1, 2)
    client, url = client_for(dora), urls(swiss, pairing)["match"]
    data = {"action": "forfeit", "forfeit-loser": pairing.entry_b_id, "forfeit-kind": "no-show"}
    with capture(execute=True):
        client.post(url, {**data, "forfeit-reason": "not at the table after 15 minutes"})
    return pairing, client, url


def test_an_undone_forfeit_leaves_no_decision_on_any_page(
    dora: Any, swiss: Division, django_capture_on_commit_callbacks: Any
) -> None:
    pairing, client, url = _no_show_forfeited(dora, swiss, django_capture_on_commit_callbacks)
    pages = [url, urls(swiss)["division"], f"/events/{swiss.event.slug}/{swiss.slug}/rounds/swiss/1/?big=1"]
    shown = {page: text_of(client.get(page)) for page in pages}
    assert [p for p, html in shown.items() if "not at the table" not in html and "forfeit (no-show)" not in html] == []
    seq = Match.objects.get(pk=pairing.match_id).seq
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            url, {"action": "reopen", "reopen-reason": "he was in the bar", "reopen-expected_seq": seq}
        )
    assert response.status_code == 302
    pairing = pairing_at(swiss, 1, 2)
    assert (pairing.status, pairing.decision, pairing.decision_reason) == ("ready", "", "")
    for page in pages:
        html = text_of(client.get(page))
        assert "not at the table" not in html and "forfeit (no-show)" not in html, page
    assert "not at the table" not in text_of(Client().get(pages[2]))


def test_the_division_form_as_it_comes_adds_a_division_that_can_start(dora: Any) -> None:
    event = services.create_event(actor=Actor(user=dora), name="Spring open")
    client, url = client_for(dora), f"/manage/{event.slug}/"
    page = text_of(client.get(url))
    data: dict[str, Any] = {"action": "create-division"}
    for name, value in re.findall(r'name="(create-division-[a-z_]+)"[^>]*value="([^"]*)"', page):
        data[name] = value
    for name, value in re.findall(
        r'<select name="(create-division-[a-z_]+)"[^>]*>.*?<option value="([^"]*)" selected', page, re.S
    ):
        data[name] = value
    data["create-division-name"] = "Open"
    data["create-division-crawford"] = "on"
    response = client.post(url, data)
    assert response.status_code == 302, text_of(response)
    division = Division.objects.get(event=event)
    assert division.format == "swiss" and division.rounds_planned >= 1


def test_forfeit_and_penalty_choices_name_players_without_ids(dora: Any, swiss: Division) -> None:
    pairing = pairing_at(swiss, 1, 2)
    client = client_for(dora)
    for url in (urls(swiss, pairing)["match"], urls(swiss)["division"]):
        page = text_of(client.get(url))
        options = re.findall(r"<option value=\"[^\"]+\">([^<]*)</option>", page)
        assert options, url
        assert not [o for o in options if re.search(r"#\d", o)], url
    page = text_of(client.get(urls(swiss, pairing)["match"]))
    assert f">{pairing.entry_b.player.display_name} (seed {pairing.entry_b.seed})</option>" in page


def test_check_in_without_a_reload_answers_the_list_and_undo_is_the_secondary_action(
    dora: Any, registering: Division
) -> None:
    client, url = client_for(dora), f"/manage/{registering.event.slug}/{registering.slug}/"
    page = text_of(client.get(url))
    assert 'id="player-filter"' in page and 'hx-post=""' in page and "vendor/htmx/htmx.min.js" in page
    ben = Entry.objects.get(player__display_name="Ben")
    htmx = {"HTTP_HX_REQUEST": "true"}
    assert f'hx-target="#entry-{ben.pk}" hx-swap="outerHTML"' in page, "a check-in replaces its row"
    response = client.post(url, {"action": "check-in", "target": ben.pk, f"check-in-{ben.pk}-present": "1"}, **htmx)
    assert response.status_code == 200 and "HX-Retarget" not in response
    part = text_of(response)
    assert part.lstrip().startswith(f'<tr id="entry-{ben.pk}"'), part[:200]
    assert "<html" not in part and 'id="players-list"' not in part and part.count("<tr") == 1, "the row alone"
    assert re.search(r'<p id="players-said" [^>]*hx-swap-oob="true"[^>]*>Ben is checked in. </p>', part)
    assert re.search(r'<p id="players-count" hx-swap-oob="true">2 players, 1 checked in.</p>', part)
    assert re.search(r'<button type="submit" class="secondary">Undo check-in<span class="visually-hidden">: Ben', part)
    assert Entry.objects.get(pk=ben.pk).status == "checked_in"
    page = text_of(client.get(url))
    assert "Ben is checked in." not in page, "said once, in the list"
    assert re.search(r'<p id="players-said" [^>]*hidden></p>', page) and 'id="players-count">2 players' in page
    undo = client.post(url, {"action": "check-in", "target": ben.pk, f"check-in-{ben.pk}-present": "0"}, **htmx)
    assert "Ben is no longer checked in." in text_of(undo) and ">2 players, 0 checked in.</p>" in text_of(undo)
    stranger = Entry.objects.get(player__display_name="Ann")
    refusal = client.post(url, {"action": "check-in", "target": stranger.pk, "check-in-x-present": "1"}, **htmx)
    assert refusal.status_code == 200 and "Nothing was changed." in text_of(refusal)
    assert text_of(refusal).startswith('<div id="players-list">'), "a refusal answers the whole list..."
    assert (refusal["HX-Retarget"], refusal["HX-Reswap"]) == ("#players-list", "outerHTML"), "...in place of it"


@pytest.mark.parametrize("action", ["check-in", "undo", "check-in-all"])
def test_a_check_in_costs_the_same_statements_at_20_and_200_entries(dora: Any, action: str) -> None:
    """The door's requests (sent without a reload) at 20 and at 200 entries, in an event with a second division:
    the same number of statements (bench/venue_bench.py times them)."""
    actor = Actor(user=dora)
    counts = []
    for size in (20, 200):
        event = services.create_event(actor=actor, name=f"Door {size}")
        division = services.create_division(
            event, actor=actor, settings=services.DivisionSettings(name="Open", format="swiss", rounds_planned=3)
        )
        side = services.create_division(
            event, actor=actor, settings=services.DivisionSettings(name="Side", format="single")
        )
        for target, count in ((division, size), (side, 20)):
            for i in range(count):
                services.register_player(target, actor=actor, name=f"P{size}-{target.pk}-{i:03d}", rating=2000 - i)
        entries = list(division.entries.order_by("id"))
        middle = entries[len(entries) // 2]
        if action == "undo":
            services.check_in(middle, actor=actor)
        data = {
            "check-in": {"action": "check-in", "target": middle.pk, f"check-in-{middle.pk}-present": "1"},
            "undo": {"action": "check-in", "target": middle.pk, f"check-in-{middle.pk}-present": "0"},
            "check-in-all": {"action": "check-in-all", "check-in-all-entries": [e.pk for e in entries]},
        }[action]
        client = client_for(dora)
        url = f"/manage/{event.slug}/{division.slug}/"
        with CaptureQueriesContext(connection) as captured:
            response = client.post(url, data, HTTP_HX_REQUEST="true")
        assert response.status_code == 200 and "Nothing was changed" not in text_of(response)
        counts.append(len(captured.captured_queries))
    assert counts[0] == counts[1], f"statements at 20 and at 200 entries: {counts}"


def test_check_in_all_the_listed_checks_in_only_those_sent(dora: Any, registering: Division) -> None:
    actor = Actor(user=dora)
    for name in ("Cleo", "Dirk", "Eve"):
        services.register_player(registering, actor=actor, name=name)
    client, url = client_for(dora), f"/manage/{registering.event.slug}/{registering.slug}/"
    page = text_of(client.get(url))
    sent = re.findall(r'<input type="hidden" name="(check-in-all-entries)" value="(\d+)" form="check-in-all">', page)
    assert len(sent) == 5, "every player not checked in is listed for it"
    listed = list(Entry.objects.filter(division=registering, player__display_name__in=("Ann", "Cleo", "Dirk")))
    assert {str(e.pk) for e in listed} <= {value for _, value in sent}
    data = {"action": "check-in-all", "check-in-all-entries": [e.pk for e in listed]}  # the rows the filter shows
    response = client.post(url, data, HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and "3 players checked in." in text_of(response)
    statuses = dict(Entry.objects.filter(division=registering).values_list("player__display_name", "status"))
    assert statuses == {"Ann": "checked_in", "Ben": "registered", "Cleo": "checked_in", "Dirk": "checked_in",
                        "Eve": "registered"}  # fmt: skip


def test_check_in_all_answers_the_rows_it_changed_the_count_and_the_message(dora: Any, registering: Division) -> None:
    """Sent without a reload, "Check in all the listed" answers each row it sent (swapped out of band, now with
    "Undo check-in"), the count and the message, and leaves the list as it is; the rows not sent are not in it."""
    actor = Actor(user=dora)
    for name in ("Cleo", "Dirk", "Eve"):
        services.register_player(registering, actor=actor, name=name)
    client, url = client_for(dora), f"/manage/{registering.event.slug}/{registering.slug}/"
    listed = list(Entry.objects.filter(division=registering, player__display_name__in=("Ann", "Cleo", "Dirk")))
    response = client.post(
        url, {"action": "check-in-all", "check-in-all-entries": [e.pk for e in listed]}, HTTP_HX_REQUEST="true"
    )
    body = text_of(response)
    assert response.status_code == 200 and response["HX-Reswap"] == "none"
    assert 'id="players-list"' not in body, "the list is not answered again"
    rows = dict(re.findall(r'<tr id="entry-(\d+)" hx-swap-oob="true"[^>]*>(.*?)</tr>', body, re.S))
    assert set(rows) == {str(e.pk) for e in listed}
    for entry in listed:
        row = rows[str(entry.pk)]
        assert entry.player.display_name in row and "Undo check-in" in row
        assert re.search(r"<td[^>]*>checked in</td>", row)
        assert 'name="check-in-all-entries"' not in row, "a player checked in is no longer sent"
    assert re.search(r'<p id="players-count" hx-swap-oob="true">5 players, 3 checked in\.</p>', body)
    assert re.search(r'<p id="players-said"[^>]* hx-swap-oob="true">3 players checked in\. </p>', body)


def test_check_in_all_refused_answers_the_whole_list_and_without_htmx_redirects(
    dora: Any, registering: Division
) -> None:
    client, url = client_for(dora), f"/manage/{registering.event.slug}/{registering.slug}/"
    ann = Entry.objects.get(division=registering, player__display_name="Ann")
    refused = client.post(url, {"action": "check-in-all", "check-in-all-entries": ["999999"]}, HTTP_HX_REQUEST="true")
    assert refused.status_code == 200 and "HX-Reswap" not in refused
    assert 'id="players-list"' in text_of(refused) and "Nothing was changed." in text_of(refused)
    assert not Entry.objects.filter(division=registering, status=Entry.Status.CHECKED_IN).exists()
    plain = client.post(url, {"action": "check-in-all", "check-in-all-entries": [ann.pk]})
    assert plain.status_code == 302 and plain["Location"] == url
    assert "1 players checked in." in text_of(client.get(url)), "the message on the page redirected to"
    assert Entry.objects.get(pk=ann.pk).status == Entry.Status.CHECKED_IN


def test_the_rows_forms_are_those_the_form_template_renders_for_each_row(dora: Any, registering: Division) -> None:
    """A row's seed and withdrawal forms are rendered once for the list and given the row's id and seed: each is
    the form ``director/_form.html`` renders for that row on its own."""
    from django.template.loader import render_to_string

    from tournaments.director import forms as f

    client, url = client_for(dora), f"/manage/{registering.event.slug}/{registering.slug}/"
    page = re.sub(r'<input type="hidden" name="csrfmiddlewaretoken" value="[^"]+">', "", text_of(client.get(url)))
    for entry in Entry.objects.filter(division=registering):
        for name, form, submit, danger in (
            ("seed", f.SeedForm(prefix=f"seed-{entry.pk}", initial={"seed": entry.seed}), "Set the seed", False),
            ("withdraw", f.WithdrawForm(prefix=f"withdraw-{entry.pk}"), "Withdraw the player", True),
        ):
            context = {"form": form, "action": name, "target": entry.pk, "submit": submit, "danger": danger}
            assert render_to_string("director/_form.html", context) in page, f"{name}: {entry.player.display_name}"
    assert 'value="1"' in page and 'id="id_seed-' in page


def test_a_finished_division_offers_no_registration_withdrawal_nor_current_round(dora: Any) -> None:
    actor = Actor(user=dora)
    event = services.create_event(actor=actor, name="Finished night")
    division = services.create_division(
        event,
        actor=actor,
        settings=services.DivisionSettings(name="Open", format="swiss", match_length=3, rounds_planned=2),
    )
    for i in range(1, 5):
        services.register_player(division, actor=actor, name=f"P{i:02d}", rating=2010 - 10 * i)
    services.start_division(division, actor=actor)
    run_division(division, actor, random.Random(3))
    division.refresh_from_db()
    assert division.status == Division.Status.FINISHED
    page = text_of(client_for(dora).get(urls(division)["division"]))
    assert "Round 2" in page and "· current" not in page
    assert "Withdraw" not in page and "Register a player" not in page and "Register a list" not in page


def test_the_event_forms_time_zone_starts_at_the_sites_and_lists_only_real_places(dora: Any) -> None:
    with override_settings(TIME_ZONE="Europe/Oslo"):
        html = client_for(dora).get("/manage/").content.decode()
    select = html[html.index('name="create-event-time_zone"') :]
    select = select[: select.index("</select>")]
    assert '<option value="Europe/Oslo" selected>' in select
    assert '<option value="UTC">' in select and '<option value="America/New_York">' in select
    for alias in ("Factory", "localtime", "US/Eastern", "Etc/GMT+1", "GB", "posixrules"):
        assert f'<option value="{alias}"' not in select


def test_the_only_director_is_not_offered_to_remove_himself(dora: Any, django_user_model: Any) -> None:
    division = swiss_division(dora, 4)
    client, url = client_for(dora), f"/manage/{division.event.slug}/"
    page = text_of(client.get(url))
    directors = page[page.index('id="directors-heading"') : page.index("Add the director")]
    assert 'value="remove-director"' not in directors
    assert "the only director: add another one before leaving the event" in directors
    django_user_model.objects.create_user("erik", password=None)
    assert client.post(url, {"action": "add-director", "add-director-username": "erik"}).status_code == 302
    page = text_of(client.get(url))
    directors = page[page.index('id="directors-heading"') : page.index("Add the director")]
    assert directors.count('value="remove-director"') == 2 and "the only director" not in directors


def test_the_rounds_list_main_before_consolation_and_last_chance_as_the_public_page_does(dora: Any) -> None:
    started_cup(dora)
    page = text_of(client_for(dora).get("/manage/cup/main/"))
    titles = re.findall(r"(Main|Consolation|Last chance) (?:round \d|semi-final|final)", page)
    assert list(dict.fromkeys(titles))[:2] == ["Main", "Consolation"], titles
    dashboard = divisions_part(text_of(client_for(dora).get("/manage/cup/")))
    shown = [t for t in dict.fromkeys(re.findall(r"(Main|Consolation|Last chance) round (\d)", dashboard))]
    assert shown and shown[0] == ("Main", "1"), shown


def test_a_forfeit_reads_as_a_decision_not_as_a_game(
    dora: Any, swiss: Division, django_capture_on_commit_callbacks: Any
) -> None:
    pairing, client, url = _no_show_forfeited(dora, swiss, django_capture_on_commit_callbacks)
    match = Match.objects.get(pk=pairing.match_id)
    loser_side = 0 if match.player1_id == pairing.entry_b.player_id else 1
    names = (match.player1.display_name, match.player2.display_name)
    winner, loser = names[1 - loser_side], names[loser_side]
    score = f"{match.score1}\N{EN DASH}{match.score2}"
    assert match.games.count() == 1  # the stored game row stays (scores and the .mat export read it)
    pages = {
        "director": url,
        "public": reverse("games:match", args=[match.pk]),
        "entry": reverse("entry:match", args=[match.pk]),
    }
    for name, page in pages.items():
        html = text_of(client.get(page))
        line = re.search(r'<p class="forfeit-line"[^>]*>(.*?)</p>', html, re.S)
        assert line is not None, name
        text = re.sub(r"<[^>]+>", "", line.group(1))
        reason = "no-show: not at the table after 15 minutes"
        assert text == f"Forfeit: {winner} wins {score} ({loser} did not play) · Reason: {reason}", (name, text)
        assert "Single" not in html and "<td>1</td>" not in html, name  # no made-up game with a cube


def test_a_name_already_entered_is_refused_alone_and_in_a_list_pasted_again(dora: Any, registering: Division) -> None:
    url = f"/manage/{registering.event.slug}/{registering.slug}/"
    client = client_for(dora)
    assert client.post(url, {"action": "import", "import-text": "Carl Berg,Oslo BK,NO\nDina Dahl\n"}).status_code == 302
    before = registering.entries.count()
    refused(
        client,
        url,
        {"action": "import", "import-text": "Eva Lund\nCarl Berg,Oslo BK,NO\n"},  # the list pasted again, with one more
        "fix these lines and send the list again: line 2: Carl Berg is already entered in Open: to enter another "
        "player of that name, "
        "tell the two apart in the name, such as &quot;Carl Berg (Oslo BK)&quot;",
    )
    refused(
        client,
        url,
        {"action": "register", "register-name": "  dina   DAHL "},
        "Dina Dahl is already entered in Open: to enter another player of that name, tell the two apart in the name, "
        "such as &quot;dina DAHL (his club or town)&quot;",
        status=409,
    )
    assert registering.entries.count() == before
    assert client.post(url, {"action": "register", "register-name": "Dina Dahl (Bergen)"}).status_code == 302
    assert registering.entries.count() == before + 1
