"""The doubling cube: double, take, drop, redoubles, and the Crawford and post-Crawford games."""

from __future__ import annotations

import pytest

from common.actor import SYSTEM
from common.errors import ErrorCode
from engine.game import Phase
from games import selectors, services
from games.models import Action, Game, Match

pytestmark = pytest.mark.django_db


def _live(match: Match) -> dict:
    return selectors.live_state(Match.objects.select_related("player1", "player2").get(pk=match.pk))


def test_double_and_take_the_taker_owns_the_cube_at_2(new_match, drive) -> None:
    match = new_match()
    d = drive(match, seed=1)
    d.to_roll_phase()
    doubler = d.game.on_roll
    assert "double" in _live(match)["legal_actions"]
    r = d.double()
    assert (r.action.kind, r.action.side, r.state.game.phase) == (Action.Kind.DOUBLE, doubler, Phase.DOUBLE_OFFERED)
    live = _live(match)
    assert live["legal_actions"] == ["take", "drop"] and live["to_act"] == 1 - doubler
    assert live["cube"] == {"value": 1, "owner": None, "usable": True}
    r = d.take()
    assert (r.action.kind, r.action.side) == (Action.Kind.TAKE, 1 - doubler)
    assert (r.state.game.cube.value, r.state.game.cube.owner, r.state.game.phase) == (2, 1 - doubler, Phase.ROLL)
    assert r.state.game.on_roll == doubler  # the doubler still rolls
    assert _live(match)["cube"] == {"value": 2, "owner": 1 - doubler, "usable": True}


def test_only_the_owner_redoubles_and_a_drop_costs_the_value_before_the_double(new_match, drive, refused) -> None:
    match = new_match()
    d = drive(match, seed=2)
    d.to_roll_phase()
    first = d.game.on_roll
    d.double()
    d.take()
    # The doubler may not redouble: the taker owns the cube.
    with refused(match, ErrorCode.ILLEGAL_ACTION, "owner"):
        services.offer_double(match.pk, actor=SYSTEM, side=first, expected_seq=d.seq)
    assert "double" not in _live(match)["legal_actions"]
    d.roll()
    d.play()
    assert d.game.on_roll == 1 - first
    d.double()  # the owner redoubles to 4
    r = d.drop()
    outcome = r.state.outcomes[-1]
    assert (outcome.winner, outcome.points, outcome.ended_by, outcome.cube_value) == (1 - first, 2, "drop", 2)
    game = Game.objects.get(match=match, number=1)
    assert (game.winner_side, game.result_kind, game.ended_by, game.cube_value, game.cube_owner, game.points) == (
        1 - first,
        1,
        "drop",
        2,
        1 - first,
        2,
    )
    assert r.match.score[1 - first] == 2 and r.state.game_number == 2
    assert r.state.game.cube.value == 1 and r.state.game.cube.owner is None  # a fresh cube for the next game


def test_cube_refusals_write_nothing(new_match, drive, refused) -> None:
    match = new_match()
    d = drive(match, seed=3)
    with refused(match, ErrorCode.ILLEGAL_ACTION, "doubling", "opening roll"):
        services.offer_double(match.pk, actor=SYSTEM, side=0, expected_seq=0)
    d.to_roll_phase()
    side = d.game.on_roll
    with refused(match, ErrorCode.ILLEGAL_ACTION, "taking", "not possible now"):
        services.take(match.pk, actor=SYSTEM, side=1 - side, expected_seq=d.seq)
    with refused(match, ErrorCode.ILLEGAL_ACTION, "dropping", "not possible now"):
        services.drop(match.pk, actor=SYSTEM, side=1 - side, expected_seq=d.seq)
    with refused(match, ErrorCode.ILLEGAL_ACTION, "doubling", f"player {side + 1}'s turn"):
        services.offer_double(match.pk, actor=SYSTEM, side=1 - side, expected_seq=d.seq)
    d.roll()
    with refused(match, ErrorCode.ILLEGAL_ACTION, "doubling", "play the dice"):  # after the roll: too late
        services.offer_double(match.pk, actor=SYSTEM, side=side, expected_seq=d.seq)
    d.play()
    d.double()  # now by the other player, on roll
    with refused(match, ErrorCode.ILLEGAL_ACTION, "taking", f"player {side + 1}'s turn"):  # the doubler cannot take
        services.take(match.pk, actor=SYSTEM, side=1 - side, expected_seq=d.seq)
    with refused(match, ErrorCode.ILLEGAL_ACTION, "rolling", "take or drop"):
        services.record_roll(match.pk, actor=SYSTEM, side=1 - side, dice=(3, 1), expected_seq=d.seq)
    with refused(match, ErrorCode.ILLEGAL_ACTION, "doubling", "take or drop"):
        services.offer_double(match.pk, actor=SYSTEM, side=1 - side, expected_seq=d.seq)


def test_no_double_in_the_crawford_game_and_doubles_again_post_crawford(new_match, drive, refused) -> None:
    match = new_match(length=3)
    d = drive(match, seed=4)
    d.result(0, 2)  # a director enters game 1 of a move-by-move match: Alice wins a gammon, 2-0 (2 = 3 - 1)
    assert Game.objects.get(match=match, number=1).ended_by == "director"
    assert d.state.crawford_game
    d.to_roll_phase()
    live = _live(match)
    assert live["crawford"] is True and live["post_crawford"] is False
    assert live["legal_actions"] == ["roll", "resign"] and live["cube"]["usable"] is False
    with refused(match, ErrorCode.ILLEGAL_ACTION, "no double", "Crawford"):
        services.offer_double(match.pk, actor=SYSTEM, side=d.game.on_roll, expected_seq=d.seq)
    assert Game.objects.get(match=match, number=2).crawford is True
    d.resign(0, 1)  # Alice gives the Crawford game away: 2-1
    d.accept()
    assert d.state.score == (2, 1) and d.state.post_crawford and not d.state.crawford_game
    d.to_roll_phase()
    assert "double" in _live(match)["legal_actions"]
    r = d.double()
    assert r.action.kind == Action.Kind.DOUBLE
    d.take()
    assert d.game.cube.value == 2
    games = Game.objects.filter(match=match).order_by("number")
    assert [g.crawford for g in games] == [False, True, False]
    assert [(g.start_score1, g.start_score2) for g in games] == [(0, 0), (2, 0), (2, 1)]


def test_the_crawford_game_is_only_the_first_game_after_reaching_match_length_minus_one(new_match, drive) -> None:
    match = new_match(length=5, entry_mode="scoresheet")
    d = drive(match)
    d.result(0, 2)  # 2-0
    d.result(0, 2)  # 4-0: Crawford next
    d.result(1, 1)  # 4-1, Crawford game over
    d.result(1, 1, cube=2)  # 4-3: post-Crawford, the cube is alive
    d.result(1, 1)  # 4-4: nobody newly reaches 4 in a way that makes a second Crawford game
    assert [g.crawford for g in Game.objects.filter(match=match).order_by("number")] == [
        False,
        False,
        True,
        False,
        False,
    ]
    assert d.state.post_crawford and not d.state.crawford_game


def test_without_the_crawford_rule_the_cube_stays_alive(new_match, drive) -> None:
    match = new_match(length=3, crawford=False)
    d = drive(match, seed=5)
    d.result(0, 2)
    assert not d.state.crawford_game
    d.to_roll_phase()
    assert "double" in _live(match)["legal_actions"]
    d.double()
    d.take()
    assert Game.objects.get(match=match, number=2).crawford is False


def test_money_play_has_no_crawford_game(new_match, drive) -> None:
    match = new_match(length=0)
    d = drive(match, seed=6)
    d.result(0, 3)
    d.result(0, 3)
    d.to_roll_phase()
    d.double()
    d.take()
    assert d.state.score == (6, 0) and not d.state.crawford_game and not d.state.is_over
