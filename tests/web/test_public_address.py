"""``PUBLIC_URL``: every absolute link the site builds names the address the players' phones use, whatever address
the director's browser used (a laptop's own 127.0.0.1); the director's dashboard and the venue display say "Join
at"; a bad value is refused with what to give instead."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core import mail
from django.core.exceptions import ImproperlyConfigured
from django.test import Client

from config.settings import public_url
from tests.web.director.support import swiss_division

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks")]

PUBLIC = "http://club-laptop.test:8600/"


@pytest.fixture
def on_the_laptop(django_user_model: Any, settings: Any) -> tuple[Client, Any]:
    settings.PUBLIC_URL = PUBLIC
    settings.ALLOWED_HOSTS = ["club-laptop.test", "127.0.0.1"]
    director = django_user_model.objects.create_user("dora", password=None)
    client = Client(HTTP_HOST="127.0.0.1:8600")  # the director's browser on the laptop itself
    client.force_login(director)
    return client, director


def test_slips_printed_on_the_laptop_link_to_the_public_address(on_the_laptop: tuple[Client, Any]) -> None:
    client, director = on_the_laptop
    division = swiss_division(director, 8)
    page = client.get(f"/manage/{division.event.slug}/{division.slug}/round/swiss/1/slips/").content.decode()
    links = re.findall(r"<code>(https?://[^<]+/play/[^<]+/)</code>", page)  # the links printed under the QR codes
    assert len(links) == 8
    assert all(link.startswith(PUBLIC + "play/") for link in links), links


def test_the_dashboard_and_the_venue_display_say_where_to_join(on_the_laptop: tuple[Client, Any]) -> None:
    client, director = on_the_laptop
    division = swiss_division(director, 4)
    joined = f"Join at <strong>{PUBLIC}</strong>"
    assert joined in client.get("/manage/").content.decode()
    assert joined in client.get(f"/manage/{division.event.slug}/").content.decode()
    assert joined in client.get(f"/display/{division.event.slug}/").content.decode()


def test_without_a_public_address_nothing_says_join_at(django_user_model: Any) -> None:
    director = django_user_model.objects.create_user("dora", password=None)
    client = Client()
    client.force_login(director)
    assert "Join at" not in client.get("/manage/").content.decode()


def test_the_apis_page_links_and_a_password_reset_mail_name_the_public_address(
    on_the_laptop: tuple[Client, Any], settings: Any
) -> None:
    client, director = on_the_laptop
    swiss_division(director, 4)  # two matches: a page of one has a next page
    listed = client.get("/api/matches/?page_size=1")
    assert listed.status_code == 200
    assert listed.json()["next"].startswith(PUBLIC + "api/matches/")
    settings.PASSWORD_RESET_ENABLED = True
    director.email = "dora@club.test"
    director.set_password("a-club-night-2026")  # only an account with a password is sent a reset
    director.save()
    anonymous = Client(HTTP_HOST="127.0.0.1:8600")
    page = anonymous.get("/accounts/password_reset/")
    assert anonymous.post("/accounts/password_reset/", {"email": "dora@club.test"}).status_code == 302, page
    assert len(mail.outbox) == 1
    assert PUBLIC + "accounts/reset/" in mail.outbox[0].body


@pytest.mark.parametrize(
    ("given", "kept"),
    [
        ("", ""),
        ("http://192.168.1.20:8000", "http://192.168.1.20:8000/"),
        ("https://club.example.org/", "https://club.example.org/"),
    ],
)
def test_public_url_is_normalised(given: str, kept: str) -> None:
    assert public_url(given) == kept


@pytest.mark.parametrize("given", ["192.168.1.20:8000", "ftp://club.test/", "http://club.test/bgmatch/", "http://"])
def test_a_public_url_that_is_no_site_address_is_refused_saying_what_to_give(given: str) -> None:
    with pytest.raises(ImproperlyConfigured, match=re.escape("PUBLIC_URL=http://192.168.1.20:8000/")):
        public_url(given)
