"""The venue's tables through the API: the list with what each table holds, the tables given, a table held back and
released, a match moved or seated by hand, and each refusal with its code, nothing changed (the same services as
the director's dashboard, tournaments/services/tables.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

from common.actor import Actor
from tests.tournaments.api.conftest import logged_in
from tests.tournaments.api.support import token_client
from tests.tournaments.services.support import director_win
from tournaments import services
from tournaments.models import Division, Event, Pairing, Table

pytestmark = pytest.mark.django_db


def tables_url(event: Event, tail: str = "") -> str:
    return f"/api/events/{event.slug}/tables/{tail}"


def seat_url(pairing: Pairing) -> str:
    return f"/api/pairings/{pairing.pk}/table/"


@pytest.fixture
def room(division_of: Callable[..., Division], as_director: Actor) -> tuple[Division, Division]:
    """One event, two divisions (a 4-player Swiss, a 2-player one), two tables: three matches, one waits."""
    first = division_of("swiss", 4, match_length=1, entry_mode="scoresheet")
    second = division_of("swiss", 2, match_length=1, entry_mode="scoresheet", event=first.event)
    services.set_tables(first.event, actor=as_director, names=["", ""])
    for division in (first, second):
        services.start_division(division, actor=as_director)
    return first, second


def waiting_pairing(event: Event) -> Pairing:
    return Pairing.objects.get(division__event=event, status="ready", table__isnull=True)


def at(event: Event, number: int) -> Pairing:
    return Pairing.objects.select_related("entry_a").get(division__event=event, table__number=number)


def venue_rows(event: Event) -> list[tuple[int, int, bool, int | None]]:
    """(table, number, held, its pairing) for every table: what a refusal must leave as it was."""
    tables = Table.objects.filter(event=event).order_by("number").values_list("pk", "number", "held")
    holds = dict(Pairing.objects.filter(table__event=event).values_list("table_id", "pk"))
    return [(pk, number, held, holds.get(pk)) for pk, number, held in tables]


def test_the_list_says_what_each_table_holds_and_the_queue(
    room: tuple[Division, Division], director: Any, as_director: Actor
) -> None:
    first, _second = room
    event = first.event
    client = logged_in(director)
    answer = client.get(tables_url(event))
    assert answer.status_code == 200
    venue = answer.json()
    assert venue["tables_given"] is True
    assert [(t["number"], t["label"], t["held"], t["state"]) for t in venue["tables"]] == [
        (1, "Table 1", False, "called"),
        (2, "Table 2", False, "called"),
    ]
    one = venue["tables"][0]
    assert one["pairing"]["id"] == at(event, 1).pk and one["pairing"]["table"] == 1
    assert one["pairing"]["called_at"] is not None and one["division"] == first.slug
    assert one["pairing"]["a"]["name"] and one["pairing"]["match"] == at(event, 1).match_id
    waiting = waiting_pairing(event)
    assert [(q["division"], q["pairing"]["id"], q["pairing"]["table"]) for q in venue["queue"]] == [
        (waiting.division.slug, waiting.pk, None)
    ]

    # A result frees table 1 (a Swiss match of the first division): the waiting match is called to it.
    director_win(at(event, 1), at(event, 1).entry_a, as_director)
    venue = client.get(tables_url(event)).json()
    assert venue["queue"] == []
    assert venue["tables"][0]["pairing"]["id"] == waiting.pk and venue["tables"][0]["state"] == "called"


def test_the_director_gives_the_tables(room: tuple[Division, Division], director: Any) -> None:
    event = room[0].event
    client = logged_in(director)
    waiting = waiting_pairing(event)
    named = client.post(tables_url(event), {"names": ["", "", "Feature table"]}, format="json")
    assert named.status_code == 200
    assert [t["label"] for t in named.json()["tables"]] == ["Table 1", "Table 2", "Feature table"]
    assert named.json()["tables"][2]["pairing"]["id"] == waiting.pk, "the waiting match takes the new table"
    assert named.json()["queue"] == []

    counted = client.post(tables_url(event), {"count": 4}, format="json")
    assert counted.status_code == 200
    assert [(t["number"], t["name"], t["state"]) for t in counted.json()["tables"]] == [
        (1, "", "called"),
        (2, "", "called"),
        (3, "", "called"),
        (4, "", "free"),
    ]
    needed = client.post(tables_url(event), {"as_needed": True}, format="json")
    assert needed.status_code == 200 and needed.json()["tables_given"] is False
    assert len(needed.json()["tables"]) == 4, "the tables so far are kept"


@pytest.mark.parametrize(
    ("data", "field", "says"),
    [
        ({}, "non_field_errors", 'send exactly one of "count"'),
        ({"count": 2, "names": ["A", "B"]}, "non_field_errors", 'send exactly one of "count"'),
        ({"count": "3"}, "count", "expected an integer"),
        ({"count": 3.0}, "count", "expected an integer"),
        ({"count": 0}, "count", "greater than or equal to 1"),
        ({"count": 501}, "count", "less than or equal to 500"),
        ({"names": []}, "names", "give at least one table"),
        ({"names": [""] * 501}, "names", "give at most 500 tables"),
        ({"names": "Feature table"}, "names", "list"),
        ({"names": ["x" * 61]}, "names", "no more than 60 characters"),
        ({"as_needed": False}, "as_needed", "only true"),
    ],
)
def test_bad_tables_are_refused_saying_what_is_wrong(
    room: tuple[Division, Division], director: Any, data: dict[str, Any], field: str, says: str
) -> None:
    event = room[0].event
    before = venue_rows(event)
    answer = logged_in(director).post(tables_url(event), data, format="json")
    assert answer.status_code == 400, answer.content
    body = answer.json()
    assert body["code"] == "invalid_input" and says in str(body["fields"][field]), body
    assert venue_rows(event) == before


def test_tables_the_services_refuse_change_nothing(room: tuple[Division, Division], director: Any) -> None:
    event = room[0].event
    client = logged_in(director)
    before = venue_rows(event)
    twice = client.post(tables_url(event), {"names": ["Feature table", "Feature table"]}, format="json")
    assert twice.status_code == 400 and twice.json()["code"] == "invalid_input"
    assert "Each table needs its own name: Feature table twice." in twice.json()["message"]
    fewer = client.post(tables_url(event), {"count": 1}, format="json")
    assert fewer.status_code == 409 and fewer.json()["code"] == "table_occupied"
    assert "Table(s) 2 hold a match: move it to another table first" in fewer.json()["message"]
    assert venue_rows(event) == before


def test_a_table_is_held_back_and_released(room: tuple[Division, Division], director: Any, as_director: Actor) -> None:
    event = room[0].event
    client = logged_in(director)
    services.set_tables(event, actor=as_director, names=["", "", ""])  # the waiting match takes table 3
    seated = at(event, 3)
    held = client.post(tables_url(event, "3/hold/"), format="json")
    assert held.status_code == 200
    assert (held.json()["number"], held.json()["held"], held.json()["state"]) == (3, True, "called")
    assert held.json()["pairing"]["id"] == seated.pk, "a match already there stays"
    again = client.post(tables_url(event, "3/hold/"), format="json")
    assert again.status_code == 409 and again.json() == {
        "code": "conflict",
        "message": "Table 3 is already held back: nothing was changed.",
    }
    unknown = client.post(tables_url(event, "9/hold/"), format="json")
    assert unknown.status_code == 404 and unknown.json()["code"] == "unknown_table"
    assert unknown.json()["message"] == "There is no table 9: the venue's tables are 1 to 3."

    # The match at the held table finishes: nothing is sent there until the table is released.
    director_win(seated, seated.entry_a, as_director)
    assert not Pairing.objects.filter(table__event=event, table__number=3).exists()
    released = client.post(tables_url(event, "3/release/"), format="json")
    assert released.status_code == 200 and released.json()["held"] is False
    not_held = client.post(tables_url(event, "3/release/"), format="json")
    assert not_held.status_code == 409 and "Table 3 is not held back" in not_held.json()["message"]


def test_a_match_waiting_is_seated_by_hand_and_a_match_moved(
    room: tuple[Division, Division], director: Any, as_director: Actor
) -> None:
    event = room[0].event
    client = logged_in(director)
    services.hold_table(event, 2, actor=as_director)
    director_win(at(event, 2), at(event, 2).entry_a, as_director)  # table 2 frees, held back: the queue waits
    waiting = waiting_pairing(event)
    before = venue_rows(event)
    occupied = client.post(seat_url(waiting), {"table": 1}, format="json")
    assert occupied.status_code == 409 and occupied.json()["code"] == "table_occupied"
    assert occupied.json()["message"].startswith("Table 1 holds another match (")
    unknown = client.post(seat_url(waiting), {"table": 7}, format="json")
    assert unknown.status_code == 404 and unknown.json()["code"] == "unknown_table"
    assert unknown.json()["message"] == "There is no table 7: the venue's tables are 1 to 2."
    text = client.post(seat_url(waiting), {"table": "2"}, format="json")
    assert text.status_code == 400 and "expected an integer" in str(text.json()["fields"]["table"])
    assert venue_rows(event) == before

    seated = client.post(seat_url(waiting), {"table": 2}, format="json")  # a held table takes a match by hand
    assert seated.status_code == 200
    assert (seated.json()["id"], seated.json()["table"], seated.json()["table_name"]) == (waiting.pk, 2, "Table 2")
    assert seated.json()["called_at"] is not None

    services.set_tables(event, actor=as_director, names=["", "", "Feature table"])
    moving = at(event, 1)
    moved = client.post(seat_url(moving), {"table": 3}, format="json")
    assert moved.status_code == 200 and (moved.json()["table"], moved.json()["table_name"]) == (3, "Feature table")
    assert not Pairing.objects.filter(table__event=event, table__number=1).exists(), "its former table is free"


def test_a_match_not_ready_gets_no_table(room: tuple[Division, Division], director: Any, as_director: Actor) -> None:
    event = room[0].event
    done = director_win(at(event, 1), at(event, 1).entry_a, as_director)
    assert done.status == Pairing.Status.FINISHED and done.table_id is None
    before = venue_rows(event)
    refused = logged_in(director).post(seat_url(done), {"table": 1}, format="json")
    assert refused.status_code == 409 and refused.json()["code"] == "match_not_ready"
    assert "Only a match ready or being played sits at a table" in refused.json()["message"]
    assert venue_rows(event) == before


def test_only_the_events_directors_run_its_tables(
    room: tuple[Division, Division], stranger: Any, other_director: Any, staff: Any, anon: APIClient
) -> None:
    event = room[0].event
    seated = at(event, 1)
    before = venue_rows(event)
    for client, status in (
        (anon, 401),
        (logged_in(stranger), 403),
        (logged_in(other_director), 403),
        (token_client(seated.match_id, 0), 403),
    ):
        assert client.get(tables_url(event)).status_code == status
        assert client.post(tables_url(event), {"count": 5}, format="json").status_code == status
        assert client.post(tables_url(event, "1/hold/"), format="json").status_code == status
        assert client.post(seat_url(seated), {"table": 2}, format="json").status_code == status
    assert venue_rows(event) == before
    assert logged_in(staff).get(tables_url(event)).status_code == 200
