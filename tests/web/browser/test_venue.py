"""The room in a real browser: a call reaching a player's phone without a reload, and the venue display on a
1920 x 1080 screen (a screenshot is taken; nothing overflows the screen; the type is large enough to read from
five metres; it refreshes itself and turns its pages). Run with RUN_BROWSER_TESTS=1."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from games.access import Actor
from tests.tournaments.services.support import director_win
from tests.web.browser.conftest import Pages
from tests.web.browser.test_flows import open_entry_link, watch_reloads
from tournaments import services
from tournaments.models import Division, Event, Pairing

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LIVE = 15_000  # ms: the entry page polls every 3 s, the display turns every 10 s


def room(director: Any) -> tuple[Event, Division, Division]:
    """Two divisions in a venue of six tables: an 11-player main with consolation and a 12-player Swiss."""
    actor = Actor(user=director)
    event = services.create_event(actor=actor, name="Ballroom Open")
    services.set_tables(event, actor=actor, names=["Feature table", "", "", "", "", ""])
    main = services.create_division(
        event, actor=actor, settings=services.DivisionSettings(name="Championship", format="main-consolation")
    )
    side = services.create_division(
        event,
        actor=actor,
        settings=services.DivisionSettings(name="Intermediate", format="swiss", rounds_planned=4, match_length=5),
    )
    names = (
        "Lars Nes, Pia Ruud, Ola Lie, Kari Moe, Per Dal, Siri Vik, Jon Berg, Ane Holt, Tor Sand, Liv Aas,"
        " Emil Kristoffer Yilmaz-Johannessen"
    )
    for i, name in enumerate(names.split(", ")):
        services.register_player(main, actor=actor, name=name, rating=2000 - 10 * i)
    for i in range(12):
        services.register_player(side, actor=actor, name=f"Guest {chr(65 + i)}", rating=1700 - 10 * i)
    services.start_division(main, actor=actor)
    services.start_division(side, actor=actor)
    return event, main, side


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
    pages.shot(page, "venue-display")
    first = page.locator(".display-page").inner_text()
    pages_count = int(first.rsplit(" ", 1)[1])
    assert first == f"Page 1 of {pages_count}" and pages_count >= 2, "23 standings rows: more than one screen"
    not_reloaded = watch_reloads(page)
    expect(page.locator(".display-page")).to_have_text(f"Page 2 of {pages_count}", timeout=LIVE)
    not_reloaded()
    pages.shot(page, "venue-display-page-2")
