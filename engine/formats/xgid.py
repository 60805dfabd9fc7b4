"""eXtreme Gammon position IDs (XGID) and their conversion to GNU Backgammon IDs.

This module owns the XGID codec (:func:`parse_xgid`, :func:`format_xgid`) and :func:`xgid_to_gnubg`. The
specification is FORMATS.md section 5; the conversion follows gnubg's reader (``set.c`` ``SetXGID``,
``positionid.c`` ``PositionFromXG``) and writes IDs per FORMATS.md sections 3 and 4.

Terms:

* X is the bottom player, O the top player: screen roles, not seats. Each side's checkers are 25 counts in
  that side's own numbering (index ``i`` = point ``i + 1``, index 24 = bar); X's point ``p`` is O's point
  ``25 - p``.
* The position field has 26 characters seen from X: char 0 is O's bar, chars 1..24 are X's points 1..24 and
  char 25 is X's bar. ``A``-``P`` are 1-16 X checkers, ``a``-``p`` 1-16 O checkers, ``-`` is empty; an O
  checker on char ``i`` is on O's point ``25 - i``.
* ``turn`` is the side whose turn it is. With the dice field ``D`` that side has doubled and the other must
  take or pass (gnubg: ``fMove`` = turn, ``fTurn`` = the other side).

Invariants: :func:`parse_xgid` accepts only what :func:`format_xgid` writes (plus the optional prefix and the
older 9-field form, read with max cube 10), so ``format_xgid(parse_xgid(text)) == text`` for a canonical XGID.

>>> x = parse_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10")
>>> x.bottom[5], x.top[5], x.dice
(5, 5, (5, 2))
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from engine.errors import NotationError
from engine.gnubg_id import MatchIdFields, check_board_pair, encode_match_id, encode_position_id

__all__ = ["XGID", "XGIDDice", "format_xgid", "parse_xgid", "xgid_to_gnubg"]

XGIDDice = tuple[int, int] | Literal["double"] | None

PREFIX = "XGID="
DEFAULT_MAX_CUBE_LOG = 10
_MAX_CUBE_LOG = 15  # a Match ID stores log2(cube) in 4 bits
_FIELDS = 10
_POSITION_LENGTH = 26
_X_CHARS = "-ABCDEFGHIJKLMNOP"
_O_CHARS = "-abcdefghijklmnop"
_X_COUNTS = {char: count for count, char in enumerate(_X_CHARS) if count}
_O_COUNTS = {char: count for count, char in enumerate(_O_CHARS) if count}
_INT_RE = re.compile(r"0|-?[1-9][0-9]{0,8}")
_ROLL_RE = re.compile(r"[1-6][1-6]")
_SLOTS = 25


@dataclass(frozen=True, slots=True)
class XGID:
    """The fields of an XGID (FORMATS.md section 5), with the cube as a value rather than its log.

    * ``bottom``: X's checkers, 25 counts in X's numbering; ``top``: O's, in O's numbering.
    * ``cube_value``: 1, 2, 4, ...; ``cube_owner``: 1 = X, -1 = O, 0 = centred.
    * ``turn``: 1 = X, -1 = O (the side whose turn it is).
    * ``dice``: None (not rolled: roll or double), ``"double"`` (the dice field ``D``: ``turn`` has doubled
      and the other side must take or pass), or the two dice in the order written.
    * ``score_x``, ``score_o``: points each side has; ``match_length``: 0 for money play.
    * ``crawford_or_rules``: match play: 1 in the Crawford game, else 0; money: bit flags 1 = Jacoby,
      2 = beaver.
    * ``max_cube_log``: log2 of the cube limit (10 means 1024).
    """

    bottom: tuple[int, ...]
    top: tuple[int, ...]
    cube_value: int
    cube_owner: int
    turn: int
    dice: XGIDDice
    score_x: int
    score_o: int
    crawford_or_rules: int
    match_length: int
    max_cube_log: int


def parse_xgid(text: str) -> XGID:
    """Parse an XGID, with or without the ``XGID=`` prefix; the older 9-field form gets max cube 10.

    Surrounding whitespace is ignored. Numbers are plain decimals without leading zeros.

    >>> x = parse_xgid("-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10")
    >>> x.bottom[23], x.top[23], x.turn, x.cube_value, x.match_length
    (2, 2, 1, 1, 0)

    :raises NotationError: if the text does not have 10 (or 9) colon-separated fields, the position is not 26
        characters of ``-``, ``A``-``P`` and ``a``-``p`` (upper case on O's bar or lower case on X's bar
        included), a number is malformed or out of range, or the dice field is not ``00``, ``D`` or two dice
        from 1 to 6 (beaver ``B`` and raccoon ``R`` are refused, as gnubg does).
    :raises InvalidPositionError: if a side has more than 15 checkers or both sides are on the bar against
        closed boards.
    """
    body = text.strip()
    if body[: len(PREFIX)].upper() == PREFIX:
        body = body[len(PREFIX) :]
    fields = body.split(":")
    if len(fields) == _FIELDS - 1:
        fields.append(str(DEFAULT_MAX_CUBE_LOG))
    if len(fields) != _FIELDS:
        given = f"{text.strip()!r} has {len(fields)}"
        raise NotationError(f"an XGID has {_FIELDS} colon-separated fields (9 in the older form), {given}")
    bottom, top = _parse_position(fields[0])
    cube_log = _parse_int(fields[1], "cube")
    if not 0 <= cube_log <= _MAX_CUBE_LOG:
        raise NotationError(f"XGID cube field {cube_log} is not a log2 cube value from 0 to {_MAX_CUBE_LOG}")
    xgid = XGID(
        bottom=bottom,
        top=top,
        cube_value=1 << cube_log,
        cube_owner=_parse_int(fields[2], "cube position"),
        turn=_parse_int(fields[3], "turn"),
        dice=_parse_dice(fields[4]),
        score_x=_parse_int(fields[5], "score 1 (X)"),
        score_o=_parse_int(fields[6], "score 2 (O)"),
        crawford_or_rules=_parse_int(fields[7], "Crawford/rules"),
        match_length=_parse_int(fields[8], "match length"),
        max_cube_log=_parse_int(fields[9], "max cube"),
    )
    _check_xgid(xgid)
    return xgid


def _parse_position(chars: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    if len(chars) != _POSITION_LENGTH:
        raise NotationError(f"an XGID position has {_POSITION_LENGTH} characters, {chars!r} has {len(chars)}")
    bottom = [0] * _SLOTS
    top = [0] * _SLOTS
    for index, char in enumerate(chars):
        if char == "-":
            continue
        if char in _X_COUNTS and index > 0:  # char i is X's point i; char 25 is X's bar (index 24)
            bottom[index - 1] = _X_COUNTS[char]
        elif char in _O_COUNTS and index < _POSITION_LENGTH - 1:  # char i is O's point 25 - i; char 0 its bar
            top[24 - index] = _O_COUNTS[char]
        elif char in _X_COUNTS or char in _O_COUNTS:
            where, owner = ("O's bar", "X") if index == 0 else ("X's bar", "O")
            raise NotationError(f"XGID position {chars!r}: {owner} checkers ({char!r}) cannot be on {where}")
        else:
            raise NotationError(f"XGID position {chars!r}: character {index} is {char!r}, not -, A-P or a-p")
    return tuple(bottom), tuple(top)


def _parse_int(field: str, name: str) -> int:
    if not _INT_RE.fullmatch(field):
        raise NotationError(f"XGID {name} field {field!r} is not a whole number")
    return int(field)


def _parse_dice(field: str) -> XGIDDice:
    if field == "00":
        return None
    if field == "D":
        return "double"
    if _ROLL_RE.fullmatch(field):
        return int(field[0]), int(field[1])
    if field in ("B", "R"):
        raise NotationError(f"XGID dice field {field!r} (beaver/raccoon) is not supported")
    raise NotationError(f"XGID dice field {field!r} is not 00, D or two dice from 1 to 6")


def format_xgid(x: XGID) -> str:
    """The XGID text for ``x``, with the ``XGID=`` prefix and all 10 fields.

    >>> start = (0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0)
    >>> format_xgid(XGID(start, start, 1, 0, 1, (5, 2), 0, 0, 0, 0, 10))
    'XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10'

    :raises NotationError: if a field is out of range (see :class:`XGID`).
    :raises InvalidPositionError: if the sides are not 25 non-negative counts, a side has more than 15
        checkers, a point is held by both sides, or both sides are on the bar against closed boards.
    """
    _check_xgid(x)
    bottom, top = x.bottom, x.top
    chars = [_O_CHARS[top[24]]]
    chars.extend(_X_CHARS[bottom[i - 1]] if bottom[i - 1] else _O_CHARS[top[24 - i]] for i in range(1, 25))
    chars.append(_X_CHARS[bottom[24]])
    if x.dice is None:
        dice = "00"
    elif x.dice == "double":
        dice = "D"
    else:
        dice = f"{x.dice[0]}{x.dice[1]}"
    numbers = (x.score_x, x.score_o, x.crawford_or_rules, x.match_length, x.max_cube_log)
    head = f"{PREFIX}{''.join(chars)}:{x.cube_value.bit_length() - 1}:{x.cube_owner}:{x.turn}:{dice}"
    return head + "".join(f":{number}" for number in numbers)


def _check_xgid(x: XGID) -> None:
    check_board_pair(x.bottom, x.top, "X", "O")
    problem = _xgid_problem(x)
    if problem:
        raise NotationError(f"XGID: {problem}")


def _xgid_problem(x: XGID) -> str | None:
    cube = x.cube_value
    if cube < 1 or cube & (cube - 1) or cube > 1 << _MAX_CUBE_LOG:
        return f"cube value {cube} is not a power of 2 from 1 to {1 << _MAX_CUBE_LOG}"
    if x.cube_owner not in (-1, 0, 1):
        return f"cube position {x.cube_owner} is not 1 (X), 0 (centred) or -1 (O)"
    if x.turn not in (-1, 1):
        return f"turn {x.turn} is not 1 (X) or -1 (O)"
    if isinstance(x.dice, tuple) and (len(x.dice) != 2 or not all(1 <= die <= 6 for die in x.dice)):
        return f"dice {x.dice} are not two numbers from 1 to 6"
    if x.match_length < 0 or x.score_x < 0 or x.score_o < 0:
        return "the match length and the scores cannot be negative"
    if x.match_length and max(x.score_x, x.score_o) >= x.match_length:
        return f"score {x.score_x}-{x.score_o} leaves no game to play in a {x.match_length}-point match"
    if x.match_length and x.crawford_or_rules not in (0, 1):
        return f"Crawford field {x.crawford_or_rules} is not 0 or 1 in match play"
    if not x.match_length and not 0 <= x.crawford_or_rules <= 3:
        return f"rules field {x.crawford_or_rules} is not 0-3 (1 Jacoby, 2 beaver) in money play"
    if not 0 <= x.max_cube_log <= _MAX_CUBE_LOG:
        return f"max cube {x.max_cube_log} is not a log2 value from 0 to {_MAX_CUBE_LOG}"
    return None


def xgid_to_gnubg(x: XGID) -> tuple[str, str]:
    """The GNU Backgammon ``(position_id, match_id)`` for ``x``, as gnubg's ``set xgid`` makes them.

    X becomes gnubg's player 1 and O player 0 (scores likewise); the side whose turn it is is the Position
    ID's second half and the Match ID's ``player_on_roll``. The game state is "playing"; a pending double
    (``D``) sets ``double_offered`` and passes ``turn`` to the other side. Beaver and max-cube settings are
    not carried.

    >>> xgid_to_gnubg(parse_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10"))
    ('4HPwATDgc/ABMA', 'cIkKAAAAAAAE')

    :raises NotationError: if a field is out of range (see :class:`XGID`).
    :raises InvalidPositionError: if the position is impossible (see :func:`format_xgid`).
    """
    _check_xgid(x)
    mover = 1 if x.turn == 1 else 0
    doubled = x.dice == "double"
    match_play = x.match_length > 0
    fields = MatchIdFields(
        cube_value=x.cube_value,
        cube_owner={1: 1, -1: 0}.get(x.cube_owner),
        player_on_roll=mover,
        crawford=match_play and x.crawford_or_rules == 1,
        game_state=1,
        turn=1 - mover if doubled else mover,
        double_offered=doubled,
        resignation=0,
        dice=x.dice if isinstance(x.dice, tuple) else None,
        match_length=x.match_length,
        score=(x.score_o, x.score_x),
        jacoby=not match_play and bool(x.crawford_or_rules & 1),
    )
    not_on_roll, on_roll = (x.top, x.bottom) if mover else (x.bottom, x.top)
    return encode_position_id(not_on_roll, on_roll), encode_match_id(fields)
