"""GNU Backgammon identifiers: the 14-character Position ID and the 12-character Match ID.

This module owns both codecs and the splitting of a combined ``"PositionID:MatchID"`` string. The
specifications are FORMATS.md section 3 (Position ID) and section 4 (Match ID); the behaviour follows gnubg's
code (``positionid.c``, ``matchid.c``), not the older wording of its manual.

Terms:

* A *side* is 25 ints in that side's **own** numbering: index ``i`` (0..23) holds the checkers on its point
  ``i + 1`` and index 24 its bar. Borne-off checkers are implicit (15 minus the sum).
* Side A's point ``p`` is side B's point ``25 - p``, so A's index ``i`` faces B's index ``23 - i``.
* A Position ID lists the player **not on roll** first and the player **on roll** second (gnubg's
  ``anBoard[0]`` / ``anBoard[1]``); :func:`decode_position_id` returns them in that order.

Invariants: every decoded or encoded position has at most 15 checkers a side, no point held by both sides
and not both sides on the bar against closed home boards (gnubg's ``CheckPosition``). Decoding accepts only
canonical IDs, so ``encode(decode(text)) == text.strip()`` whenever decoding succeeds.

>>> start = (0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0)
>>> encode_position_id(start, start)
'4HPwATDgc/ABMA'
"""

from __future__ import annotations

import binascii
import re
from collections.abc import Sequence
from dataclasses import dataclass
from operator import mul

from engine.errors import InvalidPositionError, NotationError
from engine.types import CHECKERS

__all__ = [
    "MatchIdFields",
    "check_board_pair",
    "decode_match_id",
    "decode_position_id",
    "encode_game_match_id",
    "encode_match_id",
    "encode_position_id",
    "split_gnubg_id",
]

POSITION_ID_LENGTH = 14
MATCH_ID_LENGTH = 12
SLOTS = 25  # points 1..24 and the bar, per side

_NOT_ON_ROLL = "the player not on roll"
_ON_ROLL = "the player on roll"

# One slot of n checkers as key bits written most significant first: its separator 0, then its n ones. Joining
# the slots in reverse order gives the key as a binary numeral. A dict, so that a bad count is a KeyError.
_SLOT_BITS = {n: "0" + "1" * n for n in range(CHECKERS + 1)}


def _byte_runs(byte: int) -> tuple[int, tuple[int, ...], int] | None:
    """Split one key byte, read from bit 0 up, into runs of ones ended by a zero.

    Returns (first completed run, the other completed runs, ones left open at the top), or None for 0xFF,
    which completes no run.
    """
    runs: list[int] = []
    ones = 0
    for bit in range(8):
        if byte >> bit & 1:
            ones += 1
        else:
            runs.append(ones)
            ones = 0
    if not runs:
        return None
    return runs[0], tuple(runs[1:]), ones


_BYTE_RUNS = tuple(_byte_runs(byte) for byte in range(256))

# 14 base64 characters carry 84 bits; the key uses 80, so the last character's low 4 bits must be zero.
_POSITION_ID_RE = re.compile(r"[A-Za-z0-9+/]{13}[AQgw]")
_MATCH_ID_RE = re.compile(r"[A-Za-z0-9+/]{12}")
_BASE64_CHAR_RE = re.compile(r"[A-Za-z0-9+/]")


# -- Position ID (FORMATS.md section 3) ----------------------------------------------------------------------


def encode_position_id(not_on_roll: Sequence[int], on_roll: Sequence[int]) -> str:
    """The 14-character Position ID: the player not on roll first, the player on roll second.

    Each side is 25 counts in its own numbering (index ``i`` = point ``i + 1``, index 24 = bar).

    >>> start = (0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0)
    >>> encode_position_id(start, start)
    '4HPwATDgc/ABMA'

    :raises InvalidPositionError: if a side is not 25 non-negative counts, has more than 15 checkers, shares a
        point with the other side, or both sides are on the bar against closed boards.
    """
    _check_lengths(not_on_roll, on_roll, _NOT_ON_ROLL, _ON_ROLL)
    try:
        bits = "".join([_SLOT_BITS[count] for count in reversed(on_roll)]) + "".join(
            [_SLOT_BITS[count] for count in reversed(not_on_roll)]
        )
    except KeyError as error:
        check_board_pair(not_on_roll, on_roll, _NOT_ON_ROLL, _ON_ROLL)  # raises, naming the side
        raise InvalidPositionError(f"checker count {error.args[0]!r} is not 0 to {CHECKERS}") from None
    _check_counts(not_on_roll, on_roll, _NOT_ON_ROLL, _ON_ROLL)
    key = int(bits, 2).to_bytes(10, "little")
    return binascii.b2a_base64(key, newline=False)[:POSITION_ID_LENGTH].decode("ascii")


def decode_position_id(text: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Decode a Position ID into ``(not_on_roll, on_roll)``, each 25 counts in that side's own numbering.

    Surrounding whitespace is ignored.

    >>> not_on_roll, on_roll = decode_position_id("4HPwATDgc/ABMA")
    >>> on_roll[5], on_roll[7], on_roll[12], on_roll[23]
    (5, 3, 5, 2)

    :raises NotationError: if the text is not 14 base64 characters or its bits do not describe 50 slots
        (too many bits, or bits set past the last slot).
    :raises InvalidPositionError: if a side has more than 15 checkers, a point is held by both sides, or both
        sides are on the bar against closed boards.
    """
    text = text.strip()
    if not _POSITION_ID_RE.fullmatch(text):
        raise NotationError(_position_id_syntax_problem(text))
    counts: list[int] = []
    carry = 0
    for byte in binascii.a2b_base64(text + "=="):
        runs = _BYTE_RUNS[byte]
        if runs is None:
            carry += 8
            continue
        first, rest, carry_out = runs
        counts.append(carry + first)
        counts.extend(rest)
        carry = carry_out
    if carry or len(counts) < 2 * SLOTS:
        raise NotationError(f"Position ID {text!r} has too many bits: 80 bits do not hold its 50 slots")
    if any(counts[2 * SLOTS :]):
        raise NotationError(f"Position ID {text!r} has checker bits after the last slot")
    not_on_roll = tuple(counts[:SLOTS])
    on_roll = tuple(counts[SLOTS : 2 * SLOTS])
    _check_counts(not_on_roll, on_roll, _NOT_ON_ROLL, _ON_ROLL)
    return not_on_roll, on_roll


def _position_id_syntax_problem(text: str) -> str:
    if len(text) != POSITION_ID_LENGTH:
        return f"a Position ID has {POSITION_ID_LENGTH} characters, {text!r} has {len(text)}"
    bad = "".join(sorted({char for char in text if not _BASE64_CHAR_RE.fullmatch(char)}))
    if bad:
        return f"Position ID {text!r} has characters outside the base64 alphabet (A-Z a-z 0-9 + /): {bad}"
    return (
        f"Position ID {text!r} has too many bits: its last character must be A, Q, g or w "
        "(only 80 of its 84 bits are used)"
    )


def check_board_pair(first: Sequence[int], second: Sequence[int], first_name: str, second_name: str) -> None:
    """Check two sides given in their own numberings, as gnubg's ``CheckPosition`` does.

    ``first_name`` and ``second_name`` name the sides in messages (``"the player on roll"``, ``"X"``).

    >>> check_board_pair((0,) * 24 + (1,), (0,) * 25, "X", "O")

    :raises InvalidPositionError: if a side is not 25 non-negative counts, has more than 15 checkers, shares a
        point with the other side, or both sides are on the bar against closed boards.
    """
    _check_lengths(first, second, first_name, second_name)
    for side, name in ((first, first_name), (second, second_name)):
        if min(side) < 0:
            raise InvalidPositionError(f"{name} has a negative checker count")
    _check_counts(first, second, first_name, second_name)


def _check_lengths(first: Sequence[int], second: Sequence[int], first_name: str, second_name: str) -> None:
    if len(first) == SLOTS and len(second) == SLOTS:
        return
    name, side = (first_name, first) if len(first) != SLOTS else (second_name, second)
    raise InvalidPositionError(f"{name} has {len(side)} slots; a side has 25 (points 1-24 and the bar)")


def _check_counts(first: Sequence[int], second: Sequence[int], first_name: str, second_name: str) -> None:
    if sum(first) > CHECKERS or sum(second) > CHECKERS:
        name, total = (first_name, sum(first)) if sum(first) > CHECKERS else (second_name, sum(second))
        raise InvalidPositionError(f"{name} has {total} checkers; a side has at most {CHECKERS}")
    if any(map(mul, first[:24], second[23::-1])):
        index = next(i for i in range(24) if first[i] and second[23 - i])
        raise InvalidPositionError(
            f"both sides have checkers on the same point: {second_name}'s {24 - index}-point "
            f"({first_name}'s {index + 1}-point)"
        )
    if first[24] and second[24] and all(first[i] >= 2 and second[i] >= 2 for i in range(6)):
        raise InvalidPositionError("both sides are on the bar against closed home boards")


# -- Match ID (FORMATS.md section 4) -------------------------------------------------------------------------

_CENTRED = 3  # the 2-bit cube-owner code for a centred cube (gnubg stores -1 & 3)
_MAX_15_BITS = (1 << 15) - 1
_MAX_CUBE = 1 << 15
_GAME_STATES = 5  # 0 none, 1 playing, 2 over, 3 resigned, 4 ended by a dropped double


@dataclass(frozen=True, slots=True)
class MatchIdFields:
    """The fields of a GNU Backgammon Match ID, with gnubg's meanings (FORMATS.md section 4).

    Players are gnubg's 0 (its "O", the first player of a .mat file) and 1 (its "X").

    * ``cube_value``: 1, 2, 4, ... 32768. ``cube_owner``: 0, 1, or None for a centred cube.
    * ``player_on_roll``: gnubg's ``fMove``, whose turn it is. ``turn``: ``fTurn``, who must act now; it
      differs from ``player_on_roll`` while a double or a resignation is pending.
    * ``crawford``: this game is the Crawford game. ``game_state``: 0 none, 1 playing, 2 over, 3 resigned,
      4 ended by a dropped double.
    * ``double_offered``; ``resignation``: 0 none, 1 single, 2 gammon, 3 backgammon (offered by ``1 - turn``).
    * ``dice``: None when not rolled; gnubg stores the larger die first; the decoder keeps the stored order.
    * ``match_length``: 0 for money play. ``score``: (player 0, player 1).
    * ``jacoby``: the Jacoby rule is on. The ID stores its negation in bit 66, so match-play IDs, where the
      rule is off, usually end in ``E``. The flag is reported as stored even in match play (no effect there).
    """

    cube_value: int
    cube_owner: int | None
    player_on_roll: int
    crawford: bool
    game_state: int
    turn: int
    double_offered: bool
    resignation: int
    dice: tuple[int, int] | None
    match_length: int
    score: tuple[int, int]
    jacoby: bool


def encode_match_id(fields: MatchIdFields) -> str:
    """The 12-character Match ID for ``fields``; the larger die is stored first, as gnubg does.

    >>> encode_match_id(MatchIdFields(
    ...     cube_value=1, cube_owner=None, player_on_roll=1, crawford=False, game_state=1, turn=1,
    ...     double_offered=False, resignation=0, dice=(5, 2), match_length=0, score=(0, 0), jacoby=False))
    'cIkKAAAAAAAE'

    :raises NotationError: if a field is out of range (see :class:`MatchIdFields`).
    """
    _check_match_fields(fields)
    return _packed_match_id(
        fields.cube_value, fields.cube_owner, fields.player_on_roll, fields.crawford, fields.game_state, fields.turn,
        fields.double_offered, fields.resignation, fields.dice, fields.match_length, fields.score, fields.jacoby,
    )  # fmt: skip


def encode_game_match_id(
    cube_value: int,
    cube_owner: int | None,
    player_on_roll: int,
    crawford: bool,
    game_state: int,
    turn: int,
    double_offered: bool,
    resignation: int,
    dice: tuple[int, int] | None,
    match_length: int,
    score: tuple[int, int],
) -> str:
    """:func:`encode_match_id` of these fields (``jacoby`` off), for the engine's own states, which set the flags,
    the turn, the game state and the dice within range: only the numbers a state does not bound (the cube, the
    length, the score) are checked here, and a field out of range gets :func:`encode_match_id`'s error. Without
    the record and its checks, for the many IDs of a replayed log.

    :raises NotationError: as :func:`encode_match_id`.
    """
    if (
        cube_value > _MAX_CUBE
        or not 0 <= match_length <= _MAX_15_BITS
        or not 0 <= score[0] <= (match_length or _MAX_15_BITS)
        or not 0 <= score[1] <= (match_length or _MAX_15_BITS)
    ):
        fields = MatchIdFields(
            cube_value, cube_owner, player_on_roll, crawford, game_state, turn, double_offered, resignation, dice,
            match_length, score, False,
        )  # fmt: skip
        return encode_match_id(fields)
    return _packed_match_id(
        cube_value, cube_owner, player_on_roll, crawford, game_state, turn, double_offered, resignation, dice,
        match_length, score, False,
    )  # fmt: skip


def _packed_match_id(
    cube_value: int,
    cube_owner: int | None,
    player_on_roll: int,
    crawford: bool,
    game_state: int,
    turn: int,
    double_offered: bool,
    resignation: int,
    dice: tuple[int, int] | None,
    match_length: int,
    score: tuple[int, int],
    jacoby: bool,
) -> str:
    high, low = (0, 0) if dice is None else (max(dice), min(dice))
    owner = _CENTRED if cube_owner is None else cube_owner
    key = (
        (cube_value.bit_length() - 1)
        | owner << 4
        | player_on_roll << 6
        | int(crawford) << 7
        | game_state << 8
        | turn << 11
        | int(double_offered) << 12
        | resignation << 13
        | high << 15
        | low << 18
        | match_length << 21
        | score[0] << 36
        | score[1] << 51
        | int(not jacoby) << 66
    )
    return binascii.b2a_base64(key.to_bytes(9, "little"), newline=False).decode("ascii")


def decode_match_id(text: str) -> MatchIdFields:
    """Decode a Match ID. Surrounding whitespace is ignored; bits 67-71 (unused) are ignored.

    Game state 0 with dice is accepted (gnubg writes it for the opening roll), as is any final character.

    >>> fields = decode_match_id("cIkKAAAAAAAE")
    >>> fields.dice, fields.cube_owner, fields.player_on_roll, fields.match_length, fields.jacoby
    ((5, 2), None, 1, 0, False)

    :raises NotationError: if the text is not 12 base64 characters or a field is out of range (cube owner code
        2, game state above 4, a die of 7 or only one die, a score above the match length, Crawford in money
        play).
    """
    text = text.strip()
    if not _MATCH_ID_RE.fullmatch(text):
        raise NotationError(_match_id_syntax_problem(text))
    key = int.from_bytes(binascii.a2b_base64(text), "little")
    owner = key >> 4 & 3
    if owner == 2:
        raise NotationError(f"Match ID {text!r}: cube owner code 2 is not used (0, 1, or 3 for centred)")
    high, low = key >> 15 & 7, key >> 18 & 7
    if (high == 0) != (low == 0):
        raise NotationError(f"Match ID {text!r}: dice {high} and {low}: both dice or neither must be set")
    fields = MatchIdFields(
        cube_value=1 << (key & 15),
        cube_owner=None if owner == _CENTRED else owner,
        player_on_roll=key >> 6 & 1,
        crawford=bool(key >> 7 & 1),
        game_state=key >> 8 & 7,
        turn=key >> 11 & 1,
        double_offered=bool(key >> 12 & 1),
        resignation=key >> 13 & 3,
        dice=None if high == 0 else (high, low),
        match_length=key >> 21 & _MAX_15_BITS,
        score=(key >> 36 & _MAX_15_BITS, key >> 51 & _MAX_15_BITS),
        jacoby=not (key >> 66 & 1),
    )
    _check_match_fields(fields, f"Match ID {text!r}: ")
    return fields


def _match_id_syntax_problem(text: str) -> str:
    if len(text) != MATCH_ID_LENGTH:
        return f"a Match ID has {MATCH_ID_LENGTH} characters, {text!r} has {len(text)}"
    bad = sorted({char for char in text if not _BASE64_CHAR_RE.fullmatch(char)})
    return f"Match ID {text!r} has characters outside the base64 alphabet (A-Z a-z 0-9 + /): {''.join(bad)}"


def _check_match_fields(fields: MatchIdFields, where: str = "") -> None:
    problem = _match_fields_problem(fields)
    if problem:
        raise NotationError(where + problem)


def _match_fields_problem(f: MatchIdFields) -> str | None:
    cube = f.cube_value
    if cube < 1 or cube & (cube - 1) or cube > 1 << 15:
        return f"cube value {cube} is not a power of 2 from 1 to 32768"
    if f.cube_owner not in (0, 1, None):
        return f"cube owner {f.cube_owner} is not 0, 1 or None (centred)"
    if f.player_on_roll not in (0, 1) or f.turn not in (0, 1):
        return f"player on roll {f.player_on_roll} and turn {f.turn} must each be 0 or 1"
    if not 0 <= f.game_state < _GAME_STATES:
        return f"game state {f.game_state} is not 0-4 (none, playing, over, resigned, dropped)"
    if not 0 <= f.resignation <= 3:
        return f"resignation {f.resignation} is not 0-3 (none, single, gammon, backgammon)"
    if f.dice is not None and (len(f.dice) != 2 or not all(1 <= die <= 6 for die in f.dice)):
        return f"dice {f.dice} are not two numbers from 1 to 6"
    if not 0 <= f.match_length <= _MAX_15_BITS:
        return f"match length {f.match_length} is not 0 (money) to {_MAX_15_BITS}"
    if len(f.score) != 2 or not all(0 <= points <= _MAX_15_BITS for points in f.score):
        return f"score {f.score} is not two numbers from 0 to {_MAX_15_BITS}"
    if f.match_length and max(f.score) > f.match_length:
        return f"score {f.score[0]}-{f.score[1]} is beyond the match length {f.match_length}"
    if not f.match_length and f.crawford:
        return "the Crawford flag is set in money play"
    return None


# -- Combined "PositionID:MatchID" strings -------------------------------------------------------------------

_ID_LABEL_RE = re.compile(r"^(?:gnu\s*(?:bg|backgammon)\s*)?(?:position\s*)?id\s*:\s*", re.IGNORECASE)
_MATCH_LABEL_RE = re.compile(r"\s+match\s*id\s*:\s*", re.IGNORECASE)


def split_gnubg_id(text: str) -> tuple[str, str | None]:
    """Split ``"ID"`` or ``"ID:MATCHID"`` into ``(position_id, match_id or None)``, without decoding either.

    Labels as gnubg prints them are accepted loosely: ``"Position ID: ..."``, ``"GNUBG ID: ID:MATCHID"``,
    ``"Position ID: ID Match ID: MATCHID"`` (on one line or two).

    >>> split_gnubg_id("GNUBG ID: 4HPwATDgc/ABMA:cIkKAAAAAAAE")
    ('4HPwATDgc/ABMA', 'cIkKAAAAAAAE')
    >>> split_gnubg_id(" 4HPwATDgc/ABMA ")
    ('4HPwATDgc/ABMA', None)

    :raises NotationError: if the text is empty, or has an empty part or more than two parts.
    """
    rest = _ID_LABEL_RE.sub("", text.strip(), count=1)
    parts = [part.strip() for part in _MATCH_LABEL_RE.sub(":", rest, count=1).split(":")]
    if len(parts) > 2:
        raise NotationError(f"{text.strip()!r} has more than a Position ID and a Match ID")
    if not all(parts):
        raise NotationError(f"{text.strip()!r} is not 'PositionID' or 'PositionID:MatchID'")
    return parts[0], parts[1] if len(parts) == 2 else None
