"""The club's roster on a 390 px phone: its director adds a player, pastes a list whose close name asks "Who is it?",
chooses, and the page, its forms and its stacked roster stay within the screen."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from common.actor import Actor
from tests.web.browser.conftest import Pages
from tests.web.browser.test_flows import PASSWORD, log_in, shot
from tournaments import services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_director_adds_and_pastes_roster_players_on_a_phone(pages: Pages, django_user_model: Any) -> None:
    tina = django_user_model.objects.create_user("tina", password=PASSWORD)
    club = services.create_club(actor=Actor(user=tina), name="Oslo Backgammon Klubb")
    pages.allow("status of 409")  # the close name's "Who is it?"
    page = log_in(pages, f"/clubs/{club.slug}/manage/", "phone")
    page.get_by_text("Add a player", exact=True).click()
    form = page.locator("#form-roster-add")
    form.get_by_label("Name").fill("Pia Ruud")
    form.get_by_label("Club or town").fill("Bergen Backgammonklubb")
    form.get_by_role("button", name="Add to the roster").click()
    expect(page.locator(".messages")).to_contain_text("Pia Ruud joins the roster.")
    page.get_by_text("Add a list of players", exact=True).click()
    listed = page.locator("#form-roster-import")
    listed.get_by_label("Paste the list").fill("Ola Dahl,Trondheim,NO\npia rud")
    listed.get_by_role("button", name="Add the list").click()
    expect(listed.locator(".form-errors")).to_contain_text("Say who these players are")
    pia = club.players.get(display_name="Pia Ruud").pk  # not 1 after other tests: sequences are not reset
    expect(listed.locator(".form-errors .problems li")).to_have_text(
        [f"Line 2: 'pia rud' is close to Pia Ruud (Bergen Backgammonklubb) #{pia}"]
    )
    shot(pages, page, "club-roster-who-is-it")
    listed.get_by_label("Pia Ruud (Bergen Backgammonklubb)", exact=False).check()
    listed.get_by_role("button", name="Add the list").click()
    expect(page.locator(".messages")).to_contain_text("1 player joins the roster; already on it: Pia Ruud.")
    roster = page.locator("section[aria-labelledby='roster-heading'] table")
    expect(roster.locator("tbody tr")).to_have_count(2)
    shot(pages, page, "club-roster")
    assert sorted(club.players.values_list("display_name", flat=True)) == ["Ola Dahl", "Pia Ruud"]
