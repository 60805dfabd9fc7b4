"""The club's Add-a-season form in a real browser: the club's own table's fields show only while the club's table is
chosen, the universal table's basis only while BackGames' table is, and a USBGF season is added without them."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from common.actor import Actor
from tests.web.browser.conftest import Pages
from tests.web.browser.test_flows import PASSWORD, log_in
from tournaments import services
from tournaments.models import Season

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_season_form_shows_only_the_chosen_systems_fields(pages: Pages, django_user_model: Any) -> None:
    tina = django_user_model.objects.create_user("tina", password=PASSWORD)
    club = services.create_club(actor=Actor(user=tina), name="Oslo BK")
    page = log_in(pages, f"/clubs/{club.slug}/manage/", "desktop")
    form = page.locator("#form-add-season")
    club_fields = ("Points per match won", "Times the match's length", "Points per place", "Points for playing a night")
    for label in club_fields:
        expect(form.get_by_label(label)).to_be_visible()
    expect(form.get_by_label("Read the universal table by")).to_be_hidden()
    form.get_by_label("Points system").select_option("backgames")
    expect(form.get_by_label("Read the universal table by")).to_be_visible()
    for label in club_fields:
        expect(form.get_by_label(label)).to_be_hidden()
    form.get_by_label("Points system").select_option("usbgf")
    expect(form.get_by_label("Read the universal table by")).to_be_hidden()
    for label in club_fields:
        expect(form.get_by_label(label)).to_be_hidden()
    form.get_by_label("Season name").fill("Autumn")
    form.get_by_label("First day").fill("2026-09-01")
    form.get_by_label("Last day").fill("2026-12-31")
    form.get_by_role("button", name="Add the season").click()
    expect(page.locator(".messages")).to_contain_text("Season “Autumn” added")
    season = Season.objects.get(club=club)
    assert (season.system, season.table) == ("usbgf", {})
