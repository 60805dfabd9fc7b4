"""Play notation (engine/notation.py; FORMATS.md section 6; RULES.md: refusals in words a player understands).

Reading: every written form players and programs use, matched on the resulting position. Writing: GNU
Backgammon's canonical form. Refusals: the message names the rule; the tests check its key words, so a change of
wording means a change here, which is intended.
"""

from __future__ import annotations

import pytest

from engine import BAR, OFF, AmbiguousPlayError, IllegalPlayError, NotationError, Play, Position, legal_plays
from engine.errors import EngineError
from engine.notation import format_play, parse_hops, parse_play
from engine.types import WAITING

ALL_ROLLS = [(d1, d2) for d1 in range(1, 7) for d2 in range(1, d1 + 1)]
START = Position.initial()


def pos(me: dict[int, int], opp: dict[int, int] | None = None) -> Position:
    return Position.from_points(me, opp or {})


def parsed(text: str, position: Position, dice: tuple[int, int]) -> str:
    """The canonical text of the play ``text`` describes."""
    return str(parse_play(text, position, dice))


def result(text: str, position: Position, dice: tuple[int, int]) -> Position:
    return parse_play(text, position, dice).apply(position)


def steps(*triples: tuple[int, int] | tuple[int, int, bool]) -> Play:
    return Play(tuple((t[0], t[1], t[2] if len(t) == 3 else False) for t in triples))


# Positions used for reading.
BLOT_ON_7 = pos({13: 2, 6: 2}, {25 - 7: 1})  # an opposing blot on the mover's 7-point
BLOTS_ON_7_AND_10 = pos({13: 2, 6: 2}, {25 - 7: 1, 25 - 10: 1})
ON_THE_BAR = pos({BAR: 2, 13: 3}, {1: 2, 2: 2, 3: 1, 4: 2, 5: 2, 6: 2})  # only 3 enters, hitting on 22
ONE_CHECKER_ON_6 = pos({6: 1})


# -- Reading: the written forms -------------------------------------------------------------------------------


def test_plain_moves() -> None:
    assert parsed("24/18 13/11", START, (6, 2)) == "24/18 13/11"


def test_any_order_of_the_moves() -> None:
    assert result("13/11 24/18", START, (6, 2)) == result("24/18 13/11", START, (6, 2))


def test_repeat_count() -> None:
    assert parsed("8/5(2) 6/3(2)", START, (3, 3)) == "8/5(2) 6/3(2)"
    assert parsed("8/5 8/5 6/3 6/3", START, (3, 3)) == "8/5(2) 6/3(2)"


def test_repeat_count_syntax() -> None:
    hops = parse_hops("8/5(2) 6/5(2)")
    assert [(h.src, h.dst) for h in hops] == [(8, 5), (8, 5), (6, 5), (6, 5)]


def test_one_checker_with_its_intermediate_point_written() -> None:
    assert parsed("24/18/13", START, (6, 5)) == "24/13"
    assert parsed("24/13", START, (6, 5)) == "24/13"


def test_combined_or_split_moves_of_one_checker() -> None:
    assert result("24/18 18/13", START, (6, 5)) == result("24/13", START, (6, 5))


def test_hit_through_an_intermediate_point() -> None:
    assert parsed("13/7*/4", BLOT_ON_7, (6, 3)) == "13/7*/4"
    after = result("13/7*/4", BLOT_ON_7, (6, 3))
    assert after.opp[BAR] == 1


@pytest.mark.parametrize("text", ["13/7* 6/3", "13/7 6/3", "6/3 13/7*", "6/3, 13/7"])
def test_hits_with_or_without_the_star(text: str) -> None:
    assert parsed(text, BLOT_ON_7, (6, 3)) == "13/7* 6/3"


def test_a_star_where_nothing_is_hit_is_ignored() -> None:
    assert parsed("24/18* 13/11", START, (6, 2)) == "24/18 13/11"


def test_a_written_intermediate_point_picks_the_route() -> None:
    # 13/4 with 6-3 can go via 7 or via 10, each with a blot: the written point says which blot is hit.
    assert parsed("13/7/4", BLOTS_ON_7_AND_10, (6, 3)) == "13/7*/4"
    assert parsed("13/10/4", BLOTS_ON_7_AND_10, (6, 3)) == "13/10*/4"
    assert parsed("13/10* 13/7*", BLOTS_ON_7_AND_10, (6, 3)) == "13/10* 13/7*"


def test_without_a_hit_written_the_quiet_route_is_meant() -> None:
    # Only 7 has a blot: 13/4 means 13/10/4 (no hit); 13/7*/4 is the hitting play.
    assert parsed("13/4", BLOT_ON_7, (6, 3)) == "13/4"
    assert result("13/4", BLOT_ON_7, (6, 3)).opp[BAR] == 0


@pytest.mark.parametrize("text", ["bar/22", "Bar/22*", "BAR/22*", "25/22", "25/22*", "b/22", "bar-22"])
def test_entering_from_the_bar(text: str) -> None:
    assert parsed(text, ON_THE_BAR, (3, 5)) == "bar/22*"


@pytest.mark.parametrize("text", ["6/off", "6/0", "6/o", "6/OFF", "6-off", "6-", "6/1/off", "6/1/0"])
def test_bearing_off(text: str) -> None:
    after = result(text, ONE_CHECKER_ON_6, (6, 5))
    assert after.me[OFF] == 15


def test_fibs_dash_notation() -> None:
    assert parsed("8-5 6-5", START, (3, 1)) == "8/5 6/5"
    assert parsed("b-22", ON_THE_BAR, (3, 5)) == "bar/22*"


@pytest.mark.parametrize("text", ["24/18,13/11", "24/18; 13/11", "  24/18   13/11  "])
def test_separators(text: str) -> None:
    assert parsed(text, START, (6, 2)) == "24/18 13/11"


@pytest.mark.parametrize("text", ["", "  ", "Cannot Move", "no move", "-"])
def test_no_move_written_when_no_play_exists(text: str) -> None:
    blocked = pos({20: 1}, {25 - 14: 2, 25 - 15: 2})
    assert len(parse_play(text, blocked, (6, 5))) == 0


def test_acey_deucey_waiting_checkers_are_entered_with_bar() -> None:
    position = Position.from_points({WAITING: 15}, {WAITING: 15})
    play = parse_play("bar/20 bar/19", position, (6, 5))
    assert {s.src for s in play.steps} == {WAITING}
    assert play.apply(position).me[WAITING] == 13


def test_acey_deucey_bar_and_waiting_checkers_entering_in_one_play_read_back() -> None:
    # A hit checker on the bar and a waiting checker both enter with 6-3: gnubg's words make it "bar/22 bar/19",
    # one "bar" for the checker on the bar and one for the waiting checker.
    position = Position.from_points({BAR: 1, WAITING: 14}, {WAITING: 15})
    legal = legal_plays(position, (6, 3))
    assert {str(p) for p in legal} == {"bar/22 bar/19", "bar/16"}
    after = result("bar/22 bar/19", position, (6, 3))
    assert (after.me[BAR], after.me[WAITING], after.me[22], after.me[19]) == (0, 13, 1, 1)


# -- Writing: GNU Backgammon's canonical form -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("play", "text"),
    [
        (steps((6, 5), (8, 5)), "8/5 6/5"),  # sorted by source, descending
        (steps((13, 11), (24, 18)), "24/18 13/11"),
        (steps((24, 18), (18, 13)), "24/13"),  # one checker: merged, the intermediate point dropped
        (steps((24, 18, True), (18, 13)), "24/18*/13"),  # ... unless it hit there
        (steps((13, 7, True)), "13/7*"),
        (steps((BAR, 22, True)), "bar/22*"),
        (steps((BAR, 24), (BAR, 19)), "bar/24 bar/19"),
        (steps((6, OFF), (6, OFF)), "6/off(2)"),
        (steps((6, OFF), (5, OFF)), "6/off 5/off"),
        (steps((6, 4), (6, 4), (6, 4), (6, 4)), "6/4(4)"),
        (steps((8, 5), (8, 5), (8, 5), (6, 3)), "8/5(3) 6/3"),
        (steps((13, 7), (13, 7), (8, 2), (8, 2)), "13/7(2) 8/2(2)"),
        (steps((13, 8), (13, 8), (13, 8), (8, 3)), "13/3 13/8(2)"),  # gnubg merges into the first 13/8
        (steps((WAITING, 20)), "bar/20"),
        (steps(), ""),
    ],
)
def test_canonical_text(play: Play, text: str) -> None:
    assert format_play(play) == text
    assert str(play) == text


def test_mat_form_is_one_step_per_die_in_play_order() -> None:
    assert steps((BAR, 22, True), (13, 7)).mat() == "25/22* 13/7"
    assert steps((24, 18), (18, 13)).mat() == "24/18 18/13"
    assert steps((6, OFF)).mat() == "6/0"
    assert steps((WAITING, 20)).mat() == "25/20"


# -- Round trip: every legal play reads back from its own text -------------------------------------------------

ROUND_TRIP_POSITIONS = [
    START,
    BLOT_ON_7,
    BLOTS_ON_7_AND_10,
    pos({BAR: 1, 13: 4, 8: 3, 6: 4, 2: 3}, {25 - 7: 1, 25 - 5: 1, 2: 2, 13: 5, 6: 6}),
    pos({6: 3, 5: 3, 4: 3, 3: 2, 2: 2, 1: 2}, {BAR: 1, 25 - 7: 1, 13: 13}),
    pos({8: 1, 6: 4, 5: 3, 3: 3, 1: 2}, {25 - 4: 1, 25 - 2: 1, 12: 13}),
    pos({24: 2, 20: 1, 16: 1, 11: 3, 9: 2, 7: 2, 4: 4}, {25 - 18: 1, 25 - 14: 1, 25 - 10: 1, 25 - 5: 1, 6: 11}),
    Position.from_points({WAITING: 10, 20: 2, 15: 3}, {WAITING: 12, 25 - 22: 1, 25 - 18: 2}),
]


@pytest.mark.parametrize("index", range(len(ROUND_TRIP_POSITIONS)))
def test_every_legal_play_reads_back_from_its_canonical_text(index: int) -> None:
    position = ROUND_TRIP_POSITIONS[index]
    for dice in ALL_ROLLS:
        for play in legal_plays(position, dice):
            back = parse_play(str(play), position, dice)
            assert back.apply(position) == play.apply(position), (str(play), dice)


# -- Refusals: the rule in the message --------------------------------------------------------------------------


def test_no_checker_on_the_point() -> None:
    with pytest.raises(IllegalPlayError, match="no checker on your 9-point"):
        parse_play("9/6 6/5", START, (3, 1))


def test_blocked_point() -> None:
    with pytest.raises(IllegalPlayError, match=r"19-point is blocked"):
        parse_play("24/18 24/19", START, (6, 5))


def test_must_play_both_dice() -> None:
    with pytest.raises(IllegalPlayError, match=r"must play both dice: .+ is possible"):
        parse_play("13/10", START, (3, 1))


def test_must_play_the_larger_die() -> None:
    position = pos({20: 1}, {25 - 9: 2})
    with pytest.raises(IllegalPlayError, match=r"larger die \(6\).*20/14"):
        parse_play("20/15", position, (6, 5))


def test_must_play_as_many_of_a_double_as_possible() -> None:
    position = pos({20: 1}, {25 - 14: 2})
    with pytest.raises(IllegalPlayError, match=r"1 of your 2 possible 2s.*20/16"):
        parse_play("20/18", position, (2, 2))


def test_bar_must_enter_first() -> None:
    position = pos({BAR: 1, 13: 2, 6: 2}, {3: 1})
    with pytest.raises(IllegalPlayError, match="bar must enter first"):
        parse_play("13/7 13/10", position, (6, 3))


def test_no_checker_on_the_bar() -> None:
    with pytest.raises(IllegalPlayError, match="no checker on the bar"):
        parse_play("bar/22 13/7", START, (6, 3))


def test_bear_off_with_a_checker_outside() -> None:
    position = pos({8: 1, 6: 14})
    with pytest.raises(IllegalPlayError, match="6/off is not allowed: a checker is still on your 8-point"):
        parse_play("6/off 6/1", position, (6, 5))


def test_bear_off_with_a_larger_die_while_a_higher_checker_is_home() -> None:
    position = pos({6: 2, 5: 1, 1: 1})
    with pytest.raises(IllegalPlayError, match=r"1/off is not allowed with a larger die.*6-point"):
        parse_play("1/off 5/1", position, (5, 4))


@pytest.mark.parametrize("text", ["24/21 13/11", "24/18", "6/5 6/4", "24/18 13/11 8/7"])
def test_play_that_does_not_fit_the_dice(text: str) -> None:
    with pytest.raises(IllegalPlayError, match="does not fit the roll 3-1"):
        parse_play(text, START, (3, 1))


def test_passing_when_a_play_exists() -> None:
    with pytest.raises(IllegalPlayError, match="cannot be passed"):
        parse_play("", START, (3, 1))


def test_playing_when_no_play_exists() -> None:
    blocked = pos({20: 1}, {25 - 14: 2, 25 - 15: 2})
    with pytest.raises(IllegalPlayError, match=r"no legal play.*turn passes"):
        parse_play("20/14", blocked, (6, 5))


@pytest.mark.parametrize("dice", [(7, 1), (0, 3), (6, 9)])
def test_dice_outside_one_to_six(dice: tuple[int, int]) -> None:
    with pytest.raises(NotationError, match="dice must be 1 to 6"):
        legal_plays(START, dice)


def test_ambiguous_text_lists_the_candidates() -> None:
    with pytest.raises(AmbiguousPlayError, match=r"13/10\*/4.*13/7\*/4"):
        parse_play("13/4", BLOTS_ON_7_AND_10, (6, 3))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("hello", "cannot read 'hello'"),
        ("24x18", "cannot read"),
        ("24/", "not a point"),
        ("/18", "not a point"),
        ("24//18", "not a point"),
        ("18/24", "higher to lower"),
        ("off/3", "cannot start off"),
        ("3/bar", "bar can only be where a move starts"),
        ("3/25", "only be where a move starts"),
        ("0/3", "cannot start at 0"),
        ("26/20", "26 is not a point"),
        ("24/18(5)", "1 to 4 times"),
        ("24/18(0)", "1 to 4 times"),
        ("24/18 zz", "cannot read 'zz'"),
    ],
)
def test_garbage_is_a_notation_error(text: str, message: str) -> None:
    with pytest.raises(NotationError, match=message):
        parse_play(text, START, (6, 2))


def test_error_kinds_are_engine_errors_and_distinct() -> None:
    assert issubclass(NotationError, EngineError)
    assert issubclass(IllegalPlayError, EngineError)
    assert issubclass(AmbiguousPlayError, EngineError)
    assert not issubclass(IllegalPlayError, NotationError)


def test_format_play_doctests() -> None:
    """format_play lives with the play it writes (engine/moves.py); its examples hold."""
    import doctest

    from engine import moves

    assert doctest.testmod(moves).failed == 0
