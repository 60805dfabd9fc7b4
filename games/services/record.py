"""Recording: the players' actions and the director's marks (forfeit, penalty, void, finish, undo, take back)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from common.actor import Actor
from common.errors import ApplicationError, ErrorCode
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
from engine.moves import Play
from engine.types import ResultKind
from games.models import (
    Match,
)
from games.services.write import Kind, Recorded, _any_side, _directs, _mark, _need_reason, _record

# -- recording actions -----------------------------------------------------------------------------------------


def record_opening_roll(
    match_id: int, *, actor: Actor, dice: tuple[int, int], expected_seq: int | None, idempotency_key: str | None = None
) -> Recorded:
    """Both opening dice (side 0's die first); the higher die's player moves first with both numbers."""
    return _record(
        match_id, OpeningRoll(dice), actor=actor, side=_any_side, expected_seq=expected_seq, key=idempotency_key
    )


def record_roll(
    match_id: int,
    *,
    actor: Actor,
    side: int,
    dice: tuple[int, int],
    expected_seq: int | None,
    idempotency_key: str | None = None,
) -> Recorded:
    return _record(match_id, Roll(side, dice), actor=actor, side=side, expected_seq=expected_seq, key=idempotency_key)


def record_play(
    match_id: int,
    *,
    actor: Actor,
    side: int,
    play: str | Play,
    expected_seq: int | None,
    idempotency_key: str | None = None,
) -> Recorded:
    """The play of the dice just rolled, in any common notation ("" or "cannot move" when nothing is legal)."""
    return _record(match_id, Move(side, play), actor=actor, side=side, expected_seq=expected_seq, key=idempotency_key)


def choose_double(
    match_id: int, *, actor: Actor, side: int, die: int, expected_seq: int | None, idempotency_key: str | None = None
) -> Recorded:
    """Acey-Deucey: the double chosen after playing a 1-2."""
    return _record(
        match_id, ChooseDouble(side, die), actor=actor, side=side, expected_seq=expected_seq, key=idempotency_key
    )


def offer_double(
    match_id: int, *, actor: Actor, side: int, expected_seq: int | None, idempotency_key: str | None = None
) -> Recorded:
    return _record(match_id, Double(side), actor=actor, side=side, expected_seq=expected_seq, key=idempotency_key)


def take(
    match_id: int, *, actor: Actor, side: int, expected_seq: int | None, idempotency_key: str | None = None
) -> Recorded:
    return _record(match_id, Take(side), actor=actor, side=side, expected_seq=expected_seq, key=idempotency_key)


def drop(
    match_id: int, *, actor: Actor, side: int, expected_seq: int | None, idempotency_key: str | None = None
) -> Recorded:
    return _record(match_id, Drop(side), actor=actor, side=side, expected_seq=expected_seq, key=idempotency_key)


def offer_resignation(
    match_id: int,
    *,
    actor: Actor,
    side: int,
    kind: ResultKind | int,
    expected_seq: int | None,
    idempotency_key: str | None = None,
) -> Recorded:
    try:
        result_kind = ResultKind(kind)
    except ValueError:
        raise ApplicationError(ErrorCode.INVALID_INPUT, "resign a single (1), gammon (2) or backgammon (3)") from None
    return _record(
        match_id, Resign(side, result_kind), actor=actor, side=side, expected_seq=expected_seq, key=idempotency_key
    )


def accept_resignation(
    match_id: int, *, actor: Actor, side: int, expected_seq: int | None, idempotency_key: str | None = None
) -> Recorded:
    return _record(
        match_id, AcceptResignation(side), actor=actor, side=side, expected_seq=expected_seq, key=idempotency_key
    )


def reject_resignation(
    match_id: int, *, actor: Actor, side: int, expected_seq: int | None, idempotency_key: str | None = None
) -> Recorded:
    return _record(
        match_id, RejectResignation(side), actor=actor, side=side, expected_seq=expected_seq, key=idempotency_key
    )


def record_game_result(
    match_id: int,
    *,
    actor: Actor,
    winner: int,
    kind: ResultKind | int,
    cube_value: int = 1,
    expected_seq: int | None,
    idempotency_key: str | None = None,
) -> Recorded:
    """Scoresheet entry of a whole game. Players may enter results only in a scoresheet match; directors always
    (recorded as a director decision). The engine checks the points, the Crawford game and the match end."""
    try:
        result_kind = ResultKind(kind)
    except ValueError:
        raise ApplicationError(
            ErrorCode.INVALID_INPUT, "a game is won as a single (1), gammon (2) or backgammon (3)"
        ) from None

    def build(match: Match) -> EngineAction:
        scoresheet = match.entry_mode == Match.EntryMode.SCORESHEET
        if not scoresheet and not _directs(actor, match):
            raise ApplicationError(
                ErrorCode.ILLEGAL_ACTION,
                "this match is recorded move by move: game results come from the moves (a director can enter one)",
            )
        return GameResult(winner, result_kind, cube_value, "scoresheet" if scoresheet else "director")

    return _record(match_id, build, actor=actor, side=_any_side, expected_seq=expected_seq, key=idempotency_key)


#: Each action a player records, by its kind in the log, to the service that records it. The entry page, the API and
#: :func:`record_action` dispatch through this one table; each only turns its own input into the service's keyword
#: arguments (``side``, ``dice``, ``play``, ``die``, ``kind``, ``winner``, ``cube_value``).
RECORDERS: dict[str, Callable[..., Recorded]] = {
    Kind.OPENING_ROLL: record_opening_roll,
    Kind.ROLL: record_roll,
    Kind.PLAY: record_play,
    Kind.CHOOSE_DOUBLE: choose_double,
    Kind.DOUBLE: offer_double,
    Kind.TAKE: take,
    Kind.DROP: drop,
    Kind.RESIGN: offer_resignation,
    Kind.ACCEPT_RESIGNATION: accept_resignation,
    Kind.REJECT_RESIGNATION: reject_resignation,
    Kind.GAME_RESULT: record_game_result,
}


def record_action(
    match_id: int, action: EngineAction, *, actor: Actor, expected_seq: int | None, idempotency_key: str | None = None
) -> Recorded:
    """Record any engine action through the service of its kind (replaying a log into a live match, load tests).

    A match concession is a director's forfeit; everything else is checked exactly as its own service checks it.
    """
    common: dict[str, Any] = {"actor": actor, "expected_seq": expected_seq}
    if isinstance(action, ConcedeMatch):
        return forfeit_match(match_id, loser_side=action.side, reason="the match was conceded", **common)
    kind, arguments = _recorder_arguments(action)
    return RECORDERS[kind](match_id, idempotency_key=idempotency_key, **arguments, **common)


def _recorder_arguments(action: EngineAction) -> tuple[str, dict[str, Any]]:
    """The kind of a player's engine action and its service's keyword arguments."""
    match action:
        case OpeningRoll():
            return Kind.OPENING_ROLL, {"dice": action.dice}
        case GameResult():
            return Kind.GAME_RESULT, {"winner": action.winner, "kind": action.kind, "cube_value": action.cube_value}
        case Roll():
            return Kind.ROLL, {"side": action.side, "dice": action.dice}
        case Move():
            return Kind.PLAY, {"side": action.side, "play": action.play}
        case Resign():
            return Kind.RESIGN, {"side": action.side, "kind": action.kind}
        case ChooseDouble():
            return Kind.CHOOSE_DOUBLE, {"side": action.side, "die": action.die}
        case Double():
            return Kind.DOUBLE, {"side": action.side}
        case Take():
            return Kind.TAKE, {"side": action.side}
        case Drop():
            return Kind.DROP, {"side": action.side}
        case AcceptResignation():
            return Kind.ACCEPT_RESIGNATION, {"side": action.side}
        case RejectResignation():
            return Kind.REJECT_RESIGNATION, {"side": action.side}
    raise ApplicationError(ErrorCode.INVALID_INPUT, f"{type(action).__name__} is not an action a player records")


# -- director actions --------------------------------------------------------------------------------------------


def forfeit_match(
    match_id: int,
    *,
    actor: Actor,
    loser_side: int,
    reason: str,
    expected_seq: int | None = None,
    idempotency_key: str | None = None,
) -> Recorded:
    """Award the match to the other player (no-show, withdrawal, penalty): they get the points they needed."""
    _need_reason(reason)
    return _record(
        match_id,
        ConcedeMatch(loser_side),
        actor=actor,
        side=None,
        expected_seq=expected_seq,
        key=idempotency_key,
        kind=Kind.FORFEIT,
        reason=reason,
        director_only=True,
    )


def award_penalty(
    match_id: int, *, actor: Actor, side: int, points: int, reason: str, expected_seq: int | None = None
) -> Recorded:
    """Penalty points against ``side`` (awarded to the opponent), between games; a penalty that would end the
    match is refused (award a forfeit instead)."""
    _need_reason(reason)
    if side not in (0, 1):
        raise ApplicationError(ErrorCode.INVALID_INPUT, "the penalised side is side 0 or side 1")
    return _record(
        match_id,
        PenaltyPoints(side, points),
        actor=actor,
        side=None,
        expected_seq=expected_seq,
        key=None,
        kind=Kind.PENALTY,
        reason=reason,
        director_only=True,
    )


def void_match(
    match_id: int,
    *,
    actor: Actor,
    reason: str,
    expected_seq: int | None = None,
    idempotency_key: str | None = None,
) -> Recorded:
    """Cancel a match: no winner. Its log stays; ``reopen_match`` brings it back."""
    _need_reason(reason)
    return _mark(match_id, Kind.VOID, actor=actor, reason=reason, expected_seq=expected_seq, key=idempotency_key)


def finish_match(
    match_id: int,
    *,
    actor: Actor,
    reason: str = "session ended",
    expected_seq: int | None = None,
    idempotency_key: str | None = None,
) -> Recorded:
    """End a money session (matches to N points finish by themselves)."""
    return _mark(match_id, Kind.FINISH, actor=actor, reason=reason, expected_seq=expected_seq, key=idempotency_key)
