"""RULES.md "Board and orientation", "The opening roll" and "Moving": one test (or more) per clause.

Every position is built by hand with ``Position.from_points`` in each side's own numbering (the mover's point p is
the opponent's point 25 - p; 25 is the bar). Checkers not placed are borne off, so a side with a single checker on
its 20-point has 14 off; that never matters for these rules because a checker outside the home board forbids
bearing off. Expected plays are written as GNU Backgammon's canonical text.
"""

from __future__ import annotations

import pytest

from engine import BAR, Position, legal_plays
from engine.actions import Double, Move, OpeningRoll, Roll, Take
from engine.errors import IllegalActionError
from engine.game import GameState, Phase
from engine.notation import parse_play
from tests.engine.reference import reference_results

ALL_ROLLS = [(d1, d2) for d1 in range(1, 7) for d2 in range(1, d1 + 1)]


def pos(me: dict[int, int], opp: dict[int, int] | None = None) -> Position:
    """The mover's and the opponent's checkers as {point: count}, each in its own numbering."""
    return Position.from_points(me, opp or {})


def plays(position: Position, dice: tuple[int, int]) -> set[str]:
    return {str(play) for play in legal_plays(position, dice)}


def result_of(position: Position, text: str, dice: tuple[int, int]) -> Position:
    return parse_play(text, position, dice).apply(position)


# -- Board and orientation -----------------------------------------------------------------------------------------


def test_the_mover_moves_from_high_points_to_low_points() -> None:
    assert plays(pos({20: 1}), (2, 1)) == {"20/17"}
    assert all(step.dst < step.src for play in legal_plays(pos({20: 1}), (2, 1)) for step in play.steps)


def test_the_movers_point_p_is_the_opponents_point_25_minus_p() -> None:
    # The opponent's two checkers on its own 8-point stand on the mover's 17-point.
    position = pos({20: 1}, {8: 2})
    assert position.checkers_at(17) == -2
    assert plays(position, (3, 3)) == set()  # 20/17 is the only first step and it is blocked


# -- The opening roll --------------------------------------------------------------------------------------------


def test_opening_roll_with_equal_dice_is_thrown_again() -> None:
    game = GameState.new()
    with pytest.raises(IllegalActionError, match="equal dice"):
        game.apply(OpeningRoll((4, 4)))
    assert game.phase is Phase.OPENING


@pytest.mark.parametrize(("dice", "winner", "roll"), [((6, 1), 0, (6, 1)), ((2, 5), 1, (5, 2))])
def test_opening_roll_higher_die_moves_first_with_both_numbers(
    dice: tuple[int, int], winner: int, roll: tuple[int, int]
) -> None:
    game = GameState.new().apply(OpeningRoll(dice))
    assert game.phase is Phase.MOVE
    assert game.on_roll == winner == game.actor
    assert sorted(game.dice or ()) == sorted(roll)
    assert legal_plays(game.position(), roll).max_dice == 2  # both numbers are played


def test_opening_roll_is_never_a_double() -> None:
    with pytest.raises(IllegalActionError, match="cannot be a double"):
        GameState.new().apply(Roll(0, (3, 3)))


def test_no_automatic_doubles_jacoby_or_beavers_in_match_play() -> None:
    game = GameState.new()
    with pytest.raises(IllegalActionError):
        game.apply(OpeningRoll((5, 5)))  # equal opening dice are thrown again: the cube is not turned
    game = game.apply(OpeningRoll((3, 1))).apply(Move(0, "8/5 6/5"))
    assert game.cube.value == 1
    offered = game.apply(Double(1))
    assert offered.legal_action_kinds() == ["take", "drop"]  # no beaver
    assert offered.apply(Take(0)).cube.value == 2


# -- Each die moves one checker; one checker may take both dice ------------------------------------------------


def test_each_die_moves_one_checker_by_its_number() -> None:
    # Two lone checkers and 3-1: either checker takes both dice, or one takes the 3 and the other the 1.
    assert plays(pos({20: 1, 15: 1}), (3, 1)) == {"20/16", "15/11", "20/17 15/14", "20/19 15/12"}


def test_one_checker_may_take_both_dice_through_an_open_intermediate_point() -> None:
    # The 17-point is blocked, the 19-point open: 20/19/16 is the way round.
    position = pos({20: 1}, {25 - 17: 2})
    (play,) = legal_plays(position, (3, 1))
    assert str(play) == "20/16"
    assert [(s.src, s.dst) for s in play.steps] == [(20, 19), (19, 16)]


def test_one_checker_cannot_jump_when_both_intermediate_points_are_blocked() -> None:
    # 20/16 with 3-1 would land on 17 or 19 on the way; both are blocked, 16 itself is open.
    position = pos({20: 1}, {25 - 17: 2, 25 - 19: 2})
    assert plays(position, (3, 1)) == set()
    assert position.checkers_at(16) == 0


def test_start_position_six_five_plays_by_hand() -> None:
    # 6s: 24/18, 13/7, 8/2 (6/off is not allowed). 5s: 13/8, 8/3 (24/19 and 6/1 are blocked).
    assert plays(Position.initial(), (6, 5)) == {
        "24/13",
        "24/18 13/8",
        "24/18 8/3",
        "13/8 13/7",
        "13/7 8/3",
        "13/2",
        "8/3 8/2",
    }


def test_start_position_five_five_plays_by_hand() -> None:
    # Only 13/8 and 8/3 move a 5: four steps split between them, never more 8/3 steps than checkers on 8.
    assert plays(Position.initial(), (5, 5)) == {"13/8(4)", "13/3 13/8(2)", "13/3(2)", "13/3 8/3(2)"}


@pytest.mark.parametrize("dice", ALL_ROLLS, ids=[f"{a}{b}" for a, b in ALL_ROLLS])
def test_start_position_all_21_rolls_agree_with_the_reference_generator(dice: tuple[int, int]) -> None:
    start = Position.initial()
    legal = legal_plays(start, dice)
    positions = legal.positions()
    assert len(positions) == len(set(positions)), "one play per resulting position"
    assert set(positions) == reference_results(start, dice)
    assert legal.max_dice == (4 if dice[0] == dice[1] else 2)


# Distinct plays (by resulting position) from the start, as GNU Backgammon 1.07 lists them in
# tests/engine/data/gnubg/movegen.txt (the line for 4HPwATDgc/ABMA with each roll).
GNUBG_START_COUNTS = {
    (6, 6): 11, (6, 5): 7, (6, 4): 14, (6, 3): 14, (6, 2): 14, (6, 1): 10,
    (5, 5): 4, (5, 4): 9, (5, 3): 9, (5, 2): 8, (5, 1): 8,
    (4, 4): 52, (4, 3): 17, (4, 2): 18, (4, 1): 14,
    (3, 3): 73, (3, 2): 17, (3, 1): 16,
    (2, 2): 75, (2, 1): 15,
    (1, 1): 42,
}  # fmt: skip


@pytest.mark.parametrize("dice", ALL_ROLLS, ids=[f"{a}{b}" for a, b in ALL_ROLLS])
def test_start_position_play_counts_match_gnubg(dice: tuple[int, int]) -> None:
    assert len(legal_plays(Position.initial(), dice)) == GNUBG_START_COUNTS[dice]
    assert len(legal_plays(Position.initial(), (dice[1], dice[0]))) == GNUBG_START_COUNTS[dice]


# -- Doubles -----------------------------------------------------------------------------------------------------


def test_doubles_are_played_four_times() -> None:
    (play,) = legal_plays(pos({20: 1}), (2, 2))
    assert str(play) == "20/12"
    assert len(play) == 4


def test_doubles_four_steps_shared_between_two_checkers() -> None:
    assert plays(pos({20: 1, 10: 1}), (2, 2)) == {"20/12", "20/14 10/8", "20/16 10/6", "20/18 10/4", "10/2"}


# -- Open and blocked points ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("opponent_on_8", "expected"),
    [
        (0, {"10/2"}),  # empty: open
        (1, {"10/8*/2"}),  # a blot: open, and hit
        (2, set()),  # two: blocked, and every 2 from 10 lands there first
        (3, set()),
    ],
)
def test_a_point_is_open_when_empty_or_a_blot_and_blocked_by_two_or_more(
    opponent_on_8: int, expected: set[str]
) -> None:
    opp = {25 - 8: opponent_on_8} if opponent_on_8 else {}
    assert plays(pos({10: 1}, opp), (2, 2)) == expected


def test_a_point_holding_own_checkers_is_open() -> None:
    # 10/9 10/8 needs the 2 to land on the mover's own 8-point (the only way to reach that position).
    assert plays(pos({10: 2, 8: 1}), (2, 1)) == {"10/7", "10/9 10/8", "10/9 8/6", "8/5"}


def test_blocked_landing_point_for_a_single_die() -> None:
    # 6-1 with the 14-point blocked: 20/14 is impossible, but 20/19/13 goes round it and 9/3 plays the 6.
    position = pos({20: 1, 9: 1}, {25 - 14: 2})
    assert plays(position, (6, 1)) == {"20/13", "20/19 9/3", "9/2"}


# -- Hitting -------------------------------------------------------------------------------------------------------


def test_landing_on_a_blot_hits_it_to_its_owners_bar() -> None:
    position = pos({13: 2}, {25 - 9: 1, 6: 5})
    after = result_of(position, "13/9* 13/12", (4, 1))
    assert after.opp[BAR] == 1
    assert after.opp[25 - 9] == 0
    assert after.me[9] == 1


def test_a_hit_on_the_way_makes_a_different_play_from_the_quiet_route() -> None:
    # 13/9*/8 and 13/12/8 end on the same point; only one of them hits.
    position = pos({13: 1}, {25 - 9: 1, 6: 5})
    results = {str(p): p.apply(position) for p in legal_plays(position, (4, 1))}
    assert set(results) == {"13/9*/8", "13/8"}
    assert results["13/9*/8"].opp[BAR] == 1
    assert results["13/9*/8"].opp[25 - 9] == 0
    assert results["13/8"].opp[BAR] == 0
    assert results["13/8"].opp[25 - 9] == 1


def test_hitting_two_blots_in_one_roll() -> None:
    position = pos({13: 2}, {25 - 9: 1, 25 - 12: 1})
    after = result_of(position, "13/9* 13/12*", (4, 1))
    assert after.opp[BAR] == 2


# -- The bar -------------------------------------------------------------------------------------------------------

CLOSED_BOARD = {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2}  # the opponent's six home points = the mover's 19..24


@pytest.mark.parametrize("dice", [(6, 5), (1, 1), (4, 2), (6, 6)])
def test_closed_board_with_a_checker_on_the_bar_has_no_play(dice: tuple[int, int]) -> None:
    legal = legal_plays(pos({BAR: 1, 13: 5, 6: 5}, CLOSED_BOARD), dice)
    assert len(legal) == 0
    assert legal.max_dice == 0


def test_die_n_enters_on_the_movers_25_minus_n_point() -> None:
    for die in range(1, 7):
        (play,) = legal_plays(pos({BAR: 1}), (die, die))
        assert play.steps[0].src == BAR
        assert play.steps[0].dst == 25 - die


def test_two_on_the_bar_one_entry_point_open_enters_one_and_stops() -> None:
    # Only the opponent's 3-point is open: the 3 enters one checker, the 5 cannot enter the other, and nothing
    # else may move while a checker is still on the bar.
    position = pos({BAR: 2, 13: 3}, {1: 2, 2: 2, 4: 2, 5: 2, 6: 2})
    legal = legal_plays(position, (3, 5))
    assert {str(p) for p in legal} == {"bar/22"}
    assert legal.max_dice == 1
    assert legal.positions()[0].me[BAR] == 1


def test_two_on_the_bar_both_dice_enter() -> None:
    assert plays(pos({BAR: 2, 13: 3}), (6, 1)) == {"bar/24 bar/19"}


def test_one_on_the_bar_enters_then_the_other_die_moves_any_checker() -> None:
    assert plays(pos({BAR: 1, 8: 1}), (4, 2)) == {"bar/19", "bar/21 8/6", "bar/23 8/4"}


def test_one_on_the_bar_with_a_blocked_entry_point_enters_with_the_other_die() -> None:
    # The 4 cannot enter (the opponent's 4-point is made); the 2 enters and then the 4 must be played.
    assert plays(pos({BAR: 1, 8: 1}, {4: 2}), (4, 2)) == {"bar/19", "bar/23 8/4"}


def test_doubles_entering_from_the_bar_then_the_rest_moves() -> None:
    legal = legal_plays(pos({BAR: 2, 13: 2}, {3: 2}), (4, 4))
    assert legal.max_dice == 4
    assert all(play.steps[0].src == BAR and play.steps[1].src == BAR for play in legal)


def test_no_checker_moves_while_one_is_on_the_bar_and_cannot_enter() -> None:
    # The 13s could move 6 and 5, but the checker on the bar cannot enter: the whole roll is lost.
    position = pos({BAR: 1, 13: 5}, {6: 2, 5: 2})
    assert plays(position, (6, 5)) == set()


# -- Must-play rules -------------------------------------------------------------------------------------------


def test_must_use_both_dice_when_some_sequence_does() -> None:
    # 10/4 alone plays the 6 but then no 5 is possible (20/15 and 4/off are not allowed); 20/14 10/5 uses both.
    position = pos({20: 1, 10: 1}, {25 - 15: 2, 25 - 9: 2})
    assert plays(position, (6, 5)) == {"20/14 10/5"}


@pytest.mark.parametrize(
    ("blocked", "expected", "dice_used"),
    [(12, "20/14", 3), (14, "20/16", 2), (16, "20/18", 1)],
)
def test_partial_doubles_play_as_many_as_possible(blocked: int, expected: str, dice_used: int) -> None:
    legal = legal_plays(pos({20: 1}, {25 - blocked: 2}), (2, 2))
    assert {str(p) for p in legal} == {expected}
    assert legal.max_dice == dice_used


def test_doubles_none_playable() -> None:
    assert plays(pos({20: 1}, {25 - 18: 2}), (2, 2)) == set()


def test_six_five_where_only_the_five_can_be_played() -> None:
    # 20/14 is blocked; 20/15 is open but 15/9 is blocked, so only one die can be played.
    legal = legal_plays(pos({20: 1}, {25 - 14: 2, 25 - 9: 2}), (6, 5))
    assert {str(p) for p in legal} == {"20/15"}
    assert legal.max_dice == 1


def test_either_die_but_not_both_plays_the_larger() -> None:
    # 20/14 and 20/15 are both open; 9 (where either would continue) is blocked: the 6 must be played.
    legal = legal_plays(pos({20: 1}, {25 - 9: 2}), (6, 5))
    assert {str(p) for p in legal} == {"20/14"}
    assert legal.max_dice == 1


def test_larger_die_rule_applies_whatever_order_the_dice_are_given() -> None:
    position = pos({20: 1}, {25 - 9: 2})
    assert plays(position, (5, 6)) == plays(position, (6, 5)) == {"20/14"}


def test_only_the_smaller_die_playable_plays_the_smaller() -> None:
    # From the bar: the 4 cannot enter; the 2 enters on 23 and 23/19 is blocked: bar/23 and nothing else.
    legal = legal_plays(pos({BAR: 1}, {4: 2, 6: 2}), (4, 2))
    assert {str(p) for p in legal} == {"bar/23"}
    assert legal.max_dice == 1


def test_no_move_at_all_gives_an_empty_collection_and_the_turn_passes() -> None:
    position = pos({20: 1}, {25 - 14: 2, 25 - 15: 2})
    legal = legal_plays(position, (6, 5))
    assert len(legal) == 0
    assert list(legal) == []
    assert legal.positions() == []
    assert len(parse_play("", position, (6, 5))) == 0  # "no move" is the only acceptable answer


def test_every_play_of_a_roll_uses_the_same_number_of_dice() -> None:
    position = pos({BAR: 1, 20: 1, 10: 1}, {25 - 9: 2, 3: 2})
    for dice in ALL_ROLLS:
        legal = legal_plays(position, dice)
        assert {len(play) for play in legal} <= {legal.max_dice}
        assert set(legal.positions()) == reference_results(position, dice)
