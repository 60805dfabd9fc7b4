"""Whole matches through the API: a 3-point match move by move, and one from a scoresheet; both export to .mat."""

from __future__ import annotations

from typing import Any

import pytest

from engine.formats.check import check_text
from games import services
from games.models import Action, Match, Player
from tests.games.api.conftest import logged_in
from tests.games.api.support import Table, actions_url

pytestmark = pytest.mark.django_db


def test_a_three_point_match_move_by_move_to_the_end(match: Match, anon: Any) -> None:
    t = Table(match)
    # Game 1 at 0-0: Bob doubles early, Alice takes, then resigns a single for the 2-cube.
    state = t.do(0, "opening-roll", dice=[3, 1])
    assert (state["phase"], state["on_roll"], state["dice"]) == ("move", 0, [3, 1])
    assert "8/5 6/5" in state["legal_plays"]
    state = t.do(0, "play", side=0, play="6/5 8/5")  # any order; stored in canonical notation
    assert state["legal_actions"] == ["roll", "double", "resign"] and state["on_roll"] == 1
    t.do(1, "double", side=1)
    state = t.do(0, "take", side=0)
    assert state["cube"] == {"value": 2, "owner": 0, "usable": True}
    t.do(1, "roll", side=1, dice=[6, 4])
    t.do(1, "play", side=1, play="24/14")
    state = t.do(0, "resign", side=0, result="single")
    assert state["resignation"] == {"side": 0, "kind": "single"}
    state = t.do(1, "accept-resignation", side=1)
    assert state["score"] == [0, 2] and state["game_number"] == 2 and state["crawford"] is True

    # Game 2, the Crawford game: no double; Bob resigns.
    t.do(1, "opening-roll", dice=[4, 2])
    t.do(0, "play", side=0, play="8/4 6/4")
    refused = t.post(1, "double", side=1)
    assert refused.status_code == 400
    assert refused.json() == {"code": "illegal_action", "message": "no double may be offered in the Crawford game"}
    t.do(1, "roll", side=1, dice=[6, 5])
    t.do(1, "play", side=1, play="24/13")
    t.do(0, "roll", side=0, dice=[3, 3])
    t.do(0, "play", side=0, play="8/5(2) 6/3(2)")
    t.do(1, "resign", side=1, result=1)
    state = t.do(0, "accept-resignation", side=0)
    assert state["score"] == [1, 2] and state["crawford"] is False and state["post_crawford"] is True

    # Game 3, post-Crawford: Alice doubles at once, Bob drops.
    t.do(0, "opening-roll", dice=[1, 3])
    t.do(1, "play", side=1, play="8/5 6/5")
    t.do(0, "double", side=0)
    state = t.do(1, "drop", side=1)
    assert state["score"] == [2, 2] and state["game_number"] == 4

    # Game 4, double match point: a rejected resignation, then a second one ends the match.
    t.do(0, "opening-roll", dice=[5, 2])
    t.do(0, "play", side=0, play="13/8 13/11")
    t.do(1, "roll", side=1, dice=[4, 1])
    t.do(1, "move", side=1, play="24/23 13/9")  # "move" is accepted for "play"
    t.do(0, "resign", side=0, result="single")
    state = t.do(1, "reject-resignation", side=1)
    assert state["resignation"] is None and state["phase"] == "roll"
    t.do(0, "resign", side=0, result="single")
    state = t.do(1, "accept-resignation", side=1)
    assert (state["status"], state["winner"], state["legal_actions"]) == ("finished", 1, [])

    detail = anon.get(f"/api/matches/{match.pk}/").json()
    assert detail["status"] == "finished" and detail["winner"] == match.player2_id and detail["score"] == [2, 3]
    games = anon.get(f"/api/matches/{match.pk}/games/").json()["results"]
    assert [(g["winner_side"], g["points"], g["ended_by"], g["crawford"]) for g in games] == [
        (1, 2, "resignation", False),
        (0, 1, "resignation", True),
        (0, 1, "drop", False),
        (1, 1, "resignation", False),
    ]
    cube = anon.get(f"/api/matches/{match.pk}/cube-history/").json()
    assert [(c["game"], c["doubler"], c["value"], c["response"]) for c in cube] == [
        (1, 1, 2, "take"),
        (3, 0, 2, "drop"),
    ]
    log = anon.get(f"/api/matches/{match.pk}/log/").json()
    assert log["count"] == t.seq == 28
    assert log["results"][1]["play"] == "8/5 6/5" and log["results"][1]["entered_by"] == "entry link side 0"
    crawford_game = anon.get(f"/api/matches/{match.pk}/log/?game=2").json()
    assert crawford_game["count"] == 8 and {row["game"] for row in crawford_game["results"]} == {2}

    closed = t.post(0, "opening-roll", dice=[2, 1])
    assert closed.status_code == 409 and closed.json()["code"] == "match_closed"

    exported = anon.get(f"/api/matches/{match.pk}/export.mat")
    assert exported.status_code == 200 and exported["Content-Type"].startswith("text/plain")
    assert "attachment" in exported["Content-Disposition"]
    report, _, unreadable = check_text(exported.content, shown_as="export.mat")
    assert not unreadable and report["ok"], report
    assert (report["players"], report["score"], report["winner"]) == (["Alice Ames", "Bob Berg"], [2, 3], "Bob Berg")


def test_a_scoresheet_match_through_the_api(players: tuple[Player, Player], director: Any) -> None:
    client = logged_in(director)
    created = client.post(
        "/api/matches/",
        {"player1": players[0].pk, "player2": players[1].pk, "length": 3, "entry_mode": "scoresheet"},
        format="json",
    )
    assert created.status_code == 201, created.json()
    match_id = created.json()["id"]

    def result(seq: int, **fields: Any) -> Any:
        body = {"kind": "game-result", "expected_seq": seq, **fields}
        return client.post(actions_url(match_id), body, format="json")

    first = result(0, winner=0, result="gammon")
    assert first.status_code == 201 and first.json()["state"]["score"] == [2, 0]
    assert first.json()["action"]["data"] == {"cube": 1, "ended_by": "scoresheet"}
    crawford = result(1, winner=1, result="single", cube_value=2)
    assert crawford.status_code == 400 and "Crawford" in crawford.json()["message"]
    assert result(1, winner=1, result="single").status_code == 201
    last = result(2, winner=0, result="single")  # post-Crawford, 2-1
    assert last.status_code == 201 and last.json()["state"]["status"] == "finished"
    assert last.json()["state"]["score"] == [3, 1]

    exported = client.get(f"/api/matches/{match_id}/export.mat")
    report, _, _ = check_text(exported.content, shown_as="sheet.mat")
    assert report["ok"] and report["games"] == 3 and report["winner"] == "Alice Ames", report


def test_a_player_with_an_account_records_for_their_own_side_only(
    players: tuple[Player, Player], django_user_model: Any
) -> None:
    from rest_framework.authtoken.models import Token
    from rest_framework.test import APIClient

    user = django_user_model.objects.create_user("carl", password="x")
    carl = services.create_player(display_name="Carl", user=user)
    match = services.start_match(player1=carl, player2=players[1], length=1)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    ok = client.post(actions_url(match.pk), {"kind": "opening-roll", "dice": [6, 1], "expected_seq": 0}, format="json")
    assert ok.status_code == 201 and ok.json()["action"]["entered_by"] == "carl"
    other = client.post(actions_url(match.pk), {"kind": "double", "side": 1, "expected_seq": 1}, format="json")
    assert other.status_code == 403 and other.json() == {"code": "forbidden", "message": "you can act only for Carl"}
    assert Action.objects.filter(match=match).count() == 1
    assert Match.objects.get(pk=match.pk).seq == 1
