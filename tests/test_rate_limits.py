"""Rate limits: the login form and the API's throttles answer 429 past their limits and say when to retry."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db


def test_the_login_form_refuses_a_burst_of_attempts(settings, django_user_model) -> None:
    django_user_model.objects.create_user(username="dora", password="right-password-123")
    client = Client()
    statuses = [
        client.post("/accounts/login/", {"username": "dora", "password": f"guess{i}"}).status_code for i in range(25)
    ]
    assert statuses[:20] == [200] * 20  # the form again, with its error
    assert set(statuses[20:]) == {429}
    refused = client.post("/accounts/login/", {"username": "dora", "password": "right-password-123"})
    assert refused.status_code == 429 and "Retry-After" in refused
    assert "Too many attempts" in refused.content.decode()
    # Another address is not affected.
    other = Client(REMOTE_ADDR="10.0.0.9").post(
        "/accounts/login/", {"username": "dora", "password": "right-password-123"}
    )
    assert other.status_code == 302


def test_the_api_throttles_anonymous_bursts(settings) -> None:
    from rest_framework.settings import api_settings
    from rest_framework.throttling import AnonRateThrottle

    old = AnonRateThrottle.THROTTLE_RATES
    AnonRateThrottle.THROTTLE_RATES = {**api_settings.DEFAULT_THROTTLE_RATES, "anon": "5/min"}
    try:
        client = APIClient()
        statuses = [client.get("/api/matches/").status_code for _ in range(7)]
    finally:
        AnonRateThrottle.THROTTLE_RATES = old
    assert statuses[:5] == [200] * 5 and statuses[5:] == [429, 429]


def test_guessing_entry_links_is_limited(settings) -> None:
    client = Client()
    statuses = [client.get(f"/play/1.0.guess{i}:sig/").status_code for i in range(35)]
    assert statuses[:30] == [403] * 30  # "this entry link is not valid"
    assert set(statuses[30:]) == {429}
