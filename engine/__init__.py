"""The backgammon rules engine: positions, legal plays, notation, the cube, Crawford and match scoring, and the
formats programs exchange (.mat match logs, GNU Backgammon Position and Match IDs, XGID).

Pure Python; imports nothing from Django or from the project's other apps (docs/ARCHITECTURE.md, "Layers").

>>> from engine import Position, legal_plays
>>> start = Position.initial()
>>> plays = legal_plays(start, (3, 1))
>>> len(plays)
16
"""

from engine.errors import (
    AmbiguousPlayError,
    EngineError,
    FormatError,
    IllegalActionError,
    IllegalPlayError,
    InvalidPositionError,
    NotationError,
)
from engine.movegen import LegalPlays, legal_plays
from engine.moves import Play, Step
from engine.position import Position
from engine.types import BAR, OFF, ResultKind
from engine.variants import ACEY_DEUCEY, NACKGAMMON, STANDARD, Variant, get_variant

__all__ = [
    "ACEY_DEUCEY",
    "BAR",
    "NACKGAMMON",
    "OFF",
    "STANDARD",
    "AmbiguousPlayError",
    "EngineError",
    "FormatError",
    "IllegalActionError",
    "IllegalPlayError",
    "InvalidPositionError",
    "LegalPlays",
    "NotationError",
    "Play",
    "Position",
    "ResultKind",
    "Step",
    "Variant",
    "get_variant",
    "legal_plays",
]
