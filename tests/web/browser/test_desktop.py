"""The public pages of a Swiss into a knockout on a desktop (1280 px) and a laptop (1366 px), as the phone-width
checks of test_phones.py do it on phones: the bracket's boxes show every name and every "1st in the Swiss
standings, 3 wins" whole (no ellipsis, no word broken), each box its "match page" link, and no column of a table
is cut off (:func:`tests.web.browser.test_flows.shot`)."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tests.web.browser.conftest import Pages
from tests.web.browser.test_flows import shot
from tests.web.swiss_knockout_day import finish_the_day, swiss_knockout_day

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DESKTOPS = pytest.mark.parametrize("viewport", ["desktop", "laptop"])


@DESKTOPS
def test_the_knockouts_bracket_shows_every_box_whole_on_a_desktop(
    pages: Pages, viewport: str, django_user_model: Any
) -> None:
    day = swiss_knockout_day(django_user_model.objects.create_user("dora", password=None))
    page = pages.open(
        reverse("tournaments:division-detail", args=[day.event.slug, day.division.slug]), viewport=viewport
    )
    slots = page.locator("#bracket .bracket-slot")
    expect(page.locator("#bracket .bracket-hint-wide")).to_contain_text("scroll sideways when they do not all fit")
    expect(page.locator("#bracket .bracket-hint-narrow")).to_be_hidden()
    expect(slots).to_have_count(3)
    expect(page.locator("#bracket .slot-said").first).to_have_text("1st in the Swiss standings, 3 wins")
    links = page.locator("#bracket .slot-foot a", has_text="match page")
    expect(links).to_have_count(2)  # the semi-finals'; the final has no match yet
    shot(pages, page, "knockout")
    lines = page.evaluate(LINE_ENDS)
    assert lines and all(abs(end - centre) < 2 for end, centre in lines), lines
    finish_the_day(day)
    page.goto(reverse("tournaments:division-detail", args=[day.event.slug, day.division.slug]))
    expect(page.locator("#bracket .slot-foot a", has_text="match page")).to_have_count(3)
    shot(pages, page, "knockout-over")


#: Each line between two columns: where it meets the next column (its last point's height on the screen) and the
#: centre of the box it meets, in pixels.
LINE_ENDS = """() => {
  const out = [];
  for (const lines of document.querySelectorAll("#bracket .bracket-lines")) {
    const next = lines.nextElementSibling.querySelectorAll(".bracket-slot");
    const svg = lines.querySelector("svg");
    const box = svg.getBoundingClientRect();
    const paths = [...svg.querySelectorAll("path, polyline, line")];
    paths.forEach((path, i) => {
      const total = path.getTotalLength();
      const end = path.getPointAtLength(total);
      const ctm = path.getScreenCTM();
      const y = end.x * ctm.b + end.y * ctm.d + ctm.f;
      const target = [...next].map(slot => slot.getBoundingClientRect())
        .map(r => r.top + r.height / 2)
        .reduce((best, c) => Math.abs(c - y) < Math.abs(best - y) ? c : best, Infinity);
      out.push([y, target]);
    });
  }
  return out;
}"""
