"""A match to N points (or an unlimited money session) as a state machine over games.

Scores, the Crawford game and post-Crawford games (RULES.md, "The doubling cube" and "Ending a game and scoring"),
the match end, replay of an action list, and a compact snapshot so a database can store the state instead of
replaying from scratch.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, fields
from typing import Any

from engine.actions import Action, ConcedeMatch, PenaltyPoints
from engine.cube import CubeState
from engine.errors import EngineError, IllegalActionError, InvalidPositionError
from engine.game import GameState, Outcome, Phase
from engine.gnubg_id import encode_game_match_id
from engine.types import WAITING, ResultKind
from engine.variants import STANDARD, VARIANTS, Variant

SNAPSHOT_VERSION = 1


@dataclass(frozen=True, slots=True)
class MatchState:
    """The state of a match. ``length`` 0 is money play: no match end, no Crawford rule."""

    length: int
    variant: Variant = STANDARD
    crawford_rule: bool = True
    score: tuple[int, int] = (0, 0)
    game_number: int = 1
    crawford_game: bool = False
    crawford_played: bool = False
    game: GameState = field(default_factory=GameState.new)
    outcomes: tuple[Outcome, ...] = ()
    penalties: tuple[int, int] = (0, 0)  # penalty points given against each side (awarded to the other)
    casual: bool = False  # every game without a cube and worth one point (no gammons): see GameState.casual

    def _with(self, **changes: Any) -> MatchState:
        """A copy with some fields changed (``dataclasses.replace`` without its per-call introspection)."""
        new = object.__new__(MatchState)
        for name in _MATCH_FIELDS:
            object.__setattr__(new, name, changes[name] if name in changes else getattr(self, name))
        return new

    @classmethod
    def new(
        cls, length: int, *, variant: Variant = STANDARD, crawford_rule: bool = True, casual: bool = False
    ) -> MatchState:
        """A match about to start: game 1, score 0-0. A ``casual`` match has no cube and no gammons: every game is
        worth one point to whoever bears off first (the beginners' rule sheet); the Crawford rule has no effect.

        :raises IllegalActionError: for a negative length.
        """
        if length < 0:
            raise IllegalActionError(f"a match is played to 1 or more points (0 for money play), not {length}")
        game = GameState.new(variant, casual=casual)
        return cls(length, variant, crawford_rule and length > 0 and not casual, game=game, casual=casual)

    # -- queries --------------------------------------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.length > 0 and max(self.score) >= self.length

    @property
    def winner(self) -> int | None:
        if not self.is_over:
            return None
        return 0 if self.score[0] >= self.length else 1

    @property
    def post_crawford(self) -> bool:
        return self.crawford_played and not self.crawford_game

    def away(self) -> tuple[int, int]:
        """Points each side still needs (match play only)."""
        return max(self.length - self.score[0], 0), max(self.length - self.score[1], 0)

    def match_id(self) -> str:
        """The GNU Backgammon Match ID of the current state (player 0 = side 0)."""
        g = self.game
        phase = g.phase
        if phase is Phase.OPENING:
            state = 0
        elif phase is Phase.OVER:
            ended_by = g.outcome.ended_by if g.outcome is not None else None
            state = 4 if ended_by == "drop" else 3 if ended_by == "resignation" else 2
        else:
            state = 1
        dice = g.dice
        length = self.length
        score = self.score
        return encode_game_match_id(
            g.cube.value,
            g.cube.owner,
            g.on_roll,
            self.crawford_game,
            state,
            g.actor,
            phase is Phase.DOUBLE_OFFERED,
            int(g.resignation[1]) if g.resignation else 0,
            None if dice is None else (max(dice), min(dice)),
            length,
            # gnubg's Match ID cannot hold a score past the match length (the win is what matters there).
            (min(score[0], length), min(score[1], length)) if length else score,
        )

    # -- transitions ----------------------------------------------------------------------------------------------

    def apply(self, action: Action) -> MatchState:
        """The state after ``action``; a finished game is scored and the next game set up.

        :raises EngineError: if the rules refuse the action (the state is unchanged).
        """
        if self.is_over:
            assert self.winner is not None
            raise IllegalActionError(
                f"the match is over: player {self.winner + 1} won {self.score[0]}-{self.score[1]}; "
                "no game starts after the match is won"
            )
        if isinstance(action, ConcedeMatch):
            return self._concede(action)
        if isinstance(action, PenaltyPoints):
            return self._penalty(action)
        game = self.game.apply(action)
        if game.phase is not Phase.OVER:
            return self._with(game=game)
        assert game.outcome is not None
        return self._finish_game(game, game.outcome)

    def _concede(self, action: ConcedeMatch) -> MatchState:
        if self.length <= 0:
            raise IllegalActionError("a money session has no match to concede: resign the game instead")
        if action.side not in (0, 1):
            raise IllegalActionError(f"there is no side {action.side}")
        winner = 1 - action.side
        needed = self.length - self.score[winner]
        outcome = Outcome(winner, ResultKind.SINGLE, needed, "concession", self.game.cube.value)
        game = self.game._with(phase=Phase.OVER, dice=None, outcome=outcome, resignation=None, resume=None)
        return self._finish_game(game, outcome)

    def _penalty(self, action: PenaltyPoints) -> MatchState:
        if self.length <= 0:
            raise IllegalActionError("penalty points exist only in a match to N points")
        if action.side not in (0, 1):
            raise IllegalActionError(f"there is no side {action.side}")
        if not 1 <= action.points <= 99:
            raise IllegalActionError(f"a penalty is 1 to 99 points, not {action.points}")
        if self.game.phase is not Phase.OPENING:
            raise IllegalActionError("penalty points are given between games: finish this game first")
        score = list(self.score)
        score[1 - action.side] += action.points
        new_score = (score[0], score[1])
        if max(new_score) >= self.length:
            raise IllegalActionError(
                f"{action.points} penalty point(s) would end the match at {new_score[0]}-{new_score[1]}: "
                "award the match by forfeit instead"
            )
        given = list(self.penalties)
        given[action.side] += action.points
        changes: dict[str, Any] = {"score": new_score, "penalties": (given[0], given[1])}
        if self.crawford_rule and not self.crawford_played and not self.crawford_game and self.length - 1 in new_score:
            changes.update(crawford_game=True, game=GameState.new(self.variant, cube_enabled=False, casual=self.casual))
        return self._with(**changes)

    def _finish_game(self, game: GameState, outcome: Outcome) -> MatchState:
        score = list(self.score)
        score[outcome.winner] += outcome.points
        new_score = (score[0], score[1])
        crawford_played = self.crawford_played or self.crawford_game
        finished = self.length > 0 and max(new_score) >= self.length
        crawford_next = self.crawford_rule and not crawford_played and not finished and self.length - 1 in new_score
        next_game = GameState.new(self.variant, cube_enabled=not crawford_next, casual=self.casual)
        return self._with(
            score=new_score,
            game_number=self.game_number + (0 if finished else 1),
            crawford_game=crawford_next,
            crawford_played=crawford_played,
            game=game if finished else next_game,
            outcomes=(*self.outcomes, outcome),
        )

    # -- snapshot -------------------------------------------------------------------------------------------------

    def snapshot(self) -> str:
        """A compact JSON text of the whole state (game history as outcomes only), for storage."""
        g = self.game
        data: dict[str, Any] = {
            "v": SNAPSHOT_VERSION,
            "len": self.length,
            "var": _variant_data(self.variant),
            "cr": [self.crawford_rule, self.crawford_game, self.crawford_played],
            "sc": list(self.score),
            "gn": self.game_number,
            "out": [[o.winner, int(o.kind), o.points, o.ended_by, o.cube_value] for o in self.outcomes],
            **({"pen": list(self.penalties)} if any(self.penalties) else {}),
            **({"cas": True} if self.casual else {}),
            "g": {
                "b": [list(g.boards[0]), list(g.boards[1])],
                "ph": g.phase.value,
                "r": g.on_roll,
                "d": list(g.dice) if g.dice else None,
                "cu": [g.cube.value, g.cube.owner, g.cube_enabled],
                "rs": [g.resignation[0], int(g.resignation[1])] if g.resignation else None,
                "rp": g.resume.value if g.resume else None,
                "ac": g.acey_stage,
                "ow": g.opening_winner,
                "mp": g.moves_played,
                "o": [g.outcome.winner, int(g.outcome.kind), g.outcome.points, g.outcome.ended_by, g.outcome.cube_value]
                if g.outcome
                else None,
            },
        }
        return json.dumps(data, separators=(",", ":"))

    @classmethod
    def from_snapshot(cls, text: str) -> MatchState:
        """Rebuild a state from :meth:`snapshot` output.

        :raises InvalidPositionError: if the text is not a snapshot of this version.
        """
        try:
            data = json.loads(text)
            if data.get("v") != SNAPSHOT_VERSION:
                raise InvalidPositionError(f"unsupported match snapshot version {data.get('v')!r}")
            g = data["g"]
            outcome = Outcome(g["o"][0], ResultKind(g["o"][1]), *g["o"][2:]) if g["o"] else None
            game = GameState(
                boards=(tuple(g["b"][0]), tuple(g["b"][1])),
                variant=_variant_from(data["var"]),
                phase=Phase(g["ph"]),
                on_roll=g["r"],
                dice=tuple(g["d"]) if g["d"] else None,
                cube=CubeState(g["cu"][0], g["cu"][1]),
                cube_enabled=g["cu"][2],
                casual=bool(data.get("cas", False)),
                resignation=(g["rs"][0], ResultKind(g["rs"][1])) if g["rs"] else None,
                resume=Phase(g["rp"]) if g["rp"] else None,
                acey_stage=g["ac"],
                opening_winner=g["ow"],
                outcome=outcome,
                moves_played=g["mp"],
            )
            cr = data["cr"]
            return cls(
                length=data["len"],
                variant=game.variant,
                crawford_rule=cr[0],
                score=(data["sc"][0], data["sc"][1]),
                game_number=data["gn"],
                crawford_game=cr[1],
                crawford_played=cr[2],
                game=game,
                outcomes=tuple(Outcome(o[0], ResultKind(o[1]), *o[2:]) for o in data["out"]),
                penalties=tuple(data.get("pen", (0, 0))),
                casual=bool(data.get("cas", False)),
            )
        except EngineError:
            raise
        except (ValueError, KeyError, TypeError, IndexError, AttributeError) as exc:
            raise InvalidPositionError(f"not a match snapshot: {exc}") from exc


_MATCH_FIELDS = tuple(f.name for f in fields(MatchState))


def _variant_data(variant: Variant) -> Any:
    if VARIANTS.get(variant.name) == variant:
        return variant.name
    return {
        "name": variant.name,
        "layout": {str(k): v for k, v in variant.layout.items()},
        "acey": variant.acey_deucey,
        "eaf": variant.enter_all_first,
    }


def _variant_from(data: Any) -> Variant:
    if isinstance(data, str):
        return VARIANTS[data]
    layout = {int(k): v for k, v in data["layout"].items()}
    return Variant(data["name"], layout, acey_deucey=data["acey"], enter_all_first=data["eaf"], label=data["name"])


@dataclass(frozen=True, slots=True)
class ReplayError(EngineError):
    """An action refused during :func:`replay`: ``index`` is its 0-based place in the list."""

    index: int
    action: Action
    reason: EngineError

    def __str__(self) -> str:
        return f"action {self.index + 1} ({self.action}): {self.reason}"


def replay(
    actions: Iterable[Action],
    *,
    length: int,
    variant: Variant = STANDARD,
    crawford_rule: bool = True,
    start: MatchState | None = None,
    casual: bool = False,
) -> MatchState:
    """Apply ``actions`` from the start of a match (or from ``start``) and return the final state.

    :raises ReplayError: at the first action the rules refuse, with its index and the engine's reason.
    """
    state = start or MatchState.new(length, variant=variant, crawford_rule=crawford_rule, casual=casual)
    for index, action in enumerate(actions):
        try:
            state = state.apply(action)
        except EngineError as exc:
            raise ReplayError(index, action, exc) from exc
    return state


def states(actions: Sequence[Action], start: MatchState) -> list[MatchState]:
    """Every state along ``actions`` (the start included), e.g. for stepping through a match log."""
    out = [start]
    for action in actions:
        out.append(out[-1].apply(action))
    return out


__all__ = ["WAITING", "MatchState", "ReplayError", "replay", "states"]
