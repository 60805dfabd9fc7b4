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
from tournaments.models import Club, Division, Entry

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks")]


@pytest.fixture
def dora(django_user_model: Any) -> Any:
    return django_user_model.objects.create_user("dora", password=None)


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
