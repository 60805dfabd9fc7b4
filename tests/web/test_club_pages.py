"""A club on the pages: the director registering a name close to the roster's is offered the roster's players to
choose from (or a new player), never a silent merge; the public club page lists its events, champions and ratings."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.test import Client

from games.access import Actor
from games.models import Player
from tournaments import services
from tournaments.models import Club, Division, Entry, Rating

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks")]


def client_for(user: Any = None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def club_night(dora: Any, club: Club, name: str) -> Division:
    actor = Actor(user=dora)
    event = services.create_event(actor=actor, name=name, club=club, starts_on=dt.date(2026, 11, 5))
    return services.create_division(
        event, actor=actor, settings=services.DivisionSettings(name="Open", format="single")
    )


def test_a_close_name_is_offered_and_the_director_chooses(dora: Any) -> None:
    actor = Actor(user=dora)
    club = services.create_club(actor=actor, name="Oslo BK")
    first = club_night(dora, club, "Night 1")
    pia = services.register_player(first, actor=actor, name="Pia Ruud", club="Oslo BK").player
    second = club_night(dora, club, "Night 2")
    client, url = client_for(dora), f"/manage/{second.event.slug}/{second.slug}/"
    refused = client.post(url, {"action": "register", "register-name": "pia ruud"})
    assert refused.status_code == 409
    page = refused.content.decode()
    assert "Who is it?" in page
    assert f'value="{pia.pk}"' in page and f"Pia Ruud (Oslo BK) #{pia.pk}" in page
    assert 'value="new"' in page and "A new player: pia ruud" in page
    assert not Entry.objects.filter(division=second).exists()
    chosen = client.post(url, {"action": "register", "register-name": "pia ruud", "register-choice": str(pia.pk)})
    assert chosen.status_code == 302
    assert Entry.objects.get(division=second).player == pia
    third = club_night(dora, club, "Night 3")
    url = f"/manage/{third.event.slug}/{third.slug}/"
    new = client.post(url, {"action": "register", "register-name": "P. Ruud", "register-choice": "new"})
    assert new.status_code == 302
    assert Entry.objects.get(division=third).player.display_name == "P. Ruud"
    assert Player.objects.count() == 2
    stranger = Player.objects.create(display_name="Not on the roster")
    fourth = club_night(dora, club, "Night 4")
    url = f"/manage/{fourth.event.slug}/{fourth.slug}/"
    wrong = client.post(url, {"action": "register", "register-name": "pia", "register-choice": str(stranger.pk)})
    assert wrong.status_code == 400 and "That player is not on the club&#x27;s roster" in wrong.content.decode()


def test_the_public_club_page(dora: Any) -> None:
    actor = Actor(user=dora)
    club = services.create_club(actor=actor, name="Oslo BK")
    division = club_night(dora, club, "Night 1")
    for name in ("Ann", "Ben"):
        services.register_player(division, actor=actor, name=name)
    services.start_division(division, actor=actor)
    page = client_for().get(f"/clubs/{club.slug}/")
    assert page.status_code == 200
    text = page.content.decode()
    assert "<h1>Oslo BK</h1>" in text and "Night 1" in text and "Coming up" in text and "Rating list" in text
    event_page = client_for().get(f"/events/{division.event.slug}/").content.decode()
    assert f'href="/clubs/{club.slug}/"' in event_page
    assert client_for().get("/clubs/nope/").status_code == 404


def test_a_director_creates_his_club_on_the_pages(dora: Any) -> None:
    """/manage/ had no way to create a club: its director had to use the API before its events could belong to it."""
    client = client_for(dora)
    page = client.get("/manage/").content.decode()
    assert "Create a club" in page and 'name="create-club-name"' in page
    refused = client.post("/manage/", {"action": "create-club", "create-club-name": "  "})
    assert refused.status_code == 400 and not Club.objects.exists()
    created = client.post(
        "/manage/", {"action": "create-club", "create-club-name": "Oslo BK", "create-club-public": "on"}
    )
    assert created.status_code == 302
    club = Club.objects.get()
    assert club.name == "Oslo BK" and list(club.directors.all()) == [dora]
    page = client.get("/manage/").content.decode()
    assert "Club “Oslo BK” created" in page and f'<option value="{club.pk}">Oslo BK</option>' in page
    assert f'href="/clubs/{club.slug}/"' in page


def test_a_director_of_a_club_creates_its_event_on_the_pages(dora: Any, django_user_model: Any) -> None:
    client = client_for(dora)
    assert "id_create-event-club" not in client.get("/manage/").content.decode(), "no club: the form as before"
    club = services.create_club(actor=Actor(user=dora), name="Oslo BK")
    assert f'<option value="{club.pk}">Oslo BK</option>' in client.get("/manage/").content.decode()
    form = {"action": "create-event", "create-event-name": "Thursday night", "create-event-time_zone": "UTC"}
    created = client.post("/manage/", {**form, "create-event-club": str(club.pk)})
    assert created.status_code == 302
    event = club.events.get()
    assert event.name == "Thursday night" and event.rating_list == club.rating_list
    other = services.create_club(actor=Actor(user=django_user_model.objects.create_user("otto")), name="Bergen BK")
    refused = client.post("/manage/", {**form, "create-event-club": str(other.pk)})
    assert refused.status_code == 400 and not other.events.exists()


def _season_post(**changes: str) -> dict[str, str]:
    data = {
        "action": "add-season",
        "add-season-name": "Autumn",
        "add-season-starts_on": "2026-09-01",
        "add-season-ends_on": "2026-12-31",
        "add-season-system": "club",
        "add-season-per_win": "1",
        "add-season-times_length": "on",
        "add-season-places": "10, 6, 4, 4",
        "add-season-showing_up": "2",
        "add-season-qualify": "4",
    }
    return {**data, **{f"add-season-{key}": value for key, value in changes.items()}}


def test_a_club_director_adds_a_season_on_the_pages_and_its_table_opens(dora: Any) -> None:
    club = services.create_club(actor=Actor(user=dora), name="Oslo BK")
    client, url = client_for(dora), f"/clubs/{club.slug}/manage/"
    page = client.get(url)
    assert page.status_code == 200 and "Add a season" in page.content.decode()
    assert "private" in page["Cache-Control"] and "no-store" in page["Cache-Control"]
    added = client.post(url, _season_post())
    assert added.status_code == 302 and added["Location"] == url
    season = club.seasons.get()
    assert (season.name, season.system, season.qualify) == ("Autumn", "club", 4)
    assert season.table == {
        "per_win": 1.0,
        "times_length": True,
        "places": [10.0, 6.0, 4.0, 4.0],
        "showing_up": 2.0,
        "multipliers": {},
    }
    listed = client.get(url).content.decode()
    assert f"/clubs/{club.slug}/seasons/{season.slug}/" in listed and "top 4" in listed
    assert client_for().get(f"/clubs/{club.slug}/seasons/{season.slug}/").status_code == 200


@pytest.mark.parametrize(
    ("changes", "said"),
    [
        ({"ends_on": "2026-08-01"}, "The last day comes before the first"),
        ({"places": "10, six"}, "Give the points of each place as numbers"),
        ({"per_win": "-1"}, "greater than or equal to 0"),
        ({"qualify": "5000"}, "less than or equal to 1000"),
    ],
)
def test_a_bad_season_is_refused_with_what_to_change_and_nothing_stored(
    dora: Any, changes: dict[str, str], said: str
) -> None:
    club = services.create_club(actor=Actor(user=dora), name="Oslo BK")
    refused = client_for(dora).post(f"/clubs/{club.slug}/manage/", _season_post(**changes))
    assert refused.status_code == 400
    assert said in refused.content.decode()
    assert not club.seasons.exists()


def test_a_second_season_of_the_same_name_is_refused(dora: Any) -> None:
    club = services.create_club(actor=Actor(user=dora), name="Oslo BK")
    client, url = client_for(dora), f"/clubs/{club.slug}/manage/"
    assert client.post(url, _season_post()).status_code == 302
    again = client.post(url, _season_post(starts_on="2027-01-01", ends_on="2027-03-31"))
    assert again.status_code == 409 and "already has a season" in again.content.decode()
    assert club.seasons.count() == 1


def test_the_roster_shows_each_players_rating_and_nights(dora: Any) -> None:
    actor = Actor(user=dora)
    club = services.create_club(actor=actor, name="Oslo BK")
    division = club_night(dora, club, "Night 1")
    ann, ben = (services.register_player(division, actor=actor, name=name).player for name in ("Ann", "Ben"))
    services.start_division(division, actor=actor)
    Rating.objects.create(rating_list=club.rating_list, player=ann, rating=1612.4, experience=5, matches=1)
    page = client_for(dora).get(f"/clubs/{club.slug}/manage/").content.decode()
    roster = page.split('id="roster-heading"')[1].split("</section>")[0]
    rows = {name: roster.split(f">{name}</a>")[1].split("</tr>")[0] for name in (ann.display_name, ben.display_name)}
    assert 'data-label="Rating">1612</td>' in rows["Ann"] and 'data-label="Nights played">1</td>' in rows["Ann"]
    assert 'data-label="Rating">new (1500)</td>' in rows["Ben"]


def test_a_club_director_adds_another_director_by_username(dora: Any, django_user_model: Any) -> None:
    club = services.create_club(actor=Actor(user=dora), name="Oslo BK")
    erik = django_user_model.objects.create_user("erik", password=None)
    client, url = client_for(dora), f"/clubs/{club.slug}/manage/"
    unknown = client.post(url, {"action": "add-director", "add-director-username": "nobody"})
    assert unknown.status_code == 404 and "Nobody logs in as “nobody”" in unknown.content.decode()
    assert client.post(url, {"action": "add-director", "add-director-username": "Erik"}).status_code == 302
    assert club.directors.filter(pk=erik.pk).exists()
    assert client_for(erik).get(url).status_code == 200
    again = client.post(url, {"action": "add-director", "add-director-username": "erik"}, follow=True)
    assert "Erik is already a director of Oslo BK." in again.content.decode()


def test_only_the_clubs_directors_run_it(dora: Any, django_user_model: Any) -> None:
    club = services.create_club(actor=Actor(user=dora), name="Oslo BK")
    hidden = services.create_club(actor=Actor(user=dora), name="Hidden BK", public=False)
    erik = django_user_model.objects.create_user("erik", password=None)
    assert client_for().get(f"/clubs/{club.slug}/manage/").status_code == 302  # to the login page
    forbidden = client_for(erik).get(f"/clubs/{club.slug}/manage/")
    assert forbidden.status_code == 403 and "Not your club" in forbidden.content.decode()
    assert client_for(erik).post(f"/clubs/{club.slug}/manage/", _season_post()).status_code == 403
    assert client_for(erik).get(f"/clubs/{hidden.slug}/manage/").status_code == 404
    assert client_for(dora).get("/clubs/no-such-club/manage/").status_code == 404
    assert not club.seasons.exists()
    public = client_for(dora).get(f"/clubs/{club.slug}/").content.decode()
    assert f"/clubs/{club.slug}/manage/" in public
    assert f"/clubs/{club.slug}/manage/" not in client_for(erik).get(f"/clubs/{club.slug}/").content.decode()
