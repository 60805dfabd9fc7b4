"""RULES.md "Bearing off" and the result kinds of "Ending a game and scoring".

Positions are hand-built with ``Position.from_points`` (own numbering per side, 25 = bar); checkers not placed
are borne off. Expected plays are GNU Backgammon's canonical text.
"""

from __future__ import annotations

import pytest

from engine import BAR, OFF, Position, ResultKind, legal_plays
from engine.actions import Move, Roll
from engine.cube import CubeState
from engine.errors import InvalidPositionError
from engine.game import GameState, Phase
from tests.engine.reference import reference_results

ALL_ROLLS = [(d1, d2) for d1 in range(1, 7) for d2 in range(1, d1 + 1)]


def pos(me: dict[int, int], opp: dict[int, int] | None = None) -> Position:
    return Position.from_points(me, opp or {})


def plays(position: Position, dice: tuple[int, int]) -> set[str]:
    return {str(play) for play in legal_plays(position, dice)}


def bears_off(position: Position, dice: tuple[int, int]) -> bool:
    return any(step.dst == OFF for play in legal_plays(position, dice) for step in play.steps)


# -- Only with all 15 home ---------------------------------------------------------------------------------------


def test_no_bear_off_while_a_checker_is_outside_the_home_board() -> None:
    # 6/off would play the 6, but the checker on 20 is not home: the 6 must be played by it.
    assert plays(pos({20: 1, 6: 14}), (6, 5)) == {"20/9", "20/14 6/1"}


def test_no_bear_off_with_a_checker_on_the_seven_point_until_it_comes_home() -> None:
    # 6-5: 6/off is refused while the 7-point checker is out; once 7/2 brings it home the 6 may bear off.
    assert plays(pos({7: 1, 6: 14}), (6, 5)) == {"7/1 6/1", "7/2 6/off"}


@pytest.mark.parametrize("dice", [(6, 5), (2, 1), (6, 6), (3, 3)])
def test_no_bear_off_with_a_checker_on_the_bar(dice: tuple[int, int]) -> None:
    # Opponent's home board is open; the hit checker must enter first, and cannot get home this turn.
    position = pos({BAR: 1, 6: 4, 5: 4, 4: 6})
    assert not bears_off(position, dice)
    assert all(play.steps[0].src == BAR for play in legal_plays(position, dice))


def test_bear_off_resumes_in_the_same_turn_once_the_last_checker_is_home() -> None:
    # 6-6: 20/14/8/2 brings the last checker home with three 6s; the fourth bears off from the 6-point.
    assert plays(pos({20: 1, 6: 14}), (6, 6)) == {"20/2 6/off"}


def test_bear_off_allowed_in_the_roll_that_brings_the_last_checker_home() -> None:
    # 8/3 brings the last checker home with the 5, then the 6 bears off; or the 6 plays 8/2 and the 5 6/1.
    assert plays(pos({8: 1, 6: 14}), (6, 5)) == {"8/3 6/off", "8/2 6/1"}


# -- Exact die, higher-point rule, moving inside --------------------------------------------------------------


def test_exact_die_bears_off_from_its_point_even_with_checkers_above() -> None:
    # 3-1, two on 6 and one on 3: the 3 bears off the 3-point checker (6/5 3/off); the 1 never bears off.
    assert plays(pos({6: 2, 3: 1}), (3, 1)) == {"6/5 3/off", "6/5 6/3", "6/2"}


def test_exact_dice_bear_off_both_checkers() -> None:
    # 6-4 with checkers on 6 and 4: both off, or 6/2 with the 4 and then the 6 bears off the 4 (the highest).
    assert plays(pos({6: 1, 4: 1}), (6, 4)) == {"6/off 4/off", "6/2 4/off"}


def test_die_larger_than_the_highest_point_bears_off_from_the_highest() -> None:
    # 6-5 with checkers on 3 and 2: both dice are larger than any point, each bears off the highest checker.
    assert plays(pos({3: 1, 2: 1}), (6, 5)) == {"3/off 2/off"}


def test_die_larger_than_the_highest_point_with_one_checker_left() -> None:
    legal = legal_plays(pos({2: 1}), (6, 5))
    assert {str(p) for p in legal} == {"2/off"}
    assert legal.max_dice == 1  # the game is over after one die


def test_empty_point_with_checkers_above_must_move_a_higher_checker() -> None:
    # 3-2 with two on the 6-point and one on the 1-point: no checker on 3 or 2 and checkers above, so the dice
    # move the 6s; the checker on the 1-point cannot be borne off with a larger die while the 6s are there.
    assert plays(pos({6: 2, 1: 1}), (3, 2)) == {"6/4 6/3", "6/1"}


def test_larger_die_bears_off_the_lower_checker_only_after_the_higher_one_moved() -> None:
    # 5-4, checkers on 6 and 2: the 5 moves 6/1 (no checker on 5, one above), then the 4 is larger than any
    # point and bears off the 2; or the 4 moves 6/2 and the 5 bears a checker off from the 2-point.
    assert plays(pos({6: 1, 2: 1}), (5, 4)) == {"6/1 2/off", "6/off"}


def test_moving_inside_instead_of_bearing_off_is_allowed() -> None:
    # 5-3, checkers on 5 and 3: 5/off 3/off wins, but 5/2 3/off (the 3 played inside) is legal too.
    assert plays(pos({5: 1, 3: 1}), (5, 3)) == {"5/off 3/off", "5/2 3/off"}


def test_moving_inside_with_both_dice() -> None:
    # 3-1, two on 6 and one on 4: 4/3/off bears a checker off, yet four plays that keep all 15 are legal too.
    assert plays(pos({6: 2, 4: 1}), (3, 1)) == {"4/off", "6/5 6/3", "6/3 4/3", "6/2", "6/5 4/1"}


# -- Doubles in the bear-off -----------------------------------------------------------------------------------


def test_bear_off_with_doubles_stops_when_the_last_checker_is_off() -> None:
    # 4-4 with checkers on 6 and 2: 6/2 (no checker on 4, one above), then two 4s bear the 2s off: 3 dice.
    legal = legal_plays(pos({6: 1, 2: 1}), (4, 4))
    assert legal.max_dice == 3
    (after,) = legal.positions()
    assert after.me[OFF] == 15


def test_bear_off_with_doubles_partly_blocked() -> None:
    # 2-2 with checkers on 9 and 6 and the 7-point blocked: 9/7 is impossible, so 9 cannot come home and no
    # checker may be borne off; only 6/4/2 ... moves inside: 6/4, 4/2, and the 9 stays.
    position = pos({9: 1, 6: 1}, {25 - 7: 2})
    legal = legal_plays(position, (2, 2))
    assert {str(p) for p in legal} == {"6/2"}  # 6/4/2, then 2/off is not allowed (9 is outside): 2 dice
    assert legal.max_dice == 2


def test_bear_off_positions_agree_with_the_reference_generator() -> None:
    positions = [
        pos({6: 3, 5: 2, 4: 4, 3: 1, 2: 3, 1: 2}),
        pos({6: 1, 1: 1}),
        pos({5: 2, 2: 3}, {25 - 4: 1}),
        pos({BAR: 1, 6: 5, 1: 2}, {5: 2, 4: 2}),
        pos({8: 1, 4: 3, 2: 2}, {25 - 5: 2}),
    ]
    for position in positions:
        for dice in ALL_ROLLS:
            assert set(legal_plays(position, dice).positions()) == reference_results(position, dice), dice


# -- Winning and result kinds -----------------------------------------------------------------------------------


def finished(loser: dict[int, int], *, loser_off: int | None = None) -> Position:
    """The mover has borne off all 15; the opponent (the loser) is as given."""
    return Position.from_points({}, loser, opp_off=loser_off)


def test_single_when_the_loser_has_borne_off_a_checker() -> None:
    assert finished({20: 2, 6: 12}).result_kind() is ResultKind.SINGLE  # 1 off, even with checkers far back


def test_single_even_with_a_loser_checker_on_the_bar() -> None:
    assert finished({BAR: 1, 6: 13}).result_kind() is ResultKind.SINGLE


def test_gammon_when_the_loser_has_borne_off_none() -> None:
    assert finished({6: 10, 18: 5}).result_kind() is ResultKind.GAMMON  # 18 is the winner's 7-point: not home


def test_backgammon_with_a_loser_checker_on_the_bar() -> None:
    assert finished({BAR: 1, 6: 14}).result_kind() is ResultKind.BACKGAMMON


@pytest.mark.parametrize("point", range(19, 25))
def test_backgammon_with_a_loser_checker_in_the_winners_home_board(point: int) -> None:
    assert finished({point: 1, 6: 14}).result_kind() is ResultKind.BACKGAMMON


def test_result_kind_seen_from_either_side() -> None:
    won = finished({BAR: 1, 6: 14})
    assert won.swapped().result_kind() is ResultKind.BACKGAMMON  # the loser to move: same result


def test_result_kind_of_an_unfinished_game_is_refused() -> None:
    with pytest.raises(InvalidPositionError, match="not over"):
        Position.initial().result_kind()


def test_result_kind_values_are_the_multipliers() -> None:
    assert [int(k) for k in ResultKind] == [1, 2, 3]


@pytest.mark.parametrize(
    ("loser", "kind"),
    [({6: 14}, ResultKind.SINGLE), ({6: 15}, ResultKind.GAMMON), ({BAR: 1, 6: 14}, ResultKind.BACKGAMMON)],
)
def test_bearing_off_the_last_checker_ends_the_game_for_kind_times_cube(
    loser: dict[int, int], kind: ResultKind
) -> None:
    # Side 0 has one checker left on its 1-point; the cube is at 4, owned by side 1.
    loser_off = 15 - sum(loser.values())
    boards = (pos({1: 1}).me, Position.from_points(loser, {}, me_off=loser_off).me)
    game = GameState(boards=boards, phase=Phase.ROLL, on_roll=0, cube=CubeState(4, 1))
    over = game.apply(Roll(0, (2, 1))).apply(Move(0, "1/off"))
    assert over.phase is Phase.OVER
    assert over.outcome is not None
    assert over.outcome.winner == 0
    assert over.outcome.kind is kind
    assert over.outcome.points == 4 * int(kind)
    assert over.outcome.ended_by == "bear-off"
