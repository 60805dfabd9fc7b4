"""XGID codec and its conversion to GNU Backgammon IDs (engine/formats/xgid.py; FORMATS.md section 5)."""

from __future__ import annotations

import dataclasses
import doctest

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from engine.errors import InvalidPositionError, NotationError
from engine.formats import xgid as xgid_module
from engine.formats.xgid import XGID, format_xgid, parse_xgid, xgid_to_gnubg
from engine.gnubg_id import MatchIdFields, decode_match_id, decode_position_id

Side = tuple[int, ...]


def side(points: dict[int, int], bar: int = 0) -> Side:
    """25 counts from {point: checkers} in the side's own numbering."""
    slots = [0] * 25
    for point, count in points.items():
        slots[point - 1] = count
    slots[24] = bar
    return tuple(slots)


def pips(slots: Side) -> int:
    return sum((index + 1) * count for index, count in enumerate(slots))


START = side({6: 5, 8: 3, 13: 5, 24: 2})

START_XGID = "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10"
EXPORT_XGID = "XGID=-aAaBaDaB---bD-b-A-cA-b-b-:0:0:1:00:2:4:0:9:10"
RACE_XGID = "XGID=-CDB------------------cdc-:1:-1:1:52:3:1:0:5:10"


def test_doctests() -> None:
    assert doctest.testmod(xgid_module).failed == 0


# -- Worked examples (FORMATS.md section 5) ------------------------------------------------------------------


def test_start_position() -> None:
    x = parse_xgid(START_XGID)
    assert x == XGID(
        bottom=START,
        top=START,
        cube_value=1,
        cube_owner=0,
        turn=1,
        dice=(5, 2),
        score_x=0,
        score_o=0,
        crawford_or_rules=0,
        match_length=0,
        max_cube_log=10,
    )
    assert format_xgid(x) == START_XGID
    assert xgid_to_gnubg(x) == ("4HPwATDgc/ABMA", "cIkKAAAAAAAE")


def test_xg_export_example() -> None:
    x = parse_xgid(EXPORT_XGID)
    assert (pips(x.bottom), pips(x.top)) == (139, 156)  # "Pip count X: 139 O: 156"
    assert (x.match_length, x.score_x, x.score_o, x.cube_owner, x.turn, x.dice) == (9, 2, 4, 0, 1, None)
    assert format_xgid(x) == EXPORT_XGID
    assert xgid_to_gnubg(x) == ("Mw5jkCQyz+AhAg", "cAkgAUAAEAAE")


def test_race_example() -> None:
    x = parse_xgid(RACE_XGID)
    assert x.bottom == side({1: 3, 2: 4, 3: 2})
    assert x.top == side({1: 3, 2: 4, 3: 3})
    assert (pips(x.bottom), pips(x.top)) == (17, 20)
    assert (x.cube_value, x.cube_owner, x.match_length, x.score_x, x.score_o) == (2, -1, 5, 3, 1)
    assert format_xgid(x) == RACE_XGID
    assert xgid_to_gnubg(x) == ("9w4AALg3AAAAAA", "QYmqABAAGAAE")


def test_race_example_match_id_fields() -> None:
    # O (gnubg player 0) owns the 2-cube; X (player 1) is on roll with 52; scores are (O, X).
    fields = decode_match_id(xgid_to_gnubg(parse_xgid(RACE_XGID))[1])
    assert fields == MatchIdFields(
        cube_value=2,
        cube_owner=0,
        player_on_roll=1,
        crawford=False,
        game_state=1,
        turn=1,
        double_offered=False,
        resignation=0,
        dice=(5, 2),
        match_length=5,
        score=(1, 3),
        jacoby=False,
    )


def test_prefix_is_optional_and_case_insensitive() -> None:
    bare = START_XGID.removeprefix("XGID=")
    assert parse_xgid(bare) == parse_xgid(START_XGID) == parse_xgid("  xgid=" + bare + "\n")


def test_nine_field_form_gets_max_cube_ten() -> None:
    x = parse_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0")
    assert x.max_cube_log == 10
    assert format_xgid(x) == START_XGID


# -- Field mapping -------------------------------------------------------------------------------------------


def test_position_characters_map_to_both_numberings() -> None:
    # char 0 = O's bar, char 25 = X's bar, an O checker on char i is on O's point 25 - i.
    position = "c-A" + "-" * 22 + "B"
    x = parse_xgid(f"{position}:0:0:1:00:0:0:0:0:10")
    assert x.top == side({}, bar=3)
    assert x.bottom == side({2: 1}, bar=2)
    x = parse_xgid("-a----------------------n-:0:0:1:00:0:0:0:0:10")
    assert x.top == side({24: 1, 1: 14})


def test_o_on_roll_puts_o_second_in_the_position_id() -> None:
    x = dataclasses.replace(parse_xgid(RACE_XGID), turn=-1)
    position_id, match_id = xgid_to_gnubg(x)
    assert decode_position_id(position_id) == (x.bottom, x.top)
    fields = decode_match_id(match_id)
    assert (fields.player_on_roll, fields.turn) == (0, 0)


def test_pending_double_passes_the_turn() -> None:
    # Dice "D": the side whose turn it is has doubled; the other side must take or pass (gnubg's SetXGID).
    x = parse_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:1:D:0:0:0:5:10")
    assert x.dice == "double"
    assert format_xgid(x) == "XGID=-b----E-C---eE---c-e----B-:0:0:1:D:0:0:0:5:10"
    position_id, match_id = xgid_to_gnubg(x)
    fields = decode_match_id(match_id)
    assert (fields.player_on_roll, fields.turn, fields.double_offered, fields.dice) == (1, 0, True, None)
    assert decode_position_id(position_id) == (x.top, x.bottom)


@pytest.mark.parametrize(("xg_owner", "gnubg_owner"), [(1, 1), (-1, 0), (0, None)])
def test_cube_owner_mapping(xg_owner: int, gnubg_owner: int | None) -> None:
    x = dataclasses.replace(parse_xgid(RACE_XGID), cube_owner=xg_owner)
    assert decode_match_id(xgid_to_gnubg(x)[1]).cube_owner == gnubg_owner


def test_crawford_flag_in_match_play() -> None:
    x = parse_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:4:2:1:5:10")
    fields = decode_match_id(xgid_to_gnubg(x)[1])
    assert fields.crawford
    assert not fields.jacoby


@pytest.mark.parametrize(("rules", "jacoby"), [(0, False), (1, True), (2, False), (3, True)])
def test_money_rules_bits_give_jacoby(rules: int, jacoby: bool) -> None:
    x = dataclasses.replace(parse_xgid(START_XGID), crawford_or_rules=rules)
    fields = decode_match_id(xgid_to_gnubg(x)[1])
    assert fields.jacoby is jacoby
    assert not fields.crawford


def test_dice_keep_their_written_order_but_gnubg_stores_the_larger_first() -> None:
    x = parse_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:1:25:0:0:0:0:10")
    assert x.dice == (2, 5)
    assert format_xgid(x).endswith(":1:25:0:0:0:0:10")
    assert xgid_to_gnubg(x)[1] == "cIkKAAAAAAAE"


# -- Errors --------------------------------------------------------------------------------------------------

POSITION = "-b----E-C---eE---c-e----B-"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (f"{POSITION}:0:0:1:52:0:0:0", "10 colon-separated fields"),
        (f"{POSITION}:0:0:1:52:0:0:0:0:10:0", "10 colon-separated fields"),
        ("", "10 colon-separated fields"),
        (f"{POSITION[1:]}:0:0:1:52:0:0:0:0:10", "26 characters"),
        (f"{POSITION[:5]}Q{POSITION[6:]}:0:0:1:52:0:0:0:0:10", "character 5 is 'Q'"),
        (f"{POSITION[:5]}*{POSITION[6:]}:0:0:1:52:0:0:0:0:10", "character 5 is '\\*'"),
        (f"A{POSITION[1:]}:0:0:1:52:0:0:0:0:10", "X checkers \\('A'\\) cannot be on O's bar"),
        (f"{POSITION[:25]}a:0:0:1:52:0:0:0:0:10", "O checkers \\('a'\\) cannot be on X's bar"),
        (f"{POSITION}:x:0:1:52:0:0:0:0:10", "cube field 'x'"),
        (f"{POSITION}:01:0:1:52:0:0:0:0:10", "cube field '01'"),
        (f"{POSITION}:16:0:1:52:0:0:0:0:10", "cube field 16"),
        (f"{POSITION}:0:2:1:52:0:0:0:0:10", "cube position 2"),
        (f"{POSITION}:0:0:0:52:0:0:0:0:10", "turn 0"),
        (f"{POSITION}:0:0:+1:52:0:0:0:0:10", "turn field"),
        (f"{POSITION}:0:0:1:B:0:0:0:0:10", "beaver/raccoon"),
        (f"{POSITION}:0:0:1:R:0:0:0:0:10", "beaver/raccoon"),
        (f"{POSITION}:0:0:1:72:0:0:0:0:10", "dice field '72'"),
        (f"{POSITION}:0:0:1:5:0:0:0:0:10", "dice field '5'"),
        (f"{POSITION}:0:0:1:52:-1:0:0:0:10", "cannot be negative"),
        (f"{POSITION}:0:0:1:52:5:0:0:5:10", "no game to play in a 5-point match"),
        (f"{POSITION}:0:0:1:52:0:0:2:5:10", "Crawford field 2"),
        (f"{POSITION}:0:0:1:52:0:0:4:0:10", "rules field 4"),
        (f"{POSITION}:0:0:1:52:0:0:0:0:16", "max cube 16"),
    ],
)
def test_notation_errors(text: str, message: str) -> None:
    with pytest.raises(NotationError, match=message):
        parse_xgid(text)


def test_sixteen_checkers_is_an_invalid_position() -> None:
    with pytest.raises(InvalidPositionError, match="X has 16 checkers"):
        parse_xgid("-b----F-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10")


def test_both_on_the_bar_against_closed_boards_is_an_invalid_position() -> None:
    with pytest.raises(InvalidPositionError, match="closed home boards"):
        parse_xgid("aBBBBBB" + "-" * 12 + "bbbbbbA:0:0:1:00:0:0:0:0:10")


def test_format_refuses_a_shared_point() -> None:
    x = dataclasses.replace(parse_xgid(START_XGID), top=side({6: 5, 8: 3, 13: 4, 19: 1, 24: 2}))
    with pytest.raises(InvalidPositionError, match="O's 19-point \\(X's 6-point\\)"):
        format_xgid(x)


@pytest.mark.parametrize(
    ("change", "message"),
    [({"cube_value": 3}, "cube value 3"), ({"dice": (0, 7)}, "dice"), ({"turn": 0}, "turn 0")],
)
def test_format_refuses_out_of_range_fields(change: dict[str, object], message: str) -> None:
    with pytest.raises(NotationError, match=message):
        format_xgid(dataclasses.replace(parse_xgid(START_XGID), **change))  # type: ignore[arg-type]


# -- Properties ----------------------------------------------------------------------------------------------


@st.composite
def xgids(draw: st.DrawFn) -> XGID:
    """Legal XGIDs: up to 15 checkers a side on points or the bar, no shared point, fields in range."""
    bottom = [0] * 25
    top = [0] * 25
    for slots, other in ((bottom, top), (top, bottom)):
        allowed = [i for i in range(24) if not other[23 - i]] + [24]
        for _ in range(draw(st.integers(0, 15))):
            slots[draw(st.sampled_from(allowed))] += 1
    closed = all(bottom[i] >= 2 and top[i] >= 2 for i in range(6))
    assume(not (closed and bottom[24] and top[24]))
    match_length = draw(st.one_of(st.just(0), st.integers(1, 25)))
    if match_length:
        scores = st.integers(0, match_length - 1)
        rules = draw(st.integers(0, 1))
    else:
        scores = st.integers(0, 50)
        rules = draw(st.integers(0, 3))
    dice = st.tuples(st.integers(1, 6), st.integers(1, 6))
    return XGID(
        bottom=tuple(bottom),
        top=tuple(top),
        cube_value=1 << draw(st.integers(0, 15)),
        cube_owner=draw(st.sampled_from([-1, 0, 1])),
        turn=draw(st.sampled_from([-1, 1])),
        dice=draw(st.one_of(st.none(), st.just("double"), dice)),
        score_x=draw(scores),
        score_o=draw(scores),
        crawford_or_rules=rules,
        match_length=match_length,
        max_cube_log=draw(st.integers(0, 15)),
    )


@given(xgids())
def test_xgid_round_trip(x: XGID) -> None:
    text = format_xgid(x)
    assert parse_xgid(text) == x
    assert format_xgid(parse_xgid(text.removeprefix("XGID="))) == text


@given(xgids())
def test_gnubg_conversion_is_consistent(x: XGID) -> None:
    position_id, match_id = xgid_to_gnubg(x)
    fields = decode_match_id(match_id)
    x_on_roll = x.turn == 1
    expected_board = (x.top, x.bottom) if x_on_roll else (x.bottom, x.top)
    assert decode_position_id(position_id) == expected_board
    assert fields.player_on_roll == int(x_on_roll)
    assert fields.turn == (1 - fields.player_on_roll if x.dice == "double" else fields.player_on_roll)
    assert fields.score == (x.score_o, x.score_x)
    assert fields.cube_value == x.cube_value
    assert fields.match_length == x.match_length
    assert fields.game_state == 1
    if isinstance(x.dice, tuple):
        assert fields.dice == (max(x.dice), min(x.dice))
    else:
        assert fields.dice is None
