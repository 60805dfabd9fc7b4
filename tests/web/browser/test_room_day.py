"""The room in Chromium, as a new director and his players see it: the public division page on a 390 px phone."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from common.actor import Actor
from games import services as games
from games.access import new_entry_token
from tests.tournaments.services.support import director_win
from tests.web.browser.conftest import Pages
from tests.web.browser.test_flows import PASSWORD, log_in, open_entry_link
from tournaments import services
from tournaments.models import Pairing

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_on_a_phone_the_division_page_shows_the_current_round_before_a_short_standings_list(
    pages: Pages, director: Any
) -> None:
    """16 players of a Swiss, round 1 half played: the phone shows the current round first, and the standings
    after it in one line a player."""
    actor = Actor(user=director)
    event = services.create_event(actor=actor, name="Club night")
    division = services.create_division(
        event, actor=actor, settings=services.DivisionSettings(name="Open", format="swiss", rounds_planned=4)
    )
    for i in range(16):
        services.register_player(division, actor=actor, name=f"Player {i + 1:02}", club="Oslo BK", rating=1800 - i)
    services.start_division(division, actor=actor)
    for p in Pairing.objects.select_related("entry_a").filter(division=division).order_by("board")[:4]:
        director_win(p, p.entry_a, actor)
    services.recompute_standings(division.pk)
    page = pages.open(reverse("tournaments:division-detail", args=[event.slug, division.slug]), viewport="phone")
    pages.shot(page, "division-phone")
    tops = page.evaluate(
        "() => ['#pairings', '#standings'].map(s => document.querySelector(s).getBoundingClientRect().top)"
    )
    assert tops[0] < tops[1], f"the current round after the standings: {tops}"
    rows = page.evaluate(
        "() => [...document.querySelectorAll('#standings tbody tr')].map(r => r.getBoundingClientRect().height)"
    )
    # A few short lines a player, every figure with its column's name (the phones' test wants every column shown).
    assert len(rows) == 16 and max(rows) < 90, f"standings rows of {max(rows)} px on a phone"
    height = page.evaluate("() => document.documentElement.scrollHeight")
    assert height < 4000, f"the page is {height} px tall on a phone"


def test_the_director_registers_before_starting_and_an_undone_forfeit_says_where_its_match_stands(
    pages: Pages, django_user_model: Any
) -> None:
    """At 1366 px: the division page's registration (the list open) above **Start**; then, in a room of two tables
    and three matches, a no-show forfeit undone from the match page once its table went to the third: the page says
    the match waits first in the queue and names no table."""
    director = django_user_model.objects.create_user("tina", password=PASSWORD)
    actor = Actor(user=director)
    event = services.create_event(actor=actor, name="Club night")
    division = services.create_division(
        event,
        actor=actor,
        settings=services.DivisionSettings(
            name="Open", format="swiss", rounds_planned=3, match_length=7, round_lengths={"swiss:3": 5}
        ),
    )
    for i, name in enumerate(("Pia Ruud (Bergen BG)", "Lars Nes", "Ola Lie", "Kari Moe", "Per Dal", "Siri Vik")):
        club = "Bergen BG" if i == 0 else "Oslo BK"
        services.register_player(division, actor=actor, name=name, club=club, country="NO", rating=1800 - i)
    path = reverse("director:division", args=[event.slug, division.slug])
    page = log_in(pages, path, "desktop")
    page.set_viewport_size({"width": 1366, "height": 900})
    pages.shot(page, "division-registering")
    tops = page.evaluate(
        "() => ['#register-list', '#start-heading'].map(s => document.querySelector(s).getBoundingClientRect().top)"
    )
    assert tops[0] < tops[1]
    expect(page.locator("#register-list textarea")).to_be_visible()
    services.set_tables(event, actor=actor, names=["", ""])
    services.start_division(division, actor=actor)
    first = Pairing.objects.select_related("entry_a").get(division=division, table__number=1)
    services.award_forfeit(first, actor=actor, loser=first.entry_a, kind="no-show", reason="not at the table")
    page.goto(reverse("director:match", args=[event.slug, division.slug, first.key]))
    undo = page.locator("details", has=page.get_by_text("Undo the last action", exact=True))
    undo.locator("summary").click()
    undo.get_by_label("Reason").fill("he was in the bar")
    undo.get_by_role("button", name="Undo").click()
    page.wait_for_load_state()
    pages.shot(page, "match-undone-forfeit")
    expect(page.get_by_text("first in the queue")).to_be_visible()
    head = " ".join(page.locator(".page-head, .breadcrumbs").all_inner_texts())
    assert "Table 1" not in head and "waiting for a table" in head and "playing" not in head
    assert "Table 1" not in page.title()


def test_on_the_phone_a_correction_is_offered_only_once_the_opponent_has_entered_something(
    pages: Pages, new_match: Any
) -> None:
    """390 px: Alice enters the opening roll and her play; Bob's phone offers no correction (he entered nothing),
    Alice's offers her take-back; once Bob rolls, Alice's phone offers a correction instead."""
    match = new_match(length=5)
    alice, bob = (Actor(token=new_entry_token(match, side)) for side in (0, 1))
    games.record_opening_roll(match.pk, actor=alice, dice=(3, 1), expected_seq=0)
    games.record_play(match.pk, actor=alice, side=0, play="8/5 6/5", expected_seq=1)
    bob_phone = open_entry_link(pages, match, 1, "phone")
    expect(bob_phone.locator("#entry-prompt")).to_contain_text("Bob")
    pages.shot(bob_phone, "bob-before-entering")
    expect(bob_phone.get_by_text("Ask for a correction")).to_have_count(0)
    expect(bob_phone.locator("#take-back")).to_have_count(0)
    alice_phone = open_entry_link(pages, match, 0, "phone")
    expect(alice_phone.locator("#take-back")).to_be_visible()
    expect(alice_phone.get_by_text("Ask for a correction")).to_have_count(0)
    games.record_roll(match.pk, actor=bob, side=1, dice=(6, 5), expected_seq=2)
    alice_phone.reload()
    expect(alice_phone.get_by_text("Ask for a correction")).to_be_visible()
    pages.shot(alice_phone, "alice-after-bob-rolled")
