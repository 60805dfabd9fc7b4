"""A playoff on the screens it is handed out and played from: on a laptop (1366 px) the director's playoff match
page shows each entry link, and the message with a new one, wrapped inside its box (a link is a hundred characters
long); on a phone (390 px) a tied player's "Your next match" shows his playoff match whole, and "Enter this match"
takes him to its entry page, which says what the match is."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from common.actor import Actor
from games.access import new_entry_token, token_text
from tests.tournaments.services.test_playoffs import swiss_with_a_paid_tie
from tests.web.browser.conftest import Pages
from tests.web.browser.test_flows import PASSWORD, shot
from tests.web.test_playoff_phones import first_match_of
from tournaments import services
from tournaments.selectors.playoffs import division_playoffs

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: Each element of the selector whose text runs past its own box (a block) or past the page's main column (a line
#: of text), with the start of its text; the main column itself must not scroll sideways.
PAST_THE_BOX = """(selector) => {
  const main = document.querySelector("main");
  const edge = main.getBoundingClientRect().right;
  const past = [...document.querySelectorAll(selector)]
    .filter(el => (el.clientWidth > 0 && el.scrollWidth > el.clientWidth + 1)
      || [...el.getClientRects()].some(r => r.right > edge + 1))
    .map(el => el.textContent.slice(0, 60));
  return main.scrollWidth > main.clientWidth + 1 ? [...past, "main"] : past;
}"""


def test_the_playoff_links_and_a_new_links_message_wrap_inside_their_boxes_on_a_laptop(
    pages: Pages, division_of: Any, director: Any, settings: Any
) -> None:
    settings.PUBLIC_URL = "https://backgammon.north-harbour-club.example.org/"  # a club's address: links of ~120
    director.set_password(PASSWORD)
    director.save()
    division = swiss_with_a_paid_tie(division_of, Actor(user=director))
    a, b = (int(p) for p in division_playoffs(division).ties[0].tie.players)
    playoff = services.order_playoff(division, actor=Actor(user=director), entries=[a, b])
    path = f"/manage/{division.event.slug}/{division.slug}/playoff/{playoff.final_match_id}/"
    page = pages.open(f"/accounts/login/?next={path}", viewport="laptop")
    form = page.locator("#form-login")
    form.get_by_label("Username").fill(director.username)
    form.get_by_label("Password").fill(PASSWORD)
    form.get_by_role("button", name="Log in").click()
    page.wait_for_url(f"**{path}")
    expect(page.locator(".entry-link")).to_have_count(2)
    page.locator("select[name=new-link-side]").select_option("0")
    page.get_by_role("button", name="Give a new link").click()
    expect(page.locator(".messages .message")).to_contain_text("A new entry link for")
    assert page.evaluate(PAST_THE_BOX, ".messages .message, .entry-link") == []
    shot(pages, page, "playoff-match-new-link")
    page.goto(f"/manage/{division.event.slug}/{division.slug}/")
    assert page.evaluate(PAST_THE_BOX, ".entry-link") == []


def test_a_tied_player_enters_his_playoff_match_from_your_next_match_on_a_phone(
    pages: Pages, division_of: Any, as_director: Actor
) -> None:
    division = swiss_with_a_paid_tie(division_of, as_director)
    a, b = (int(p) for p in division_playoffs(division).ties[0].tie.players)
    services.order_playoff(division, actor=as_director, entries=[a, b])
    secret = token_text(new_entry_token(*first_match_of(division, a)))  # his earlier match's link
    page = pages.open(f"/play/{secret}/", viewport="phone")
    page.goto("/play/pairings/next/")
    expect(page.locator(".entry-panel .call")).to_have_text("Playoff for the tie at 2nd place")
    shot(pages, page, "next-playoff-match")
    page.get_by_role("button", name="Enter this match").tap()
    expect(page.locator(".call-panel h2")).to_have_text("Playoff for the tie at 2nd place")
    shot(pages, page, "playoff-entry-page")
