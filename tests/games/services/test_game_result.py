"""Whole-game results from a scoresheet (players in a scoresheet match, directors in any match).

``record_game_result`` takes a winner, a result kind and the cube value; it has no way to say how the game ended
at the table, so a dropped double is entered as a single game at the cube value before the double (RULES.md: "a
drop always costs the pre-double cube value") and is stored with ``ended_by`` "scoresheet".
"""

from __future__ import annotations

import pytest

from common.actor import SYSTEM
from common.errors import ErrorCode
from games import selectors, services
from games.models import Action, Game, Match

pytestmark = pytest.mark.django_db


def _live(match: Match) -> dict:
    return selectors.live_state(Match.objects.select_related("player1", "player2").get(pk=match.pk))


def test_a_scoresheet_match_entered_by_its_players_through_the_crawford_game(new_match, drive, cast, refused) -> None:
    match = new_match(length=5, entry_mode="scoresheet")
    d = drive(match, actors=(cast.as_alice, cast.as_bob))
    assert _live(match)["legal_actions"] == ["game-result"]
    r = d.result(0, 2, actor=cast.as_alice)  # Alice wins a gammon: 2-0
    assert (r.action.kind, r.action.side, r.action.value, r.action.data) == (
        Action.Kind.GAME_RESULT,
        0,
        2,
        {"cube": 1, "ended_by": "scoresheet"},
    )
    assert r.action.entered_by_user == cast.alice_user
    d.result(1, 1, actor=cast.as_bob)  # Alice drops Bob's double: a single at the cube value before it, 2-1
    d.result(0, 1, cube=2, actor=cast.as_bob)  # Alice wins a single on a 2-cube: 4-1, the Crawford game next
    assert d.state.crawford_game and _live(match)["crawford"] is True
    with refused(match, ErrorCode.ILLEGAL_ACTION, "Crawford", "must be 1"):
        services.record_game_result(match.pk, actor=cast.as_bob, winner=1, kind=1, cube_value=2, expected_seq=d.seq)
    d.result(1, 2, actor=cast.as_bob)  # a gammon in the Crawford game counts 2: 4-3
    assert d.state.score == (4, 3) and d.state.post_crawford
    r = d.result(1, 1, cube=2, actor=cast.as_alice)  # post-Crawford the cube is alive: 4-5, Bob wins
    match.refresh_from_db()
    assert (match.status, match.score, match.winner, match.seq) == (Match.Status.FINISHED, (4, 5), cast.bob, 5)
    assert match.finished_at is not None
    games = list(
        Game.objects.filter(match=match)
        .order_by("number")
        .values_list(
            "start_score1",
            "start_score2",
            "crawford",
            "opening_winner",
            "winner_side",
            "result_kind",
            "cube_value",
            "points",
            "ended_by",
        )
    )
    assert games == [
        (0, 0, False, None, 0, 2, 1, 2, "scoresheet"),
        (2, 0, False, None, 1, 1, 1, 1, "scoresheet"),
        (2, 1, False, None, 0, 1, 2, 2, "scoresheet"),
        (4, 1, True, None, 1, 2, 1, 2, "scoresheet"),
        (4, 3, False, None, 1, 1, 2, 2, "scoresheet"),
    ]
    assert _live(match)["legal_actions"] == [] and _live(match)["winner"] == 1
    with refused(match, ErrorCode.MATCH_CLOSED, "finished"):
        services.record_game_result(match.pk, actor=cast.as_alice, winner=0, kind=1, expected_seq=d.seq)


def test_result_refusals_write_nothing(new_match, refused) -> None:
    match = new_match(length=5, entry_mode="scoresheet")
    for kind in (0, 4):
        with refused(match, ErrorCode.INVALID_INPUT, "single (1), gammon (2) or backgammon (3)"):
            services.record_game_result(match.pk, actor=SYSTEM, winner=0, kind=kind, expected_seq=0)
    with refused(match, ErrorCode.ILLEGAL_ACTION, "no side 2"):
        services.record_game_result(match.pk, actor=SYSTEM, winner=2, kind=1, expected_seq=0)
    for cube in (0, 3, 6):
        with refused(match, ErrorCode.ILLEGAL_ACTION, "cube value", str(cube)):
            services.record_game_result(match.pk, actor=SYSTEM, winner=0, kind=1, cube_value=cube, expected_seq=0)


def test_players_enter_results_only_in_scoresheet_matches_directors_in_any(new_match, drive, cast, refused) -> None:
    match = new_match(length=5)
    with refused(match, ErrorCode.ILLEGAL_ACTION, "move by move", "director"):
        services.record_game_result(match.pk, actor=cast.as_alice, winner=0, kind=1, expected_seq=0)
    r = services.record_game_result(match.pk, actor=cast.as_director, winner=1, kind=3, expected_seq=0)
    assert r.action.data == {"cube": 1, "ended_by": "director"} and r.match.score == (0, 3)
    assert Game.objects.get(match=match, number=1).ended_by == "director"
    d = drive(Match.objects.get(pk=match.pk), seed=1)
    d.to_roll_phase()
    with refused(match, ErrorCode.ILLEGAL_ACTION, "not recorded move by move"):
        services.record_game_result(match.pk, actor=cast.as_director, winner=0, kind=1, expected_seq=d.seq)


def test_money_session_results_accumulate_without_end(new_match, drive) -> None:
    match = new_match(length=0, entry_mode="scoresheet")
    d = drive(match)
    for _ in range(4):
        d.result(0, 3, cube=8)
    match.refresh_from_db()
    assert match.score == (96, 0) and match.status == Match.Status.IN_PROGRESS and match.winner is None
    assert not d.state.crawford_game


def test_a_scoresheet_match_won_with_points_to_spare_finishes(new_match) -> None:
    """RULES.md: points past N still count; the match ends (here 2-0 in a 1-point match)."""
    match = new_match(length=1, entry_mode="scoresheet")
    r = services.record_game_result(match.pk, actor=SYSTEM, winner=0, kind=2, expected_seq=0)
    assert r.match.status == Match.Status.FINISHED and r.match.score == (2, 0)
    assert r.match.winner_id == match.player1_id
