"""Corrections: asked for and answered, reopened matches, replaced results, and the replay of the log in force."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone

from common.actor import Actor
from common.errors import ApplicationError, ErrorCode
from engine.actions import Action as EngineAction
from engine.errors import EngineError
from engine.match import MatchState
from engine.types import ResultKind
from games.access import check_can_act, sides_of
from games.engine_bridge import new_state
from games.hooks import CORRECTION_GUARDS, TAKE_BACK_GUARDS, match_finished, match_result_changed
from games.models import (
    Action,
    CorrectionRequest,
    EntryToken,
    Game,
    Match,
)
from games.selectors import effective_actions
from games.services.write import (
    _CLOSED,
    CACHE_FIELDS,
    Kind,
    Recorded,
    _check_key,
    _check_seq,
    _collect_game,
    _directs,
    _keyed_retry,
    _lock,
    _need_reason,
    _request_digest,
    _result_changed,
    apply_caches,
)

# -- undo and take back ------------------------------------------------------------------------------------------


def undo_last_action(
    match_id: int,
    *,
    actor: Actor,
    reason: str,
    expected_seq: int | None = None,
    override: bool = False,
    idempotency_key: str | None = None,
) -> Recorded:
    """Take back the last action still in force (a new log row says what it undoes and why); when that action is
    a replaced result, what it replaced is in force again. ``override``: see :data:`games.hooks.CORRECTION_GUARDS`.
    A retry with the same ``idempotency_key`` answers the first row (as an action's retry does)."""
    _need_reason(reason)
    _check_key(idempotency_key)
    with transaction.atomic():
        match = _lock(match_id)
        check_can_act(actor, match, None, director_only=True)
        key = _correction_key(match, actor, idempotency_key, ("undo", override), reason)
        if isinstance(key, Recorded):
            return key
        _check_seq(match, expected_seq)
        target = _effective_rows(match)[-1:] if match.seq else []
        if not target:
            raise ApplicationError(ErrorCode.CONFLICT, "there is nothing to undo: the match has no actions yet")
        return _correct(match, actor, target[0], reason=reason, override=override, key=key, restore=True)


def take_back(
    match_id: int, *, actor: Actor, side: int, expected_seq: int | None, idempotency_key: str | None = None
) -> Recorded:
    """A player takes back his own last entry (dice, a play, a cube action, a game result) while his opponent has
    entered nothing since, and the match is not over (:func:`may_take_back_after`): a correction row in the log
    says what it undoes, and that he took it back, as a director's undo does. Once the opponent has entered
    something, only a director corrects (or the opponent accepts a correction, :func:`request_correction`).
    :data:`games.hooks.TAKE_BACK_GUARDS` may refuse (a result the opponent has confirmed).

    :raises ApplicationError: FORBIDDEN for a side the actor does not hold, CONFLICT when the last entry is not his.
    """
    if side not in (0, 1):
        raise ApplicationError(ErrorCode.INVALID_INPUT, "a take-back is for side 0 or side 1")
    _check_key(idempotency_key)
    with transaction.atomic():
        match = _lock(match_id)
        check_can_act(actor, match, side)
        key = _correction_key(match, actor, idempotency_key, ("take-back", side), "")
        if isinstance(key, Recorded):
            return key  # a retry: the first answer (the same key for another request or sender is refused)
        _check_seq(match, expected_seq)
        directs = _directs(actor, match) and side not in sides_of(actor, match)
        if not directs and not may_take_back_after(match):
            raise ApplicationError(
                ErrorCode.MATCH_CLOSED,
                f"the match is over ({match.get_status_display().lower()}): a player takes back an entry while the "
                "match is played; now the director corrects it",
            )
        target = take_back_target(match, side, director=directs)
        if target is None:
            raise ApplicationError(
                ErrorCode.CONFLICT,
                f"{match.player(side).display_name} has no entry to take back: the last entry is not his, or his "
                "opponent has entered something since (ask for a correction, or ask the director)",
            )
        for guard in TAKE_BACK_GUARDS:
            guard(match, side)
        who = "the director" if directs else match.player(side).display_name
        return _correct(match, actor, target, reason=f"taken back by {who}", key=key)


def may_take_back_after(match: Match) -> bool:
    """Whether a player may still take back his last entry, or ask for a correction, in the match's state: while
    it is played, and once it is over only in a scoresheet match, whose last result waits for the opponent's
    confirmation (:data:`games.hooks.TAKE_BACK_GUARDS` refuse a take-back once he confirmed). A move-by-move match
    over is over: the director corrects it."""
    return match.status not in _CLOSED or (
        match.status == Match.Status.FINISHED and match.entry_mode == Match.EntryMode.SCORESHEET
    )


def take_back_target(match: Match, side: int, *, director: bool = False) -> Action | None:
    """The entry ``side`` may take back: the last one in force, if he entered it and nobody but he has written to
    the log since (his own earlier take-backs). None otherwise. A ``director`` acting for the side takes back the
    last entry in force for it, whoever entered it. One query when the log ends with an entry, not a take-back."""
    last = Action.objects.filter(match=match).select_related("entered_by_token").order_by("-seq").first()
    if last is None or last.kind in (Kind.VOID, Kind.FINISH, Kind.FORFEIT, Kind.PENALTY):
        return None
    if last.kind != Kind.CORRECTION:
        return last if director or _entered_by(last, match, side) else None
    if not director and not _entered_by(last, match, side):
        return None
    in_force = _effective_rows(match)
    if not in_force or in_force[-1].kind == Kind.CORRECTION:  # a director's replacement: his to change
        return None
    target = in_force[-1]
    later = list(Action.objects.filter(match=match, seq__gt=target.seq).select_related("entered_by_token"))
    if director:
        return target
    # What came after it is his own: the entries he took back, and his take-backs.
    if not _entered_by(target, match, side) or not all(_entered_by(r, match, side) for r in later):
        return None
    return target


# -- correction requests, reopened matches, replaced results --------------------------------------------------


def request_correction(
    match_id: int,
    *,
    actor: Actor,
    side: int,
    reason: str,
    expected_seq: int | None = None,
    idempotency_key: str | None = None,
) -> CorrectionRequest:
    """A player asks to undo his last entry in force when his opponent has entered something since (too late to
    take it back): the opponent accepts it on his phone, or a director decides (:func:`answer_correction`).
    Nothing changes in the log until then. A retry with the same ``idempotency_key`` answers the first request,
    whatever became of it since (the same side asking; another side's key is refused).

    :raises ApplicationError: INVALID_INPUT without a reason, CONFLICT with nothing of his to undo, a request
        already waiting or a :data:`games.hooks.TAKE_BACK_GUARDS` refusal (a confirmed result),
        IDEMPOTENCY_KEY_REUSED for a key that asked for another side.
    """
    if not reason.strip():
        raise ApplicationError(ErrorCode.INVALID_INPUT, "say what was wrong (your opponent and the director read it)")
    _check_key(idempotency_key)
    with transaction.atomic():
        match = _lock(match_id)
        check_can_act(actor, match, side)
        if idempotency_key is not None:
            prior = CorrectionRequest.objects.filter(match=match, idempotency_key=idempotency_key).first()
            if prior is not None:
                if prior.side != side:
                    raise ApplicationError(
                        ErrorCode.IDEMPOTENCY_KEY_REUSED,
                        f"the idempotency key {idempotency_key!r} already asked for a correction for the other side: "
                        "a new request needs a new key",
                    )
                return prior
        _check_seq(match, expected_seq)
        if not may_take_back_after(match):
            raise ApplicationError(
                ErrorCode.MATCH_CLOSED,
                f"the match is over ({match.get_status_display().lower()}): the director corrects it now",
            )
        for guard in TAKE_BACK_GUARDS:  # a result the opponent confirmed: the director corrects it
            guard(match, side)
        if CorrectionRequest.objects.filter(match=match, status=CorrectionRequest.Status.OPEN).exists():
            raise ApplicationError(ErrorCode.CONFLICT, "a correction is already asked for in this match: wait for it")
        target = last_entry_of(match, side)
        if target is None:
            raise ApplicationError(
                ErrorCode.CONFLICT,
                f"{match.player(side).display_name} has no entry in force to correct with something entered after "
                "it (a last entry nobody has answered yet: take it back)",
            )
        return CorrectionRequest.objects.create(
            match=match,
            side=side,
            undoes=target,
            reason=reason.strip()[:500],
            asked_by_token=actor.token,
            idempotency_key=idempotency_key,
        )


def last_entry_of(match: Match, side: int) -> Action | None:
    """The last entry in force that ``side``'s player entered (what a correction he asks for would undo), once
    something entered by another (his opponent, a director) follows it in force: before that, he takes it back
    himself (:func:`take_back`), and there is nothing to ask. None otherwise. Two statements whatever the log's
    length."""
    rows = [r for r in _effective_rows(match) if r.kind != Kind.CORRECTION]
    tokens = dict(EntryToken.objects.filter(match=match).values_list("pk", "side"))
    user = match.player(side).user_id
    for index in range(len(rows) - 1, -1, -1):
        row = rows[index]
        if row.entered_by_token_id is not None and tokens.get(row.entered_by_token_id) == side:
            return row if index < len(rows) - 1 else None
        if row.entered_by_token_id is None and user is not None and row.entered_by_user_id == user:
            return row if index < len(rows) - 1 else None
    return None


def answer_correction(request_id: int, *, actor: Actor, accept: bool) -> CorrectionRequest:
    """The opponent of the player who asked (or a director) accepts or refuses a correction. Accepted, the entry
    and every entry in force after it are undone, latest first, each by a correction row of the log naming who
    asked, who accepted and why; refused, nothing changes in the log. The same answer sent again by whoever gave
    it (its first answer lost on the way) answers the request as it stands, without writing.

    :raises ApplicationError: NOT_FOUND, CONFLICT when already answered (otherwise), FORBIDDEN for the player who
        asked.
    """
    request = CorrectionRequest.objects.filter(pk=request_id).first()
    if request is None:
        raise ApplicationError(ErrorCode.NOT_FOUND, "there is no such request for a correction")
    with transaction.atomic():
        match = _lock(request.match_id)
        request = CorrectionRequest.objects.select_for_update().get(pk=request_id)
        if request.status != CorrectionRequest.Status.OPEN:
            if _same_answer(request, actor, accept):
                return request
            raise ApplicationError(ErrorCode.CONFLICT, f"this correction was already {request.status}")
        other = 1 - request.side
        check_can_act(actor, match, other)
        if request.side in sides_of(actor, match) and other not in sides_of(actor, match):
            raise ApplicationError(ErrorCode.FORBIDDEN, "your opponent or the director answers your request")
        if accept:
            asker, who = match.player(request.side).display_name, _answerer(actor, match, other)
            reason = f"correction asked by {asker} ({request.reason}), accepted by {who}"
            while request.undoes_id in {r.pk for r in _effective_rows(match)}:
                _correct(match, actor, _effective_rows(match)[-1], reason=reason)
        request.status = CorrectionRequest.Status.ACCEPTED if accept else CorrectionRequest.Status.REFUSED
        request.answered_at = timezone.now()
        request.answered_by_token = actor.token
        request.answered_by_user = actor.user if actor.user is not None and actor.user.is_authenticated else None
        request.save(update_fields=["status", "answered_at", "answered_by_token", "answered_by_user"])
        return request


def _same_answer(request: CorrectionRequest, actor: Actor, accept: bool) -> bool:
    """Whether ``request`` was answered ``accept`` by ``actor`` (his entry link, else his account)."""
    status = CorrectionRequest.Status.ACCEPTED if accept else CorrectionRequest.Status.REFUSED
    if request.status != status:
        return False
    if actor.token is not None:
        return request.answered_by_token_id == actor.token.pk
    user = actor.user
    return user is not None and user.is_authenticated and request.answered_by_user_id == user.pk


def _answerer(actor: Actor, match: Match, side: int) -> str:
    return match.player(side).display_name if side in sides_of(actor, match) else "the director"


def _entered_by(row: Action, match: Match, side: int) -> bool:
    """Whether ``row`` was entered for ``side`` by its player (his entry link, or his account)."""
    if row.entered_by_token is not None:
        return row.entered_by_token.side == side
    user = match.player(side).user_id
    return user is not None and row.entered_by_user_id == user


def reopen_match(
    match_id: int,
    *,
    actor: Actor,
    reason: str,
    expected_seq: int | None = None,
    override: bool = False,
    idempotency_key: str | None = None,
) -> Recorded:
    """Reopen a finished, forfeited or void match by undoing the action that closed it."""
    _need_reason(reason)
    _check_key(idempotency_key)
    with transaction.atomic():
        match = _lock(match_id)
        check_can_act(actor, match, None, director_only=True)
        key = _correction_key(match, actor, idempotency_key, ("reopen", override), reason)
        if isinstance(key, Recorded):
            return key
        _check_seq(match, expected_seq)
        if match.status not in _CLOSED:
            raise ApplicationError(ErrorCode.CONFLICT, "the match is not finished, forfeited or void")
        return _correct(match, actor, _effective_rows(match)[-1], reason=reason, override=override, key=key)


def _correction_key(
    match: Match, actor: Actor, key: str | None, terms: object, reason: str
) -> tuple[str | None, str] | Recorded:
    """A keyed correction: the first answer when it is a retry, else the key and digest to store with its row."""
    digest = _request_digest(actor, terms, Kind.CORRECTION, reason) if key is not None else ""
    return _keyed_retry(match, actor, key, digest) or (key, digest)


def replace_game_result(
    match_id: int,
    *,
    actor: Actor,
    game_number: int,
    winner: int,
    kind: ResultKind | int,
    cube_value: int = 1,
    reason: str,
    expected_seq: int | None = None,
    override: bool = False,
    idempotency_key: str | None = None,
) -> Recorded:
    """Replace the result of a game entered from a scoresheet; later games are re-scored, and the change is
    refused (nothing stored) if it makes a later game impossible (a double in what becomes the Crawford game)."""
    _need_reason(reason)
    _check_key(idempotency_key)
    with transaction.atomic():
        match = _lock(match_id)
        check_can_act(actor, match, None, director_only=True)
        terms = ("replace", game_number, winner, int(kind), cube_value, override)
        key = _correction_key(match, actor, idempotency_key, terms, reason)
        if isinstance(key, Recorded):
            return key
        _check_seq(match, expected_seq)
        rows = [r for r in _effective_rows(match) if r.game_number == game_number]
        if not rows:
            raise ApplicationError(ErrorCode.NOT_FOUND, f"game {game_number} has not been recorded")
        results = [r for r in rows if r.kind in (Kind.GAME_RESULT, Kind.CONCEDE_MATCH, Kind.FORFEIT, Kind.CORRECTION)]
        if len(rows) != 1 or not results:
            raise ApplicationError(
                ErrorCode.CONFLICT,
                f"game {game_number} was recorded move by move; undo its actions instead of replacing its result",
            )
        try:
            result_kind = ResultKind(kind)
        except ValueError:
            raise ApplicationError(
                ErrorCode.INVALID_INPUT, "a game is won as a single (1), gammon (2) or backgammon (3)"
            ) from None
        if winner not in (0, 1):
            raise ApplicationError(ErrorCode.INVALID_INPUT, "the winner is side 0 or side 1")
        replacement = {"winner": winner, "kind": int(result_kind), "cube": cube_value, "ended_by": "director"}
        return _correct(match, actor, results[0], reason=reason, replacement=replacement, override=override, key=key)


# -- corrections (replay) ------------------------------------------------------------------------------------------


def _effective_rows(match: Match) -> list[Action]:
    """The rows in force (see :func:`effective_actions`)."""
    return [row for row, _ in effective_actions(match)]


def _correct(
    match: Match,
    actor: Actor,
    target: Action,
    *,
    reason: str,
    replacement: dict[str, Any] | None = None,
    override: bool = False,
    key: tuple[str | None, str] = (None, ""),
    restore: bool = False,
) -> Recorded:
    """Append a correction of ``target``: it takes ``replacement``'s place, or drops out; with ``restore`` (an
    undo) a target that is itself a replacement gives way to what it replaced."""
    was_closed = match.status in _CLOSED
    if was_closed:
        for guard in CORRECTION_GUARDS:
            guard(match, override)
    user = actor.user if actor.user is not None and actor.user.is_authenticated else None
    row = Action.objects.create(
        match=match,
        seq=match.seq + 1,
        game_number=target.game_number,
        kind=Kind.CORRECTION,
        undoes=target,
        reason=reason,
        data={"replacement": replacement} if replacement else {"restores": True} if restore else {},
        entered_by_user=user,
        entered_by_token=actor.token,
        idempotency_key=key[0],
        request_digest=key[1],
    )
    match.seq = row.seq
    state = rebuild_match(match)
    row.match_id_after = state.match_id()
    row.position_id = state.game.position().key()
    row.save(update_fields=["match_id_after", "position_id"])
    if was_closed:
        _result_changed(match, match_result_changed)
    elif match.status in _CLOSED:
        _result_changed(match, match_finished)
    return Recorded(match, row, state)


def rebuild_match(match: Match) -> MatchState:
    """Replay the log in force and rewrite every cache (match row and game rows) from it.

    :raises ApplicationError: ILLEGAL_ACTION when the log no longer replays (the caller's transaction rolls back).
    """

    def refused(row: Action, exc: Exception) -> ApplicationError:
        return ApplicationError(
            ErrorCode.ILLEGAL_ACTION, f"that change would make action {row.seq} of the log illegal: {exc}"
        )

    replayed = replay_log(match, effective_actions(match), refused)
    Game.objects.filter(match=match).delete()
    Game.objects.bulk_create(replayed.games)
    match.save(update_fields=CACHE_FIELDS)
    return replayed.state


@dataclass(frozen=True, slots=True)
class Replayed:
    """A log in force replayed: the engine's state after it and the match's game rows (unsaved)."""

    state: MatchState
    games: list[Game]


def replay_log(
    match: Match,
    log: Sequence[tuple[Action, EngineAction | None]],
    refused: Callable[[Action, Exception], ApplicationError],
) -> Replayed:
    """Replay ``log`` (the log in force, as :func:`games.selectors.effective_actions` gives it) from the start of
    ``match`` and set the match's caches from it (:func:`apply_caches`, not saved). ``refused`` words the error
    for the row the engine refuses.

    :raises ApplicationError: ``refused``'s, for the first row the engine refuses.
    """
    state = new_state(match)
    games: list[dict[str, Any]] = []
    closing: str | None = None
    for row, action in log:
        if action is None:
            closing = row.kind
            continue
        before = state
        try:
            state = state.apply(action)
        except (EngineError, ValueError) as exc:
            raise refused(row, exc) from exc
        _collect_game(games, before, state)
        if len(state.outcomes) > len(before.outcomes) and state.is_over:
            closing = row.kind
    apply_caches(match, state, seq=match.seq, closing=closing, started=bool(log))
    return Replayed(state, [Game(match=match, **game) for game in games])
