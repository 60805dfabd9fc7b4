"""The room in Chromium, as a new director and his players see it: the public division page on a 390 px phone."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from games.access import Actor
from tests.tournaments.services.support import director_win
from tests.web.browser.conftest import Pages
from tournaments import services
from tournaments.models import Pairing

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_on_a_phone_the_division_page_shows_the_current_round_before_a_short_standings_list(
    pages: Pages, director: Any
) -> None:
    """16 players of a Swiss, round 1 half played: the phone shows the current round first, and the standings
    after it in one line a player."""
    actor = Actor(user=director)
    event = services.create_event(actor=actor, name="Club night")
    division = services.create_division(
        event, actor=actor, settings=services.DivisionSettings(name="Open", format="swiss", rounds_planned=4)
    )
    for i in range(16):
        services.register_player(division, actor=actor, name=f"Player {i + 1:02}", club="Oslo BK", rating=1800 - i)
    services.start_division(division, actor=actor)
    for p in Pairing.objects.select_related("entry_a").filter(division=division).order_by("board")[:4]:
        director_win(p, p.entry_a, actor)
    services.recompute_standings(division.pk)
    page = pages.open(reverse("tournaments:division-detail", args=[event.slug, division.slug]), viewport="phone")
    pages.shot(page, "division-phone")
    tops = page.evaluate(
        "() => ['#pairings', '#standings'].map(s => document.querySelector(s).getBoundingClientRect().top)"
    )
    assert tops[0] < tops[1], f"the current round after the standings: {tops}"
    rows = page.evaluate(
        "() => [...document.querySelectorAll('#standings tbody tr')].map(r => r.getBoundingClientRect().height)"
    )
    assert len(rows) == 16 and max(rows) < 60, f"standings rows of {max(rows)} px on a phone"
    height = page.evaluate("() => document.documentElement.scrollHeight")
    assert height < 4000, f"the page is {height} px tall on a phone"
