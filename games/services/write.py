"""The one write path of matches: lock, sequence check, idempotency, the log row, the caches."""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import django.dispatch
from django.db import IntegrityError, transaction
from django.utils import timezone

from common.actor import SYSTEM, Actor
from common.errors import ApplicationError, ErrorCode
from engine.actions import Action as EngineAction
from engine.actions import (
    ConcedeMatch,
    GameResult,
    Move,
    PenaltyPoints,
)
from engine.errors import EngineError
from engine.game import GameState, Phase
from engine.match import MatchState
from engine.moves import Play
from engine.notation import parse_play
from games.access import check_can_act, is_director, sides_of
from games.engine_bridge import load_state, row_fields
from games.hooks import RESULT_WRITERS, game_finished, match_finished
from games.models import (
    MATCH_MAX_ACTIONS,
    MATCH_MAX_GAMES,
    Action,
    Game,
    Match,
)

Kind = Action.Kind
_CLOSED = (Match.Status.FINISHED, Match.Status.FORFEITED, Match.Status.VOID)


@dataclass(frozen=True, slots=True)
class Recorded:
    """What a write produced: the match (caches updated), the log row, the engine state after it, and whether
    this was a retry answered from the log (nothing written)."""

    match: Match
    action: Action
    state: MatchState
    retried: bool = False


# -- internals -----------------------------------------------------------------------------------------------------

_SideRule = int | None | Callable[[Actor, Match], int | None]


def _any_side(actor: Actor, match: Match) -> int | None:
    """Actions either player may enter (the opening roll, a scoresheet result): any side the actor holds."""
    sides = sides_of(actor, match)
    return min(sides) if sides else None


def _directs(actor: Actor, match: Match) -> bool:
    return actor is SYSTEM or (actor.token is None and is_director(actor.user, match))


def _need_reason(reason: str) -> None:
    if not reason or not reason.strip():
        raise ApplicationError(ErrorCode.INVALID_INPUT, "a correction needs a reason (it is kept in the match log)")


def _lock(match_id: int) -> Match:
    try:
        return Match.objects.select_for_update(of=("self",)).select_related("player1", "player2").get(pk=match_id)
    except Match.DoesNotExist:
        raise ApplicationError(ErrorCode.NOT_FOUND, f"there is no match {match_id}") from None


def _check_seq(match: Match, expected_seq: int | None) -> None:
    if expected_seq is not None and expected_seq != match.seq:
        raise ApplicationError(
            ErrorCode.STALE_SEQUENCE,
            f"the match has moved on (action {match.seq} is the latest, you expected {expected_seq}): "
            "reload and try again",
            seq=match.seq,
        )


def _check_open(match: Match) -> None:
    if match.status in _CLOSED:
        raise ApplicationError(ErrorCode.MATCH_CLOSED, f"the match is {match.get_status_display().lower()}")


def _record(
    match_id: int,
    action: EngineAction | Callable[[Match], EngineAction],
    *,
    actor: Actor,
    side: _SideRule,
    expected_seq: int | None,
    key: str | None,
    kind: str | None = None,
    reason: str = "",
    director_only: bool = False,
) -> Recorded:
    _check_key(key)
    try:
        with transaction.atomic():
            match = _lock(match_id)
            acting_side = side(actor, match) if callable(side) else side
            check_can_act(actor, match, acting_side, director_only=director_only)
            engine_act = action(match) if callable(action) else action
            digest = _request_digest(actor, engine_act, kind, reason) if key is not None else ""
            retry = _keyed_retry(match, actor, key, digest)
            if retry is not None:
                return retry
            _check_open(match)
            _check_seq(match, expected_seq)
            if match.entry_mode == Match.EntryMode.SCORESHEET and not isinstance(
                engine_act, (GameResult, ConcedeMatch, PenaltyPoints)
            ):
                raise ApplicationError(
                    ErrorCode.ILLEGAL_ACTION,
                    "this match is kept on a scoresheet: enter each game's result (winner, single/gammon/backgammon, "
                    "cube), not rolls and plays",
                )
            before = load_state(match)
            play = None
            if isinstance(engine_act, Move):
                play = _resolve_play(before, engine_act)
                engine_act = Move(engine_act.side, play)
            try:
                after = before.apply(engine_act)
            except EngineError as exc:
                raise ApplicationError(ErrorCode.ILLEGAL_ACTION, str(exc)) from exc
            _check_room(match, before, after, engine_act)
            row = _append(
                match, before, after, engine_act, play, actor=actor, key=(key, digest), kind=kind, reason=reason
            )
            _after_action(match, before, after, row)
            return Recorded(match, row, after)
    except IntegrityError:
        # Two retries with one idempotency key raced past the lookup: the first one's row answers.
        if key is not None:
            prior = Action.objects.filter(match_id=match_id, idempotency_key=key).first()
            if prior is not None:
                _check_same_request(prior, actor, digest, key)
                match = Match.objects.select_related("player1", "player2").get(pk=match_id)
                return Recorded(match, prior, load_state(match), retried=True)
        raise


def check_match_size(*, games: int, actions: int | None = None) -> None:
    """Refuse a whole match (an imported log) with more games or actions than a match holds.

    :raises ApplicationError: MATCH_TOO_LONG naming the limit (``limit``, ``max`` and ``found`` in the error).
    """
    if games > MATCH_MAX_GAMES:
        raise ApplicationError(
            ErrorCode.MATCH_TOO_LONG,
            f"a match holds at most {MATCH_MAX_GAMES} games and this log has {games:,}: "
            f"split it into matches of at most {MATCH_MAX_GAMES} games",
            limit="games_per_match",
            max=MATCH_MAX_GAMES,
            found=games,
        )
    if actions is not None and actions > MATCH_MAX_ACTIONS:
        raise ApplicationError(
            ErrorCode.MATCH_TOO_LONG,
            f"a match's log holds at most {MATCH_MAX_ACTIONS:,} actions and this one has {actions:,}: "
            "split it into shorter matches",
            limit="actions_per_match",
            max=MATCH_MAX_ACTIONS,
            found=actions,
        )


def _check_room(match: Match, before: MatchState, after: MatchState, action: EngineAction) -> None:
    """Refuse an action past the limits of a match (a director's forfeit ends a match at any size)."""
    if isinstance(action, ConcedeMatch):
        return
    if match.seq >= MATCH_MAX_ACTIONS:
        raise ApplicationError(
            ErrorCode.MATCH_TOO_LONG,
            f"this match's log is full: a match holds at most {MATCH_MAX_ACTIONS:,} actions; "
            "a director can still end it (forfeit, void or finish) or correct it",
            limit="actions_per_match",
            max=MATCH_MAX_ACTIONS,
        )
    if before.game_number > MATCH_MAX_GAMES and _game_fields(before, after)[0]:
        raise ApplicationError(
            ErrorCode.MATCH_TOO_LONG,
            f"a match holds at most {MATCH_MAX_GAMES} games and game {before.game_number} cannot start: "
            "end this session (a director finishes it) and play on in a new match",
            limit="games_per_match",
            max=MATCH_MAX_GAMES,
        )


def _sender(actor: Actor) -> str:
    if actor.token is not None:
        return f"token:{actor.token.pk}"
    if actor.user is not None and actor.user.is_authenticated:
        return f"user:{actor.user.pk}"
    return "system"


def _request_digest(actor: Actor, what: object, kind: str | None, reason: str) -> str:
    """What a keyed request was: who sent it and what it asked (an engine action, a play as typed spaces aside, or
    a correction's terms)."""
    if isinstance(what, Move) and isinstance(what.play, str):
        what = Move(what.side, " ".join(what.play.split()))
    text = f"{_sender(actor)}|{what!r}|{kind or ''}|{reason}"
    return hashlib.sha256(text.encode()).hexdigest()


def _keyed_retry(match: Match, actor: Actor, key: str | None, digest: str) -> Recorded | None:
    """The first answer to a request already recorded under ``key`` (refused if the key served another one)."""
    if key is None:
        return None
    prior = Action.objects.filter(match=match, idempotency_key=key).first()
    if prior is None:
        return None
    _check_same_request(prior, actor, digest, key)
    return Recorded(match, prior, load_state(match), retried=True)


def _check_key(key: str | None) -> None:
    if key is not None and not 1 <= len(key) <= 64:
        raise ApplicationError(ErrorCode.INVALID_INPUT, "an idempotency key has 1 to 64 characters")


def _check_same_request(prior: Action, actor: Actor, digest: str, key: str) -> None:
    """A retry must be the request its key was first used for, by the same sender: anything else is refused
    (its own action would otherwise be dropped without a word). Rows stored before digests were kept pass."""
    if not prior.request_digest or prior.request_digest == digest:
        return
    prior_sender = (
        f"token:{prior.entered_by_token_id}"
        if prior.entered_by_token_id is not None
        else f"user:{prior.entered_by_user_id}"
        if prior.entered_by_user_id is not None
        else "system"
    )
    if prior_sender != _sender(actor):
        why = "by another sender"
    else:
        why = f"for a different request (action {prior.seq}, {prior.get_kind_display()})"
    raise ApplicationError(
        ErrorCode.IDEMPOTENCY_KEY_REUSED,
        f"the idempotency key {key!r} was already used on this match {why}: a retry must send the same request "
        "again; a new request needs a new key",
        seq=prior.seq,
    )


def _resolve_play(state: MatchState, move: Move) -> Play:
    game = state.game
    if game.phase is not Phase.MOVE or game.dice is None:
        # Let the engine word the refusal (wrong phase, wrong side).
        try:
            state.apply(move)
        except EngineError as exc:
            raise ApplicationError(ErrorCode.ILLEGAL_ACTION, str(exc)) from exc
    if move.side != game.on_roll:
        raise ApplicationError(
            ErrorCode.ILLEGAL_ACTION, f"it is {'player 1' if game.on_roll == 0 else 'player 2'}'s turn to play"
        )
    assert game.dice is not None
    if isinstance(move.play, Play):
        return move.play
    try:
        return parse_play(move.play, game.position(), game.dice, legal=game.legal_plays())
    except EngineError as exc:
        raise ApplicationError(ErrorCode.ILLEGAL_ACTION, str(exc)) from exc


def _position_after(
    before: MatchState, after: MatchState, action: EngineAction, play: Play | None, memo: _KeyMemo | None = None
) -> str:
    if after.game_number == before.game_number and not after.is_over:
        return after.game.position().key() if memo is None else memo.key(after.game)
    # The action ended the game: keep its final board, not the next game's start.
    if play is not None:
        return before.game.position().apply(play).key()
    return before.game.position().key()


class _KeyMemo:
    """The last position key made, for the rows that leave the board as it was (a roll, a cube action): many rows
    of a long log in a row (an import) need it again."""

    def __init__(self) -> None:
        self.boards: object = None
        self.on_roll = -1
        self.text = ""

    def key(self, game: GameState) -> str:
        if game.boards is not self.boards or game.on_roll != self.on_roll:
            self.boards, self.on_roll, self.text = game.boards, game.on_roll, game.position().key()
        return self.text


def _append(
    match: Match,
    before: MatchState,
    after: MatchState,
    action: EngineAction,
    play: Play | None,
    *,
    actor: Actor,
    key: tuple[str | None, str],
    kind: str | None,
    reason: str,
) -> Action:
    """Append the row; ``key`` is the idempotency key (or None) and the request's digest."""
    fields = row_fields(action, after, play)
    if kind is not None:
        fields["kind"] = kind
    user = actor.user if actor.user is not None and actor.user.is_authenticated else None
    return Action.objects.create(
        match=match,
        seq=match.seq + 1,
        game_number=before.game_number,
        position_id=_position_after(before, after, action, play),
        match_id_after=after.match_id(),
        entered_by_user=user,
        entered_by_token=actor.token,
        idempotency_key=key[0],
        request_digest=key[1],
        reason=reason,
        **fields,
    )


def _after_action(match: Match, before: MatchState, after: MatchState, row: Action) -> None:
    """Update the caches (match row, game rows) after ``row``; signal a finished match after commit."""
    _sync_game(match, before, after)
    apply_caches(match, after, seq=row.seq, closing=row.kind)
    if not after.is_over and len(after.outcomes) > len(before.outcomes) and match.entry_mode == Match.EntryMode.MOVES:
        game_pk = match.pk
        transaction.on_commit(lambda: game_finished.send(sender=Match, match_id=game_pk))
    match.save(update_fields=CACHE_FIELDS)
    if after.is_over:
        _result_changed(match, match_finished)


#: The kinds of the director's marks: rows that close a match without an action of the engine.
_MARKS = (Kind.VOID, Kind.FINISH)
#: The fields of a match row that :func:`apply_caches` sets.
CACHE_FIELDS = ("seq", "state", "score1", "score2", "status", "winner", "started_at", "finished_at")


def apply_caches(
    match: Match,
    state: MatchState,
    *,
    seq: int,
    closing: str | None = None,
    started: bool = True,
    now: dt.datetime | None = None,
) -> None:
    """Set the match row's caches (:data:`CACHE_FIELDS`, not saved) from ``state``, the engine's state after its
    log in force, whose last row is ``seq``: one rule for every writer of matches (an action, a director's mark,
    the replay after a correction, an import, a restored archive), so the caches always say what a replay says.

    ``closing`` is the kind of the row that closed the match, or of the last row (a void or a finish without a
    winner, a forfeit); ``started`` is false when no row is in force (every action undone). Play starts, and
    ``started_at`` is set to ``now``, when an action (not a mark) is the first in force; ``finished_at`` is kept
    while the match stays closed.
    """
    now = now or timezone.now()
    status = _status_after(state, closing=closing, started=started)
    match.seq = seq
    match.state = state.snapshot()
    match.score1, match.score2 = state.score
    match.winner = match.player(state.winner or 0) if state.is_over and closing not in _MARKS else None
    if status == Match.Status.SCHEDULED:
        match.started_at = None
    elif match.status == Match.Status.SCHEDULED and closing not in _MARKS:
        match.started_at = now
    match.finished_at = (match.finished_at or now) if status in _CLOSED else None
    match.status = status


def _status_after(state: MatchState, *, closing: str | None, started: bool) -> str:
    if closing == Kind.VOID:
        return Match.Status.VOID
    if closing == Kind.FINISH:
        return Match.Status.FINISHED
    if state.is_over:
        return Match.Status.FORFEITED if closing == Kind.FORFEIT else Match.Status.FINISHED
    return Match.Status.IN_PROGRESS if started else Match.Status.SCHEDULED


def _result_changed(match: Match, signal: django.dispatch.Signal) -> None:
    """The match's result changed in this transaction (its row written): the apps built on games/ write what shows
    it in the same transaction (:data:`games.hooks.RESULT_WRITERS`), and hear ``signal`` after the commit."""
    for write in RESULT_WRITERS:
        write(match)
    match_pk = match.pk
    transaction.on_commit(lambda: signal.send(sender=Match, match_id=match_pk))


def _game_fields(before: MatchState, after: MatchState) -> tuple[bool, dict[str, Any]]:
    """What an action does to its game's row: (does it start the game?, the fields to write). Empty fields: the
    row is untouched. Shared by recording (one query) and by replay and import (rows built in memory)."""
    # A penalty between games changes the score but starts no game.
    starting = before.game.phase is Phase.OPENING and after.penalties == before.penalties
    fields: dict[str, Any] = {}
    if starting:
        fields.update(
            start_score1=before.score[0],
            start_score2=before.score[1],
            crawford=before.crawford_game,
            opening_winner=after.game.opening_winner if after.game_number == before.game_number else None,
        )
    if len(after.outcomes) > len(before.outcomes):
        outcome = after.outcomes[-1]
        fields.update(
            winner_side=outcome.winner,
            result_kind=int(outcome.kind),
            ended_by=outcome.ended_by,
            cube_value=outcome.cube_value,
            cube_owner=before.game.cube.owner,
            points=outcome.points,
        )
    return starting, fields


def _sync_game(match: Match, before: MatchState, after: MatchState) -> None:
    """Create the game row when a game starts; write its result when it ends (at most one query each)."""
    starting, fields = _game_fields(before, after)
    if starting:
        Game.objects.create(match=match, number=before.game_number, **fields)
    elif fields:
        Game.objects.filter(match=match, number=before.game_number).update(**fields)


def _mark(
    match_id: int, kind: str, *, actor: Actor, reason: str, expected_seq: int | None, key: str | None
) -> Recorded:
    _check_key(key)
    with transaction.atomic():
        match = _lock(match_id)
        check_can_act(actor, match, None, director_only=True)
        digest = _request_digest(actor, kind, kind, reason) if key is not None else ""
        retry = _keyed_retry(match, actor, key, digest)
        if retry is not None:
            return retry
        _check_open(match)
        _check_seq(match, expected_seq)
        state = load_state(match)
        if kind == Kind.FINISH and match.length > 0:
            raise ApplicationError(ErrorCode.CONFLICT, "a match to N points ends when a player reaches N")
        user = actor.user if actor.user is not None and actor.user.is_authenticated else None
        row = Action.objects.create(
            match=match,
            seq=match.seq + 1,
            game_number=state.game_number,
            kind=kind,
            reason=reason,
            entered_by_user=user,
            entered_by_token=actor.token,
            idempotency_key=key,
            request_digest=digest,
            position_id="",
            match_id_after=state.match_id(),
        )
        apply_caches(match, state, seq=row.seq, closing=kind)
        match.save(update_fields=CACHE_FIELDS)
        _result_changed(match, match_finished)
        return Recorded(match, row, state)


def _collect_game(games: list[dict[str, Any]], before: MatchState, after: MatchState) -> None:
    """As :func:`_sync_game`, on the fields of game rows kept in memory (``games``, the current game last)."""
    starting, fields = _game_fields(before, after)
    if starting:
        games.append({"number": before.game_number, **fields})
    elif fields:
        games[-1].update(fields)
