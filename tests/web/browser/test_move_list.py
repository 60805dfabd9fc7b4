"""The match page's move list on a phone: an entry too long for its line wraps under its own number, and the number
stays beside the entry's first line (an entry drawn as an inline block put its number beside its last line)."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from common.actor import SYSTEM
from games import services
from tests.games.conftest import Driver
from tests.web.browser.conftest import Pages

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: For each entry of the list: how far (px) the first line of the entry's text lies below the line its number is
#: written on, and how many lines the entry takes. The number (the list marker) sits on the item's first line; a
#: zero-width probe put first in the item finds that line.
ENTRY_LINES = """(items) => items.map((li) => {
  const probe = document.createElement("span");
  probe.textContent = "\\u200b";
  li.prepend(probe);
  const numberLine = probe.getBoundingClientRect();
  const link = li.querySelector("a");
  const range = document.createRange();
  range.selectNodeContents(link);
  const lines = [...new Set([...range.getClientRects()].map((r) => Math.round(r.top)))];
  probe.remove();
  return {offset: Math.min(...lines) - numberLine.top, lines: lines.length};
})"""


@pytest.fixture
def long_names(django_user_model: Any) -> Any:
    director = django_user_model.objects.create_user("dora")
    first = services.create_player(display_name="Anna-Karoline Berg-Johannessen von Oldenburg")
    second = services.create_player(display_name="Carla Fernandez de la Vega y Montenegro")
    match = services.start_match(player1=first, player2=second, length=5, created_by=director)
    Driver(match, seed=5, actors=(SYSTEM, SYSTEM)).turns(6)
    return match


def test_a_wrapped_entry_keeps_its_number_beside_its_first_line(pages: Pages, long_names: Any) -> None:
    page = pages.open(reverse("games:match", args=[long_names.pk]), viewport="phone")
    items = page.locator("#move-list ol.moves > li")
    expect(items.first).to_be_visible()
    entries = items.evaluate_all(ENTRY_LINES)
    wrapped = [entry for entry in entries if entry["lines"] > 1]
    assert wrapped, entries  # the names are long enough to wrap at 390 px
    assert all(abs(entry["offset"]) <= 4 for entry in entries), entries
    assert not pages.unexpected()
