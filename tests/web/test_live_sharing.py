"""Spectators of a public event share each live part for a few seconds (settings.LIVE_PART_SECONDS): a poll then
sends no query at all, while a change still shows once the copy is older than that. Logged-in visitors and
private events never use the shared copy."""

from __future__ import annotations

import html
import re
import time
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from common.actor import Actor
from tests.tournaments.api.support import enter_result
from tournaments import services
from tournaments.models import Division, Pairing

pytestmark = pytest.mark.django_db

PARTS = ("standings", "pairings")


@pytest.fixture(autouse=True)
def shared(settings: Any) -> None:
    settings.LIVE_PART_SECONDS = 1


def swiss(director: Any, *, public: bool = True) -> Division:
    actor = Actor(user=director)
    event = services.create_event(actor=actor, name="Club night", public=public)
    division = services.create_division(
        event,
        actor=actor,
        settings=services.DivisionSettings(
            name="Open", format="swiss", rounds_planned=3, entry_mode="scoresheet", match_length=1
        ),
    )
    for i in range(1, 5):
        services.register_player(division, actor=actor, name=f"P{i}", rating=2000 - i)
    return services.start_division(division, actor=actor)


def live_url(division: Division, part: str) -> str:
    return reverse("tournaments:division-live", args=[division.event.slug, division.slug, part])


def test_spectators_share_a_part_without_a_query(director: Any, django_assert_num_queries: Any) -> None:
    division = swiss(director)
    for part in PARTS:
        first = Client().get(live_url(division, part))
        assert first.status_code == 200
        with django_assert_num_queries(0):
            same = Client().get(live_url(division, part))
            unchanged = Client().get(live_url(division, part), headers={"if-none-match": first["ETag"]})
        assert same.status_code == 200 and same.content == first.content and same["ETag"] == first["ETag"]
        assert same["Cache-Control"] == "public, max-age=0, s-maxage=1"
        assert unchanged.status_code == 304 and unchanged["ETag"] == first["ETag"] and unchanged.content == b""


def test_a_copy_of_the_etag_alone_still_gives_the_part_to_whoever_needs_it(
    director: Any, django_assert_num_queries: Any
) -> None:
    division = swiss(director)
    url = live_url(division, "pairings")
    etag = Client().get(url)["ETag"]
    cache.clear()  # the copy has expired
    assert Client().get(url, headers={"if-none-match": etag}).status_code == 304  # shares the ETag, no body
    fresh = Client().get(url)  # needs the body: made again, and shared from now on
    assert fresh.status_code == 200 and fresh["ETag"] == etag and b"P1" in fresh.content
    with django_assert_num_queries(0):
        assert Client().get(url).content == fresh.content


def test_a_change_shows_once_the_copy_is_older_than_the_setting(director: Any) -> None:
    division = swiss(director)
    url = live_url(division, "pairings")
    before = Client().get(url)
    board = Pairing.objects.get(division=division, key="swiss-1-1")
    enter_result(board, winner=0)
    assert Client().get(url, headers={"if-none-match": before["ETag"]}).status_code == 304  # the shared copy
    time.sleep(1.2)
    after = Client().get(url, headers={"if-none-match": before["ETag"]})
    assert after.status_code == 200 and after["ETag"] != before["ETag"]


def test_logged_in_visitors_and_private_events_are_never_served_a_shared_copy(
    director: Any, django_assert_max_num_queries: Any
) -> None:
    public = swiss(director)
    url = live_url(public, "standings")
    Client().get(url)
    dora = Client()
    dora.force_login(director)
    assert dora.get(url).status_code == 200
    with django_assert_max_num_queries(10) as queries:
        dora.get(url)
    assert len(queries) >= 1, "a logged-in visitor's poll is answered fresh"

    private = swiss(director, public=False)
    url = live_url(private, "standings")
    mine = dora.get(url)
    assert mine.status_code == 200 and mine["Cache-Control"] == "private, no-cache"
    assert Client().get(url).status_code == 404, "a director's view of a private event is not shared"


def test_a_round_page_part_is_shared_too(director: Any, django_assert_num_queries: Any) -> None:
    division = swiss(director)
    url = reverse("tournaments:division-round-live", args=[division.event.slug, division.slug, "swiss", 1])
    first = Client().get(url)
    assert first.status_code == 200
    with django_assert_num_queries(0):
        assert Client().get(url, headers={"if-none-match": first["ETag"]}).status_code == 304


def test_a_match_part_is_shared_by_its_spectators_and_follows_the_match(
    long_moves_match: Any, django_assert_num_queries: Any
) -> None:
    match = long_moves_match(40)
    page = Client().get(reverse("games:match", args=[match.pk])).content.decode()
    poll = re.search(r'hx-get="([^"]*/live/)"', page)
    assert poll, "the page polls its live part at the match's one address"
    url = html.unescape(poll.group(1))
    first = Client().get(url)
    assert first.status_code == 200
    with django_assert_num_queries(0):
        assert Client().get(url, headers={"if-none-match": first["ETag"]}).status_code == 304
        assert Client().get(url).content == first.content
