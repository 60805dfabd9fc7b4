"""The room in a real browser: a call reaching a player's phone without a reload, and the venue display on a
1920 x 1080 screen (a screenshot is taken; nothing overflows the screen; the type is large enough to read from
five metres; it refreshes itself and turns its pages). Run with RUN_BROWSER_TESTS=1."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from common.actor import Actor
from games.models import Match
from tests.tournaments.services.support import director_win
from tests.web.browser.conftest import Pages
from tests.web.browser.test_flows import open_entry_link, watch_reloads
from tournaments import services
from tournaments.models import Division, Event, Pairing

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LIVE = 15_000  # ms: the entry page polls every 3 s, the display turns every 10 s


def room(director: Any) -> tuple[Event, Division, Division]:
    """Two divisions in a venue of six tables: an 11-player main with consolation and a 12-player Swiss."""
    names = (
        "Lars Nes, Pia Ruud, Ola Lie, Kari Moe, Per Dal, Siri Vik, Jon Berg, Ane Holt, Tor Sand, Liv Aas,"
        " Emil Kristoffer Yilmaz-Johannessen"
    )
    guests = [f"Guest {chr(65 + i)}" for i in range(12)]
    return room_of(director, "Ballroom Open", names.split(", "), guests, ["Feature table", "", "", "", "", ""])


def room_of(
    director: Any, name: str, players: Sequence[str], guests: Sequence[str], tables: list[str] | None = None
) -> tuple[Event, Division, Division]:
    """An event of two divisions started: ``players`` in a main with consolation ("Championship"), ``guests`` in
    a 4-round Swiss of 5-point matches ("Intermediate"); ``tables``: the venue's (None: as many as needed)."""
    actor = Actor(user=director)
    event = services.create_event(actor=actor, name=name)
    if tables is not None:
        services.set_tables(event, actor=actor, names=tables)
    main = services.create_division(
        event, actor=actor, settings=services.DivisionSettings(name="Championship", format="main-consolation")
    )
    side = services.create_division(
        event,
        actor=actor,
        settings=services.DivisionSettings(name="Intermediate", format="swiss", rounds_planned=4, match_length=5),
    )
    for i, player in enumerate(players):
        services.register_player(main, actor=actor, name=player, rating=2000 - 10 * i)
    for i, guest in enumerate(guests):
        services.register_player(side, actor=actor, name=guest, rating=1700 - 10 * i)
    services.start_division(main, actor=actor)
    services.start_division(side, actor=actor)
    return event, main, side


def bottoms(page: Any, selector: str) -> list[float]:
    """The bottom edge of each element ``selector`` on the page (CSS pixels from the top of the viewport)."""
    return page.evaluate(
        f"() => [...document.querySelectorAll({selector!r})].map(e => e.getBoundingClientRect().bottom)"
    )


def assert_rows_whole(page: Any) -> None:
    """Every call and every row of the boards and the standings shows whole: within its section (which hides what
    overflows it) and the 1080 lines of the screen."""
    for section in ("display-calls", "display-boards", "display-standings"):
        (limit,) = bottoms(page, f".{section}")
        assert limit <= 1080, f"{section} ends below the screen: {limit}"
        rows = bottoms(page, f".{section} li, .{section} tr")
        assert rows and max(rows) <= limit + 0.5, f"{section}: a row is cut ({max(rows)} > {limit})"


def test_a_call_shows_on_the_phone_without_a_reload(pages: Pages, director: Any) -> None:
    event, _main, _side = room(director)
    waiting = Pairing.objects.select_related("match", "entry_a__player", "entry_b__player").filter(
        division__event=event, table__isnull=True, status="ready"
    )
    queued = waiting.order_by("round__number", "id").first()
    assert queued is not None
    page = open_entry_link(pages, queued.match, 0, "phone")
    not_reloaded = watch_reloads(page)
    expect(page.locator(".call-panel")).to_have_count(0)
    # A table frees: the first match of the queue is called to it.
    seated = Pairing.objects.select_related("entry_a").filter(division__event=event, table__number=2).get()
    director_win(seated, seated.entry_a, Actor(user=director))
    queued.refresh_from_db()
    if queued.table_id is None:  # another match came first in the queue's order: call this one by hand
        services.seat_match(queued, 2, actor=Actor(user=director))
        queued.refresh_from_db()
    other = queued.entry_b.player.display_name
    expect(page.locator(".call-panel")).to_contain_text(f"{queued.table.label}: you play {other}", timeout=LIVE)
    not_reloaded()
    pages.shot(page, "call-on-the-phone")


def test_the_venue_display_fills_a_1080p_screen_and_turns_its_pages(pages: Pages, director: Any) -> None:
    event, main, side = room(director)
    actor = Actor(user=director)
    for p in list(Pairing.objects.select_related("entry_a").filter(division=side, table__isnull=False))[:2]:
        director_win(p, p.entry_a, actor)
    services.recompute_standings(side.pk)
    services.recompute_standings(main.pk)
    page = pages.open(reverse("tournaments:event-display", args=[event.slug]), viewport="display")
    expect(page.locator(".display-calls li").first).to_be_visible()
    expect(page.locator(".display-boards tbody tr").first).to_be_visible()
    expect(page.locator(".display-standings tbody tr").first).to_be_visible()
    size = page.evaluate("() => [document.documentElement.scrollWidth, document.documentElement.scrollHeight]")
    assert size[0] <= 1920 and size[1] <= 1080, f"the display scrolls: {size}"
    # Readable from five metres: no text under about 22 px, the calls above 30 px.
    smallest = page.evaluate(
        "() => Math.min(...[...document.querySelectorAll('.display-screen *')].filter(e => e.childNodes.length"
        " && [...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim())).map(e =>"
        " parseFloat(getComputedStyle(e).fontSize)))"
    )
    assert smallest >= 22, f"text of {smallest}px on the display"
    call_size = page.evaluate(
        "() => parseFloat(getComputedStyle(document.querySelector('.display-calls li')).fontSize)"
    )
    assert call_size >= 30
    # Every name on the boards fits its cell whole: a long pair wraps between words, no name is cut.
    cut = page.evaluate(
        "() => [...document.querySelectorAll('.display-boards td.display-players, .display-boards .display-name')]"
        ".filter(e => e.scrollWidth > e.clientWidth + 1).map(e => e.textContent)"
    )
    assert cut == [], f"names cut on the display: {cut}"
    assert_rows_whole(page)
    pages.shot(page, "venue-display")
    first = page.locator(".display-page").inner_text()
    pages_count = int(first.rsplit(" ", 1)[1])
    assert first == f"Page 1 of {pages_count}" and pages_count >= 2, "23 standings rows: more than one screen"
    not_reloaded = watch_reloads(page)
    expect(page.locator(".display-page")).to_have_text(f"Page 2 of {pages_count}", timeout=LIVE)
    not_reloaded()
    pages.shot(page, "venue-display-page-2")


#: Long names, as a big open has them: a pair of them needs two lines on the display.
LONG_NAMES = (
    "Emil Kristoffer Yilmaz-Johannessen",
    "Anne-Marie Strømsholm",
    "Maximilian Oberhauser",
    "Ingrid Sofie Halvorsen",
    "Jean-Baptiste Lefebvre",
    "Katarzyna Wiśniewska",
    "Bartholomew Fitzgerald",
    "Alexandra Konstantinou",
    "Christoffer Brennhovd",
    "Margrethe Vestergaard",
    "Sebastian Montgomery",
    "Gunnhild Kristiansen",
    "Fredrik Aleksander Moe",
    "Henrietta Blackwood",
    "Leopold Schwarzenegger",
    "Mathilde Rosenkrantz",
    "Cornelius Vanderbilt",
    "Evangeline Papadakis",
)


def full_room(director: Any) -> Event:
    """A room of more than a screen of matches, every one at a table: 18 players of long names in a main with
    consolation (its rounds named "Main round 1"), 8 more in a Swiss; table 1's match stands at 11-10."""
    guests = [f"Guest Player {chr(65 + i)}" for i in range(8)]
    event, main, side = room_of(director, "Nordic Open Backgammon Championship", LONG_NAMES, guests)
    services.recompute_standings(main.pk)
    services.recompute_standings(side.pk)
    first = Pairing.objects.get(division=main, table__number=1)
    Match.objects.filter(pk=first.match_id).update(status=Match.Status.IN_PROGRESS, score1=11, score2=10, seq=40)
    return event


def test_nine_boards_the_calls_and_the_standings_fit_one_1080p_screen_uncut(pages: Pages, director: Any) -> None:
    """Nine matches of long names and long round names, four calls and nine standings rows with their division's
    heading: every row shows whole within its section (which hides what overflows) and the screen; the Round column
    is read from as far as the players' names."""
    event = full_room(director)
    page = pages.open(reverse("tournaments:event-display", args=[event.slug]), viewport="display")
    expect(page.locator(".display-boards tbody tr")).to_have_count(9)
    expect(page.locator(".display-calls li")).to_have_count(4)  # three calls, and a line naming the others' tables
    assert page.locator(".display-standings tbody tr:not(.display-division)").count() == 16
    pages.shot(page, "venue-display-full")
    assert_rows_whole(page)
    cut = page.evaluate(
        "() => [...document.querySelectorAll('.display-screen td, .display-screen th, .display-name')]"
        ".filter(e => e.scrollWidth > e.clientWidth + 1).map(e => e.textContent)"
    )
    assert cut == [], f"text cut on the display: {cut}"
    size = page.evaluate(
        "() => ['.display-players', '.display-round'].map(s => parseFloat(getComputedStyle("
        "document.querySelector('.display-boards tbody ' + s)).fontSize))"
    )
    assert size[1] >= 0.85 * size[0] and size[1] >= 24, f"the Round column in small type: {size}"


def test_the_display_opened_on_a_phone_shows_every_list_whole_at_the_phones_width(pages: Pages, director: Any) -> None:
    """The event's page links the display: on a 390 px phone it was 445 px wide, its title 0 px wide and its calls,
    tables and scores cut ("Table 1: Tom Vik v Per S…", "T..")."""
    event = full_room(director)
    page = pages.open(reverse("tournaments:event-display", args=[event.slug]), viewport="phone")
    expect(page.locator(".display-boards tbody tr")).to_have_count(9)
    pages.shot(page, "venue-display-phone")
    width = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1], f"the display is wider than the phone: {width}"
    title = page.locator(".display-head h1").bounding_box()
    assert title is not None and title["width"] > 100, title
    cut = page.evaluate(
        "() => [...document.querySelectorAll('.display-screen td, .display-screen th, .display-calls li, h1')]"
        ".filter(e => e.scrollWidth > e.clientWidth + 1).map(e => e.textContent)"
    )
    assert cut == [], f"text cut on the phone: {cut}"
