"""Who may open the directors' pages and post to them (tournaments/director/views/base.py): a director, staff, a
director of another event (403 for a public event, 404 for a private one), a user without events, an anonymous
visitor (the login page); the CSRF token is required, and an unknown action or target writes nothing."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from tests.web.director.support import check_html, client_for, refused, rows, swiss_division, text_of, urls
from tournaments.models import Division

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks")]


PAGES = ("event", "division", "match", "sheet", "slips", "scorecards", "final-standings")


@pytest.mark.parametrize("page", PAGES)
@pytest.mark.parametrize(
    ("who", "public", "status"),
    [
        ("anonymous", True, 302),
        ("sam", True, 403),
        ("otto", True, 403),
        ("sam", False, 404),
        ("otto", False, 404),
        ("dora", True, 200),
        ("stella", True, 200),
        ("dora", False, 200),
        ("stella", False, 200),
    ],
)
def test_who_opens_a_page(
    page: str, who: str, public: bool, status: int, request: pytest.FixtureRequest, dora: Any
) -> None:
    division = swiss_division(dora, 4, public=public)
    url = urls(division)[page]
    user = None if who == "anonymous" else request.getfixturevalue(who)
    before = rows()
    response = client_for(user).get(url)
    assert response.status_code == status
    if status == 302:
        assert response["Location"].startswith("/accounts/login/?next=/manage/")
    if status == 403:
        assert "You are not a director of Club night" in text_of(response)
    if status == 404:
        assert "Club night" not in text_of(response) and "Not found" in text_of(response)
    if status != 200 or page != "slips":
        assert rows() == before  # refusals (and pages other than the slips) write nothing
    if status != 302:
        assert {part.strip() for part in response["Cache-Control"].split(",")} == {"private", "no-store"}


@pytest.mark.parametrize(
    ("page", "data"),
    [
        ("event", {"action": "add-director", "add-director-username": "sam"}),
        ("event", {"action": "create-division", "create-division-name": "B", "create-division-format": "single",
                   "create-division-match_length": "5", "create-division-variant": "standard",
                   "create-division-entry_mode": "moves", "create-division-seeding": "rating",
                   "create-division-rounds_planned": "0", "create-division-last_chance_places": "0"}),
        ("division", {"action": "register", "register-name": "Intruder"}),
        ("division", {"action": "pair-next"}),
        ("match", {"action": "undo", "undo-reason": "because", "undo-expected_seq": "0"}),
        ("match", {"action": "forfeit", "forfeit-loser": "", "forfeit-kind": "no-show", "forfeit-reason": "late"}),
    ],
)  # fmt: skip
@pytest.mark.parametrize(
    ("who", "public", "status"),
    [
        ("anonymous", True, 302),
        ("sam", True, 403),
        ("otto", True, 403),
        ("otto", False, 404),
        ("sam", False, 404),
    ],
)
def test_only_directors_post(
    page: str, data: dict[str, str], who: str, public: bool, status: int, request: pytest.FixtureRequest, dora: Any
) -> None:
    division = swiss_division(dora, 4, public=public)
    user = None if who == "anonymous" else request.getfixturevalue(who)
    before = rows()
    response = client_for(user).post(urls(division)[page], data)
    assert response.status_code == status
    assert rows() == before


def test_unknown_event_division_round_or_match_is_a_404_page(dora: Any, swiss: Division) -> None:
    client = client_for(dora)
    base = f"/manage/{swiss.event.slug}/{swiss.slug}/"
    for url in (
        "/manage/nope/",
        f"/manage/{swiss.event.slug}/nope/",
        f"{base}match/swiss-9-9/",
        f"{base}round/swiss/7/sheet/",
        f"{base}round/main/1/scorecards/",
    ):
        response = client.get(url)
        assert response.status_code == 404, url
        assert "Not found" in text_of(response)


def test_the_login_page(swiss: Division) -> None:
    response = Client().get("/manage/", follow=True)
    page = text_of(response)
    assert response.redirect_chain[-1][0].startswith("/accounts/login/")
    assert 'name="username"' in page and 'name="password"' in page and 'name="next" value="/manage/"' in page
    check_html(page)


def test_the_csrf_token_is_required(dora: Any, registering: Division) -> None:
    client = client_for(dora, enforce_csrf_checks=True)
    url = f"/manage/{registering.event.slug}/{registering.slug}/"
    before = rows()
    response = client.post(url, {"action": "register", "register-name": "Carl"})
    assert response.status_code == 403 and "CSRF verification failed" in text_of(response)
    assert rows() == before
    page = client.get(url)
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', text_of(page)).group(1)
    ok = client.post(url, {"action": "register", "register-name": "Carl", "csrfmiddlewaretoken": token})
    assert ok.status_code == 302 and registering.entries.count() == 3


def test_an_unknown_action_or_target_writes_nothing(dora: Any, swiss: Division) -> None:
    client, url = client_for(dora), f"/manage/{swiss.event.slug}/{swiss.slug}/"
    refused(client, url, {"action": "explode"}, "This form is not known here")
    refused(
        client,
        url,
        {"action": "withdraw", "target": "999999", "withdraw-999999-reason": "x"},
        "no longer exists",
        status=404,
    )
