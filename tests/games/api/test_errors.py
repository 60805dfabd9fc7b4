"""Error answers: one JSON shape ``{code, message, ...}`` with the right status, and nothing written."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from common.actor import SYSTEM
from games import services
from games.access import INVALID_LINK, new_entry_token, revoke_entry_token, token_text
from games.models import Action, Match, Player
from tests.games.api.conftest import logged_in
from tests.games.api.support import Table, actions_url, token_client

pytestmark = pytest.mark.django_db


def post(client: APIClient, match: Match | int, body: dict[str, Any], **headers: str) -> Any:
    match_id = match if isinstance(match, int) else match.pk
    return client.post(actions_url(match_id), body, format="json", headers=headers or None)


def rows(match: Match) -> int:
    return Action.objects.filter(match=match).count()


def test_an_illegal_play_is_refused_with_the_engines_message(match: Match) -> None:
    t = Table(match)
    t.do(0, "opening-roll", dice=[3, 1])
    response = t.post(0, "play", side=0, play="9/6 6/5")
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "illegal_action" and "9-point" in body["message"] and set(body) == {"code", "message"}
    assert rows(match) == 1


@pytest.mark.parametrize(
    ("body", "fields"),
    [
        ({"kind": "opening-roll", "dice": [7, 1], "expected_seq": 0}, {"dice"}),
        ({"kind": "opening-roll", "dice": [3], "expected_seq": 0}, {"dice"}),
        ({"kind": "roll", "side": 2, "dice": [3, 1], "expected_seq": 0}, {"side"}),
        ({"kind": "double", "side": 0}, {"expected_seq"}),
        ({"kind": "resign", "side": 0, "result": "triple", "expected_seq": 0}, {"result"}),
        ({"kind": "game-result", "winner": 0, "result": 1, "cube_value": 0, "expected_seq": 0}, {"cube_value"}),
        ({"kind": "castle", "expected_seq": 0}, {"kind"}),
        ({"side": 0, "expected_seq": 0}, {"kind"}),
        ({"kind": "take", "side": "left", "expected_seq": -1}, {"side", "expected_seq"}),
    ],
)
def test_bad_input_is_a_400_with_field_errors(match: Match, body: dict[str, Any], fields: set[str]) -> None:
    response = post(token_client(match, 0), match, body)
    assert response.status_code == 400
    answer = response.json()
    assert answer["code"] == "invalid_input" and set(answer["fields"]) == fields
    assert any(answer["message"].startswith(f"{field}: ") for field in fields)
    assert rows(match) == 0


def test_a_stale_sequence_number_is_a_409_with_the_current_one(match: Match) -> None:
    t = Table(match)
    t.do(0, "opening-roll", dice=[3, 1])
    t.do(0, "play", side=0, play="8/5 6/5")
    response = post(t.sides[1], match, {"kind": "double", "side": 1, "expected_seq": 1})
    assert response.status_code == 409
    body = response.json()
    assert body["code"] == "stale_sequence" and body["seq"] == 2 and "reload" in body["message"]
    assert rows(match) == 2


def test_an_anonymous_write_is_a_401(match: Match, anon: APIClient) -> None:
    response = post(anon, match, {"kind": "opening-roll", "dice": [3, 1], "expected_seq": 0})
    assert response.status_code == 401
    assert response.json()["code"] == "not_authenticated" and response["WWW-Authenticate"].startswith("Token")
    assert anon.post("/api/matches/", {}, format="json").status_code == 401
    assert rows(match) == 0


def test_a_player_acting_for_the_other_side_is_a_403(match: Match) -> None:
    t = Table(match)
    t.do(0, "opening-roll", dice=[3, 1])
    response = t.post(1, "play", side=0, play="8/5 6/5")
    assert response.status_code == 403
    assert response.json() == {"code": "forbidden", "message": "you can act only for Bob Berg"}
    assert rows(match) == 1


def test_an_entry_link_of_another_match_is_a_403(match: Match, players: tuple[Player, Player]) -> None:
    other = services.start_match(player1=players[0], player2=players[1], length=1)
    response = post(token_client(other, 0), match, {"kind": "opening-roll", "dice": [3, 1], "expected_seq": 0})
    assert response.status_code == 403 and response.json()["code"] == "forbidden"
    assert rows(match) == 0


def test_a_revoked_or_forged_entry_link_is_a_403_with_the_access_message(match: Match) -> None:
    token = new_entry_token(match, 0)
    text = token_text(token)
    revoke_entry_token(token)
    for credential in (text, text[:-3] + "abc", "nonsense"):
        client = APIClient()
        client.credentials(HTTP_X_ENTRY_TOKEN=credential)
        response = post(client, match, {"kind": "opening-roll", "dice": [3, 1], "expected_seq": 0})
        assert response.status_code == 403
        assert response.json() == {
            "code": "forbidden",
            "message": INVALID_LINK,
        }
    assert rows(match) == 0


def test_unknown_matches_and_urls_are_json_404s(match: Match, anon: APIClient, director: Any) -> None:
    for url in ("/api/matches/999/", "/api/matches/999/log/", "/api/matches/999/export.mat", "/api/nothing/here/"):
        response = anon.get(url)
        assert response.status_code == 404 and response.json()["code"] == "not_found", url
    assert anon.get("/api/players/999/").json()["code"] == "not_found"
    response = post(logged_in(director), 999, {"kind": "opening-roll", "dice": [3, 1], "expected_seq": 0})
    assert response.status_code == 404 and response.json() == {"code": "not_found", "message": "there is no match 999"}


def test_wrong_method_is_a_405_in_the_same_shape(match: Match, anon: APIClient) -> None:
    response = anon.delete(f"/api/matches/{match.pk}/")
    assert response.status_code == 405 and response.json()["code"] == "method_not_allowed"


def test_a_retry_with_the_same_key_answers_the_first_body_and_writes_once(match: Match) -> None:
    t = Table(match)
    client = t.sides[0]
    body = {"kind": "opening-roll", "dice": [3, 1], "expected_seq": 0}
    first = post(client, match, body, **{"Idempotency-Key": "k-1"})
    again = post(client, match, body, **{"Idempotency-Key": "k-1"})
    assert (first.status_code, again.status_code) == (201, 200)
    assert again.json() == first.json()
    assert rows(match) == 1

    play = {"kind": "play", "side": 0, "play": "8/5 6/5", "expected_seq": 1, "idempotency_key": "k-2"}
    first = post(client, match, play)
    assert first.status_code == 201
    services.offer_double(match.pk, actor=SYSTEM, side=1, expected_seq=2)  # the match moves on
    late = post(client, match, play)
    assert late.status_code == 200 and late.json() == first.json()
    assert late.json()["state"]["seq"] == 2 and rows(match) == 3

    clash = post(client, match, {**play, "idempotency_key": "k-3"}, **{"Idempotency-Key": "k-4"})
    assert clash.status_code == 400 and set(clash.json()["fields"]) == {"idempotency_key"}


def test_a_key_reused_for_another_request_or_by_the_other_side_is_a_422(match: Match) -> None:
    """A retry with the first request's key but other dice, or the other phone's request under a key its
    opponent used, was answered 200 with the first body, and its own action was dropped without a word."""
    t = Table(match)
    body = {"kind": "opening-roll", "dice": [3, 1], "expected_seq": 0}
    assert post(t.sides[0], match, body, **{"Idempotency-Key": "k-1"}).status_code == 201
    other_dice = post(t.sides[0], match, {**body, "dice": [6, 5]}, **{"Idempotency-Key": "k-1"})
    assert other_dice.status_code == 422, other_dice.json()
    assert other_dice.json()["code"] == "idempotency_key_reused" and other_dice.json()["seq"] == 1
    assert "for a different request" in other_dice.json()["message"]
    play = {"kind": "play", "side": 1, "play": "24/18", "expected_seq": 1}
    other_side = post(t.sides[1], match, play, **{"Idempotency-Key": "k-1"})
    assert other_side.status_code == 422 and "by another sender" in other_side.json()["message"]
    assert rows(match) == 1


def test_an_engine_error_that_escapes_a_service_is_a_400_not_a_500() -> None:
    from engine.errors import IllegalPlayError
    from games.api.exceptions import api_exception_handler

    response = api_exception_handler(IllegalPlayError("5 is blocked"), {})
    assert response is not None and response.status_code == 400
    assert response.data == {"code": "illegal_action", "message": "5 is blocked"}
