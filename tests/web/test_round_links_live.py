"""The division page's list of every round ("All rounds") follows the live refresh: when the next round is paired,
the pairings part that brings its tables also brings the list, with the "current" tag moved to the new round, so a
spectator who never reloads does not read round 1 as the round being played."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from django.test import Client
from django.urls import reverse

from common.actor import Actor
from tests.tournaments.api.support import play_round
from tournaments import services
from tournaments.models import Division

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks")]


def current_rounds_in(html: str) -> list[str]:
    """The anchors of the rounds tagged "current" in the round links the HTML carries."""
    links = html.split('<ul id="round-links"')[1].split("</ul>")[0]
    return re.findall(r'<li id="(round-[a-z]+-\d+)">(?:(?!</li>).)*badge-current', links)


def test_the_live_pairings_part_moves_the_current_tag_of_all_rounds(
    client: Client, division_of: Callable[..., Division], as_director: Actor
) -> None:
    division = division_of("swiss", 4, entry_mode="scoresheet", match_length=1, rounds_planned=3)
    services.start_division(division, actor=as_director)
    page = client.get(reverse("tournaments:division-detail", args=[division.event.slug, division.slug]))
    assert current_rounds_in(page.content.decode()) == ["round-swiss-1"]

    play_round(division, 1)
    services.pair_next_round(division, actor=as_director)
    live = reverse("tournaments:division-live", args=[division.event.slug, division.slug, "pairings"])
    part = client.get(live, headers={"if-none-match": page.context["pairings_etag"]})
    assert part.status_code == 200
    html = part.content.decode()
    assert '<ul id="round-links" class="round-links" hx-swap-oob="true">' in html
    assert current_rounds_in(html) == ["round-swiss-2"]
    # the page itself lists the same, once, without the out-of-band marker
    page = client.get(reverse("tournaments:division-detail", args=[division.event.slug, division.slug])).content
    assert page.decode().count('id="round-links"') == 1 and "hx-swap-oob" not in page.decode().split("round-links")[1]


def test_a_round_pages_live_part_moves_the_current_tag_too(
    client: Client, division_of: Callable[..., Division], as_director: Actor
) -> None:
    division = division_of("swiss", 4, entry_mode="scoresheet", match_length=1, rounds_planned=3)
    services.start_division(division, actor=as_director)
    args = [division.event.slug, division.slug, "swiss", 1]
    page = client.get(reverse("tournaments:division-round", args=args))
    assert current_rounds_in(page.content.decode()) == ["round-swiss-1"]

    play_round(division, 1)
    services.pair_next_round(division, actor=as_director)
    part = client.get(reverse("tournaments:division-round-live", args=args))
    assert part.status_code == 200
    assert current_rounds_in(part.content.decode()) == ["round-swiss-2"]
    assert 'aria-current="page">Round 1</a>' in part.content.decode()  # still the page of round 1
