"""What fresh testers found on the pages' layout, driven in Chromium: the director's players table at 390 px keeps
every player's Check in, Seed and Withdraw in reach, and the header's Log out (a POST form) looks like the header's
links on the public pages as on the directors'."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from common.actor import Actor
from tests.web.browser.conftest import Pages
from tests.web.browser.test_flows import PASSWORD, log_in
from tournaments import services

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
