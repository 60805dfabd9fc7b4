"""A finished division whose playoff for a tie is still to be played is not over, on every page that lists events or
champions: the events' list and the home page say "playoff to play" (the home page lists the event as running), a
club's page names no champion but "to be settled by a playoff (A v B)" and lists the event as running, not among
its events played; each in the statements it costs without a
playoff, and each says finished (or names the champion) once the playoff is played."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from common.actor import Actor
from tests.factories import EventFactory
from tests.tournaments.services.test_playoffs import seeds, win
from tests.web.test_playoff_spectators import name_of, ordered
from tournaments import services
from tournaments.models import Division, Event, Playoff

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks")]


def settle(division: Division, playoff: Playoff, director: Actor) -> None:
    """The stepladder played: seed 2 wins its first match, seed 1 its final."""
    p1, p2, _p3 = seeds(division, 1, 2, 3)
    win(playoff.first_match, p2, director)
    playoff.refresh_from_db()
    win(playoff.final_match, p1, director)


def running_part(html: str) -> str:
    return html[html.index('id="running-heading"') : html.index('id="upcoming-heading"')]


def recent_part(html: str) -> str:
    return html[html.index('id="recent-heading"') : html.index('id="champions-heading"')]


def test_the_events_list_and_the_home_page_say_playoff_to_play_until_it_is_played(
    division_of: Callable[..., Division], as_director: Actor, django_assert_max_num_queries: Any
) -> None:
    division, playoff = ordered(division_of, as_director)
    event = Event.objects.get(pk=division.event_id)
    assert event.status == Event.Status.FINISHED, "the rounds are over: the stored status is finished"
    with django_assert_max_num_queries(2):  # as without a playoff: the count and the page
        listed = Client().get(reverse("tournaments:event-list")).content.decode()
    assert '<span class="badge badge-event-finished">playoff to play</span>' in listed
    assert ">finished<" not in listed
    with django_assert_max_num_queries(1):
        home = Client().get("/").content.decode()
    running = running_part(home)
    assert event.name in running and "playoff to play" in running, "not over: it is running"

    settle(division, playoff, as_director)
    listed = Client().get(reverse("tournaments:event-list")).content.decode()
    assert '<span class="badge badge-event-finished">finished</span>' in listed and "playoff to play" not in listed
    home = Client().get("/").content.decode()
    assert event.name not in running_part(home) and "playoff to play" not in home


def test_a_clubs_page_names_no_champion_while_the_playoff_for_first_is_to_be_played(
    division_of: Callable[..., Division], dora: Any, as_director: Actor, django_assert_max_num_queries: Any
) -> None:
    club = services.create_club(actor=as_director, name="Oslo BK")  # the page, then its API (/api/clubs/<club>/)
    event = EventFactory(director=dora, club=club, name="Club night")

    def in_the_club(fmt: str, players: int, **settings: Any) -> Division:
        return division_of(fmt, players, event=event, **settings)

    division, playoff = ordered(in_the_club, as_director)
    names = [name_of(pk) for pk in playoff.entries]
    url = reverse("tournaments:club-detail", args=[club.slug])
    with django_assert_max_num_queries(6):  # the club and its page's five
        page = Client().get(url).content.decode()
    champions = page[page.index('id="champions-heading"') : page.index('id="ratings-heading"')]
    assert f"to be settled by a playoff ({' v '.join(names)})" in champions
    assert champions.count("<tr>") == 2, "one row for the division, not one per tied player"
    api = f"/api/clubs/{club.slug}/"
    tied = [(row["name"], row["playoff_to_play"]) for row in Client().get(api).json()["champions"]]
    assert sorted(tied) == sorted((name, True) for name in names), "the API: each tied player, no champion yet"
    running = page[page.index('id="running-heading"') : page.index('id="upcoming-heading"')]
    assert "Club night" in running and "playoff to play" in running, "not over: it is running"
    assert "Club night" not in recent_part(page), "not among the events played"

    settle(division, playoff, as_director)
    page = Client().get(url).content.decode()
    champions = page[page.index('id="champions-heading"') : page.index('id="ratings-heading"')]
    p1 = seeds(division, 1)[0]
    assert "to be settled by a playoff" not in champions and f">{name_of(p1)}</a></th>" in champions
    assert champions.count("<tr>") == 2
    assert 'id="running-heading"' not in page, "played: nothing runs"
    assert "Club night" in recent_part(page)
    won = [(row["name"], row["playoff_to_play"]) for row in Client().get(api).json()["champions"]]
    assert won == [(name_of(p1), False)]
