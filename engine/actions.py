"""The actions a match is made of (docs/ARCHITECTURE.md: the action log is the source of truth).

Sides are 0 and 1: side 0 is the first player of the match (the left column of a .mat file, gnubg's player 0).
Rolls are explicit actions, as chance nodes are in OpenSpiel: the engine never rolls dice itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from engine.types import ResultKind

if TYPE_CHECKING:
    from engine.moves import Play


@dataclass(frozen=True, slots=True)
class OpeningRoll:
    """Each player throws one die; ``dice[0]`` is side 0's die. The higher die moves first with both numbers."""

    dice: tuple[int, int]


@dataclass(frozen=True, slots=True)
class Roll:
    """``side`` rolls ``dice``. As the first action of a game it is the opening roll won by ``side``."""

    side: int
    dice: tuple[int, int]


@dataclass(frozen=True, slots=True)
class Move:
    """``side`` plays the current dice: a resolved :class:`~engine.moves.Play` or text to be parsed."""

    side: int
    play: Play | str


@dataclass(frozen=True, slots=True)
class ChooseDouble:
    """Acey-Deucey: after playing a 1-2, ``side`` chooses the double (1..6) to play four times."""

    side: int
    die: int


@dataclass(frozen=True, slots=True)
class Double:
    side: int


@dataclass(frozen=True, slots=True)
class Take:
    side: int


@dataclass(frozen=True, slots=True)
class Drop:
    side: int


@dataclass(frozen=True, slots=True)
class Resign:
    """``side`` offers to resign the game for ``kind`` (single, gammon or backgammon) times the cube."""

    side: int
    kind: ResultKind


@dataclass(frozen=True, slots=True)
class AcceptResignation:
    side: int


@dataclass(frozen=True, slots=True)
class RejectResignation:
    side: int


@dataclass(frozen=True, slots=True)
class ConcedeMatch:
    """``side`` gives up the whole match (a resignation of the match, or a forfeit): the opponent is awarded the
    points needed to win it. Match play only."""

    side: int


@dataclass(frozen=True, slots=True)
class PenaltyPoints:
    """A director's penalty against ``side`` (lateness, a rules breach): the opponent is awarded ``points``.

    Given between games only (before the next game's opening roll). The points count like points won: they can
    bring a player to one away (the next game is then the Crawford game) or win the match. A .mat log has no
    place for them, so a match with penalty points is not exported as .mat.
    """

    side: int
    points: int


EndedBy = Literal["bear-off", "drop", "resignation", "scoresheet", "director"]


@dataclass(frozen=True, slots=True)
class GameResult:
    """Scoresheet entry of a whole game: ``winner`` won ``kind`` with the cube at ``cube_value``.

    ``ended_by`` is how the game ended at the table; a drop is always a single game at the cube value before the
    refused double.
    """

    winner: int
    kind: ResultKind
    cube_value: int = 1
    ended_by: EndedBy = "scoresheet"


Action = (
    PenaltyPoints
    | OpeningRoll
    | Roll
    | Move
    | ChooseDouble
    | Double
    | Take
    | Drop
    | Resign
    | AcceptResignation
    | RejectResignation
    | GameResult
    | ConcedeMatch
)
