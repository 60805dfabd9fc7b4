"""One game as a state machine (engine/game.py): the opening roll, turns, the cube and resignations.

RULES.md "The opening roll", "The doubling cube" and "Ending a game and scoring". States are immutable values:
every refused action raises an EngineError and leaves the state exactly as it was (checked against a deep copy).
"""

from __future__ import annotations

import copy
import pickle

import pytest

from engine import Play, Position, ResultKind
from engine.actions import (
    AcceptResignation,
    Action,
    ChooseDouble,
    Double,
    Drop,
    GameResult,
    Move,
    OpeningRoll,
    RejectResignation,
    Resign,
    Roll,
    Take,
)
from engine.cube import CubeState
from engine.errors import EngineError, IllegalActionError, IllegalPlayError
from engine.game import GameState, Phase


def refused(state: GameState, action: Action, match: str | None = None) -> None:
    """``action`` raises an EngineError (whose message matches) and ``state`` is left as it was."""
    before = copy.deepcopy(state)
    with pytest.raises(EngineError, match=match):
        state.apply(action)
    assert state == before


def opened() -> GameState:
    """Side 0 won the opening roll with 3-1 and is to play it."""
    return GameState.new().apply(OpeningRoll((3, 1)))


def side1_to_roll() -> GameState:
    """After the opening 3-1 (8/5 6/5) side 1 is on roll with a centred cube."""
    return opened().apply(Move(0, "8/5 6/5"))


def side0_to_roll() -> GameState:
    return side1_to_roll().apply(Roll(1, (6, 4))).apply(Move(1, "24/14"))


# -- The opening roll --------------------------------------------------------------------------------------------


def test_new_game_waits_for_the_opening_roll() -> None:
    game = GameState.new()
    assert game.phase is Phase.OPENING
    assert game.legal_action_kinds() == ["opening-roll"]
    assert game.cube == CubeState(1, None)
    assert game.position() == Position.initial()


@pytest.mark.parametrize("die", range(1, 7))
def test_opening_roll_with_equal_dice_is_refused(die: int) -> None:
    refused(GameState.new(), OpeningRoll((die, die)), "equal dice")


@pytest.mark.parametrize(("dice", "winner"), [((5, 2), 0), ((2, 5), 1), ((1, 6), 1), ((6, 1), 0)])
def test_opening_roll_higher_die_moves_first(dice: tuple[int, int], winner: int) -> None:
    game = GameState.new().apply(OpeningRoll(dice))
    assert game.phase is Phase.MOVE
    assert game.on_roll == winner == game.actor == game.opening_winner
    assert game.dice == (max(dice), min(dice))


def test_roll_as_the_opening_roll_refuses_doubles() -> None:
    refused(GameState.new(), Roll(0, (3, 3)), "cannot be a double")
    game = GameState.new().apply(Roll(1, (3, 5)))
    assert game.on_roll == 1
    assert game.phase is Phase.MOVE


@pytest.mark.parametrize("side", [2, -1])
def test_roll_as_the_opening_roll_refuses_a_side_that_does_not_exist(side: int) -> None:
    refused(GameState.new(), Roll(side, (3, 5)))


@pytest.mark.parametrize("dice", [(0, 3), (7, 1), (3, 9)])
def test_opening_roll_dice_are_one_to_six(dice: tuple[int, int]) -> None:
    refused(GameState.new(), OpeningRoll(dice), "1 to 6")
    refused(GameState.new(), Roll(0, dice), "1 to 6")


def test_opening_roll_cannot_be_made_twice() -> None:
    refused(opened(), OpeningRoll((4, 2)), "already")


# -- Turns: roll, move, alternate ---------------------------------------------------------------------------------


def test_roll_and_move_alternate_between_the_players() -> None:
    game = opened()
    assert game.legal_action_kinds() == ["move", "resign"]
    game = game.apply(Move(0, "8/5 6/5"))
    assert (game.phase, game.on_roll) == (Phase.ROLL, 1)
    game = game.apply(Roll(1, (6, 4)))
    assert (game.phase, game.on_roll, game.dice) == (Phase.MOVE, 1, (6, 4))
    game = game.apply(Move(1, "24/14"))
    assert (game.phase, game.on_roll) == (Phase.ROLL, 0)
    assert game.moves_played == 2


def test_the_board_is_seen_from_the_player_on_roll() -> None:
    game = side1_to_roll()
    assert game.position(0).me[5] == 2
    assert game.position(1).opp[5] == 2
    assert game.position() == game.position(1)


def test_moving_out_of_turn_is_refused() -> None:
    refused(opened(), Move(1, "8/5 6/5"), "player 1's turn")


def test_rolling_out_of_turn_is_refused() -> None:
    refused(side1_to_roll(), Roll(0, (3, 1)), "player 2's turn")


def test_rolling_twice_is_refused() -> None:
    refused(opened(), Roll(0, (4, 2)), "to play the dice")


def test_moving_before_rolling_is_refused() -> None:
    refused(side1_to_roll(), Move(1, "24/21 24/23"), "roll or double")
    with pytest.raises(IllegalActionError, match="roll first"):
        side1_to_roll().legal_plays()


def test_moving_before_the_opening_roll_is_refused() -> None:
    refused(GameState.new(), Move(0, "8/5 6/5"), "opening roll")


def test_an_illegal_play_is_refused_with_the_rule() -> None:
    refused(opened(), Move(0, "24/18"), "does not fit the roll 3-1")
    refused(opened(), Move(0, "13/10"), "must play both dice")


def test_a_move_given_as_a_play_object() -> None:
    game = opened().apply(Move(0, Play(((8, 5, False), (6, 5, False)))))
    assert game.position(0).me[5] == 2
    refused(opened(), Move(0, Play(((24, 20, False),))))
    refused(opened(), Move(0, Play(())), "cannot be passed")


def test_a_play_object_with_a_wrong_hit_flag_never_corrupts_the_board() -> None:
    # Side 1 plays 6-4 after the opening 8/5 6/5; no opposing checker is on its 14-point, yet the play claims a hit
    # there. The engine may refuse it or read it as the legal 24/14, but must not remove a checker that is not there.
    game = side1_to_roll().apply(Roll(1, (6, 4)))
    bogus = Play(((24, 18, False), (18, 14, True)))
    try:
        after = game.apply(Move(1, bogus))
    except EngineError:
        return
    expected = game.apply(Move(1, "24/14"))
    Position(after.boards[0], after.boards[1])  # 15 checkers a side, no shared point
    assert after.boards == expected.boards


def test_a_play_object_that_omits_a_hit_never_corrupts_the_board() -> None:
    # Side 0 to play 6-2 with side 1's blot on side 0's 7-point (side 1's 18-point): 13/7 must hit.
    boards = (
        Position.from_points({13: 2, 6: 2}, {}).me,
        Position.from_points({18: 1, 6: 2}, {}).me,
    )
    game = GameState(boards=boards, phase=Phase.MOVE, on_roll=0, dice=(6, 2))
    quiet = Play(((13, 7, False), (7, 5, False)))
    try:
        after = game.apply(Move(0, quiet))
    except EngineError:
        return
    Position(after.boards[0], after.boards[1])
    assert after.boards == game.apply(Move(0, "13/7*/5")).boards


def test_a_roll_with_no_legal_play_is_passed_with_an_empty_move() -> None:
    # Side 1 on the bar against a closed board: any roll is lost.
    boards = (
        Position.from_points({1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 13: 3}, {}).me,
        Position.from_points({25: 1, 6: 14}, {}).me,
    )
    game = GameState(boards=boards, phase=Phase.ROLL, on_roll=1).apply(Roll(1, (6, 5)))
    assert len(game.legal_plays()) == 0
    refused(game, Move(1, "bar/20"), "no legal play")
    game = game.apply(Move(1, ""))
    assert (game.phase, game.on_roll) == (Phase.ROLL, 0)


def test_choose_double_outside_acey_deucey_is_refused() -> None:
    refused(opened(), ChooseDouble(0, 6), "not possible now")


# -- The cube ----------------------------------------------------------------------------------------------------


def test_centred_cube_either_player_may_double_on_their_turn() -> None:
    assert side1_to_roll().may_double(1)
    assert side0_to_roll().may_double(0)
    offered = side1_to_roll().apply(Double(1))
    assert offered.phase is Phase.DOUBLE_OFFERED
    assert offered.actor == 0
    assert offered.on_roll == 1
    assert offered.legal_action_kinds() == ["take", "drop"]


def test_only_the_player_on_roll_may_double() -> None:
    game = side1_to_roll()
    assert not game.may_double(0)
    refused(game, Double(0), "player 2's turn")


def test_double_only_before_rolling() -> None:
    game = side1_to_roll().apply(Roll(1, (6, 4)))
    assert not game.may_double(1)
    refused(game, Double(1), "to play the dice")
    refused(GameState.new(), Double(0), "opening roll")
    refused(opened(), Double(0), "to play the dice")  # the opening roll is already rolled


def test_take_doubles_the_cube_and_gives_it_to_the_taker() -> None:
    game = side1_to_roll().apply(Double(1)).apply(Take(0))
    assert game.cube == CubeState(2, 0)
    assert (game.phase, game.on_roll) == (Phase.ROLL, 1)  # the doubler now rolls
    assert not game.may_double(1)
    refused(game, Double(1), "owns the cube")
    game = game.apply(Roll(1, (6, 4))).apply(Move(1, "24/14"))
    assert game.may_double(0)  # the owner redoubles
    game = game.apply(Double(0)).apply(Take(1))
    assert game.cube == CubeState(4, 1)


def test_only_the_player_doubled_may_take_or_drop() -> None:
    offered = side1_to_roll().apply(Double(1))
    refused(offered, Take(1), "player 1's turn")
    refused(offered, Drop(1), "player 1's turn")
    refused(offered, Roll(1, (3, 1)), "take or drop")
    refused(offered, Double(0), "take or drop")


def test_take_or_drop_without_a_double_is_refused() -> None:
    refused(side1_to_roll(), Take(0), "not possible now")
    refused(side1_to_roll(), Drop(0), "not possible now")


def test_drop_ends_the_game_at_the_value_before_the_double() -> None:
    game = side1_to_roll().apply(Double(1)).apply(Drop(0))
    assert game.phase is Phase.OVER
    assert game.outcome is not None
    assert (game.outcome.winner, game.outcome.kind, game.outcome.points) == (1, ResultKind.SINGLE, 1)
    assert game.outcome.ended_by == "drop"


def test_drop_of_a_redouble_costs_the_current_cube_value() -> None:
    game = side1_to_roll().apply(Double(1)).apply(Take(0)).apply(Roll(1, (6, 4))).apply(Move(1, "24/14"))
    game = game.apply(Double(0)).apply(Drop(1))
    assert game.outcome is not None
    assert (game.outcome.winner, game.outcome.points, game.outcome.cube_value) == (0, 2, 2)


def test_no_cap_on_the_cube_value() -> None:
    boards = (Position.initial().me, Position.initial().opp)
    game = GameState(boards=boards, phase=Phase.ROLL, on_roll=0, cube=CubeState(64, 0))
    game = game.apply(Double(0)).apply(Take(1))
    assert game.cube == CubeState(128, 1)


def test_no_double_when_the_cube_is_disabled() -> None:
    game = GameState.new(cube_enabled=False).apply(OpeningRoll((3, 1))).apply(Move(0, "8/5 6/5"))
    assert not game.may_double(1)
    assert game.legal_action_kinds() == ["roll", "resign"]
    refused(game, Double(1), "Crawford")


# -- Resignations ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", list(ResultKind))
@pytest.mark.parametrize("cube", [1, 2, 8])
def test_accepted_resignation_scores_kind_times_cube(kind: ResultKind, cube: int) -> None:
    game = side1_to_roll()
    if cube > 1:
        game = GameState(boards=game.boards, phase=Phase.ROLL, on_roll=1, cube=CubeState(cube, 0), opening_winner=0)
    offered = game.apply(Resign(1, kind))
    assert offered.phase is Phase.RESIGN_OFFERED
    assert offered.actor == 0
    over = offered.apply(AcceptResignation(0))
    assert over.phase is Phase.OVER
    assert over.outcome is not None
    assert (over.outcome.winner, over.outcome.kind, over.outcome.points) == (0, kind, int(kind) * cube)
    assert over.outcome.ended_by == "resignation"


def test_the_opponent_of_the_player_on_roll_may_resign() -> None:
    over = side1_to_roll().apply(Resign(0, ResultKind.GAMMON)).apply(AcceptResignation(1))
    assert over.outcome is not None
    assert (over.outcome.winner, over.outcome.points) == (1, 2)


@pytest.mark.parametrize("phase", [Phase.ROLL, Phase.MOVE])
def test_rejected_resignation_resumes_play_in_the_same_phase(phase: Phase) -> None:
    game = side1_to_roll() if phase is Phase.ROLL else side1_to_roll().apply(Roll(1, (6, 4)))
    offered = game.apply(Resign(1, ResultKind.SINGLE))
    refused(offered, Roll(1, (6, 4)), "accept or reject")
    refused(offered, Move(1, "24/14"), "accept or reject")
    back = offered.apply(RejectResignation(0))
    assert back == game
    assert back.phase is phase


def test_only_the_other_player_answers_a_resignation() -> None:
    offered = side1_to_roll().apply(Resign(1, ResultKind.SINGLE))
    refused(offered, AcceptResignation(1), "player 1's turn")
    refused(offered, RejectResignation(1), "player 1's turn")


def test_resignation_not_offered_while_a_double_is_pending_or_before_the_opening_roll() -> None:
    refused(side1_to_roll().apply(Double(1)), Resign(0, ResultKind.SINGLE), "cannot be offered now")
    refused(GameState.new(), Resign(0, ResultKind.SINGLE), "cannot be offered now")


def test_accept_or_reject_without_a_resignation_is_refused() -> None:
    refused(side1_to_roll(), AcceptResignation(0))
    refused(side1_to_roll(), RejectResignation(0))


def test_resignation_by_a_side_that_does_not_exist_is_refused() -> None:
    refused(side1_to_roll(), Resign(2, ResultKind.SINGLE), "no side 2")


@pytest.mark.parametrize("kind", [0, 4])
def test_resignation_of_an_unknown_kind_is_an_engine_error(kind: int) -> None:
    refused(side1_to_roll(), Resign(1, kind))  # type: ignore[arg-type]


# -- Scoresheet results and the end of a game ------------------------------------------------------------------


@pytest.mark.parametrize(("kind", "cube"), [(ResultKind.SINGLE, 1), (ResultKind.GAMMON, 4), (ResultKind.BACKGAMMON, 2)])
def test_scoresheet_result_scores_kind_times_cube(kind: ResultKind, cube: int) -> None:
    over = GameState.new().apply(GameResult(1, kind, cube))
    assert over.outcome is not None
    assert (over.outcome.winner, over.outcome.points, over.outcome.cube_value) == (1, int(kind) * cube, cube)


@pytest.mark.parametrize(
    ("action", "message"),
    [
        (GameResult(2, ResultKind.SINGLE), "side 0 or 1"),
        (GameResult(0, ResultKind.SINGLE, 3), "not one"),
        (GameResult(0, ResultKind.SINGLE, 0), "not one"),
        (GameResult(0, ResultKind.GAMMON, 2, ended_by="drop"), "single game"),
    ],
)
def test_scoresheet_result_is_validated(action: GameResult, message: str) -> None:
    refused(GameState.new(), action, message)


@pytest.mark.parametrize("kind", [0, 5])
def test_scoresheet_result_of_an_unknown_kind_is_an_engine_error(kind: int) -> None:
    refused(GameState.new(), GameResult(0, kind))  # type: ignore[arg-type]


def test_scoresheet_result_only_for_a_game_not_recorded_move_by_move() -> None:
    refused(opened(), GameResult(0, ResultKind.SINGLE), "not recorded move by move")


def test_scoresheet_result_with_a_turned_cube_refused_when_the_cube_is_disabled() -> None:
    refused(GameState.new(cube_enabled=False), GameResult(0, ResultKind.SINGLE, 2), "Crawford")


def test_every_action_is_refused_after_the_game_is_over() -> None:
    over = side1_to_roll().apply(Double(1)).apply(Drop(0))
    assert over.legal_action_kinds() == []
    for action in (Roll(0, (3, 1)), OpeningRoll((3, 1)), Double(0), Resign(0, ResultKind.SINGLE), Take(0)):
        refused(over, action, "game is over")


def test_refused_play_leaves_the_state_unchanged_and_usable() -> None:
    game = opened()
    refused(game, Move(0, "13/10"))
    assert game.apply(Move(0, "8/5 6/5")).phase is Phase.ROLL


def test_illegal_play_errors_are_illegal_play_errors() -> None:
    with pytest.raises(IllegalPlayError):
        opened().apply(Move(0, "13/10"))


def test_a_state_that_has_found_its_legal_plays_copies_and_pickles() -> None:
    game = GameState.new().apply(OpeningRoll((3, 1)))
    plays = game.legal_plays()
    assert len(plays) > 1
    play = next(iter(plays))
    assert copy.deepcopy(play) is play and copy.copy(play) is play
    assert pickle.loads(pickle.dumps(play)).steps == play.steps
    assert copy.deepcopy(game) == game
    assert pickle.loads(pickle.dumps(game)) == game
