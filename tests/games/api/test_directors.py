"""Director actions (corrections and decisions) and entry links: directors only, every change a log row."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from common.actor import SYSTEM
from games import services
from games.models import Action, EntryToken, Match, Player
from tests.games.api.conftest import logged_in
from tests.games.api.support import Table, actions_url

pytestmark = pytest.mark.django_db


def url(match: Match, what: str) -> str:
    return f"/api/matches/{match.pk}/{what}/"


def test_undo_takes_back_the_last_action_with_a_reason(match: Match, director: Any) -> None:
    t = Table(match)
    t.do(0, "opening-roll", dice=[3, 1])
    t.do(0, "play", side=0, play="8/5 6/5")
    client = logged_in(director)
    missing = client.post(url(match, "undo"), {}, format="json")
    assert missing.status_code == 400 and set(missing.json()["fields"]) == {"reason"}
    stale = client.post(url(match, "undo"), {"reason": "wrong checker", "expected_seq": 1}, format="json")
    assert stale.status_code == 409 and stale.json()["seq"] == 2
    response = client.post(url(match, "undo"), {"reason": "wrong checker", "expected_seq": 2}, format="json")
    assert response.status_code == 201
    row, state = response.json()["action"], response.json()["state"]
    assert (row["kind"], row["undoes"], row["reason"], row["entered_by"]) == ("correction", 2, "wrong checker", "dora")
    assert (state["seq"], state["phase"], state["dice"]) == (3, "move", [3, 1])
    t.seq = 3
    t.do(0, "play", side=0, play="24/21 6/5")


def test_players_and_strangers_cannot_direct(match: Match, stranger: Any) -> None:
    t = Table(match)
    t.do(0, "opening-roll", dice=[3, 1])
    for client in (t.sides[0], logged_in(stranger)):
        for what, body in (
            ("undo", {"reason": "x", "expected_seq": 1}),
            ("void", {"reason": "x", "expected_seq": 1}),
            ("forfeit", {"loser_side": 0, "reason": "x", "expected_seq": 1}),
        ):
            response = client.post(url(match, what), body, format="json")
            assert response.status_code == 403, what
            assert response.json() == {"code": "forbidden", "message": "only a director of this match can do that"}
    assert APIClient().post(url(match, "void"), {"reason": "x", "expected_seq": 1}, format="json").status_code == 401
    assert Action.objects.filter(match=match).count() == 1


def test_forfeit_then_reopen(match: Match, director: Any) -> None:
    client = logged_in(director)
    response = client.post(
        url(match, "forfeit"), {"loser_side": 1, "reason": "no-show", "expected_seq": 0}, format="json"
    )
    assert response.status_code == 201
    assert response.json()["action"]["kind"] == "forfeit"
    detail = client.get(f"/api/matches/{match.pk}/").json()
    assert (detail["status"], detail["winner"], detail["score"]) == ("forfeited", match.player1_id, [3, 0])
    response = client.post(
        url(match, "reopen"), {"reason": "arrived late, TD allowed", "expected_seq": 1}, format="json"
    )
    assert response.status_code == 201 and response.json()["state"]["status"] == "scheduled"
    again = client.post(url(match, "reopen"), {"reason": "again", "expected_seq": 2}, format="json")
    assert again.status_code == 409 and again.json()["code"] == "conflict"


def test_void_closes_the_match(match: Match, director: Any) -> None:
    client = logged_in(director)
    response = client.post(url(match, "void"), {"reason": "wrong pairing", "expected_seq": 0}, format="json")
    assert response.status_code == 201 and response.json()["state"]["status"] == "void"
    blocked = Table(match).post(0, "opening-roll", dice=[3, 1], expected_seq=1)
    assert blocked.status_code == 409 and blocked.json()["code"] == "match_closed"


def test_finish_ends_a_money_session_only(players: tuple[Player, Player], director: Any, match: Match) -> None:
    money = services.start_match(player1=players[0], player2=players[1], length=0, created_by=director)
    client = logged_in(director)
    response = client.post(url(money, "finish"), {"expected_seq": 0}, format="json")
    assert response.status_code == 201 and response.json()["action"]["reason"] == "session ended"
    refused = client.post(url(match, "finish"), {"reason": "bored", "expected_seq": 0}, format="json")
    assert refused.status_code == 409 and "reaches N" in refused.json()["message"]


def test_replace_a_scoresheet_result(players: tuple[Player, Player], director: Any) -> None:
    match = services.start_match(
        player1=players[0], player2=players[1], length=5, entry_mode="scoresheet", created_by=director
    )
    services.record_game_result(match.pk, actor=SYSTEM, winner=0, kind=1, expected_seq=0)
    services.record_game_result(match.pk, actor=SYSTEM, winner=1, kind=2, cube_value=2, expected_seq=1)
    client = logged_in(director)
    body = {"game": 1, "winner": 1, "result": "single", "cube_value": 1, "reason": "sheet misread", "expected_seq": 2}
    response = client.post(url(match, "replace-result"), body, format="json")
    assert response.status_code == 201
    assert response.json()["state"]["score"] == [0, 5] and response.json()["state"]["status"] == "finished"
    unknown = client.post(url(match, "replace-result"), {**body, "game": 9, "expected_seq": 3}, format="json")
    assert unknown.status_code == 404


def test_entry_links_are_for_directors_only(match: Match, director: Any, stranger: Any, anon: APIClient) -> None:
    client = logged_in(director)
    created = client.post(url(match, "entry-links"), {"side": 1}, format="json")
    assert created.status_code == 201
    link = created.json()
    assert link["side"] == 1 and link["token"] and link["revoked_at"] is None
    assert client.post(url(match, "entry-links"), {"side": 3}, format="json").status_code == 400

    player = APIClient()
    player.credentials(HTTP_X_ENTRY_TOKEN=link["token"])
    assert player.get(f"/api/matches/{match.pk}/").status_code == 200
    for other in (player, logged_in(stranger)):
        assert other.get(url(match, "entry-links")).status_code == 403
        assert other.post(url(match, "entry-links"), {"side": 0}, format="json").status_code == 403
    assert anon.get(url(match, "entry-links")).status_code == 401

    listed = client.get(url(match, "entry-links")).json()
    assert [(x["id"], x["token"]) for x in listed] == [(link["id"], link["token"])]
    revoked = client.post(f"/api/matches/{match.pk}/entry-links/{link['id']}/revoke/")
    assert revoked.status_code == 200 and revoked.json()["revoked_at"] and revoked.json()["token"] is None
    assert EntryToken.objects.get(pk=link["id"]).revoked_at is not None
    body = {"kind": "opening-roll", "dice": [3, 1], "expected_seq": 0}
    assert player.post(actions_url(match.pk), body, format="json").status_code == 403
    assert client.post(f"/api/matches/{match.pk}/entry-links/999/revoke/").status_code == 404


def test_the_log_never_shows_entry_link_texts(match: Match, anon: APIClient) -> None:
    t = Table(match)
    t.do(1, "opening-roll", dice=[1, 3])
    text = t.sides[1]._credentials["HTTP_X_ENTRY_TOKEN"]
    log = anon.get(f"/api/matches/{match.pk}/log/")
    assert text not in log.content.decode() and text.split(":")[-1] not in log.content.decode()
    assert log.json()["results"][0]["entered_by"] == "entry link side 1"


def test_a_retry_after_the_action_was_undone_still_answers_the_first_body(match: Match, director: Any) -> None:
    t = Table(match)
    t.do(0, "opening-roll", dice=[3, 1])
    body = {"kind": "play", "side": 0, "play": "8/5 6/5", "expected_seq": 1, "idempotency_key": "phone-7"}
    first = t.sides[0].post(actions_url(match.pk), body, format="json")
    assert first.status_code == 201
    undone = logged_in(director).post(url(match, "undo"), {"reason": "wrong checker", "expected_seq": 2}, format="json")
    assert undone.status_code == 201 and undone.json()["state"]["phase"] == "move"
    retry = t.sides[0].post(actions_url(match.pk), body, format="json")
    assert retry.status_code == 200 and retry.json() == first.json()
    assert Action.objects.filter(match=match).count() == 3


def test_a_correction_names_its_seq_or_a_key_and_a_blind_retry_corrects_once(match: Match, director: Any) -> None:
    t = Table(match)
    t.do(0, "opening-roll", dice=[3, 1])
    t.do(0, "play", side=0, play="8/5 6/5")
    client = logged_in(director)
    for what in ("undo", "void", "reopen", "forfeit", "finish", "replace-result"):
        body = {"reason": "x", "loser_side": 0, "game": 1, "winner": 0, "result": "single"}
        blind = client.post(url(match, what), body, format="json")
        assert blind.status_code == 400, (what, blind.json())
        assert "idempotency key" in blind.json()["fields"]["expected_seq"][0]
    first = client.post(url(match, "undo"), {"reason": "wrong checker"}, format="json", HTTP_IDEMPOTENCY_KEY="u-1")
    again = client.post(url(match, "undo"), {"reason": "wrong checker"}, format="json", HTTP_IDEMPOTENCY_KEY="u-1")
    assert (first.status_code, again.status_code) == (201, 200) and again.json() == first.json()
    assert Match.objects.get(pk=match.pk).seq == 3  # undone once, not twice
    other = client.post(url(match, "undo"), {"reason": "another"}, format="json", HTTP_IDEMPOTENCY_KEY="u-1")
    assert other.status_code == 422 and other.json()["code"] == "idempotency_key_reused"
    stale = client.post(url(match, "undo"), {"reason": "wrong checker", "expected_seq": 2}, format="json")
    assert stale.status_code == 409  # a retry with the seq it was decided on is refused, not applied again


def test_undoing_a_replaced_result_restores_what_it_replaced(players: tuple[Player, Player], director: Any) -> None:
    match = services.start_match(
        player1=players[0], player2=players[1], length=5, entry_mode="scoresheet", created_by=director
    )
    services.record_game_result(match.pk, actor=SYSTEM, winner=0, kind=2, expected_seq=0)  # 2-0
    client = logged_in(director)
    body = {"game": 1, "winner": 1, "result": "single", "reason": "sheet misread", "expected_seq": 1}
    replaced = client.post(url(match, "replace-result"), body, format="json")
    assert replaced.status_code == 201 and replaced.json()["state"]["score"] == [0, 1]
    undone = client.post(url(match, "undo"), {"reason": "the sheet was right", "expected_seq": 2}, format="json")
    assert undone.status_code == 201, undone.json()
    assert undone.json()["state"]["score"] == [2, 0]  # the original gammon, not an empty game 1
    assert [
        (g["number"], g["winner_side"]) for g in client.get(f"/api/matches/{match.pk}/games/").json()["results"]
    ] == [(1, 0)]
    gone = client.post(url(match, "undo"), {"reason": "no game at all", "expected_seq": 3}, format="json")
    assert gone.status_code == 201 and gone.json()["state"]["score"] == [0, 0]  # the original itself, undone
