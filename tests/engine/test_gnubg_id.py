"""GNU Backgammon Position ID and Match ID codecs (engine/gnubg_id.py; FORMATS.md sections 3, 4)."""

from __future__ import annotations

import base64
import binascii
import dataclasses
import doctest
import re

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from engine import gnubg_id
from engine.errors import InvalidPositionError, NotationError
from engine.gnubg_id import (
    MatchIdFields,
    decode_match_id,
    decode_position_id,
    encode_game_match_id,
    encode_match_id,
    encode_position_id,
    split_gnubg_id,
)

Side = tuple[int, ...]


def side(points: dict[int, int], bar: int = 0) -> Side:
    """25 counts from {point: checkers} in the side's own numbering."""
    slots = [0] * 25
    for point, count in points.items():
        slots[point - 1] = count
    slots[24] = bar
    return tuple(slots)


def reference_position_id(*counts: int) -> str:
    """The Position ID built the slow way, straight from FORMATS.md section 3, with no checks."""
    bits = "".join("1" * n + "0" for n in counts).ljust(80, "0")
    key = bytes(int(bits[i : i + 8][::-1], 2) for i in range(0, 80, 8))
    return base64.b64encode(key).decode().rstrip("=")


START = side({6: 5, 8: 3, 13: 5, 24: 2})
BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
EMPTY = (0,) * 25


def test_doctests() -> None:
    assert doctest.testmod(gnubg_id).failed == 0


# -- Position ID: worked examples (FORMATS.md section 3, docs/ARCHITECTURE.md contract A) ------------------------------


def test_start_position_encodes_to_the_manual_id() -> None:
    assert encode_position_id(START, START) == "4HPwATDgc/ABMA"


def test_start_position_decodes() -> None:
    assert decode_position_id("4HPwATDgc/ABMA") == (START, START)


def test_start_key_bytes() -> None:
    # FORMATS.md: one side is 40 bits, both sides give the bytes E0 73 F0 01 30 E0 73 F0 01 30.
    assert reference_position_id(*START, *START) == "4HPwATDgc/ABMA"
    assert base64.b64decode("4HPwATDgc/ABMA==") == bytes.fromhex("E073F00130E073F00130")


def test_asymmetric_example_not_on_roll_comes_first() -> None:
    # X opened 63: 24/18 13/10; O (untouched start) is on roll. gnubg printed 4HPiQSDgc/ABMA.
    x_after = side({6: 5, 8: 3, 10: 1, 13: 4, 18: 1, 24: 1})
    assert encode_position_id(x_after, START) == "4HPiQSDgc/ABMA"
    assert decode_position_id("4HPiQSDgc/ABMA") == (x_after, START)
    assert encode_position_id(START, x_after) != "4HPiQSDgc/ABMA"


def test_design_contract_a_example() -> None:
    # From the start, 3-1 played 8/5 6/5, seen from the mover (mover second).
    mover = side({5: 2, 6: 4, 8: 2, 13: 5, 24: 2})
    assert encode_position_id(START, mover) == "4HPwATCwZ/ABMA"
    assert encode_position_id(mover, START) == "sGfwATDgc/ABMA"  # the old manual's (wrong) reading
    assert decode_position_id("4HPwATCwZ/ABMA") == (START, mover)


@pytest.mark.parametrize("text", ["jGfkASjg8wcBMA", "zGbiIQgxH/AAWA", "zGbiIYCYD3gALA"])
def test_cross_check_vectors_round_trip(text: str) -> None:
    # Vectors from wildbg / bkgm (FORMATS.md section 7).
    not_on_roll, on_roll = decode_position_id(text)
    assert sum(not_on_roll) <= 15
    assert sum(on_roll) <= 15
    assert encode_position_id(not_on_roll, on_roll) == text


def test_decode_ignores_surrounding_whitespace() -> None:
    assert decode_position_id("  4HPwATDgc/ABMA\n") == (START, START)


def test_bar_and_borne_off_checkers() -> None:
    mover = side({1: 2, 2: 2}, bar=1)  # 10 borne off
    opponent = side({20: 3}, bar=2)
    text = encode_position_id(opponent, mover)
    assert decode_position_id(text) == (opponent, mover)


def test_empty_board_is_all_separators() -> None:
    assert encode_position_id(EMPTY, EMPTY) == "AAAAAAAAAAAAAA"
    assert decode_position_id("AAAAAAAAAAAAAA") == (EMPTY, EMPTY)


# -- Position ID: errors -------------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["", "4HPwATDgc/ABM", "4HPwATDgc/ABMAA", "4HPw ATDgc/ABMA"])
def test_wrong_length_is_a_notation_error(text: str) -> None:
    with pytest.raises(NotationError, match="14 characters"):
        decode_position_id(text)


@pytest.mark.parametrize("text", ["4HPwATDgc/AB-A", "4HPwATDgc/AB=A", "4HPwATDgc/ABé1"])
def test_characters_outside_base64_are_a_notation_error(text: str) -> None:
    with pytest.raises(NotationError, match="base64 alphabet"):
        decode_position_id(text)


def test_nonzero_unused_bits_are_a_notation_error() -> None:
    with pytest.raises(NotationError, match=r"too many bits.*last character"):
        decode_position_id("4HPwATDgc/ABMB")


def test_bits_without_enough_separators_are_a_notation_error() -> None:
    with pytest.raises(NotationError, match="too many bits"):
        decode_position_id("//////////////"[:13] + "w")


def test_checker_bits_after_the_last_slot_are_a_notation_error() -> None:
    # The start position leaves bits 80.. empty; all-zero slots leave 30 padding bits, set one of them.
    key = 1 << 60
    text = binascii.b2a_base64(key.to_bytes(10, "little"), newline=False)[:14].decode()
    with pytest.raises(NotationError, match="after the last slot"):
        decode_position_id(text)


def test_sixteen_checkers_is_an_invalid_position() -> None:
    sixteen = side({6: 6, 8: 3, 13: 5, 24: 2})
    fourteen = side({6: 5, 8: 3, 13: 4, 24: 2})  # 16 + 14 checkers and 50 separators fill the 80 bits
    with pytest.raises(InvalidPositionError, match="16 checkers"):
        encode_position_id(fourteen, sixteen)
    # Build the ID by hand (the encoder refuses it) and decode it.
    text = reference_position_id(*fourteen, *sixteen)
    with pytest.raises(InvalidPositionError, match="the player on roll has 16 checkers"):
        decode_position_id(text)


def test_point_held_by_both_sides_names_the_point() -> None:
    mover = side({6: 5, 8: 3, 13: 4, 24: 2, 20: 1})  # mover's 20-point is the opponent's 5-point
    opponent = side({6: 5, 8: 3, 13: 5, 5: 2})
    message = r"the player on roll's 20-point \(the player not on roll's 5-point\)"
    with pytest.raises(InvalidPositionError, match=message):
        encode_position_id(opponent, mover)
    with pytest.raises(InvalidPositionError, match=message):
        decode_position_id(reference_position_id(*opponent, *mover))


def test_both_on_the_bar_against_closed_boards_is_invalid() -> None:
    closed = side({1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2}, bar=1)
    with pytest.raises(InvalidPositionError, match="closed home boards"):
        encode_position_id(closed, closed)


@pytest.mark.parametrize(
    ("first", "second", "message"),
    [
        (START[:24], START, "24 slots"),
        (START, (*START, 0), "26 slots"),
        (START, (-1, *START[1:]), "negative"),
    ],
)
def test_encoder_refuses_malformed_sides(first: Side, second: Side, message: str) -> None:
    with pytest.raises(InvalidPositionError, match=message):
        encode_position_id(first, second)


# -- Position ID: properties ---------------------------------------------------------------------------------


@st.composite
def boards(draw: st.DrawFn) -> tuple[Side, Side]:
    """Two legal sides: up to 15 checkers each on points or the bar, the rest off, no point shared."""
    first = [0] * 25
    second = [0] * 25
    for slots in (first, second):
        other = second if slots is first else first
        allowed = [i for i in range(24) if not other[23 - i]] + [24]
        for _ in range(draw(st.integers(0, 15))):
            slots[draw(st.sampled_from(allowed))] += 1
    closed = all(first[i] >= 2 and second[i] >= 2 for i in range(6))
    assume(not (closed and first[24] and second[24]))
    return tuple(first), tuple(second)


@given(boards())
def test_position_id_round_trip(board: tuple[Side, Side]) -> None:
    text = encode_position_id(*board)
    assert text == reference_position_id(*board[0], *board[1])
    assert decode_position_id(text) == board


@given(st.text(alphabet=BASE64, min_size=14, max_size=14))
def test_any_fourteen_characters_decode_canonically_or_raise(text: str) -> None:
    try:
        board = decode_position_id(text)
    except (NotationError, InvalidPositionError):
        return
    assert encode_position_id(*board) == text


# -- Match ID: worked examples (FORMATS.md section 4) --------------------------------------------------------

BASE = MatchIdFields(
    cube_value=1,
    cube_owner=None,
    player_on_roll=0,
    crawford=False,
    game_state=1,
    turn=0,
    double_offered=False,
    resignation=0,
    dice=None,
    match_length=0,
    score=(0, 0),
    jacoby=False,
)

MATCH_ID_EXAMPLES = {
    # Manual: 9-point match 2-4, player 0 owns a 2-cube, player 1 rolled 52 (pre-extension ID, bit 66 = 0).
    "QYkqASAAIAAA": dataclasses.replace(
        BASE,
        cube_value=2,
        cube_owner=0,
        player_on_roll=1,
        turn=1,
        dice=(5, 2),
        match_length=9,
        score=(2, 4),
        jacoby=True,
    ),
    # gnubg 1.07 export, move 2: 3-point match 0-0, centred cube, player 0 on roll with 42.
    "MAFqAAAAAAAE": dataclasses.replace(BASE, dice=(4, 2), match_length=3),
    # Same file, move 1: game state 0 ("no game") with dice 63, player 1 on roll.
    "cAhvAAAAAAAE": dataclasses.replace(
        BASE,
        player_on_roll=1,
        turn=1,
        game_state=0,
        dice=(6, 3),
        match_length=3,
    ),
    # The XGID examples of FORMATS.md section 5.
    "cAkgAUAAEAAE": dataclasses.replace(BASE, player_on_roll=1, turn=1, match_length=9, score=(4, 2)),
    "QYmqABAAGAAE": dataclasses.replace(
        BASE,
        cube_value=2,
        cube_owner=0,
        player_on_roll=1,
        turn=1,
        dice=(5, 2),
        match_length=5,
        score=(1, 3),
    ),
    "cIkKAAAAAAAE": dataclasses.replace(BASE, player_on_roll=1, turn=1, dice=(5, 2)),
}


@pytest.mark.parametrize(("text", "fields"), MATCH_ID_EXAMPLES.items())
def test_match_id_examples_decode(text: str, fields: MatchIdFields) -> None:
    assert decode_match_id(text) == fields


@pytest.mark.parametrize(("text", "fields"), MATCH_ID_EXAMPLES.items())
def test_match_id_examples_encode(text: str, fields: MatchIdFields) -> None:
    assert encode_match_id(fields) == text


def test_manual_example_key_bytes() -> None:
    assert base64.b64decode("QYkqASAAIAAA") == bytes.fromhex("41892A012000200000")


def test_encoder_stores_the_larger_die_first() -> None:
    fields = MATCH_ID_EXAMPLES["cIkKAAAAAAAE"]
    assert encode_match_id(dataclasses.replace(fields, dice=(2, 5))) == "cIkKAAAAAAAE"


def test_decoder_keeps_the_stored_dice_order() -> None:
    smaller_first = encode_match_id(dataclasses.replace(BASE, dice=(2, 2)))  # bits 15-20 = 2, 2
    key = int.from_bytes(binascii.a2b_base64(smaller_first), "little")
    key = key & ~(0x3F << 15) | 2 << 15 | 5 << 18  # stored as 2 then 5, as another program might
    text = binascii.b2a_base64(key.to_bytes(9, "little"), newline=False).decode()
    assert decode_match_id(text).dice == (2, 5)


def test_jacoby_is_stored_negated_in_bit_66() -> None:
    assert encode_match_id(dataclasses.replace(BASE, jacoby=False)).endswith("E")
    assert encode_match_id(dataclasses.replace(BASE, jacoby=True)).endswith("A")


def test_unused_bits_67_to_71_are_ignored() -> None:
    # The last character holds bits 64-69 and the one before it bits 70-71 in its low two bits.
    assert decode_match_id("cAkgAUAAEAD8") == decode_match_id("cAkgAUAAEAAE")


def test_match_id_ignores_surrounding_whitespace() -> None:
    assert decode_match_id(" cIkKAAAAAAAE\t") == MATCH_ID_EXAMPLES["cIkKAAAAAAAE"]


# -- Match ID: errors ----------------------------------------------------------------------------------------


def _match_id(**bits: int) -> str:
    """A Match ID from raw fields, bypassing the encoder's checks; bits given as offset=value pairs."""
    key = 0
    for offset, value in bits.items():
        key |= value << int(offset[1:])
    return binascii.b2a_base64(key.to_bytes(9, "little"), newline=False).decode()


@pytest.mark.parametrize("text", ["", "cIkKAAAAAAA", "cIkKAAAAAAAEA"])
def test_match_id_wrong_length(text: str) -> None:
    with pytest.raises(NotationError, match="12 characters"):
        decode_match_id(text)


def test_match_id_bad_characters() -> None:
    with pytest.raises(NotationError, match=r"base64 alphabet.*\*"):
        decode_match_id("cIkKAAAAAA*E")


@pytest.mark.parametrize(
    ("bits", "message"),
    [
        ({"b4": 2, "b8": 1}, "cube owner code 2"),
        ({"b4": 3, "b8": 5}, "game state 5"),
        ({"b4": 3, "b8": 1, "b15": 7, "b18": 1}, r"dice \(7, 1\)"),
        ({"b4": 3, "b8": 1, "b15": 3}, "both dice or neither"),
        ({"b4": 3, "b8": 1, "b21": 5, "b36": 6}, "beyond the match length 5"),
        ({"b4": 3, "b8": 1, "b7": 1}, "Crawford flag is set in money play"),
    ],
)
def test_match_id_field_errors(bits: dict[str, int], message: str) -> None:
    with pytest.raises(NotationError, match=message):
        decode_match_id(_match_id(**bits))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"cube_value": 3}, "cube value 3"),
        ({"cube_value": 1 << 16}, "cube value"),
        ({"cube_owner": 2}, "cube owner 2"),
        ({"player_on_roll": 2}, "player on roll 2"),
        ({"turn": -1}, "turn -1"),
        ({"game_state": 5}, "game state 5"),
        ({"resignation": 4}, "resignation 4"),
        ({"dice": (0, 3)}, "dice"),
        ({"match_length": 1 << 15}, "match length"),
        ({"score": (-1, 0)}, "score"),
        ({"match_length": 3, "score": (4, 0)}, "beyond the match length 3"),
        ({"crawford": True}, "Crawford"),
    ],
)
def test_encoder_refuses_out_of_range_fields(change: dict[str, object], message: str) -> None:
    with pytest.raises(NotationError, match=message):
        encode_match_id(dataclasses.replace(BASE, **change))  # type: ignore[arg-type]


# -- Match ID: properties ------------------------------------------------------------------------------------


@st.composite
def match_fields(draw: st.DrawFn) -> MatchIdFields:
    match_length = draw(st.one_of(st.just(0), st.integers(1, 25), st.integers(1, (1 << 15) - 1)))
    top_score = match_length if match_length else (1 << 15) - 1
    dice = draw(st.one_of(st.none(), st.tuples(st.integers(1, 6), st.integers(1, 6))))
    return MatchIdFields(
        cube_value=1 << draw(st.integers(0, 15)),
        cube_owner=draw(st.sampled_from([0, 1, None])),
        player_on_roll=draw(st.integers(0, 1)),
        crawford=bool(match_length) and draw(st.booleans()),
        game_state=draw(st.integers(0, 4)),
        turn=draw(st.integers(0, 1)),
        double_offered=draw(st.booleans()),
        resignation=draw(st.integers(0, 3)),
        dice=None if dice is None else (max(dice), min(dice)),
        match_length=match_length,
        score=(draw(st.integers(0, top_score)), draw(st.integers(0, top_score))),
        jacoby=draw(st.booleans()),
    )


@given(match_fields())
def test_match_id_round_trip(fields: MatchIdFields) -> None:
    text = encode_match_id(fields)
    assert len(text) == 12
    assert decode_match_id(text) == fields


def _game_fields(fields: MatchIdFields) -> tuple:
    return tuple(getattr(fields, f.name) for f in dataclasses.fields(MatchIdFields) if f.name != "jacoby")


@given(match_fields())
def test_the_engines_encoder_writes_the_same_match_id(fields: MatchIdFields) -> None:
    fields = dataclasses.replace(fields, jacoby=False)
    assert encode_game_match_id(*_game_fields(fields)) == encode_match_id(fields)


@pytest.mark.parametrize(
    "changes",
    [{"cube_value": 1 << 16}, {"match_length": 1 << 15}, {"score": (8, 0)}, {"match_length": 0, "score": (1 << 15, 0)}],
)
def test_the_engines_encoder_refuses_as_the_encoder_does(changes: dict) -> None:
    fields = dataclasses.replace(BASE, **{"match_length": 7, **changes})
    with pytest.raises(NotationError) as expected:
        encode_match_id(fields)
    with pytest.raises(NotationError, match=re.escape(str(expected.value))):
        encode_game_match_id(*_game_fields(fields))


@given(st.text(alphabet=BASE64, min_size=12, max_size=12))
def test_any_twelve_characters_decode_or_raise_a_notation_error(text: str) -> None:
    try:
        fields = decode_match_id(text)
    except NotationError:
        return
    if fields.dice is not None:
        fields = dataclasses.replace(fields, dice=(max(fields.dice), min(fields.dice)))  # the encoder's order
    assert decode_match_id(encode_match_id(fields)) == fields


# -- Combined IDs --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("4HPwATDgc/ABMA", ("4HPwATDgc/ABMA", None)),
        ("  4HPwATDgc/ABMA:cIkKAAAAAAAE\n", ("4HPwATDgc/ABMA", "cIkKAAAAAAAE")),
        ("Position ID: 4HPwATDgc/ABMA", ("4HPwATDgc/ABMA", None)),
        ("GNUBG ID: 4HPwATDgc/ABMA:cIkKAAAAAAAE", ("4HPwATDgc/ABMA", "cIkKAAAAAAAE")),
        ("gnubg id:4HPwATDgc/ABMA : cIkKAAAAAAAE", ("4HPwATDgc/ABMA", "cIkKAAAAAAAE")),
        ("GNU Backgammon  Position ID: 4HPwATDgc/ABMA", ("4HPwATDgc/ABMA", None)),
        ("Position ID: 4HPwATDgc/ABMA\n Match ID   : cAkgAUAAEAAE", ("4HPwATDgc/ABMA", "cAkgAUAAEAAE")),
    ],
)
def test_split_gnubg_id(text: str, expected: tuple[str, str | None]) -> None:
    assert split_gnubg_id(text) == expected


@pytest.mark.parametrize("text", ["", "   ", "Position ID:", "4HPwATDgc/ABMA:", ":cIkKAAAAAAAE", "a:b:c"])
def test_split_gnubg_id_errors(text: str) -> None:
    with pytest.raises(NotationError):
        split_gnubg_id(text)
