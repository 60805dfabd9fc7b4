"""An ASCII board for people debugging a position (``python -m engine show``).

The board is drawn from the point of view of the player on roll (``X``, moving from 24 down to 1 and bearing off
at the bottom right), with point numbers in X's numbering, as GNU Backgammon's text board does.
"""

from __future__ import annotations

from engine.errors import NotationError
from engine.formats.xgid import parse_xgid, xgid_to_gnubg
from engine.gnubg_id import decode_match_id, split_gnubg_id
from engine.position import Position

_ROWS = 5


def describe(text: str) -> str:
    """Board, IDs and pip counts for a Position ID, ``PositionID:MatchID``, or an XGID.

    :raises EngineError: if the text is none of these.
    """
    raw = text.strip()
    header: list[str] = []
    if raw.upper().startswith("XGID=") or raw.count(":") >= 8:
        xgid = parse_xgid(raw)
        position_id, xg_match_id = xgid_to_gnubg(xgid)
        match_id: str | None = xg_match_id
        header.append(f"XGID: {raw}")
    else:
        position_id, match_id = split_gnubg_id(raw)
    try:
        position = Position.from_gnubg_id(position_id)
    except NotationError:
        raise
    header.append(f"Position ID: {position_id}")
    if match_id:
        fields = decode_match_id(match_id)
        header.append(f"Match ID: {match_id}")
        length = "money" if fields.match_length == 0 else f"{fields.match_length}-point match"
        owner = "centred" if fields.cube_owner is None else f"owned by player {fields.cube_owner}"
        dice = f", dice {fields.dice[0]}{fields.dice[1]}" if fields.dice else ""
        header.append(
            f"{length}, score {fields.score[0]}-{fields.score[1]}, cube {fields.cube_value} {owner}"
            f"{', Crawford game' if fields.crawford else ''}, player {fields.player_on_roll} on roll{dice}"
        )
    return "\n".join([*header, "", draw(position)])


def draw(position: Position) -> str:
    """The board as text: O (the opponent) at the top, X (on roll) at the bottom."""
    me, opp = position.me, position.opp
    lines = []
    top_points = list(range(13, 25))
    bottom_points = list(range(12, 0, -1))

    def cell(point: int, row: int, from_top: bool) -> str:
        count = me[point] or opp[25 - point]
        mark = "X" if me[point] else "O"
        if not count:
            return " . " if row == 0 else "   "
        depth = row
        if depth < _ROWS - 1 or count <= _ROWS:
            return f" {mark} " if count > depth else "   "
        return f"{count:>2} " if count > _ROWS else f" {mark} "

    def number_row(points: list[int]) -> str:
        left = "".join(f"{p:^3}" for p in points[:6])
        right = "".join(f"{p:^3}" for p in points[6:])
        return f" {left} | {right}"

    lines.append(number_row(top_points))
    lines.append(" " + "-" * 18 + "+" + "-" * 19)
    for row in range(_ROWS):
        left = "".join(cell(p, row, True) for p in top_points[:6])
        right = "".join(cell(p, row, True) for p in top_points[6:])
        lines.append(f" {left}|{right}")
    bar = f"bar: X {me[25]}  O {opp[25]}"
    lines.append(f" {bar:^37}")
    for row in reversed(range(_ROWS)):
        left = "".join(cell(p, row, False) for p in bottom_points[:6])
        right = "".join(cell(p, row, False) for p in bottom_points[6:])
        lines.append(f" {left}|{right}")
    lines.append(" " + "-" * 18 + "+" + "-" * 19)
    lines.append(number_row(bottom_points))
    pips = position.pips()
    lines.append("")
    lines.append(f"X (on roll): pips {pips[0]}, borne off {me[0]}")
    lines.append(f"O:           pips {pips[1]}, borne off {opp[0]}")
    return "\n".join(lines)
