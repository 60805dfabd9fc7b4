"""What fresh testers found on the pages' layout, driven in Chromium: the director's players table at 390 px keeps
every player's Check in, Seed and Withdraw in reach, and the header's Log out (a POST form) looks like the header's
links on the public pages as on the directors'."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse
from playwright.sync_api import expect

import games.services
from common.actor import Actor
from games.access import new_entry_token
from tests.web.browser.conftest import Pages
from tests.web.browser.test_flows import PASSWORD, log_in
from tournaments import services
from tournaments.models import Pairing

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def registering(django_user_model: Any) -> Any:
    actor = Actor(user=django_user_model.objects.create_user("tina", password=PASSWORD))
    event = services.create_event(actor=actor, name="Club night", public=True)
    settings = services.DivisionSettings(
        name="Open", format="swiss", match_length=3, rounds_planned=3, seeding="manual"
    )
    division = services.create_division(event, actor=actor, settings=settings)
    for name in ("Anna Berg-Johannessen", "Bjorn Dahl", "Carla Fernandez de la Vega"):
        services.register_player(division, actor=actor, name=name, club="Oslo Backgammonklubb", rating=1800)
    return division


#: Whether an element, scrolled to vertically (never sideways: a table scrolled sideways hides its actions),
#: lies whole inside the viewport and inside the table's scroller, and whether a click at its centre reaches it.
REACHABLE = """(el) => {
  el.scrollIntoView({block: "center", inline: "nearest"});
  const wrap = el.closest(".table-wrap");
  if (wrap && (wrap.scrollLeft !== 0 || wrap.scrollWidth > wrap.clientWidth)) return false;
  const r = el.getBoundingClientRect();
  const inside = r.left >= 0 && r.right <= window.innerWidth + 0.5 && r.width > 0;
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return inside && (hit === el || el.contains(hit));
}"""


def test_every_players_actions_are_in_reach_at_390_px(pages: Pages, registering: Any) -> None:
    path = reverse("director:division", args=[registering.event.slug, registering.slug])
    page = log_in(pages, path, "phone")
    rows = page.locator("table.entries tbody tr")
    expect(rows).to_have_count(3)
    for i in range(3):
        row = rows.nth(i)
        controls = [
            row.get_by_role("button", name="Check in"),
            row.locator("summary", has_text="Seed"),
            row.locator("summary", has_text="Withdraw"),
        ]
        for control in controls:
            assert control.evaluate(REACHABLE), (i, control)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    first = rows.nth(0)
    first.locator("summary", has_text="Withdraw").click()
    expect(first.get_by_role("button", name="Withdraw")).to_be_visible()
    first.get_by_role("button", name="Check in").click()
    expect(page.locator("table.entries tbody tr").nth(0).get_by_role("button", name="Undo check-in")).to_be_visible()


def test_the_dashboards_results_and_tables_actions_are_in_reach_at_390_px(pages: Pages, django_user_model: Any) -> None:
    """A director on his phone: "Confirm as director" (a result waiting), a table's "Hold back" and a match's
    "manage" were cut at the screen's edge, in tables that scrolled sideways; each row is a card now, its actions
    in reach."""
    actor = Actor(user=django_user_model.objects.create_user("tina", password=PASSWORD))
    event = services.create_event(actor=actor, name="Club night", public=True)
    settings = services.DivisionSettings(
        name="Open", format="swiss", match_length=1, rounds_planned=2, entry_mode="scoresheet"
    )
    division = services.create_division(event, actor=actor, settings=settings)
    for name in ("Anna Berg-Johannessen", "Bjorn Dahl", "Carla Fernandez de la Vega", "Dag Eriksen"):
        services.register_player(division, actor=actor, name=name, club="Oslo Backgammonklubb", rating=1800)
    services.set_tables(event, actor=actor, names=["", "", ""])
    services.start_division(division, actor=actor)
    pairing = Pairing.objects.filter(division=division, match__isnull=False).order_by("board").first()
    assert pairing is not None and pairing.match is not None
    games.services.record_game_result(
        pairing.match.pk, actor=Actor(token=new_entry_token(pairing.match, 0)), winner=0, kind=1, expected_seq=0
    )

    page = log_in(pages, reverse("director:event", args=[event.slug]), "phone")
    queue = page.locator("#results-queue")
    expect(queue).to_contain_text("awaiting confirmation")
    assert queue.get_by_role("button", name="Confirm as director").evaluate(REACHABLE)
    assert queue.get_by_role("link", name="Open the match to correct it").evaluate(REACHABLE)
    holds = page.locator("table.venue-tables").get_by_role("button", name="Hold back")
    expect(holds).to_have_count(3)
    for i in range(3):
        assert holds.nth(i).evaluate(REACHABLE), i
    manage = page.locator("table.boards").get_by_role("link", name="manage")
    expect(manage).to_have_count(2)
    for i in range(2):
        assert manage.nth(i).evaluate(REACHABLE), i
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    pages.shot(page, "dashboard-phone")


#: The computed look of an element that tells a link from a button.
LOOK = """(el) => { const s = getComputedStyle(el);
  return [s.color, s.backgroundColor, s.borderTopWidth, s.fontSize, s.fontFamily, s.textDecorationLine,
          s.paddingTop]; }"""


@pytest.mark.parametrize("where", ["public", "director"])
def test_log_out_looks_like_the_headers_links_and_logs_out(pages: Pages, registering: Any, where: str) -> None:
    path = (
        reverse("tournaments:event-detail", args=[registering.event.slug])
        if where == "public"
        else reverse("director:event", args=[registering.event.slug])
    )
    page = log_in(pages, path, "desktop")
    header = page.locator("header.site-header")
    button = header.get_by_role("button", name="Log out")
    link = header.get_by_role("link", name="Manage")
    assert button.evaluate(LOOK) == link.evaluate(LOOK)
    assert button.evaluate("(el) => el.closest('form').method") == "post"
    button.click()
    expect(page.locator("header.site-header").get_by_role("link", name="Log in")).to_be_visible()
