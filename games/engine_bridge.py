"""Between log rows and engine values: which engine action a row stands for, and the row an action becomes.

The only place that knows both :mod:`games.models` and :mod:`engine.actions` (the role Tabbycat's draw manager
plays between its ORM and its pure generators).
"""

from __future__ import annotations

from typing import Any

from engine.actions import (
    AcceptResignation,
    ChooseDouble,
    ConcedeMatch,
    Double,
    Drop,
    GameResult,
    Move,
    OpeningRoll,
    PenaltyPoints,
    RejectResignation,
    Resign,
    Roll,
    Take,
)
from engine.actions import Action as EngineAction
from engine.match import MatchState
from engine.moves import Play
from engine.types import ResultKind
from engine.variants import VARIANTS, Variant
from games.models import Action, Match

Kind = Action.Kind


def variant_of(match: Match) -> Variant:
    return VARIANTS[match.variant]


def new_state(match: Match) -> MatchState:
    return MatchState.new(match.length, variant=variant_of(match), crawford_rule=match.crawford, casual=match.casual)


def load_state(match: Match) -> MatchState:
    """The cached engine state of ``match`` (a fresh one before the first action)."""
    return MatchState.from_snapshot(match.state) if match.state else new_state(match)


def steps_text(play: Play) -> str:
    """A play's steps in play order as ``src/dst[*]`` (26 = an Acey-Deucey checker entering)."""
    return " ".join(f"{s.src}/{s.dst}{'*' if s.hit else ''}" for s in play.steps)


def play_from_steps(text: str) -> Play:
    steps = []
    for token in text.split():
        hit = token.endswith("*")
        src, dst = token.rstrip("*").split("/")
        steps.append((int(src), int(dst), hit))
    return Play(tuple(steps))


def row_fields(action: EngineAction, after: MatchState, play: Play | None = None) -> dict[str, Any]:
    """The log-row fields (kind, side, dice, play, value, data) of an engine action; ``after`` is the state it led
    to (the opening roll's side is the engine's word on who won it)."""
    if isinstance(action, OpeningRoll):
        winner = after.game.opening_winner
        return {"kind": Kind.OPENING_ROLL, "side": winner, "die1": action.dice[0], "die2": action.dice[1]}
    if isinstance(action, Roll):
        return {"kind": Kind.ROLL, "side": action.side, "die1": action.dice[0], "die2": action.dice[1]}
    if isinstance(action, Move):
        assert play is not None, "a move is stored with its resolved play"
        return {"kind": Kind.PLAY, "side": action.side, "play": str(play), "steps": steps_text(play)}
    if isinstance(action, ChooseDouble):
        return {"kind": Kind.CHOOSE_DOUBLE, "side": action.side, "value": action.die}
    if isinstance(action, Double):
        return {"kind": Kind.DOUBLE, "side": action.side}
    if isinstance(action, Take):
        return {"kind": Kind.TAKE, "side": action.side}
    if isinstance(action, Drop):
        return {"kind": Kind.DROP, "side": action.side}
    if isinstance(action, Resign):
        return {"kind": Kind.RESIGN, "side": action.side, "value": int(action.kind)}
    if isinstance(action, AcceptResignation):
        return {"kind": Kind.ACCEPT_RESIGNATION, "side": action.side}
    if isinstance(action, RejectResignation):
        return {"kind": Kind.REJECT_RESIGNATION, "side": action.side}
    if isinstance(action, GameResult):
        return {
            "kind": Kind.GAME_RESULT,
            "side": action.winner,
            "value": int(action.kind),
            "data": {"cube": action.cube_value, "ended_by": action.ended_by},
        }
    if isinstance(action, ConcedeMatch):
        return {"kind": Kind.CONCEDE_MATCH, "side": action.side}
    if isinstance(action, PenaltyPoints):
        return {"kind": Kind.PENALTY, "side": action.side, "value": action.points}
    raise TypeError(f"no log row for {action!r}")


def engine_action(row: Action) -> EngineAction | None:
    """The engine action a row stands for; None for rows that are not engine actions (corrections, void)."""
    kind = row.kind
    side = row.side if row.side is not None else 0
    if kind == Kind.OPENING_ROLL:
        return OpeningRoll((row.die1 or 0, row.die2 or 0))
    if kind == Kind.ROLL:
        return Roll(side, (row.die1 or 0, row.die2 or 0))
    if kind == Kind.PLAY:
        return Move(side, play_from_steps(row.steps))
    if kind == Kind.CHOOSE_DOUBLE:
        return ChooseDouble(side, row.value or 0)
    if kind == Kind.DOUBLE:
        return Double(side)
    if kind == Kind.TAKE:
        return Take(side)
    if kind == Kind.DROP:
        return Drop(side)
    if kind == Kind.RESIGN:
        return Resign(side, ResultKind(row.value or 1))
    if kind == Kind.ACCEPT_RESIGNATION:
        return AcceptResignation(side)
    if kind == Kind.REJECT_RESIGNATION:
        return RejectResignation(side)
    if kind == Kind.GAME_RESULT:
        return GameResult(
            side, ResultKind(row.value or 1), int(row.data.get("cube", 1)), row.data.get("ended_by", "scoresheet")
        )
    if kind in (Kind.CONCEDE_MATCH, Kind.FORFEIT):
        return ConcedeMatch(side)
    if kind == Kind.PENALTY:
        return PenaltyPoints(side, row.value or 0)
    return None


def replacement_action(correction: Action) -> EngineAction | None:
    """The action a correction puts in place of the one it undoes (None: it only removes)."""
    data = correction.data.get("replacement")
    if not data:
        return None
    return GameResult(data["winner"], ResultKind(data["kind"]), data["cube"], data.get("ended_by", "director"))
