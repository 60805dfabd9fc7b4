"""RULES.md "Starting layouts (variants)" and "Acey-Deucey".

Positions are hand-built in each side's own numbering (25 = bar, 26 = waiting to enter, Acey-Deucey only).
A waiting checker, like a checker on the bar, is written ``bar`` in play text.
"""

from __future__ import annotations

import pytest

from engine import BAR, NACKGAMMON, STANDARD, Position, ResultKind, legal_plays
from engine.actions import ChooseDouble, Double, Move, OpeningRoll, Roll
from engine.errors import IllegalActionError, InvalidPositionError
from engine.game import GameState, Phase
from engine.types import WAITING
from engine.variants import ACEY_DEUCEY, ACEY_DEUCEY_ENTER_ALL, Variant, get_variant
from tests.engine.reference import reference_results

ALL_ROLLS = [(d1, d2) for d1 in range(1, 7) for d2 in range(1, d1 + 1)]


def pos(me: dict[int, int], opp: dict[int, int] | None = None) -> Position:
    return Position.from_points(me, opp or {WAITING: 15})


def plays(position: Position, dice: tuple[int, int], *, enter_all_first: bool = False) -> set[str]:
    return {str(play) for play in legal_plays(position, dice, enter_all_first=enter_all_first)}


def side(points: dict[int, int]) -> tuple[int, ...]:
    """One side's 27 slots from {point: count} (unplaced checkers borne off)."""
    return Position.from_points(points, {}).me


def acey_game(side0: dict[int, int], side1: dict[int, int], *, variant: Variant = ACEY_DEUCEY) -> GameState:
    """An Acey-Deucey game with side 0 about to roll."""
    return GameState(boards=(side(side0), side(side1)), variant=variant, phase=Phase.ROLL, on_roll=0)


# -- Layouts -----------------------------------------------------------------------------------------------------


def test_standard_layout_and_pips() -> None:
    start = Position.initial(STANDARD)
    assert {p: start.me[p] for p in range(1, 25) if start.me[p]} == {24: 2, 13: 5, 8: 3, 6: 5}
    assert start.me == start.opp
    assert start.pips() == (167, 167)
    assert STANDARD.pips == 167
    assert start.gnubg_id() == "4HPwATDgc/ABMA"


def test_nackgammon_layout_and_pips() -> None:
    start = Position.initial(NACKGAMMON)
    assert {p: start.me[p] for p in range(1, 25) if start.me[p]} == {24: 2, 23: 2, 13: 4, 8: 3, 6: 4}
    assert start.pips() == (194, 194)
    assert NACKGAMMON.pips == 194


def test_seed_000_nackgammon_transcription_is_not_the_variant() -> None:
    # "4 on 24, 1 on 23, 2 on 13, 3 on 8, 5 on 6" is 199 pips; the built-in Nackgammon is the standard 194.
    assert NACKGAMMON.layout != {24: 4, 23: 1, 13: 2, 8: 3, 6: 5}
    assert Variant.custom("seed-000", {24: 4, 23: 1, 13: 2, 8: 3, 6: 5}).pips == 199


@pytest.mark.parametrize("variant", [ACEY_DEUCEY, ACEY_DEUCEY_ENTER_ALL])
def test_acey_deucey_starts_with_all_fifteen_waiting(variant: Variant) -> None:
    start = Position.initial(variant)
    assert start.me[WAITING] == start.opp[WAITING] == 15
    assert sum(start.me[1:26]) == sum(start.opp[1:26]) == 0


def test_enter_all_first_is_off_by_default() -> None:
    assert ACEY_DEUCEY.enter_all_first is False
    assert ACEY_DEUCEY_ENTER_ALL.enter_all_first is True


@pytest.mark.parametrize(
    ("name", "variant"),
    [("standard", STANDARD), ("Backgammon", STANDARD), ("nackgammon", NACKGAMMON), ("Acey Deucey", ACEY_DEUCEY)],
)
def test_built_in_variants_by_name(name: str, variant: Variant) -> None:
    assert get_variant(name) == variant


def test_unknown_variant_name_lists_the_known_ones() -> None:
    with pytest.raises(InvalidPositionError, match=r"unknown variant.*nackgammon"):
        get_variant("hypergammon-9")


# -- Custom layouts ----------------------------------------------------------------------------------------------


def test_custom_layout_is_a_variant_of_its_own() -> None:
    variant = Variant.custom("Director's special", {24: 3, 13: 4, 8: 3, 6: 5})
    start = Position.initial(variant)
    assert start.pips() == (3 * 24 + 4 * 13 + 3 * 8 + 5 * 6,) * 2
    game = GameState.new(variant).apply(OpeningRoll((6, 5)))
    assert "24/13" in {str(p) for p in game.legal_plays()}


@pytest.mark.parametrize(
    ("layout", "message"),
    [
        ({24: 2, 13: 5, 8: 3, 6: 4}, r"15 checkers.*14"),
        ({24: 2, 13: 5, 8: 3, 6: 6}, r"15 checkers.*16"),
        ({24: 2, 1: 13}, "same point"),  # my 1-point is the opponent's 24-point
        ({13: 5, 12: 10}, "same point"),  # 12 and the opponent's 13
        ({0: 15}, "not a point"),
        ({27: 15}, "not a point"),
        ({24: -1, 13: 16}, "negative"),
        ({WAITING: 15}, "only Acey-Deucey"),
    ],
)
def test_custom_layouts_are_validated_with_clear_messages(layout: dict[int, int], message: str) -> None:
    with pytest.raises(InvalidPositionError, match=message):
        Variant.custom("bad", layout)


# -- Acey-Deucey: entering ----------------------------------------------------------------------------------------


def test_acey_deucey_entering_uses_the_bar_entry_points() -> None:
    # Die n enters on the mover's (25 - n)-point with the bar's blocking rules: the opponent holds its 4-point,
    # so the 4 cannot enter on 21; the 3 enters on 22 and the 4 then moves that checker on.
    legal = legal_plays(pos({WAITING: 15}, {4: 2, WAITING: 13}), (4, 3))
    assert {str(p) for p in legal} == {"bar/18"}
    assert [(s.src, s.dst) for s in legal[0].steps] == [(WAITING, 22), (22, 18)]


def test_acey_deucey_entered_checkers_move_while_others_wait_by_default() -> None:
    # 14 waiting, one on 20: enter both, enter one and move, or move the entered checker with both dice.
    assert plays(pos({WAITING: 14, 20: 1}), (6, 5)) == {"bar/20 bar/19", "bar/19 20/15", "bar/14", "20/9"}


def test_acey_deucey_enter_all_option_forbids_moving_while_checkers_wait() -> None:
    position = pos({WAITING: 14, 20: 1})
    assert plays(position, (6, 5), enter_all_first=True) == {"bar/20 bar/19"}


def test_acey_deucey_enter_all_option_frees_the_board_once_the_last_checker_entered() -> None:
    # One waiting: it enters first, then the other die may move any checker (the entered one included).
    position = pos({WAITING: 1, 20: 14})
    assert plays(position, (6, 5), enter_all_first=True) == {"bar/14", "bar/19 20/15"}
    # Without the option the waiting checker may stay out while the others move.
    assert plays(position, (6, 5)) == {"bar/14", "bar/19 20/15", "20/15 20/14", "20/9"}


def test_acey_deucey_enter_all_is_applied_by_the_game_state() -> None:
    start = GameState.new(ACEY_DEUCEY_ENTER_ALL)
    game = start.apply(OpeningRoll((6, 5))).apply(Move(0, "bar/20 bar/19"))
    game = game.apply(Roll(1, (4, 3))).apply(Move(1, "bar/22 bar/21")).apply(Roll(0, (6, 5)))
    assert {str(p) for p in game.legal_plays()} == {"bar/20 bar/19"}


def test_acey_deucey_waiting_checkers_are_not_on_the_bar() -> None:
    # Every entry point is closed, yet the entered checkers on 10 may move: waiting is not the bar.
    closed = {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, WAITING: 3}
    assert plays(pos({WAITING: 13, 10: 2}, closed), (6, 5)) == {"10/5 10/4"}


def test_acey_deucey_hit_checker_on_the_bar_enters_before_waiting_checkers_or_others_move() -> None:
    # The 6 cannot enter (19 is blocked); the bar checker must take the 5, so no play leaves it on the bar and no
    # play enters a waiting checker with the 5 instead.
    position = pos({BAR: 1, WAITING: 13, 10: 1}, {6: 2, WAITING: 13})
    legal = legal_plays(position, (6, 5))
    assert {str(p) for p in legal} == {"bar/14", "bar/20 10/4"}
    assert all(after.me[BAR] == 0 and after.me[WAITING] == 13 for after in legal.positions())


def test_acey_deucey_bar_checker_that_cannot_enter_freezes_everything() -> None:
    position = pos({BAR: 1, WAITING: 13, 10: 1}, {6: 2, 5: 2, WAITING: 11})
    assert plays(position, (6, 5)) == set()


# -- Acey-Deucey: bearing off and scoring ---------------------------------------------------------------------


def test_acey_deucey_no_bear_off_until_all_fifteen_entered() -> None:
    # One checker still waiting and both its entry points closed: the 6 cannot bear off, only 6/1 is legal.
    assert plays(pos({WAITING: 1, 6: 14}, {6: 2, 5: 2, WAITING: 11}), (6, 5)) == {"6/1"}


def test_acey_deucey_bear_off_after_the_last_checker_enters_and_comes_home() -> None:
    legal = legal_plays(pos({WAITING: 1, 6: 14}), (6, 6))
    # bar/19/13/7/1 uses all four 6s; nothing can be borne off in that play.
    assert {str(p) for p in legal} == {"bar/1"}


def test_acey_deucey_unentered_checkers_count_as_backgammon() -> None:
    lost = Position.from_points({}, {WAITING: 1, 10: 14})
    assert lost.result_kind() is ResultKind.BACKGAMMON
    saved = Position.from_points({}, {WAITING: 1, 6: 13})  # one borne off: a single game
    assert saved.result_kind() is ResultKind.SINGLE


def test_acey_deucey_positions_agree_with_the_reference_generator() -> None:
    positions = [
        pos({WAITING: 14, 20: 1}),
        pos({WAITING: 13, 10: 2}, {1: 2, 3: 2, WAITING: 11}),
        pos({BAR: 1, WAITING: 5, 18: 3, 6: 6}, {2: 2, 5: 1, WAITING: 12}),
        pos({WAITING: 1, 6: 5, 4: 5, 1: 4}, {WAITING: 15}),
    ]
    for position in positions:
        for dice in ALL_ROLLS:
            for enter_all in (False, True):
                got = set(legal_plays(position, dice, enter_all_first=enter_all).positions())
                assert got == reference_results(position, dice, enter_all), (position, dice, enter_all)


# -- Acey-Deucey: the 1-2 roll -------------------------------------------------------------------------------------


def test_acey_deucey_one_two_then_choose_a_double_then_roll_again() -> None:
    game = GameState.new(ACEY_DEUCEY).apply(OpeningRoll((2, 1)))
    assert game.phase is Phase.MOVE
    assert {str(p) for p in game.legal_plays()} == {"bar/24 bar/23", "bar/22"}

    game = game.apply(Move(0, "bar/24 bar/23"))
    assert game.phase is Phase.CHOOSE_DOUBLE
    assert game.actor == 0
    assert game.legal_action_kinds() == ["choose-double"]
    for refused in (Double(0), Roll(0, (3, 3)), ChooseDouble(1, 6), ChooseDouble(0, 7), ChooseDouble(0, 0)):
        with pytest.raises(IllegalActionError):
            game.apply(refused)

    game = game.apply(ChooseDouble(0, 6))
    assert game.phase is Phase.MOVE
    assert game.dice == (6, 6)
    assert legal_plays(game.position(), (6, 6)).max_dice == 4

    game = game.apply(Move(0, "bar/19(4)"))
    assert game.phase is Phase.ROLL
    assert game.on_roll == 0  # the same player rolls again
    assert not game.may_double(0)
    assert game.legal_action_kinds() == ["roll", "resign"]
    with pytest.raises(IllegalActionError, match="extra roll"):
        game.apply(Double(0))
    with pytest.raises(IllegalActionError):
        game.apply(Roll(1, (3, 1)))

    game = game.apply(Roll(0, (5, 3))).apply(Move(0, "bar/22 bar/20"))
    assert game.phase is Phase.ROLL
    assert game.on_roll == 1  # after the extra roll the turn passes as usual
    assert game.may_double(1)


def test_acey_deucey_one_two_partly_unplayable_forfeits_the_double_and_the_extra_roll() -> None:
    # Side 1 holds its 2- and 3-points: the 2 cannot enter, and after bar/24 the 2 (24/22) is blocked.
    game = acey_game({WAITING: 15}, {2: 2, 3: 2, WAITING: 11}).apply(Roll(0, (1, 2)))
    assert {str(p) for p in game.legal_plays()} == {"bar/24"}
    game = game.apply(Move(0, "bar/24"))
    assert game.phase is Phase.ROLL
    assert game.on_roll == 1


def test_acey_deucey_one_two_with_no_play_passes_the_turn() -> None:
    game = acey_game({WAITING: 15}, {1: 2, 2: 2, WAITING: 11}).apply(Roll(0, (2, 1)))
    assert len(game.legal_plays()) == 0
    game = game.apply(Move(0, ""))
    assert game.phase is Phase.ROLL
    assert game.on_roll == 1


def test_acey_deucey_chosen_double_partly_unplayable_forfeits_the_extra_roll() -> None:
    # Side 1 holds its 6-, 8- and 13-points (the mover's 19, 17 and 12): after bar/24 bar/23 only one 6 moves.
    game = acey_game({WAITING: 15}, {6: 2, 8: 2, 13: 2, WAITING: 9}).apply(Roll(0, (1, 2)))
    game = game.apply(Move(0, "bar/24 bar/23")).apply(ChooseDouble(0, 6))
    assert {str(p) for p in game.legal_plays()} == {"24/18"}
    game = game.apply(Move(0, "24/18"))
    assert game.phase is Phase.ROLL
    assert game.on_roll == 1


def test_acey_deucey_chosen_double_not_playable_at_all_forfeits_the_extra_roll() -> None:
    game = acey_game({WAITING: 15}, {6: 2, 7: 2, 8: 2, WAITING: 9}).apply(Roll(0, (1, 2)))
    game = game.apply(Move(0, "bar/24 bar/23")).apply(ChooseDouble(0, 6))
    assert len(game.legal_plays()) == 0
    game = game.apply(Move(0, ""))
    assert game.phase is Phase.ROLL
    assert game.on_roll == 1


def test_one_two_is_an_ordinary_roll_outside_acey_deucey() -> None:
    game = GameState.new(STANDARD).apply(OpeningRoll((2, 1))).apply(Move(0, "13/11 6/5"))
    assert game.phase is Phase.ROLL
    assert game.on_roll == 1
