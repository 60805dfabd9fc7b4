"""Playoffs for ties through the API (``.../playoffs/``): anyone who sees the division reads its ties that matter
and its playoffs (no entry-link secret in them); its directors order one and cancel an unplayed one, with the
service's refusals as JSON errors that store nothing. Each playoff match says its result's confirmation; a director
(or the player asked) confirms it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

import games.services
from common.actor import Actor
from games.models import Match
from tests.tournaments.api.conftest import logged_in
from tests.tournaments.api.support import division_url
from tests.tournaments.services.support import link, snapshot
from tests.tournaments.services.test_playoffs import swiss_with_a_paid_tie, win
from tournaments import services
from tournaments.models import Division, Playoff

pytestmark = pytest.mark.django_db


@pytest.fixture
def tied(division_of: Callable[..., Division], as_director: Actor) -> Division:
    return swiss_with_a_paid_tie(division_of, as_director)


def test_the_ties_are_read_a_playoff_ordered_played_and_said(
    tied: Division, director: Any, anon: APIClient, as_director: Actor
) -> None:
    url = division_url(tied, "playoffs/")
    body = anon.get(url).json()
    assert body["division"] == tied.slug and body["rule"].startswith("A three-player playoff is a stepladder")
    (tie,) = body["ties"]
    assert (tie["kind"], tie["place"], tie["last"], tie["orderable"], tie["playoff"]) == ("places", 2, 3, True, None)
    assert body["playoffs"] == []

    answer = logged_in(director).post(url, {"entries": tie["entries"][::-1], "length": 3}, format="json")
    assert answer.status_code == 201, answer.content
    made = answer.json()
    assert (made["kind"], made["place"], made["length"], made["status"]) == ("places", 2, 3, "ordered")
    assert made["entries"] == tie["entries"] and made["names"] == tie["names"] and made["order"] == []
    (match,) = made["matches"]
    assert match["players"] == tie["names"] and match["score"] == [0, 0] and match["winner"] is None
    read = anon.get(url)
    assert read.json()["ties"][0]["playoff"] == made["id"] and read.json()["playoffs"] == [made]
    assert "/play/" not in read.content.decode()

    win(Playoff.objects.get().final_match, tie["entries"][1], as_director)
    (played,) = anon.get(url).json()["playoffs"]
    assert played["status"] == "finished" and played["order"] == tie["entries"][::-1]
    loser, winner = tie["names"]
    assert played["words"] == f"Tie at 2nd settled by a playoff: {winner} beat {loser} 3-0."
    assert anon.get(url).json()["ties"] == []
    rows = anon.get(division_url(tied, "standings/")).json()["rows"]
    assert [r["name"] for r in rows if r["rank"] in (2, 3)] == [winner, loser]


@pytest.mark.parametrize(
    ("sent", "field"),
    [
        ({"entries": [1]}, "entries"),
        ({"entries": [1, 2, 3, 4]}, "entries"),
        ({"entries": ["a", "b"]}, "entries"),
        ({"entries": [1, 2], "length": 0}, "length"),
        ({"entries": [1, 2], "length": "3"}, "length"),
        ({}, "entries"),
    ],
)
def test_fields_are_strict(tied: Division, director: Any, sent: dict[str, Any], field: str) -> None:
    before = snapshot()
    answer = logged_in(director).post(division_url(tied, "playoffs/"), sent, format="json")
    assert answer.status_code == 400 and answer.json()["code"] == "invalid_input"
    assert field in answer.json()["fields"], answer.json()
    assert snapshot() == before


def test_refusals_are_json_errors_that_store_nothing(
    tied: Division, director: Any, anon: APIClient, stranger: Any
) -> None:
    url = division_url(tied, "playoffs/")
    entries = anon.get(url).json()["ties"][0]["entries"]
    before = snapshot()
    assert anon.post(url, {"entries": entries}, format="json").status_code == 401
    forbidden = logged_in(stranger).post(url, {"entries": entries}, format="json")
    assert forbidden.status_code == 403 and forbidden.json()["code"] == "forbidden"
    wrong = logged_in(director).post(url, {"entries": [entries[0], entries[0] + 100]}, format="json")
    assert wrong.status_code == 400 and "are not the players of one tie that matters" in wrong.json()["message"]
    assert snapshot() == before and not Playoff.objects.exists()
    logged_in(director).post(url, {"entries": entries}, format="json")
    again = logged_in(director).post(url, {"entries": entries}, format="json")
    assert again.status_code == 409 and "has a playoff already" in again.json()["message"]


def test_a_director_cancels_an_unplayed_playoff(tied: Division, director: Any, anon: APIClient) -> None:
    url = division_url(tied, "playoffs/")
    entries = anon.get(url).json()["ties"][0]["entries"]
    made = logged_in(director).post(url, {"entries": entries}, format="json").json()
    assert anon.delete(f"{url}{made['id']}/").status_code == 401
    missing = logged_in(director).delete(f"{url}{made['id'] + 1}/")
    assert missing.status_code == 404 and f"there is no playoff {made['id'] + 1} in" in missing.json()["message"]
    gone = logged_in(director).delete(f"{url}{made['id']}/")
    assert gone.status_code == 204 and not Playoff.objects.exists()
    assert anon.get(url).json()["ties"][0]["playoff"] is None


def test_a_playoff_matchs_confirmation_is_read_and_a_director_confirms_it(
    tied: Division, director: Any, anon: APIClient, stranger: Any
) -> None:
    url = division_url(tied, "playoffs/")
    entries = anon.get(url).json()["ties"][0]["entries"]
    made = logged_in(director).post(url, {"entries": entries}, format="json").json()
    (shown,) = made["matches"]
    assert (shown["confirmation"], shown["waiting_for"], shown["dispute"]) == ("", "", "")
    match = Match.objects.get(pk=shown["match"])
    games.services.record_game_result(match.pk, actor=link(match, 0), winner=0, kind=1, cube_value=1, expected_seq=0)
    services.sync_division(tied.pk)
    (playoff,) = anon.get(url).json()["playoffs"]
    (shown,) = playoff["matches"]
    asked = match.player2.display_name
    assert (shown["confirmation"], shown["waiting_for"], playoff["status"]) == ("awaiting", asked, "ordered")
    assert shown["words"].endswith(f", waiting for {asked}'s confirmation")

    confirm = f"{url}{playoff['id']}/matches/{match.pk}/confirm/"
    before = snapshot()
    assert anon.post(confirm).status_code == 401
    forbidden = logged_in(stranger).post(confirm)
    assert forbidden.status_code == 403 and f"only {asked} or a director can answer" in forbidden.json()["message"]
    missing = logged_in(director).post(f"{url}{playoff['id']}/matches/{match.pk + 100}/confirm/")
    assert missing.status_code == 404 and f"has no match {match.pk + 100}" in missing.json()["message"]
    assert snapshot() == before
    done = logged_in(director).post(confirm)
    assert done.status_code == 200, done.content
    assert done.json()["status"] == "finished" and done.json()["matches"][0]["confirmation"] == "confirmed"
    again = logged_in(director).post(confirm)
    assert again.status_code == 409 and "not waiting for a confirmation" in again.json()["message"]
