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
