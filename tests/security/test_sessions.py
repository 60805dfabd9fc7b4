"""Sessions: taking an entry link gives the browser a new session key, so that a session cookie planted in it
beforehand (a shared phone, plain HTTP, a sibling subdomain) never comes to hold the victim's link."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client

from games import services
from games.access import new_entry_token, token_text

pytestmark = pytest.mark.django_db


def test_exchanging_an_entry_link_cycles_the_session_key() -> None:
    match = services.start_match(
        player1=services.create_player(display_name="Alice"),
        player2=services.create_player(display_name="Bob"),
        length=3,
    )
    other = services.start_match(
        player1=services.create_player(display_name="Mallory"),
        player2=services.create_player(display_name="Trent"),
        length=3,
    )
    attacker = Client()
    assert attacker.get(f"/play/{token_text(new_entry_token(other, 0))}/").status_code == 302
    planted = attacker.cookies[settings.SESSION_COOKIE_NAME].value

    victim = Client()
    victim.cookies[settings.SESSION_COOKIE_NAME] = planted  # the attacker's cookie, planted in her browser
    assert victim.get(f"/play/{token_text(new_entry_token(match, 1))}/").status_code == 302
    assert victim.cookies[settings.SESSION_COOKIE_NAME].value != planted
    assert victim.get(f"/play/match/{match.pk}/").status_code == 200  # she holds her side

    assert attacker.get(f"/play/match/{match.pk}/").status_code == 403  # the planted session does not


def test_an_entry_link_a_phone_opened_is_refused_as_a_header() -> None:
    """The one-phone binding of entry links covers the API: whoever photographs a slip that a phone has opened
    cannot play for that player with ``X-Entry-Token``; an app uses a link of its own."""
    from rest_framework.test import APIClient

    from games.models import Action

    match = services.start_match(
        player1=services.create_player(display_name="Alice"),
        player2=services.create_player(display_name="Bob"),
        length=3,
        private=True,
    )
    slip = token_text(new_entry_token(match, 0))
    phone = Client()
    assert phone.get(f"/play/{slip}/").status_code == 302
    assert phone.get(f"/play/match/{match.pk}/").status_code == 200
    thief = APIClient()
    thief.credentials(HTTP_X_ENTRY_TOKEN=slip)
    read = thief.get(f"/api/matches/{match.pk}/")
    assert read.status_code == 403 and "an app needs an entry link of its own" in read.json()["message"]
    body = {"kind": "opening-roll", "dice": [3, 1], "expected_seq": 0}
    assert thief.post(f"/api/matches/{match.pk}/actions/", body, format="json").status_code == 403
    assert not Action.objects.filter(match=match).exists()

    app_link = token_text(new_entry_token(match, 1))  # a link of its own, never opened in a browser
    app = APIClient()
    app.credentials(HTTP_X_ENTRY_TOKEN=app_link)
    assert app.get(f"/api/matches/{match.pk}/").status_code == 200
