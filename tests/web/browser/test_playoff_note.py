"""A settled playoff's note on a phone (390 px): the division page's standings say "Tie at 1st settled by a playoff:
... beat ... 1-0, then ..." and each score stays whole on its line, never "1-" then "0.", whatever the width the
note wraps at."""

from __future__ import annotations

from typing import Any

import pytest

from common.actor import Actor
from tests.tournaments.services.test_playoffs import round_robin_cycle, seeds, win
from tests.web.browser.conftest import Pages
from tournaments import services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: For each width from 120 px to the note's own, the widths at which a score ("1-0") of the note runs over two lines.
SCORES_BROKEN = """() => {
  const note = document.querySelector("#standings p.playoff");
  const broken = [];
  const full = note.getBoundingClientRect().width;
  for (let width = 120; width <= full; width += 2) {
    note.style.width = width + "px";
    const walker = document.createTreeWalker(note, NodeFilter.SHOW_TEXT);
    let text = "", nodes = [];
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      nodes.push([node, text.length]);
      text += node.data;
    }
    for (const found of text.matchAll(/\\d+-\\d+/g)) {
      const range = document.createRange();
      const at = (offset) => {
        const [node, start] = nodes.filter(([, s]) => s <= offset).pop();
        return [node, offset - start];
      };
      range.setStart(...at(found.index));
      range.setEnd(...at(found.index + found[0].length - 1));
      range.setEnd(range.endContainer, range.endOffset + 1);
      const tops = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
      if (tops.size > 1) broken.push(width);
    }
  }
  note.style.width = "";
  return broken;
}"""


def test_a_playoffs_scores_stay_whole_on_a_phone(pages: Pages, division_of: Any, director: Any) -> None:
    actor = Actor(user=director)
    division = round_robin_cycle(division_of, actor)
    p1, p2, p3 = seeds(division, 1, 2, 3)
    playoff = services.order_playoff(division, actor=actor, entries=[p3, p1, p2])
    win(playoff.first_match, p2, actor)
    playoff.refresh_from_db()
    win(playoff.final_match, p1, actor)
    page = pages.open(f"/events/{division.event.slug}/{division.slug}/", viewport="phone")
    note = page.locator("#standings p.playoff")
    assert "settled by a playoff" in note.inner_text() and "1-0" in note.inner_text()
    assert page.evaluate(SCORES_BROKEN) == []
