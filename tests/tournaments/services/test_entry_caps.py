"""Divisions open by rating or points: a player outside the cap is refused with the reason on every way in (one by
one, a pasted list, the API, check-in) with nothing stored; the director overrides with a reason, kept on the entry
and shown on his division page; caps that make no sense are refused when the division is made."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.utils.html import escape

from common.actor import Actor
from common.errors import ApplicationError, ErrorCode
from games.models import Player
from tests.tournaments.services.support import snapshot
from tests.tournaments.services.test_seasons import night
from tournaments import services
from tournaments.models import Club, Division, Entry, Event, Rating

pytestmark = pytest.mark.django_db

PIA = "Pia Ruud's rating 1,642 is above this division's cap of 1,600"


@pytest.fixture
def club(as_director: Actor) -> Club:
    return services.create_club(actor=as_director, name="Oslo BK")


@pytest.fixture
def event(as_director: Actor, club: Club) -> Event:
    return services.create_event(actor=as_director, name="Club night", club=club, starts_on=dt.date(2026, 10, 20))


def rated(club: Club, director: Actor, name: str, rating: float) -> Player:
    player = services.add_to_roster(club, actor=director, name=name, new_player=True)
    assert club.rating_list is not None
    Rating.objects.update_or_create(rating_list=club.rating_list, player=player, defaults={"rating": rating})
    return player


def division(event: Event, director: Actor, **caps: Any) -> Division:
    settings = services.DivisionSettings(name="Intermediate", format="single", level="intermediate", **caps)
    return services.create_division(event, actor=director, settings=settings)


def refused(call: Callable[[], Any], *said: str) -> str:
    before = snapshot()
    with pytest.raises(ApplicationError) as caught:
        call()
    assert caught.value.code == ErrorCode.OUTSIDE_CAP
    for words in said:
        assert words in caught.value.message
    assert snapshot() == before
    return caught.value.message


def test_one_by_one_a_player_rated_above_the_cap_is_refused_and_the_director_may_override(
    as_director: Actor, club: Club, event: Event, director: Any
) -> None:
    rated(club, as_director, "Pia Ruud", 1642)
    rated(club, as_director, "Ola Dahl", 1540)
    capped = division(event, as_director, rating_under=1600)
    message = refused(lambda: services.register_player(capped, actor=as_director, name="Pia Ruud"), PIA)
    assert message.endswith("give your reason for the exception (it is kept with the entry).")
    assert services.register_player(capped, actor=as_director, name="Ola Dahl").cap_override == ""
    entry = services.register_player(capped, actor=as_director, name="Pia Ruud", cap_override="back after 2 years")
    assert Entry.objects.get(pk=entry.pk).cap_override == "back after 2 years"
    client = Client()
    client.force_login(director)
    page = client.get(f"/manage/{event.slug}/{capped.slug}/").content.decode()
    assert "outside the cap" in page and "back after 2 years" in page
    assert 'name="register-cap_override"' in page


def test_a_rating_typed_at_registration_counts_for_the_cap_when_it_is_higher(
    as_director: Actor, club: Club, event: Event
) -> None:
    """The typed rating seeds the player: a newcomer typed at 1,700 is not let into a division under 1,600 by the
    list's 1,500 (a tester's night: he was seeded first and won it), on every way in."""
    capped = division(event, as_director, rating_under=1600)
    refused(
        lambda: services.register_player(capped, actor=as_director, name="Magnus Lie", rating=1700),
        "Magnus Lie's rating 1,700 (as entered for this division, which seeds by it) is above this division's cap",
    )
    refused(
        lambda: services.import_entries_csv(capped, actor=as_director, text="Magnus Lie,,,1700"),
        "line 1: Magnus Lie's rating 1,700",
    )
    rated(club, as_director, "Ola Dahl", 1640)  # typed lower than his list rating: the list's counts
    refused(lambda: services.register_player(capped, actor=as_director, name="Ola Dahl", rating=1500), "1,640")
    entry = services.register_player(capped, actor=as_director, name="Magnus Lie", rating=1550)
    assert entry.cap_override == "" and entry.rating == 1550


def test_a_new_player_counts_at_the_lists_start_and_a_floor_refuses_him(
    as_director: Actor, club: Club, event: Event
) -> None:
    floored = division(event, as_director, rating_from=1600)
    refused(
        lambda: services.register_player(floored, actor=as_director, name="Kari Nordmann"),
        "Kari Nordmann's rating 1,500 (new on Oslo BK's list, counted at its start) is below this division's "
        "floor of 1,600: it is open to players rated 1,600 or more",
    )
    rated(club, as_director, "Pia Ruud", 1642)
    assert services.register_player(floored, actor=as_director, name="Pia Ruud").cap_override == ""


def test_a_pasted_list_is_refused_whole_naming_each_player_outside_and_an_override_column_enters_them(
    as_director: Actor, club: Club, event: Event
) -> None:
    rated(club, as_director, "Pia Ruud", 1642)
    rated(club, as_director, "Per Berg", 1700)
    capped = division(event, as_director, rating_under=1600)
    message = refused(
        lambda: services.import_entries_csv(capped, actor=as_director, text="Ola Dahl\nPia Ruud\nPer Berg\n"),
        "nothing was registered",
        f"line 2: {PIA}",
        "line 3: Per Berg's rating 1,700 is above this division's cap of 1,600",
    )
    assert "override column" in message
    text = "name,override\nOla Dahl,\nPia Ruud,plays intermediate at home\nPer Berg,his first night in a year\n"
    report = services.import_entries_csv(capped, actor=as_director, text=text)
    assert [(e.player.display_name, e.cap_override) for e in report.created] == [
        ("Ola Dahl", ""),
        ("Pia Ruud", "plays intermediate at home"),
        ("Per Berg", "his first night in a year"),
    ]


def test_the_api_refuses_with_outside_cap_and_takes_an_override(
    as_director: Actor, club: Club, event: Event, director: Any
) -> None:
    player = rated(club, as_director, "Pia Ruud", 1642)
    client = Client()
    client.force_login(director)
    made = client.post(
        f"/api/events/{event.slug}/divisions/",
        {"name": "Intermediate", "format": "single", "level": "intermediate", "rating_under": 1600},
        content_type="application/json",
    )
    assert made.status_code == 201, made.content
    body = made.json()
    assert (body["level"], body["rating_under"], body["rating_from"], body["points_under"]) == (
        "intermediate",
        1600,
        None,
        None,
    )
    url = f"/api/events/{event.slug}/divisions/{body['slug']}/entries/"
    before = snapshot()
    answer = client.post(url, {"player": player.pk}, content_type="application/json")
    assert answer.status_code == 409 and answer.json()["code"] == "outside_cap"
    assert PIA in answer.json()["message"] and snapshot() == before
    answer = client.post(url, {"player": player.pk, "cap_override": "a tester"}, content_type="application/json")
    assert answer.status_code == 201 and answer.json()["cap_override"] == "a tester"
    csv_url = f"/api/events/{event.slug}/divisions/{body['slug']}/entries/import/"
    rated(club, as_director, "Per Berg", 1700)
    answer = client.post(csv_url, {"csv": "Per Berg\n"}, content_type="application/json")
    assert answer.status_code == 409 and "line 1: Per Berg's rating 1,700 is above" in answer.json()["message"]


def test_check_in_refuses_a_player_now_outside_the_cap_unless_overridden(
    as_director: Actor, club: Club, event: Event, director: Any
) -> None:
    pia = rated(club, as_director, "Pia Ruud", 1580)
    rated(club, as_director, "Ola Dahl", 1540)
    capped = division(event, as_director, rating_under=1600)
    entry = services.register_player(capped, actor=as_director, name="Pia Ruud")
    other = services.register_player(capped, actor=as_director, name="Ola Dahl")
    Rating.objects.filter(player=pia).update(rating=1642)  # last week's night lifted her over the cap
    refused(lambda: services.check_in_all(capped, actor=as_director, entries=[entry.pk, other.pk]), PIA)
    refused(lambda: services.check_in(entry, actor=as_director), PIA)
    client = Client()
    client.force_login(director)
    url = f"/manage/{event.slug}/{capped.slug}/"
    page = client.post(
        url, {"action": "check-in", "target": entry.pk, f"check-in-{entry.pk}-present": "1"}, HTTP_HX_REQUEST="true"
    ).content.decode()
    assert escape(PIA) in page and f'name="check-in-{entry.pk}-cap_override"' in page
    assert Entry.objects.get(pk=entry.pk).status == Entry.Status.REGISTERED
    client.post(
        url,
        {
            "action": "check-in",
            "target": entry.pk,
            f"check-in-{entry.pk}-present": "1",
            f"check-in-{entry.pk}-cap_override": "rated under 1,600 when she registered",
        },
    )
    done = Entry.objects.get(pk=entry.pk)
    assert (done.status, done.cap_override) == (Entry.Status.CHECKED_IN, "rated under 1,600 when she registered")
    assert services.check_in_all(capped, actor=as_director, entries=[other.pk]) == 1


def test_a_division_open_by_season_points(
    division_of: Callable[..., Division], as_director: Actor, club: Club, committed: Callable[[], Any]
) -> None:
    services.create_season(
        club, actor=as_director, name="Autumn", starts_on=dt.date(2026, 9, 1), ends_on=dt.date(2026, 12, 31),
        table={"per_win": 3, "places": [10, 6, 4, 4], "showing_up": 2},
    )  # fmt: skip
    with committed():
        night(division_of, club, as_director, "Night 1", 1)  # P01 18 points, P02 11, P03 and P04 6
    event = services.create_event(actor=as_director, name="Night 2", club=club, starts_on=dt.date(2026, 10, 8))
    novices = division(event, as_director, points_under=10, points_season="autumn")
    refused(
        lambda: services.register_player(novices, actor=as_director, name="P01"),
        "P01 has 18.00 points in Autumn, not under this division's cap of 10: it is open to players with fewer than "
        "10 points in Autumn",
    )
    assert services.register_player(novices, actor=as_director, name="P03").cap_override == ""
    assert services.register_player(novices, actor=as_director, name="Newcomer").cap_override == ""


@pytest.mark.parametrize(
    ("caps", "said"),
    [
        ({"rating_from": 1700, "rating_under": 1600}, "give rating_from below rating_under"),
        ({"rating_under": 0}, "rating_under is a rating from 1 to 9999"),
        ({"points_under": 10}, "a points cap needs both the points"),
        ({"points_season": "autumn"}, "a points cap needs both the points"),
        ({"points_under": 10, "points_season": "spring"}, "'spring' is not a season of Club night's club"),
        ({"level": "expert"}, "a division's level is open, intermediate, novice, not 'expert'"),
    ],
)
def test_caps_that_make_no_sense_are_refused(
    as_director: Actor, club: Club, event: Event, caps: dict[str, Any], said: str
) -> None:
    before = snapshot()
    settings = services.DivisionSettings(name="Capped", format="single", **caps)
    with pytest.raises(ApplicationError, match=said):
        services.create_division(event, actor=as_director, settings=settings)
    assert snapshot() == before


def test_a_rating_cap_needs_the_events_rating_list(as_director: Actor) -> None:
    alone = services.create_event(actor=as_director, name="Open night")
    settings = services.DivisionSettings(name="Capped", format="single", rating_under=1600)
    with pytest.raises(ApplicationError, match="Open night has no rating list to read ratings from"):
        services.create_division(alone, actor=as_director, settings=settings)


def test_the_division_form_has_the_level_and_the_caps(
    as_director: Actor, club: Club, event: Event, director: Any
) -> None:
    services.create_season(
        club, actor=as_director, name="Autumn", starts_on=dt.date(2026, 9, 1), ends_on=dt.date(2026, 12, 31)
    )
    client = Client()
    client.force_login(director)
    url = f"/manage/{event.slug}/"
    page = client.get(url).content.decode()
    for name in ("level", "rating_under", "rating_from", "points_under", "points_season"):
        assert f'name="create-division-{name}"' in page
    assert '<option value="autumn">Autumn</option>' in page
    posted = client.post(
        url,
        {
            "action": "create-division",
            "create-division-name": "Novices",
            "create-division-format": "single",
            "create-division-match_length": "5",
            "create-division-rounds_planned": "0",
            "create-division-last_chance_places": "0",
            "create-division-forfeit_tiebreaks": "left-out",
            "create-division-seeding": "rating",
            "create-division-variant": "standard",
            "create-division-entry_mode": "moves",
            "create-division-level": "novice",
            "create-division-points_under": "10",
            "create-division-points_season": "autumn",
        },
    )
    assert posted.status_code == 302, posted.content.decode()
    made = Division.objects.get(name="Novices")
    assert (made.level, made.points_under, made.points_season and made.points_season.slug) == ("novice", 10, "autumn")
