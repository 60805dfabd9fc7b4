"""The payout table through the API (``.../payouts/``): its directors read and set it with the validation and the
messages of the director's page (one service), anyone who sees the division reads it once it is published, and the
standings' ``prizes`` follow it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

from common.actor import Actor
from tests.tournaments.api.conftest import logged_in
from tests.tournaments.api.support import division_url
from tests.tournaments.services.support import played_main_consolation, snapshot
from tournaments.models import Division

pytestmark = pytest.mark.django_db

TABLE: dict[str, Any] = {
    "mode": "percent",
    "pool": 1000,
    "ties": "split",
    "published": False,
    "flights": {"main": [50, 25, 10, 5], "consolation": [4, 2, 1, 0.5]},
}


@pytest.fixture
def played(division_of: Callable[..., Division], as_director: Actor) -> Division:
    division = division_of("main-consolation", 8, entry_mode="scoresheet", match_length=1)
    return played_main_consolation(division, as_director)


def test_a_director_sets_the_table_and_the_standings_pay_it(played: Division, director: Any, anon: APIClient) -> None:
    client = logged_in(director)
    answer = client.post(division_url(played, "payouts/"), TABLE, format="json")
    assert answer.status_code == 200, answer.content
    body = answer.json()
    assert body["division"] == played.slug and body["mode"] == "percent" and body["pool"] == 1000
    assert body["flights"] == {"main": [50, 25, 10, 5], "consolation": [4, 2, 1, 0.5]}
    assert body["sizes"] == {
        "main": {"players": 8, "known": True, "why": ""},
        "consolation": {"players": 4, "known": True, "why": ""},
    }
    assert client.get(division_url(played, "payouts/")).json() == body, "the read gives what was written"
    rows = {r["name"]: r["prizes"] for r in client.get(division_url(played, "standings/")).json()["rows"]}
    assert rows["P01"] == {"main": "500.00"} and rows["P03"] == {"main": "75.00"}  # 3-4 split (10% + 5%) / 2
    assert rows["P07"] == {"consolation": "7.50"}  # consolation 3-4: (1% + 0.5%) / 2
    again = client.post(division_url(played, "payouts/"), body, format="json")
    assert again.status_code == 200 and again.json() == body, "what is read can be sent back as it is"


def test_the_table_is_private_until_published(played: Division, director: Any, anon: APIClient) -> None:
    client = logged_in(director)
    client.post(division_url(played, "payouts/"), TABLE, format="json")
    hidden = anon.get(division_url(played, "payouts/"))
    assert hidden.status_code == 403 and hidden.json()["code"] == "not_published"
    assert "is not published: its directors see it" in hidden.json()["message"]
    client.post(division_url(played, "payouts/"), {**TABLE, "published": True}, format="json")
    shown = anon.get(division_url(played, "payouts/"))
    assert shown.status_code == 200 and shown.json()["published"] is True
    assert anon.post(division_url(played, "payouts/"), TABLE, format="json").status_code == 401


def test_a_division_without_a_table_reads_the_defaults(played: Division, director: Any) -> None:
    body = logged_in(director).get(division_url(played, "payouts/")).json()
    assert {k: body[k] for k in ("mode", "pool", "ties", "published", "flights")} == {
        "mode": "percent",
        "pool": None,
        "ties": "split",
        "published": False,
        "flights": {},
    }


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        (
            {"flights": {"main": [100], "consolation": [10, 9, 8, 7, 6]}},
            "the consolation: the table pays 5 places but the consolation has 4 players: remove the last 1",
        ),
        ({"flights": {"main": [60, 30], "consolation": [20]}}, "all flights add up to 110, more than 100 of the pool"),
        ({"flights": {"main": [50, -5]}}, "the main flight: place 2 is -5, a negative prize: give 0 or more"),
        ({"flights": {"main": [50.125]}}, "place 1 is 50.125: give at most two decimals"),
        ({"pool": None}, "percentages need a prize pool"),
        ({"flights": {"last-chance": [10]}}, "has no flight last-chance: its flights are main, consolation"),
    ],
)
def test_a_table_the_service_refuses_says_what_to_change_and_stores_nothing(
    changes: dict[str, Any], message: str, played: Division, director: Any
) -> None:
    client = logged_in(director)
    client.post(division_url(played, "payouts/"), TABLE, format="json")
    before = snapshot()
    answer = client.post(division_url(played, "payouts/"), {**TABLE, **changes}, format="json")
    assert answer.status_code == 400, answer.content
    body = answer.json()
    assert body["code"] == "invalid_input" and message in body["message"]
    assert body["message"].startswith("The payout table is not stored: ")
    assert snapshot() == before


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"pool": "1000"}, "pool"),
        ({"pool": True}, "pool"),
        ({"pool": -1}, "pool"),
        ({"pool": 10.005}, "pool"),
        ({"flights": {"main": ["50"]}}, "flights"),
        ({"flights": {"main": [True]}}, "flights"),
        ({"flights": {"main": "50, 30"}}, "flights"),
        ({"mode": "shares"}, "mode"),
        ({"ties": "coin"}, "ties"),
    ],
)
def test_fields_are_strict(changes: dict[str, Any], field: str, played: Division, director: Any) -> None:
    before = snapshot()
    answer = logged_in(director).post(division_url(played, "payouts/"), {**TABLE, **changes}, format="json")
    assert answer.status_code == 400, answer.content
    body = answer.json()
    assert body["code"] == "invalid_input" and set(body["fields"]) == {field}, body
    assert snapshot() == before


def test_only_its_directors_set_it(played: Division, stranger: Any, other_director: Any) -> None:
    before = snapshot()
    for user in (stranger, other_director):
        answer = logged_in(user).post(division_url(played, "payouts/"), TABLE, format="json")
        assert answer.status_code == 403 and answer.json()["code"] == "forbidden"
    assert snapshot() == before


@pytest.mark.parametrize(
    ("table", "words"),
    [
        ({"mode": "amount", "flights": {"main": [1e308]}}, "main flight: place 1 is 1E+308, more than a prize can be"),
        ({"mode": "amount", "flights": {"main": [100, 10000000000]}}, "place 2 is 10000000000, more than"),
    ],
)
def test_a_prize_is_bounded_as_the_pool_is(played: Division, director: Any, table: dict[str, Any], words: str) -> None:
    """``1e308`` was stored, and the payouts CSV printed a 309-digit prize: a prize, like the pool, is at most
    9,999,999,999.99, and the refusal says so."""
    answer = logged_in(director).post(division_url(played, "payouts/"), table, format="json")
    assert answer.status_code == 400, answer.content
    message = answer.json()["message"]
    assert words in message and "at most 9999999999.99" in message, message
    assert Division.objects.get(pk=played.pk).payouts in (None, {}), "nothing stored"


def test_one_prize_per_player_through_the_api(played: Division, director: Any) -> None:
    client = logged_in(director)
    table = {**TABLE, "one_prize": True, "flights": {"main": [40, 20, 10, 10, 2, 2, 2, 2], "consolation": [5, 3, 1, 1]}}
    answer = client.post(division_url(played, "payouts/"), table, format="json")
    assert answer.status_code == 200, answer.content
    assert answer.json()["one_prize"] is True
    rows = {r["name"]: r["prizes"] for r in client.get(division_url(played, "standings/")).json()["rows"]}
    assert rows["P05"] == {"consolation": "50.00"} and rows["P08"] == {"main": "20.00"}, "each keeps the larger"
    assert client.post(division_url(played, "payouts/"), TABLE, format="json").json()["one_prize"] is False
