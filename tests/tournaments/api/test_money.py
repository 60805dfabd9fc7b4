"""A division's money through the API (``.../money/``, ``.../entries/ID/payment/``, a withdrawal's ``refund``): its
directors set the fees and mark payments with the messages of the director's page (one service); nobody else reads
who paid."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

from common.actor import Actor
from tests.tournaments.api.conftest import logged_in
from tests.tournaments.api.support import division_url
from tests.tournaments.services.support import snapshot
from tournaments.models import Division, Entry

pytestmark = pytest.mark.django_db


@pytest.fixture
def night(division_of: Callable[..., Division]) -> Division:
    return division_of("single", 4, entry_mode="scoresheet", match_length=1)


def entry_url(division: Division, name: str, tail: str) -> str:
    entry = Entry.objects.get(division=division, player__display_name=name)
    return division_url(division, f"entries/{entry.pk}/{tail}")


def test_a_director_sets_the_fees_marks_payments_and_reads_the_pools(night: Division, director: Any) -> None:
    client = logged_in(director)
    fees = {"entry_fee": 5, "side_pool_fee": 10, "house_share": 10, "added_money": 2.5}
    answer = client.post(division_url(night, "money/"), {**fees, "side_pool_prizes": [60, 40]}, format="json")
    assert answer.status_code == 200, answer.content
    for name in ("P01", "P02", "P03"):
        done = client.post(entry_url(night, name, "payment/"), {"fee": "cash"}, format="json")
        assert done.status_code == 200 and done.json()["paid"] == "cash"
    both = client.post(entry_url(night, "P04", "payment/"), {"fee": "transfer", "side_pool": "cash"}, format="json")
    assert both.json() | {"entry": 0} == {
        "entry": 0,
        "name": "P04",
        "paid": "transfer",
        "side_pool": "cash",
        "refunded": False,
    }
    body = client.get(division_url(night, "money/")).json()
    # 4 x 5.00 = 20.00, less 10% = 18.00, plus 2.50 = 20.50; side pool 10.00.
    assert (body["prize_pool"], body["side_pool"], body["house"], body["paid_in"]) == (2050, 1000, 200, 3000)
    assert body["side_pool_prizes"] == ["60", "40"] and body["entry_fee"] == "5.00"
    assert [p["paid"] for p in body["payments"]] == ["cash", "cash", "cash", "transfer"]


def test_a_refund_through_the_api(night: Division, director: Any) -> None:
    client = logged_in(director)
    client.post(division_url(night, "money/"), {"entry_fee": 5}, format="json")
    client.post(entry_url(night, "P02", "payment/"), {"fee": "cash"}, format="json")
    done = client.post(entry_url(night, "P02", "withdraw/"), {"reason": "ill", "refund": True}, format="json")
    assert done.status_code == 200, done.content
    body = client.get(division_url(night, "money/")).json()
    assert (body["paid_in"], body["refunded"], body["prize_pool"]) == (500, 500, 0)
    refused = client.post(entry_url(night, "P01", "withdraw/"), {"refund": True}, format="json")
    assert refused.status_code == 409 and "has paid nothing" in refused.json()["message"]


@pytest.mark.parametrize(
    ("sent", "field"),
    [
        ({"entry_fee": -1}, "entry_fee"),
        ({"house_share": 150}, "house_share"),
        ({"entry_fee": 1e308}, "entry_fee"),
        ({"side_pool_prizes": ["x"]}, "side_pool_prizes"),
    ],
)
def test_bad_fees_are_refused_whole(night: Division, director: Any, sent: dict[str, Any], field: str) -> None:
    before = snapshot()
    answer = logged_in(director).post(division_url(night, "money/"), sent, format="json")
    assert answer.status_code == 400 and field in answer.json()["fields"], answer.content
    assert snapshot() == before


def test_the_services_refusal_says_what_to_change(night: Division, director: Any) -> None:
    answer = logged_in(director).post(division_url(night, "money/"), {"side_pool_prizes": [100]}, format="json")
    assert answer.status_code == 400
    assert "need a side pool" in answer.json()["message"]
    unknown = logged_in(director).post(entry_url(night, "P01", "payment/"), {"fee": "cheque"}, format="json")
    assert unknown.status_code == 400 and "fee" in unknown.json()["fields"]


def test_nobody_else_reads_or_marks_who_paid(
    night: Division, director: Any, stranger: Any, anon: APIClient, as_director: Actor
) -> None:
    logged_in(director).post(division_url(night, "money/"), {"entry_fee": 5}, format="json")
    assert anon.get(division_url(night, "money/")).status_code in (401, 403)
    assert logged_in(stranger).get(division_url(night, "money/")).status_code == 403
    marked = logged_in(stranger).post(entry_url(night, "P01", "payment/"), {"fee": "cash"}, format="json")
    assert marked.status_code == 403
    assert not Entry.objects.filter(division=night).exclude(paid="").exists()
