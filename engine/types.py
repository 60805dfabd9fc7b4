"""Small shared values: point numbers, sides, and how a game was won.

Points are numbered from the mover's own side (RULES.md, "Board and orientation"): 1..24 on the board,
``BAR`` = 25 and ``OFF`` = 0, as GNU Backgammon and eXtreme Gammon write them, and ``WAITING`` = 26 for an
Acey-Deucey checker not entered yet. Every module of the engine takes them from here.
"""

from __future__ import annotations

import enum

BAR = 25
OFF = 0
WAITING = 26
CHECKERS = 15


class ResultKind(enum.IntEnum):
    """How much a game is worth before the cube: the value is the multiplier."""

    SINGLE = 1
    GAMMON = 2
    BACKGAMMON = 3

    @property
    def label(self) -> str:
        return self.name.lower()
