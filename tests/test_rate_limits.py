"""Rate limits: the login form, entry links and the API's throttles answer 429 past their limits and say when to
retry; a room of players behind one address is not limited as one client, and no client picks its own address."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from django.test import Client
from rest_framework.test import APIClient

from games import services
from games.access import new_entry_token, token_text
from games.api import throttles
from games.models import Match

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


def test_the_admin_login_is_under_the_same_limit_as_the_sites(django_user_model) -> None:
    django_user_model.objects.create_superuser(username="root", password="right-password-123")
    client = Client()
    guesses = [
        client.post("/admin/login/", {"username": "root", "password": f"guess{i}"}).status_code for i in range(12)
    ]
    guesses += [
        client.post("/accounts/login/", {"username": "root", "password": f"again{i}"}).status_code for i in range(8)
    ]
    assert guesses == [200] * 20  # the forms again, with their error: one count for both doors
    refused = client.post("/admin/login/", {"username": "root", "password": "right-password-123"})
    assert refused.status_code == 429 and "Retry-After" in refused
    assert client.post("/accounts/login/", {"username": "root", "password": "right-password-123"}).status_code == 429
    assert client.get("/admin/").status_code == 302  # not logged in
    other = Client(REMOTE_ADDR="10.0.0.9").post("/admin/login/", {"username": "root", "password": "right-password-123"})
    assert other.status_code == 302 and Client().get("/admin/login/").status_code == 200


def test_password_reset_is_off_without_e_mail(django_user_model) -> None:
    django_user_model.objects.create_user(username="dora", password="x", email="dora@example.org")
    client = Client()
    for path in ("/accounts/password_reset/", "/accounts/password_reset/done/", "/accounts/reset/done/"):
        assert client.get(path).status_code == 404, path
    assert client.post("/accounts/password_reset/", {"email": "dora@example.org"}).status_code == 404
    assert "password_reset" not in client.get("/accounts/login/").content.decode()


def test_password_reset_with_e_mail_sends_and_is_throttled(settings, mailoutbox, django_user_model) -> None:
    settings.PASSWORD_RESET_ENABLED = True  # as with EMAIL_HOST set (the test runner's mail backend keeps the mail)
    django_user_model.objects.create_user(username="dora", password="x", email="dora@example.org")
    client = Client()
    assert client.get("/accounts/password_reset/").status_code == 200
    statuses = [client.post("/accounts/password_reset/", {"email": "dora@example.org"}).status_code for _ in range(7)]
    assert statuses == [302] * 5 + [429] * 2  # PASSWORD_RESETS_PER_HOUR
    assert len(mailoutbox) == 5 and mailoutbox[0].to == ["dora@example.org"]


@contextmanager
def api_rates(**rates: str) -> Iterator[None]:
    """The API throttles' rates for the duration (DRF reads them once, at import)."""
    classes = (throttles.EntryLinkThrottle, throttles.AddressThrottle, throttles.AccountThrottle)
    old = [cls.THROTTLE_RATES for cls in classes]
    for cls in classes:
        cls.THROTTLE_RATES = {**cls.THROTTLE_RATES, **{k.replace("_", "-"): v for k, v in rates.items()}}
    try:
        yield
    finally:
        for cls, value in zip(classes, old, strict=True):
            cls.THROTTLE_RATES = value


def a_match() -> Match:
    return services.start_match(
        player1=services.create_player(display_name="Alice"),
        player2=services.create_player(display_name="Bob"),
        length=3,
    )


def test_the_api_throttles_anonymous_bursts(settings) -> None:
    with api_rates(anon="5/min"):
        client = APIClient()
        statuses = [client.get("/api/matches/").status_code for _ in range(7)]
    assert statuses[:5] == [200] * 5 and statuses[5:] == [429, 429]


def test_api_requests_with_entry_links_are_counted_per_link_not_per_address(django_user_model) -> None:
    # A club's room behind one address: eight phones, each with its own link, and a spectator's page.
    match = a_match()
    phones = []
    for i in range(8):
        phone = APIClient(REMOTE_ADDR="203.0.113.7")
        phone.credentials(HTTP_X_ENTRY_TOKEN=token_text(new_entry_token(match, i % 2)))
        phones.append(phone)
    user = django_user_model.objects.create_user(username="dora", password=None)
    director = APIClient(REMOTE_ADDR="203.0.113.7")
    director.force_authenticate(user)
    with api_rates(anon="3/min", user="3/min", entry_link="4/min"):
        by_phone = [[phone.get(f"/api/matches/{match.pk}/").status_code for _ in range(5)] for phone in phones]
        spectator = [APIClient(REMOTE_ADDR="203.0.113.7").get("/api/matches/").status_code for _ in range(4)]
        by_director = [director.get("/api/matches/").status_code for _ in range(4)]
    assert by_phone == [[200] * 4 + [429]] * 8  # each link its own 4, whatever the others did
    assert spectator == [200] * 3 + [429]  # the anonymous reader's budget was not spent by the phones
    assert by_director == [200] * 3 + [429]


def test_a_client_cannot_pick_its_address_with_x_forwarded_for(settings) -> None:
    with api_rates(anon="3/min"):
        statuses = [
            APIClient(HTTP_X_FORWARDED_FOR=f"198.51.100.{i}").get("/api/matches/").status_code for i in range(5)
        ]
        assert statuses == [200] * 3 + [429] * 2  # no proxy in front (TRUSTED_PROXIES=0): the connection's address
        settings.TRUSTED_PROXIES = 1  # behind nginx, which appends the address it saw
        behind = [
            APIClient(HTTP_X_FORWARDED_FOR=f"10.9.9.9, 198.51.100.{i % 2}").get("/api/matches/").status_code
            for i in range(8)
        ]
    assert sorted(behind) == [200] * 6 + [429] * 2  # two clients, 3 each; the forged first entry is ignored


def test_guessing_entry_links_is_limited(settings) -> None:
    match = a_match()
    client = Client()
    statuses = [client.get(f"/play/1.0.guess{i}:sig/").status_code for i in range(35)]
    assert statuses[:30] == [303] * 30  # to "this entry link is not valid"
    assert set(statuses[30:]) == {429}
    # Once the refusals are spent, even a valid link waits for the next minute from that address.
    assert client.get(f"/play/{token_text(new_entry_token(match, 0))}/").status_code == 429
    assert Client(REMOTE_ADDR="10.0.0.9").get(f"/play/{token_text(new_entry_token(match, 0))}/").status_code == 302


def test_a_whole_room_behind_one_address_opens_its_valid_links(settings) -> None:
    matches = [a_match() for _ in range(25)]
    statuses = [
        Client().get(f"/play/{token_text(new_entry_token(match, side))}/").status_code
        for match in matches
        for side in (0, 1)
    ]
    assert statuses == [302] * 50  # more than ENTRY_LINK_REFUSALS_PER_MIN (30), none refused
