"""The venue display's queue, read from five metres: the matches waiting for a table show their players as plainly as
the matches being played (a player scans the screen for his own name to know he is next), and the "Queue N" place
stands out in the display's accent colour rather than fading into the background."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from common.actor import Actor
from tests.web.browser.conftest import Pages
from tournaments import services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

#: Computed colour and weight of the first element ``selector`` finds.
LOOK = """(selector) => {
  const style = getComputedStyle(document.querySelector(selector));
  return {color: style.color, weight: style.fontWeight, size: parseFloat(style.fontSize)};
}"""


def luminance(rgb: str) -> float:
    """WCAG's relative luminance of a CSS ``rgb(r, g, b)`` colour."""
    channels = [int(c) / 255 for c in rgb[rgb.index("(") + 1 : rgb.index(")")].split(",")[:3]]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(foreground: str, background: str) -> float:
    lighter, darker = sorted((luminance(foreground), luminance(background)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


@pytest.fixture
def queued(django_user_model: Any) -> Any:
    actor = Actor(user=django_user_model.objects.create_user("dora"))
    event = services.create_event(actor=actor, name="Club night", public=True)
    for name, players in (("Open", ("Anna", "Bjorn", "Carla", "Dag")), ("Beginners", ("Ann", "Bo", "Cy", "Di"))):
        settings = services.DivisionSettings(name=name, format="swiss", match_length=3, rounds_planned=2)
        division = services.create_division(event, actor=actor, settings=settings)
        for player in players:
            services.register_player(division, actor=actor, name=player)
    services.set_tables(event, actor=actor, names=["", ""])
    for division in event.divisions.order_by("id"):
        services.start_division(division, actor=actor)  # the Open takes both tables; the Beginners wait
    return event


def test_the_queue_reads_as_plainly_as_the_boards(pages: Pages, queued: Any) -> None:
    page = pages.open(reverse("tournaments:event-display", args=[queued.slug]), viewport="display")
    expect(page.locator(".display-boards tr.state-waiting")).to_have_count(2)
    pages.shot(page, "venue-display-queue")
    background = page.evaluate("() => getComputedStyle(document.body).backgroundColor")
    playing = page.evaluate(LOOK, ".display-boards tbody tr:not(.state-waiting) .display-players")
    waiting = page.evaluate(LOOK, ".display-boards tr.state-waiting .display-players")
    assert waiting == playing, (waiting, playing)
    place = page.evaluate(LOOK, ".display-boards tr.state-waiting .display-queue")
    assert int(place["weight"]) >= 700 and contrast(place["color"], background) >= 7, place
    assert place["size"] >= 24, place  # nothing on the display under 2.2vh, about 24 px at 1080 lines
    assert not pages.unexpected()
