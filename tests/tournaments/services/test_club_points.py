"""A club's season by BackGames.org's Universal Club Master Points: by each division's level, by the field's size or
the rounds, a place's figure or the matches won's, whichever is higher, times the event's bonus."""

from __future__ import annotations

import datetime as dt
import io
from collections.abc import Callable
from typing import Any

import pytest
from django.core.management import call_command

from common.actor import Actor
from common.errors import ApplicationError
from tests.tournaments.services.support import play_out, snapshot
from tests.tournaments.services.test_seasons import night
from tournaments import services
from tournaments.models import Club, Division, Season
from tournaments.selectors.seasons import season_table
from tournaments.universal_club_table import DEFAULT_TABLE

pytestmark = pytest.mark.django_db


@pytest.fixture
def club(as_director: Actor) -> Club:
    return services.create_club(actor=as_director, name="Oslo BK")


def rows_of(season: Season) -> list[tuple[int, str, float, int, bool, bool]]:
    return [(r.rank, r.name, r.points, r.events, r.qualified, r.tied_at_line) for r in season_table(season).rows]


def autumn(club: Club, director: Actor, **fields: Any) -> Season:
    return services.create_season(
        club, actor=director, name="Autumn", starts_on=dt.date(2026, 10, 1), ends_on=dt.date(2026, 10, 31), **fields
    )


def test_a_season_by_the_universal_club_table_by_level_and_bonus(
    division_of: Callable[..., Division], as_director: Actor, club: Club, committed: Callable[[], Any]
) -> None:
    season = autumn(club, as_director, system="backgames", table={"multipliers": {"night-2": 2}}, qualify=1)
    with committed():
        night(division_of, club, as_director, "Night 1", 1)  # open: P01 1st, P02 2nd, P03 and P04 share 3-4
        second = night(division_of, club, as_director, "Night 2", 8, champion="P04")
    Division.objects.filter(pk=second.pk).update(level="novice")
    call_command("season_points", stdout=io.StringIO())  # a level set in the database: the points computed again
    open_, novice = DEFAULT_TABLE["open"]["players"]["1-11"], DEFAULT_TABLE["novice"]["players"]["1-11"]
    # Four players, 2 rounds: the 1-11 row (no rounds row under 3). Each place's figure beats what its wins earn.
    expected = {
        "P01": open_["1"] + 2 * novice["3/4"],
        "P02": open_["2"] + 2 * novice["2"],
        "P03": open_["3/4"] + 2 * novice["3/4"],
        "P04": open_["3/4"] + 2 * novice["1"],
    }
    found = {r.name: r.points for r in season_table(season).rows}
    assert found == pytest.approx(expected)
    assert season_table(season).rows[0].qualified


def test_the_universal_table_read_by_rounds_and_the_matches_won_when_they_are_more(
    division_of: Callable[..., Division], as_director: Actor, club: Club, committed: Callable[[], Any]
) -> None:
    figures = {"open": {"per_win": 5, "rounds": {"3": {"1": 20}}}}
    season = autumn(club, as_director, system="backgames", table={"basis": "rounds", "figures": figures})
    event = services.create_event(actor=as_director, name="Night 1", club=club, starts_on=dt.date(2026, 10, 1))
    with committed():
        division = division_of("swiss", 4, event=event, entry_mode="scoresheet", match_length=1)
        services.start_division(division, actor=as_director)
        play_out(division, as_director)
    # A 3-round Swiss of four, the better seed winning: the rounds row "3". P01's 20 for 1st beats 3 wins x 5;
    # P02's 2 wins x 5 beat the 0.88 of 2nd; P03's 1 win x 5 the 0.58 of 3rd; P04's nothing, the 0.38 of 4th.
    assert [(r.name, r.match_wins, r.points) for r in season_table(season).rows] == [
        ("P01", 3, 20.0),
        ("P02", 2, 10.0),
        ("P03", 1, 5.0),
        ("P04", 0, 0.38),
    ]


def test_bad_universal_tables_are_refused_and_nothing_is_stored(as_director: Actor, club: Club) -> None:
    before = snapshot()
    cases = [
        ({"basis": "best"}, "basis is 'best'"),
        ({"multipliers": {"final": 3}}, "BackGames' bonus is 1, 1.5 or 2"),
        ({"figures": {"expert": {}}}, "figures has no 'expert'"),
        ({"per_win": 1}, "unknown per_win"),
    ]
    for table, message in cases:
        with pytest.raises(ApplicationError, match=message):
            autumn(club, as_director, system="backgames", table=table)
    assert snapshot() == before
