"""The pages of the analysis on a phone: an analysed match (PR and luck by the score, marks in the move list, the
best play by the board), a player's PR page and a division's PR table are no wider than the screen."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.management import call_command
from django.urls import reverse

from games.models import Decision
from tests.games.analysis.test_analyse_match import HUMAN_MATCH, import_mat
from tests.web.browser.test_flows import shot

pytestmark = pytest.mark.gnubg


@pytest.mark.parametrize("viewport", ["phone", "small-phone"])
def test_the_analysis_pages_are_no_wider_than_a_phone(pages: Any, viewport: str, division_of: Any) -> None:
    if not HUMAN_MATCH.exists():
        pytest.skip(f"the shared match-log corpus is missing: {HUMAN_MATCH}")
    match = import_mat(HUMAN_MATCH)
    call_command("analyse_match", str(match.pk))
    marked = Decision.objects.filter(analysis__match=match, mark="very bad", kind="move").order_by("game_number")
    first = marked.first()
    assert first is not None
    page = pages.open(reverse("games:match", args=[match.pk]), viewport=viewport)
    assert page.locator("#analysis strong").count() == 2
    shot(pages, page, "analysed-match")
    page.goto(reverse("games:match", args=[match.pk]) + f"?game={first.game_number}")
    page.locator(".move-list .mark-very-bad").first.click()
    page.locator(".analysis-note").wait_for()
    shot(pages, page, "analysed-match-board")
    page.goto(reverse("games:player", args=[match.player1_id]))
    shot(pages, page, "player-pr")
    division = division_of("swiss", 4)
    page.goto(reverse("tournaments:division-pr", args=[division.event.slug, division.slug]))
    shot(pages, page, "division-pr")
