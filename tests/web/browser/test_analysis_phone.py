"""The analysis on a phone (390 px, and 360): on the match page's analysis view the board's point numbers and the
players' pip lines are drawn at 11 px or more, and the counts (on checkers, in the trays, on the cube) at 10 px or
more, however much the board is scaled down to fit the screen; a player's page draws his PR over time as a chart
as wide as the screen allows, with its labels at 11 px or more, above his table, no wider than the screen."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone

from games.models import Action, Match
from tests.games.analysis.made_up import store_analysis
from tests.games.analysis.test_analyse_match import CUBE_MATCH, import_mat
from tests.web.browser.test_flows import shot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: The size a text of the board is drawn at on the screen: its font size in the SVG's units times the board's scale.
DRAWN_SIZES = """() => {
  const board = document.querySelector("#replay svg.board, svg.board");
  const scale = board.getBoundingClientRect().width / board.viewBox.baseVal.width;
  const size = (el) => parseFloat(getComputedStyle(el).fontSize) * scale;
  const sizes = (selector) => [...board.querySelectorAll(selector)].map(size);
  return {
    scale: scale,
    numbers: sizes(".board-numbers text"),
    pips: sizes("text.pips"),
    counts: sizes("text.tray-label, text.checker-count, text.cube-value"),
  };
}"""


@pytest.mark.parametrize("viewport", ["phone", "small-phone"])
def test_the_boards_labels_are_readable_on_a_phone(pages: Any, viewport: str) -> None:
    match: Match = import_mat(CUBE_MATCH)
    store_analysis(match)
    later = Action.objects.filter(match=match, kind="play").order_by("seq")[20]
    page = pages.open(reverse("games:match", args=[match.pk]) + f"?at={later.seq}", viewport=viewport)
    page.locator("svg.board").first.screenshot(path=str(pages.artifacts / f"{pages.prefix}-board.png"))
    drawn = page.evaluate(DRAWN_SIZES)
    assert len(drawn["numbers"]) == 24 and len(drawn["pips"]) == 2 and drawn["counts"]
    assert min(drawn["numbers"] + drawn["pips"]) >= 11, drawn
    assert min(drawn["counts"]) >= 10, drawn
    shot(pages, page, "analysed-board")


CHART_SIZES = """() => {
  const chart = document.querySelector(".pr-chart svg");
  const scale = chart.getBoundingClientRect().width / chart.viewBox.baseVal.width;
  const labels = [...chart.querySelectorAll(".pr-chart-labels text")];
  const size = (el) => parseFloat(getComputedStyle(el).fontSize) * scale;
  return {width: chart.getBoundingClientRect().width, labels: labels.map(size)};
}"""


@pytest.mark.parametrize("viewport", ["phone", "small-phone"])
def test_a_players_pr_chart_is_readable_on_a_phone(pages: Any, viewport: str) -> None:
    first = None
    for day, errors in enumerate([(1.0, 0.5), (3.0, 0.5), (2.0, 0.5), (1.5, 0.5)], start=1):
        match = import_mat(CUBE_MATCH)
        if first is None:
            first = match
        Match.objects.filter(pk=match.pk).update(
            player1=first.player1, finished_at=timezone.now() - timezone.timedelta(days=10 - day)
        )
        match.refresh_from_db()
        store_analysis(match, errors=errors)
    assert first is not None
    page = pages.open(reverse("games:player", args=[first.player1_id]), viewport=viewport)
    drawn = page.evaluate(CHART_SIZES)  # five labels: the top, the dashed line's, 0, the first and the last day
    assert drawn["width"] >= 300 and len(drawn["labels"]) == 5 and min(drawn["labels"]) >= 11, drawn
    assert page.locator("table.pr-history tbody tr").count() == 4
    shot(pages, page, "player-pr-chart")
