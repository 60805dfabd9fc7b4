"""A club's events share its roster and rating list: the same person is one record from night to night, so his
rating carries over; the club's page lists its events, its rating list and its champions."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from common.actor import Actor
from tests.tournaments.services.support import play_out
from tournaments import services
from tournaments.models import Club, Division, Event, Rating
from tournaments.selectors.clubs import club_page

pytestmark = pytest.mark.django_db


def night(division_of: Callable[..., Division], club: Club, director: Actor, name: str, day: int) -> Division:
    """A club night: a knockout of four ("P01"-"P04", the better seed winning), played out."""
    event = services.create_event(actor=director, name=name, club=club, starts_on=dt.date(2026, 11, day))
    division = division_of("single", 4, event=event, entry_mode="scoresheet", match_length=1)
    services.start_division(division, actor=director)
    return play_out(division, director)


def test_ratings_carry_from_night_to_night(
    division_of: Callable[..., Division], as_director: Actor, committed: Callable[[], Any]
) -> None:
    club = services.create_club(actor=as_director, name="Oslo BK")
    with committed():
        first = night(division_of, club, as_director, "Night 1", 5)
    assert club.rating_list is not None
    after_one = {r.player.display_name: r.matches for r in Rating.objects.filter(rating_list=club.rating_list)}
    assert after_one == {"P01": 2, "P02": 2, "P03": 1, "P04": 1}
    with committed():
        second = night(division_of, club, as_director, "Night 2", 12)
    rows = Rating.objects.filter(rating_list=club.rating_list).select_related("player")
    assert {r.player.display_name: r.matches for r in rows} == {"P01": 4, "P02": 4, "P03": 2, "P04": 2}
    assert club.players.count() == 4
    ones = {e.player_id for e in first.entries.all()}
    assert ones == {e.player_id for e in second.entries.all()}, "the same four records"


def test_the_club_page(
    division_of: Callable[..., Division], as_director: Actor, committed: Callable[[], Any], director: Any
) -> None:
    club = services.create_club(actor=as_director, name="Oslo BK")
    with committed():
        night(division_of, club, as_director, "Night 1", 5)
        night(division_of, club, as_director, "Night 2", 12)
    coming = services.create_event(actor=as_director, name="Night 3", club=club, starts_on=dt.date(2026, 11, 19))
    services.create_event(actor=as_director, name="Someone else's open")  # not the club's
    page = club_page(club, None, today=dt.date(2026, 11, 14))
    assert [e.name for e in page.upcoming] == [coming.name]
    assert [e.name for e in page.recent] == ["Night 2", "Night 1"]
    assert [(c.event.name, c.player.display_name) for c in page.champions] == [("Night 2", "P01"), ("Night 1", "P01")]
    assert page.ratings[0].player.display_name == "P01"
    assert Event.objects.filter(club=club).count() == 3


def test_the_club_page_costs_the_same_for_two_nights_or_ten(
    division_of: Callable[..., Division], as_director: Actor, committed: Callable[[], Any]
) -> None:
    club = services.create_club(actor=as_director, name="Oslo BK")
    with committed():
        night(division_of, club, as_director, "Night 1", 1)
        night(division_of, club, as_director, "Night 2", 2)
    with CaptureQueriesContext(connection) as two:
        club_page(club, None, today=dt.date(2026, 12, 1))
    with committed():
        for day in range(3, 11):
            night(division_of, club, as_director, f"Night {day}", day)
    with CaptureQueriesContext(connection) as ten:
        page = club_page(club, None, today=dt.date(2026, 12, 1))
    assert len(page.recent) == 10 and len(page.champions) == 10
    assert len(two.captured_queries) == len(ten.captured_queries)


def test_registering_from_a_roster_of_2000_costs_what_it_costs_from_20(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    def statements(roster: int) -> int:
        club = services.create_club(actor=as_director, name=f"Club of {roster}")
        for i in range(roster):
            services.add_to_roster(club, actor=as_director, name=f"Member {i:04d}", new_player=True)
        event = services.create_event(actor=as_director, name=f"Night of {roster}", club=club)
        division = division_of("single", 0, event=event)
        services.register_player(division, actor=as_director, name="Member 0007")  # warm up the caches
        with CaptureQueriesContext(connection) as counted:
            entry = services.register_player(division, actor=as_director, name="Member 0011")
        assert entry.player.clubs.filter(pk=club.pk).exists()
        return len(counted.captured_queries)

    assert statements(20) == statements(2000)
