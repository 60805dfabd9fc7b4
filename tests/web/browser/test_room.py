"""The day's mistakes fixed where they happen, in a real browser: check-in at the door without a reload (a list
that filters as one types, "Check in all the listed"), a player taking back a wrong entry from his phone, a
director entering a scoresheet game for the players, and a forfeit undone that leaves no decision on any page."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from common.actor import Actor
from games import access
from games.models import Action, Match
from tests.tournaments.services.support import enter_win
from tests.web.browser.conftest import Pages
from tests.web.browser.test_flows import PASSWORD, log_in, watch_reloads
from tournaments import services
from tournaments.models import Division, Entry, Pairing

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
VIEWPORT = pytest.mark.parametrize("viewport", ["phone", "desktop"])


def _row(page: Any, name: str) -> Any:
    return page.locator("#players-list tr[data-find]", has_text=name)


def _division(director: Any, *, players: list[str], start: bool, mode: str = "scoresheet") -> Division:
    actor = Actor(user=director)
    event = services.create_event(actor=actor, name="Club night", venue="Oslo")
    settings = services.DivisionSettings(name="Open", format="swiss", match_length=3, entry_mode=mode, rounds_planned=3)
    division = services.create_division(event, actor=actor, settings=settings)
    for i, name in enumerate(players):
        services.register_player(division, actor=actor, name=name, rating=1900 - 10 * i)
    if start:
        services.start_division(division, actor=actor)
    return division


def forfeit_and_undo(page: Any, reason: str, undo: str) -> None:
    """On the director's match page: the second player forfeits (the reason shows), then the forfeit is undone
    (**Reopen**)."""
    page.locator("summary", has_text="Forfeit").click()
    form = page.locator("#form-forfeit")
    form.get_by_label("Player who forfeits").select_option(index=1)
    form.get_by_label("Reason").fill(reason)
    form.get_by_role("button", name="Award the forfeit").click()
    expect(page.locator("body")).to_contain_text(reason)
    page.locator("summary", has_text="Reopen").click()
    reopen = page.locator("#form-reopen")
    reopen.get_by_label("Reason").fill(undo)
    reopen.get_by_role("button", name="Reopen").click()


@pytest.fixture
def tina(django_user_model: Any) -> Any:
    return django_user_model.objects.create_user("tina", password=PASSWORD)


@VIEWPORT
def test_check_in_at_the_door_without_a_reload(pages: Pages, viewport: str, tina: Any) -> None:
    names = ["Anna Berg", "Bjorn Dahl", "Carla Eriksen", "David Foss", "Eva Gran"]
    division = _division(tina, players=names, start=False)
    page = log_in(pages, f"/manage/{division.event.slug}/{division.slug}/", viewport)
    same_page = watch_reloads(page)
    page.get_by_label("Find a player").fill("carla")
    expect(page.locator("#players-list tr[data-find]:visible")).to_have_count(1)
    _row(page, "Carla Eriksen").locator("button", has_text="Check in").click()
    expect(page.locator("#players-list")).to_contain_text("Carla Eriksen is checked in.")
    expect(page.locator("#players-count")).to_have_text("5 players, 1 checked in.")  # the row came alone
    undo = _row(page, "Carla Eriksen").locator("button", has_text="Undo check-in")
    expect(undo).to_have_class("secondary")
    expect(page.locator("#players-list tr[data-find]:visible")).to_have_count(1)  # still filtered
    page.get_by_label("Find a player").fill("a")  # Anna, Bjorn Dahl, Carla, David, Eva Gran: everyone
    page.get_by_label("Find a player").fill("berg")  # Anna Berg only
    page.locator("#check-in-all-button").click()
    expect(page.locator("#players-list")).to_contain_text("1 players checked in.")
    expect(page.locator("#players-count")).to_have_text("5 players, 2 checked in.")  # the changed row came alone
    expect(_row(page, "Anna Berg").locator("button", has_text="Undo check-in")).to_have_class("secondary")
    expect(page.locator("#players-list tr[data-find]:visible")).to_have_count(1)  # still filtered
    same_page()
    statuses = dict(Entry.objects.filter(division=division).values_list("player__display_name", "status"))
    assert statuses == {
        "Anna Berg": "checked_in",
        "Bjorn Dahl": "registered",
        "Carla Eriksen": "checked_in",
        "David Foss": "registered",
        "Eva Gran": "registered",
    }
    page.get_by_label("Find a player").fill("")
    _row(page, "Carla Eriksen").locator("button", has_text="Undo check-in").click()
    expect(page.locator("#players-list")).to_contain_text("Carla Eriksen is no longer checked in.")
    same_page()
    pages.shot(page, "check-in")


@VIEWPORT
def test_a_player_takes_back_a_wrong_result_from_his_phone(pages: Pages, viewport: str, tina: Any) -> None:
    division = _division(tina, players=["Anna", "Bjorn", "Carla", "David"], start=True)
    pairing = Pairing.objects.select_related("match").filter(division=division, match__isnull=False).first()
    assert pairing is not None and pairing.match is not None
    match = pairing.match
    phone = pages.open(f"/play/{access.token_text(access.new_entry_token(match, 0))}/", viewport=viewport)
    phone.locator(".result-form label.choice", has_text=match.player2.display_name).click()
    phone.get_by_role("button", name="Enter the result").click()
    expect(phone.locator("#take-back")).to_be_visible()
    assert Match.objects.get(pk=match.pk).score == (0, 1)
    phone.locator("#take-back").click()
    expect(phone.locator("#entry-prompt")).to_contain_text("Game 1: enter its result")
    assert Match.objects.get(pk=match.pk).score == (0, 0)
    row = Action.objects.filter(match=match).order_by("-seq").first()
    assert row is not None and row.kind == "correction" and row.reason.startswith("taken back by")
    pages.shot(phone, "take-back")


def test_the_director_enters_a_game_and_undoes_a_forfeit_from_the_pages(pages: Pages, tina: Any) -> None:
    division = _division(tina, players=["Anna", "Bjorn", "Carla", "David"], start=True)
    first, second = Pairing.objects.filter(division=division, match__isnull=False).order_by("board")[:2]
    base = f"/manage/{division.event.slug}/{division.slug}/match/"
    page = log_in(pages, f"{base}{first.key}/", "desktop")
    page.get_by_role("link", name="Enter for the players").click()
    expect(page.locator("body")).to_contain_text("You are entering as the director, for either player.")
    page.locator(".result-form label.choice").first.click()
    page.get_by_label("gammon", exact=True).check()
    page.get_by_role("button", name="Enter the result").click()
    expect(page.locator(".games")).to_contain_text("2")
    assert Match.objects.get(pk=first.match_id).score == (2, 0)

    page.goto(f"{base}{second.key}/")
    forfeit_and_undo(page, "not at the table after 15 minutes", "he was in the bar")
    expect(page.locator("body")).not_to_contain_text("not at the table")
    spectator = pages.open(f"/events/{division.event.slug}/{division.slug}/rounds/swiss/1/?big=1")
    expect(spectator.locator("#round")).not_to_contain_text("forfeit")
    expect(spectator.locator("#round")).not_to_contain_text("not at the table")
    pages.shot(spectator, "forfeit-undone")


def test_the_dashboard_shows_a_new_call_without_a_reload(pages: Pages, tina: Any) -> None:
    """One table, two matches: the second waits. When the first one's result is in, the dashboard's calls show the
    second called to the table, without a reload."""
    division = _division(tina, players=["Anna", "Bjorn", "Carla", "David"], start=False)
    services.set_tables(division.event, actor=Actor(user=tina), names=["Feature table"])
    services.start_division(division, actor=Actor(user=tina))
    seated = Pairing.objects.select_related("entry_a__player", "match").get(division=division, table__isnull=False)
    waiting = Pairing.objects.select_related("entry_a__player", "entry_b__player").get(
        division=division, table__isnull=True
    )
    page = log_in(pages, f"/manage/{division.event.slug}/", "desktop")
    same_page = watch_reloads(page)
    live = page.locator("#venue-live")
    names = f"{waiting.entry_a.player.display_name} v {waiting.entry_b.player.display_name}"
    expect(live.locator(".table-queue")).to_contain_text(names)
    enter_win(seated, seated.entry_a, actor=Actor(user=tina))  # its follow-up frees the table and calls the next
    expect(live.locator(".calls")).to_contain_text(f"Feature table: Open, Round 1: {names}", timeout=15000)
    expect(live).to_contain_text("No match is waiting for a table.")
    same_page()
