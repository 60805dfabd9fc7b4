"""What testers found of a club's season, each fixed: showing-up points counted for a night not yet begun, players
tied at the playoff line all marked qualified, the season's scoring rules shown nowhere, the club table's fields
shown (and required) on the Add-a-season form when USBGF is chosen."""

from __future__ import annotations

import csv
import datetime as dt
import io
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

from common.actor import Actor
from tests.tournaments.services.test_seasons import night
from tests.web.test_club_pages import _season_post, client_for
from tournaments import services
from tournaments.models import Club, Division, Season
from tournaments.selectors.seasons import season_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def club(as_director: Actor) -> Club:
    return services.create_club(actor=as_director, name="Oslo BK")


def rows_of(season: Season) -> list[tuple[int, str, float, int, bool, bool]]:
    return [
        (r.rank, r.name, r.points, r.events, r.qualified, getattr(r, "tied_at_line", None))
        for r in season_table(season).rows
    ]


def autumn(club: Club, director: Actor, **fields: Any) -> Season:
    return services.create_season(
        club, actor=director, name="Autumn", starts_on=dt.date(2026, 10, 1), ends_on=dt.date(2026, 10, 31), **fields
    )


def test_a_night_not_yet_begun_earns_no_showing_up_points(
    division_of: Callable[..., Division], as_director: Actor, club: Club, committed: Callable[[], Any]
) -> None:
    season = autumn(club, as_director, table={"per_win": 3, "places": [10, 6, 4, 4], "showing_up": 2})
    with committed():
        night(division_of, club, as_director, "Night 1", 1)
    coming = services.create_event(actor=as_director, name="Night 2", club=club, starts_on=dt.date(2026, 10, 8))
    division_of("single", 4, event=coming)  # the same four registered, not started
    assert [(name, points, events) for _, name, points, events, *_ in rows_of(season)] == [
        ("P01", 18.0, 1),
        ("P02", 11.0, 1),
        ("P03", 6.0, 1),
        ("P04", 6.0, 1),
    ]


def test_players_tied_across_the_playoff_line_are_tied_at_the_line_not_qualified(
    division_of: Callable[..., Division], as_director: Actor, club: Club, committed: Callable[[], Any]
) -> None:
    season = autumn(club, as_director, table={"per_win": 3, "places": [10, 6, 4, 4], "showing_up": 2}, qualify=3)
    with committed():
        night(division_of, club, as_director, "Night 1", 1)
    assert rows_of(season) == [
        (1, "P01", 18.0, 1, True, False),
        (2, "P02", 11.0, 1, True, False),
        (3, "P03", 6.0, 1, False, True),
        (3, "P04", 6.0, 1, False, True),
    ]
    page = Client().get(f"/clubs/{club.slug}/seasons/autumn/").content.decode()
    assert page.count("tied at the line: playoff or tie-break") == 2 and page.count(">qualified<") == 2
    table = Client().get(f"/clubs/{club.slug}/seasons/autumn/table.csv").content.decode()
    assert [row[-1] for row in csv.reader(io.StringIO(table))][1:] == ["yes", "yes", "tied at the line"] * 1 + [
        "tied at the line"
    ]
    body = Client().get(f"/api/clubs/{club.slug}/seasons/autumn/").json()
    assert [(r["qualified"], r["tied_at_line"]) for r in body["rows"]] == [(True, False)] * 2 + [(False, True)] * 2


def test_the_season_page_says_how_the_points_are_counted(as_director: Actor, club: Club) -> None:
    services.create_event(actor=as_director, name="Final night", club=club, starts_on=dt.date(2026, 10, 30))
    table = {"per_win": 3, "times_length": True, "places": [10, 6], "showing_up": 2, "multipliers": {"final-night": 2}}
    autumn(club, as_director, table=table, qualify=4)
    autumn_usbgf = services.create_season(
        club, actor=as_director, name="USBGF", system="usbgf", starts_on=dt.date(2026, 10, 1),
        ends_on=dt.date(2026, 10, 31),
    )  # fmt: skip
    autumn_bg = services.create_season(
        club, actor=as_director, name="BG", system="backgames", table={"basis": "higher"},
        starts_on=dt.date(2026, 10, 1), ends_on=dt.date(2026, 10, 31),
    )  # fmt: skip
    page = Client().get(f"/clubs/{club.slug}/seasons/autumn/").content.decode()
    assert "How the points are counted" in page
    for said in (
        "Each match won over the board: 3 points times its length.",
        "Points by place: 1st: 10, 2nd: 6",
        "For playing a night: 2 points.",
        "Events counted more: Final night x2.",
        "A night counts once it has started",
        "Ties: more points first, then fewer events played",
        "The top 4 qualify for the playoff; players tied across the line are tied at the line",
    ):
        assert said in page
    usbgf = Client().get(f"/clubs/{club.slug}/seasons/{autumn_usbgf.slug}/").content.decode()
    assert "√(its length) / 3" in usbgf and "0.6 x log2(players)" in usbgf
    bg = Client().get(f"/clubs/{club.slug}/seasons/{autumn_bg.slug}/").content.decode()
    assert "BackGames&#x27; universal club table, read by the division&#x27;s level and the field&#x27;s size or" in bg
    assert "The table's figures" in bg and "65+ players" in bg and "7+ rounds" in bg


def test_the_add_a_season_form_hides_the_club_table_for_usbgf_and_ignores_it(django_user_model: Any) -> None:
    dora = django_user_model.objects.create_user("dora", password=None)
    club = services.create_club(actor=Actor(user=dora), name="Oslo BK")
    client, url = client_for(dora), f"/clubs/{club.slug}/manage/"
    page = client.get(url).content.decode()
    assert page.count('data-for-system="club"') == 4 and page.count('data-for-system="backgames"') == 1
    assert "js/director.js" in page
    added = client.post(url, _season_post(system="usbgf", per_win="", places="ten, six", showing_up="lots"))
    assert added.status_code == 302, added.content.decode()
    assert club.seasons.get().table == {}
    added = client.post(url, _season_post(name="BG", system="backgames", basis="rounds", per_win="x"))
    assert added.status_code == 302, added.content.decode()
    assert club.seasons.get(name="BG").table == {"basis": "rounds", "figures": {}, "multipliers": {}}
