"""Fixtures of the API tests: users, players, matches (set up through the services) and clients. The director
``dora`` (a plain user: directs the matches she starts) is tests/conftest.py's."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from games import services
from games.models import Match, Player
from tests.factories import PlayerFactory, UserFactory


@pytest.fixture
def anon() -> APIClient:
    return APIClient()


@pytest.fixture
def staff(django_user_model: Any) -> Any:
    return UserFactory(username="sam", is_staff=True)


@pytest.fixture
def stranger(django_user_model: Any) -> Any:
    return UserFactory(username="stan")


def logged_in(user: Any) -> APIClient:
    """A client with a real session (SessionAuthentication runs, as for the browser)."""
    client = APIClient()
    client.force_login(user)
    return client


@pytest.fixture
def players() -> tuple[Player, Player]:
    return (
        PlayerFactory(display_name="Alice Ames", club="Oslo BK", country="no", contact="alice@example.org"),
        PlayerFactory(display_name="Bob Berg", contact="+47 555 0101"),
    )


@pytest.fixture
def match(players: tuple[Player, Player], director: Any) -> Match:
    """A public 3-point match, move by move, directed by ``director``."""
    return services.start_match(player1=players[0], player2=players[1], length=3, created_by=director)
