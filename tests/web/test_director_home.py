"""The director's home page (/manage/) in the order a club's director works: his clubs, and Create a club, come before
the long event form (a club's night is created after its club, and the event form offers the club only then)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def test_the_clubs_come_before_the_event_form(dora: Any) -> None:
    client = Client()
    client.force_login(dora)
    html = client.get("/manage/").content.decode()
    assert html.index("Create a club") < html.index('id="new-event"')
    assert "a club's night: create the club first" in html
