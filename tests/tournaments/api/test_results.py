"""Answering for a result (confirm, dispute) with an entry link or an account, and the directors' forfeits."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

from common.actor import Actor
from games import services as games
from games.models import Match
from tests.tournaments.api.conftest import logged_in
from tests.tournaments.api.support import division_url, enter_result, token_client
from tournaments import services
from tournaments.models import Division, Event, Pairing

pytestmark = pytest.mark.django_db


@pytest.fixture
def awaiting(running: Division) -> Pairing:
    """P01 v P03 (table 1): P01, side a, entered his win; P03 (side b) is asked to confirm."""
    pairing = enter_result(Pairing.objects.get(division=running, key="swiss-1-1"), winner=0)
    assert (pairing.confirmation, pairing.confirmation_side) == ("awaiting", 1)
    return pairing


def confirm(client: APIClient, pairing: Pairing) -> Any:
    return client.post(f"/api/pairings/{pairing.pk}/confirm/", {}, format="json")


def dispute(client: APIClient, pairing: Pairing, reason: str = "I won game 1") -> Any:
    return client.post(f"/api/pairings/{pairing.pk}/dispute/", {"reason": reason}, format="json")


def test_the_opponent_confirms_with_his_entry_link(awaiting: Pairing, anon: APIClient) -> None:
    answer = confirm(token_client(awaiting.match_id, 1), awaiting)
    assert answer.status_code == 200, answer.json()
    body = answer.json()
    assert (body["id"], body["confirmation"], body["status"]) == (awaiting.pk, "confirmed", "finished")
    assert body["winner"] == awaiting.entry_a_id and body["score"] == [1, 0]
    standings = anon.get(division_url(awaiting.division, "standings/")).json()
    assert standings["standings_status"] == "pending"  # the follow-up runs after the commit


@pytest.mark.parametrize(
    ("who", "status"),
    [("own side", 403), ("other match", 403), ("anonymous", 401), ("user", 403), ("other director", 403)],
)
def test_only_the_player_asked_or_a_director_confirms(
    who: str, status: int, awaiting: Pairing, stranger: Any, other_director: Any
) -> None:
    other = Pairing.objects.get(division=awaiting.division, key="swiss-1-2")
    client = {
        "own side": lambda: token_client(awaiting.match_id, 0),
        "other match": lambda: token_client(other.match_id, 1),
        "anonymous": APIClient,
        "user": lambda: logged_in(stranger),
        "other director": lambda: logged_in(other_director),
    }[who]()
    answer = confirm(client, awaiting)
    assert answer.status_code == status, answer.json()
    assert Pairing.objects.get(pk=awaiting.pk).confirmation == "awaiting"


@pytest.mark.parametrize("who", ["director", "staff"])
def test_a_director_confirms(who: str, awaiting: Pairing, request: pytest.FixtureRequest) -> None:
    answer = confirm(logged_in(request.getfixturevalue(who)), awaiting)
    assert answer.status_code == 200 and answer.json()["confirmation"] == "confirmed"
    again = confirm(logged_in(request.getfixturevalue(who)), awaiting)
    assert again.status_code == 409 and again.json()["code"] == "conflict"


def test_a_player_confirms_from_his_account(as_director: Actor, django_user_model: Any) -> None:
    pia = django_user_model.objects.create_user("pia", password=None)
    event = services.create_event(actor=as_director, name="Club night")
    division = services.create_division(
        event, actor=as_director,
        settings=services.DivisionSettings(name="Open", format="single", entry_mode="scoresheet", match_length=1),
    )  # fmt: skip
    services.register_player(division, actor=as_director, name="Ola", rating=1800)
    services.register_player(division, actor=as_director, player=games.create_player(display_name="Pia", user=pia))
    services.start_division(division, actor=as_director)
    pairing = enter_result(Pairing.objects.get(division=division, key="main-1-0"), winner=0)
    assert pairing.confirmation_side == 1  # Pia, side b
    answer = confirm(logged_in(pia), pairing)
    assert answer.status_code == 200 and answer.json()["confirmation"] == "confirmed"
    assert answer.json()["status"] == "finished"


def test_the_player_asked_disputes_and_a_director_decides(awaiting: Pairing, director: Any) -> None:
    assert dispute(token_client(awaiting.match_id, 0), awaiting).status_code == 403  # who entered it
    assert dispute(logged_in(director), awaiting).status_code == 403  # a director decides, he does not dispute
    blank = dispute(token_client(awaiting.match_id, 1), awaiting, reason="")
    assert blank.status_code == 400 and set(blank.json()["fields"]) == {"reason"}
    answer = dispute(token_client(awaiting.match_id, 1), awaiting)
    assert answer.status_code == 200 and answer.json()["confirmation"] == "disputed"
    [item] = logged_in(director).get(f"/api/events/{awaiting.division.event.slug}/queue/").json()
    assert item["dispute"] == "I won game 1" and item["pairing"]["id"] == awaiting.pk
    refused = confirm(token_client(awaiting.match_id, 1), awaiting)
    assert refused.status_code == 403 and "director decides" in refused.json()["message"]
    decided = confirm(logged_in(director), awaiting)
    assert decided.status_code == 200 and decided.json()["confirmation"] == "confirmed"
    assert logged_in(director).get(f"/api/events/{awaiting.division.event.slug}/queue/").json() == []


def test_in_a_private_event_a_link_answers_for_its_own_pairing_only(
    private_event: Event, division_of: Callable[..., Division], as_director: Actor
) -> None:
    division = division_of("swiss", 4, event=private_event, entry_mode="scoresheet", match_length=1, rounds_planned=2)
    services.start_division(division, actor=as_director)
    mine = enter_result(Pairing.objects.get(division=division, key="swiss-1-1"), winner=0)
    theirs = Pairing.objects.get(division=division, key="swiss-1-2")
    hidden = confirm(token_client(theirs.match_id, 1), mine)
    assert hidden.status_code == 404 and hidden.json()["code"] == "not_found"
    assert confirm(APIClient(), mine).status_code == 401
    assert confirm(token_client(mine.match_id, 1), mine).status_code == 200


def test_a_director_awards_a_forfeit(running: Division, director: Any) -> None:
    pairing = Pairing.objects.get(division=running, key="swiss-1-2")
    body = {"loser": pairing.entry_b_id, "kind": "no-show", "reason": "not there after 30 minutes"}
    answer = logged_in(director).post(f"/api/pairings/{pairing.pk}/forfeit/", body, format="json")
    assert answer.status_code == 200, answer.json()
    result = answer.json()
    assert (result["status"], result["winner"], result["decision"]) == (
        "finished",
        pairing.entry_a_id,
        "forfeit-no-show",
    )
    assert result["decision_reason"] == "not there after 30 minutes" and result["confirmation"] == ""
    assert Match.objects.get(pk=pairing.match_id).status == Match.Status.FORFEITED


@pytest.mark.parametrize(("who", "status"), [("anonymous", 401), ("link", 403), ("user", 403), ("other", 403)])
def test_only_directors_award_forfeits(
    who: str, status: int, running: Division, stranger: Any, other_director: Any
) -> None:
    pairing = Pairing.objects.get(division=running, key="swiss-1-2")
    client = {
        "anonymous": APIClient,
        "link": lambda: token_client(pairing.match_id, 0),
        "user": lambda: logged_in(stranger),
        "other": lambda: logged_in(other_director),
    }[who]()
    body = {"loser": pairing.entry_b_id, "kind": "penalty", "reason": "slow play"}
    assert client.post(f"/api/pairings/{pairing.pk}/forfeit/", body, format="json").status_code == status
    assert Pairing.objects.get(pk=pairing.pk).status == "ready"


def test_a_forfeit_names_a_player_of_the_pairing(
    running: Division, director: Any, division_of: Callable[..., Division]
) -> None:
    pairing = Pairing.objects.get(division=running, key="swiss-1-2")
    client = logged_in(director)
    url = f"/api/pairings/{pairing.pk}/forfeit/"
    elsewhere = division_of("single", 2).entries.first()
    outside = client.post(url, {"loser": elsewhere.pk, "kind": "no-show", "reason": "x"}, format="json")
    assert outside.status_code == 400 and set(outside.json()["fields"]) == {"loser"}
    not_here = running.entries.get(seed=1)  # plays table 1
    refused = client.post(url, {"loser": not_here.pk, "kind": "no-show", "reason": "x"}, format="json")
    assert refused.status_code == 400 and "does not play this match" in refused.json()["message"]
    kind = client.post(url, {"loser": pairing.entry_b_id, "kind": "nap", "reason": "x"}, format="json")
    assert kind.status_code == 400 and set(kind.json()["fields"]) == {"kind"}
    assert Pairing.objects.get(pk=pairing.pk).status == "ready"


def test_withdrawing_a_player_forfeits_his_open_match(running: Division, director: Any) -> None:
    pairing = Pairing.objects.get(division=running, key="swiss-1-1")
    url = division_url(running, f"entries/{pairing.entry_b_id}/withdraw/")
    assert logged_in(director).post(url, {"reason": "flight"}, format="json").status_code == 200
    pairing.refresh_from_db()
    assert (pairing.status, pairing.winner_id, pairing.decision) == (
        "finished",
        pairing.entry_a_id,
        "forfeit-withdrawal",
    )
