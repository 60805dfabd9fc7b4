"""Fixtures of the tournaments API tests: the people of the access matrix and a started Swiss division, all set up
through the services (the director ``dora`` and ``division_of`` come from tests/conftest.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

from common.actor import Actor
from tests.factories import EventFactory, UserFactory
from tournaments import services
from tournaments.models import Division, Event


def logged_in(user: Any) -> APIClient:
    """A client with a real session (SessionAuthentication runs, as for the browser)."""
    client = APIClient()
    client.force_login(user)
    return client


@pytest.fixture
def anon() -> APIClient:
    return APIClient()


@pytest.fixture
def staff(django_user_model: Any) -> Any:
    return UserFactory(username="sam", is_staff=True)


@pytest.fixture
def stranger(django_user_model: Any) -> Any:
    """A logged-in user with no rights over anything."""
    return UserFactory(username="stan")


@pytest.fixture
def other_director(django_user_model: Any) -> Any:
    """The director of another event."""
    return EventFactory(director__username="otto", name="Other club night").directors.get()


@pytest.fixture
def swiss(division_of: Callable[..., Division]) -> Division:
    """A 4-player Swiss of 2 rounds to 1 point, results entered from scoresheets, not started."""
    return division_of("swiss", 4, rounds_planned=2, entry_mode="scoresheet", match_length=1)


@pytest.fixture
def running(swiss: Division, as_director: Actor) -> Division:
    """``swiss``, started: round 1 is paired (two matches)."""
    return services.start_division(swiss, actor=as_director)


@pytest.fixture
def private_event(as_director: Actor) -> Event:
    return services.create_event(actor=as_director, name="Invitational", public=False)
