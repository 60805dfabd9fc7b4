"""One game as a state machine: the opening roll, rolls, plays, the cube and resignations, and how it ends.

States are immutable values: :meth:`GameState.apply` returns a new state or raises an :class:`EngineError`
with a player-facing message, leaving the old state as it was. "Who must act now" (``actor``) is kept apart from
"who is on roll" (``on_roll``), like gnubg's fTurn and fMove: after a double the taker decides while the doubler is
still on roll.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from typing import Any

from engine.actions import (
    AcceptResignation,
    Action,
    ChooseDouble,
    Double,
    Drop,
    GameResult,
    Move,
    OpeningRoll,
    RejectResignation,
    Resign,
    Roll,
    Take,
)
from engine.cube import CubeState
from engine.errors import EngineError, IllegalActionError
from engine.movegen import LegalPlays, legal_plays
from engine.moves import Play
from engine.notation import parse_play
from engine.position import Position, loss_kind
from engine.types import CHECKERS, ResultKind
from engine.variants import STANDARD, Variant


class Phase(enum.Enum):
    OPENING = "opening"  # waiting for the opening roll
    ROLL = "roll"  # the player on roll may double (when allowed) or roll
    MOVE = "move"  # dice are rolled; the player on roll must play them
    CHOOSE_DOUBLE = "choose-double"  # Acey-Deucey: after a 1-2, choose the double to play
    DOUBLE_OFFERED = "double-offered"  # the opponent must take or drop
    RESIGN_OFFERED = "resign-offered"  # the other player must accept or reject the resignation
    OVER = "over"


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended: the winner, the result kind, the points won and the cause."""

    winner: int
    kind: ResultKind
    points: int
    ended_by: str
    cube_value: int


def other(side: int) -> int:
    return 1 - side


def _side_name(side: int) -> str:
    return f"player {side + 1}"


@dataclass(frozen=True, slots=True)
class GameState:
    """The state of one game. ``boards[s]`` is side ``s``'s 27 slots in its own numbering."""

    boards: tuple[tuple[int, ...], tuple[int, ...]]
    variant: Variant = STANDARD
    phase: Phase = Phase.OPENING
    on_roll: int = 0
    dice: tuple[int, int] | None = None
    cube: CubeState = CubeState()  # noqa: RUF009 (an immutable value)
    cube_enabled: bool = True  # False in the Crawford game (and when the cube is not used at all)
    casual: bool = False  # no cube and no gammons: whoever bears off first wins the game, worth one point
    resignation: tuple[int, ResultKind] | None = None  # (offering side, kind)
    resume: Phase | None = None  # the phase to return to when a resignation is rejected
    acey_stage: int = 0  # Acey-Deucey 1-2: 1 = the 1-2 is being played, 2 = the chosen double, 3 = extra roll due
    opening_winner: int | None = None
    outcome: Outcome | None = None
    moves_played: int = 0
    # The legal plays of this state once asked for (a state is immutable, so they never change): a replay that
    # resolves a play and then applies it generates them once. Not part of the value (equality, hash, repr).
    _plays: LegalPlays | None = field(default=None, init=False, repr=False, compare=False)

    def _with(self, **changes: Any) -> GameState:
        """A copy with some fields changed (``dataclasses.replace`` without its per-call introspection)."""
        new = object.__new__(GameState)
        for name in _GAME_FIELDS:
            object.__setattr__(new, name, changes[name] if name in changes else getattr(self, name))
        object.__setattr__(new, "_plays", None)
        return new

    @classmethod
    def new(cls, variant: Variant = STANDARD, *, cube_enabled: bool = True, casual: bool = False) -> GameState:
        """A game about to start; a ``casual`` game has no cube and every game is worth one point."""
        slots = variant.slots()
        return cls(boards=(slots, slots), variant=variant, cube_enabled=cube_enabled and not casual, casual=casual)

    # -- queries --------------------------------------------------------------------------------------------------

    @property
    def actor(self) -> int:
        """The side that must act next."""
        if self.phase is Phase.DOUBLE_OFFERED:
            return other(self.on_roll)
        if self.phase is Phase.RESIGN_OFFERED and self.resignation is not None:
            return other(self.resignation[0])
        return self.on_roll

    def position(self, side: int | None = None) -> Position:
        """The board seen by ``side`` (default: the player on roll) as its mover."""
        s = self.on_roll if side is None else side
        return Position(self.boards[s], self.boards[other(s)], validate=False)

    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    def may_double(self, side: int) -> bool:
        return (
            self.phase is Phase.ROLL
            and side == self.on_roll
            and self.cube_enabled
            and self.acey_stage == 0
            and self.cube.may_double(side)
        )

    def legal_plays(self) -> LegalPlays:
        """The legal plays for the dice just rolled.

        :raises IllegalActionError: when no dice are waiting to be played.
        """
        if self.phase is not Phase.MOVE or self.dice is None:
            raise IllegalActionError("there are no dice to play: roll first")
        if self._plays is None:
            plays = legal_plays(self.position(), self.dice, enter_all_first=self.variant.enter_all_first)
            object.__setattr__(self, "_plays", plays)
            return plays
        return self._plays

    def legal_action_kinds(self) -> list[str]:
        """What may be done now, for a user interface ("roll", "double", "move", "take", ...)."""
        phase = self.phase
        if phase is Phase.OPENING:
            return ["opening-roll"]
        if phase is Phase.ROLL:
            return ["roll", "double", "resign"] if self.may_double(self.on_roll) else ["roll", "resign"]
        if phase is Phase.MOVE:
            return ["move", "resign"]
        if phase is Phase.CHOOSE_DOUBLE:
            return ["choose-double"]
        if phase is Phase.DOUBLE_OFFERED:
            return ["take", "drop"]
        if phase is Phase.RESIGN_OFFERED:
            return ["accept-resignation", "reject-resignation"]
        return []

    # -- transitions ----------------------------------------------------------------------------------------------

    def apply(self, action: Action) -> GameState:
        """The state after ``action``.

        :raises EngineError: (an :class:`IllegalActionError`, :class:`IllegalPlayError`, ...) if the rules refuse it.
        """
        if self.phase is Phase.OVER:
            raise IllegalActionError("this game is over")
        handler: Callable[[GameState, Any], GameState] | None = _HANDLERS.get(type(action))
        if handler is None:
            raise IllegalActionError(f"unknown action {action!r}")
        return handler(self, action)

    def _expect(self, phase: Phase, side: int, what: str) -> None:
        if self.phase is not phase:
            raise IllegalActionError(f"{what} is not possible now: {self._waiting_for()}")
        if side != self.actor:
            raise IllegalActionError(f"{what}: it is {_side_name(self.actor)}'s turn to act, not {_side_name(side)}'s")

    def _waiting_for(self) -> str:
        who = _side_name(self.actor)
        return {
            Phase.OPENING: "the game starts with the opening roll",
            Phase.ROLL: f"{who} is to roll or double",
            Phase.MOVE: f"{who} is to play the dice",
            Phase.CHOOSE_DOUBLE: f"{who} is to choose the double after the acey-deucey",
            Phase.DOUBLE_OFFERED: f"{who} must take or drop the double",
            Phase.RESIGN_OFFERED: f"{who} must accept or reject the resignation",
            Phase.OVER: "the game is over",
        }[self.phase]

    def _opening(self, action: OpeningRoll) -> GameState:
        if self.phase is not Phase.OPENING:
            raise IllegalActionError(f"the opening roll has already been made: {self._waiting_for()}")
        d0, d1 = action.dice
        _check_die(d0)
        _check_die(d1)
        if d0 == d1:
            raise IllegalActionError(f"both players threw {d0}: equal dice are thrown again for the opening roll")
        winner = 0 if d0 > d1 else 1
        return self._start_turn(winner, (d0, d1) if winner == 0 else (d1, d0), opening=True)

    def _roll(self, action: Roll) -> GameState:
        d1, d2 = action.dice
        _check_die(d1)
        _check_die(d2)
        if self.phase is Phase.OPENING:
            _check_side(action.side)
            if d1 == d2:
                raise IllegalActionError(
                    f"the opening roll cannot be a double ({d1}-{d2}): each player throws one die, equal dice again"
                )
            return self._start_turn(action.side, (d1, d2), opening=True)
        self._expect(Phase.ROLL, action.side, "rolling")
        return self._start_turn(action.side, (d1, d2), opening=False)

    def _start_turn(self, side: int, dice: tuple[int, int], *, opening: bool) -> GameState:
        acey = self.variant.acey_deucey and sorted(dice) == [1, 2]
        stage = 1 if acey else 0
        return self._with(
            phase=Phase.MOVE,
            on_roll=side,
            dice=dice,
            acey_stage=stage,
            opening_winner=side if opening else self.opening_winner,
        )

    def _move(self, action: Move) -> GameState:
        self._expect(Phase.MOVE, action.side, "playing")
        assert self.dice is not None
        legal = self.legal_plays()
        position = self.position()
        if isinstance(action.play, str):
            play = parse_play(action.play, position, self.dice, legal=legal)
        else:
            given = action.play
            play = given
            if given.steps or len(legal):
                found = legal.find(given.steps)
                if found is None or len(found) != len(given):
                    # Re-run through the text path for a precise, player-facing reason.
                    parse_play(str(given) or "-", position, self.dice, legal=legal)
                    raise IllegalActionError(f"{given} is not a legal play for {self.dice[0]}-{self.dice[1]}")
                play = found  # the engine's own steps: hit flags come from the board, not from the caller
        after = play.apply(position)
        boards = _boards(after, self.on_roll)
        state = self._with(boards=boards, moves_played=self.moves_played + 1)
        if after.me[0] == CHECKERS:
            kind = ResultKind.SINGLE if self.casual else loss_kind(after.opp)  # casual: no gammons
            return state._over(self.on_roll, kind, self.cube.value * kind, "bear-off")
        # Acey-Deucey 1-2 (RULES.md): play the 1 and the 2, choose a double and play it, then roll again; a part
        # that cannot be played in full forfeits the rest of the roll, the extra roll included.
        if self.acey_stage == 1 and len(play) == 2:
            return state._with(phase=Phase.CHOOSE_DOUBLE, dice=None, acey_stage=2)
        if self.acey_stage == 2 and len(play) == 4:
            return state._with(phase=Phase.ROLL, dice=None, acey_stage=3)
        return state._with(phase=Phase.ROLL, dice=None, on_roll=other(self.on_roll), acey_stage=0)

    def _choose_double(self, action: ChooseDouble) -> GameState:
        self._expect(Phase.CHOOSE_DOUBLE, action.side, "choosing a double")
        _check_die(action.die)
        return self._with(phase=Phase.MOVE, dice=(action.die, action.die))

    def _double(self, action: Double) -> GameState:
        self._expect(Phase.ROLL, action.side, "doubling")
        if self.casual:
            raise IllegalActionError(_NO_CUBE)
        if not self.cube_enabled:
            raise IllegalActionError("no double may be offered in the Crawford game")
        if self.acey_stage:
            raise IllegalActionError("you cannot double before the extra roll of an acey-deucey")
        self.cube.check_double(action.side)
        return self._with(phase=Phase.DOUBLE_OFFERED)

    def _take(self, action: Take) -> GameState:
        self._expect(Phase.DOUBLE_OFFERED, action.side, "taking")
        return self._with(phase=Phase.ROLL, cube=self.cube.taken(action.side))

    def _drop(self, action: Drop) -> GameState:
        self._expect(Phase.DOUBLE_OFFERED, action.side, "dropping")
        value = self.cube.value
        return self._over(self.on_roll, ResultKind.SINGLE, value, "drop")

    def _resign(self, action: Resign) -> GameState:
        if self.phase not in (Phase.ROLL, Phase.MOVE):
            raise IllegalActionError(f"a resignation cannot be offered now: {self._waiting_for()}")
        _check_side(action.side)
        kind = _result_kind(action.kind)
        if self.casual and kind is not ResultKind.SINGLE:
            raise IllegalActionError(f"{_NO_GAMMONS}: resign a single game (1)")
        return self._with(phase=Phase.RESIGN_OFFERED, resignation=(action.side, kind), resume=self.phase)

    def _accept(self, action: AcceptResignation) -> GameState:
        self._expect(Phase.RESIGN_OFFERED, action.side, "accepting the resignation")
        assert self.resignation is not None
        resigner, kind = self.resignation
        return self._over(other(resigner), kind, kind * self.cube.value, "resignation")

    def _reject(self, action: RejectResignation) -> GameState:
        self._expect(Phase.RESIGN_OFFERED, action.side, "rejecting the resignation")
        return self._with(phase=self.resume or Phase.ROLL, resignation=None, resume=None)

    def _game_result(self, action: GameResult) -> GameState:
        if self.phase is not Phase.OPENING:
            raise IllegalActionError("a scoresheet result can only be entered for a game not recorded move by move")
        _check_side(action.winner)
        kind = _result_kind(action.kind)
        value = action.cube_value
        if self.casual and (value != 1 or action.ended_by == "drop"):
            raise IllegalActionError(f"{_NO_CUBE}: enter the game with a cube value of 1, won by bearing off")
        if self.casual and kind is not ResultKind.SINGLE:
            raise IllegalActionError(f"{_NO_GAMMONS}: enter it as a single game (1)")
        if value < 1 or value & (value - 1):
            raise IllegalActionError(f"a cube value is 1, 2, 4, 8, ...; {value} is not one")
        if value > 1 and not self.cube_enabled:
            raise IllegalActionError(
                f"the cube cannot have been turned in the Crawford game: the cube value must be 1, not {value}"
            )
        if action.ended_by == "drop" and not self.cube_enabled:
            raise IllegalActionError(
                "the Crawford game cannot end by a drop: the cube is dead in that game (RULES.md, the Crawford rule);"
                " enter it as won by bearing off or by a resignation"
            )
        if action.ended_by == "drop" and kind is not ResultKind.SINGLE:
            raise IllegalActionError("a dropped double always ends the game as a single game at the cube value")
        return self._over(action.winner, kind, kind * value, action.ended_by, cube_value=value)

    def _over(
        self, winner: int, kind: ResultKind, points: int, ended_by: str, cube_value: int | None = None
    ) -> GameState:
        outcome = Outcome(winner, kind, points, ended_by, self.cube.value if cube_value is None else cube_value)
        return self._with(phase=Phase.OVER, dice=None, outcome=outcome, resignation=None, resume=None)


_NO_CUBE = "there is no doubling cube in a casual game: every game is worth one point"
_NO_GAMMONS = "a casual game has no gammons or backgammons: whoever bears off first wins one point"


def _boards(after: Position, mover: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    return (after.me, after.opp) if mover == 0 else (after.opp, after.me)


def _check_side(side: int) -> None:
    if side not in (0, 1):
        raise IllegalActionError(f"there is no side {side!r} (it must be side 0 or 1)")


def _result_kind(kind: int) -> ResultKind:
    try:
        return ResultKind(kind)
    except ValueError:
        raise IllegalActionError(f"a game is won as a single (1), gammon (2) or backgammon (3), not {kind!r}") from None


def _check_die(value: int) -> None:
    if not isinstance(value, int) or not 1 <= value <= 6:
        raise IllegalActionError(f"a die shows 1 to 6, not {value!r}")


_GAME_FIELDS = tuple(f.name for f in fields(GameState) if f.init)

_HANDLERS: dict[type, Callable[[GameState, Any], GameState]] = {
    OpeningRoll: GameState._opening,
    Roll: GameState._roll,
    Move: GameState._move,
    ChooseDouble: GameState._choose_double,
    Double: GameState._double,
    Take: GameState._take,
    Drop: GameState._drop,
    Resign: GameState._resign,
    AcceptResignation: GameState._accept,
    RejectResignation: GameState._reject,
    GameResult: GameState._game_result,
}

__all__ = ["EngineError", "GameState", "Outcome", "Phase", "Play"]
