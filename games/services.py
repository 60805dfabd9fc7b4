"""The only way to write matches (DESIGN.md, "Where logic lives").

Each service runs in one transaction: it locks the match row, returns the first result for a repeated idempotency
key without writing, checks who is acting, refuses a stale expected sequence number (never merges), validates
through the engine, appends to the log and updates the caches. Recording an action loads the cached engine
snapshot instead of replaying the match, so its cost stays flat as the match grows; only director corrections
replay the log.

Lock order: a service locks exactly one match row (``SELECT ... FOR UPDATE``) before touching its games and log.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import django.dispatch
from django.db import IntegrityError, connection, transaction
from django.db.models import Q
from django.utils import timezone

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
from engine.errors import EngineError
from engine.formats.matlog import LogReplay
from engine.game import GameState, Phase
from engine.match import MatchState
from engine.moves import Play
from engine.notation import parse_play
from engine.types import ResultKind
from engine.variants import VARIANTS
from games.access import SYSTEM, Actor, check_can_act, is_director, sides_of
from games.bulk import copy_new_rows, copy_rows, reserve_ids
from games.engine_bridge import engine_action, load_state, new_state, replacement_action, row_fields
from games.errors import ApplicationError, ErrorCode
from games.hooks import (
    CORRECTION_GUARDS,
    RESULT_WRITERS,
    TAKE_BACK_GUARDS,
    game_finished,
    match_finished,
    match_result_changed,
)
from games.models import (
    MATCH_MAX_ACTIONS,
    MATCH_MAX_GAMES,
    Action,
    CorrectionRequest,
    EntryToken,
    Game,
    Match,
    Player,
    PlayerAnalysis,
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


# -- players and matches ---------------------------------------------------------------------------------------


def create_player(
    *, display_name: str, club: str = "", country: str = "", contact: str = "", user: Any = None
) -> Player:
    player = _new_player(display_name=display_name, club=club, country=country, contact=contact, user=user)
    player.save(force_insert=True)
    return player


def _new_player(*, display_name: str, club: str = "", country: str = "", contact: str = "", user: Any = None) -> Player:
    """A validated, unsaved player (what :func:`create_player` stores)."""
    for text, what in ((display_name, "a player's name"), (club, "a club's name"), (contact, "the contact")):
        _check_plain(text, what)
    name = " ".join(display_name.split())
    if not name:
        raise ApplicationError(ErrorCode.INVALID_INPUT, "a player needs a name")
    if len(name) > 100:
        raise ApplicationError(ErrorCode.INVALID_INPUT, "a player's name has at most 100 characters")
    if len(club.strip()) > 100:
        raise ApplicationError(ErrorCode.INVALID_INPUT, "a club's name has at most 100 characters")
    if len(country.strip()) not in (0, 2) or (not country.strip().isalpha() and country.strip()):
        raise ApplicationError(ErrorCode.INVALID_INPUT, "the country is a two-letter code such as NO or GB")
    if len(contact.strip()) > 200:
        raise ApplicationError(ErrorCode.INVALID_INPUT, "the contact has at most 200 characters")
    return Player(
        display_name=name, club=club.strip(), country=country.strip().upper(), contact=contact.strip(), user=user
    )


#: Control characters no name holds (tabs and line breaks aside, which become spaces): NUL, escapes, DEL.
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def _check_plain(text: str, what: str) -> None:
    """Refuse a control character (PostgreSQL cannot store a NUL; the others are damage or mischief)."""
    control = _CONTROL.search(text)
    if control:
        raise ApplicationError(
            ErrorCode.INVALID_INPUT,
            f"{what} contains the control character U+{ord(control.group()):04X} at position {control.start() + 1}: "
            "remove it",
        )


def start_match(
    *,
    player1: Player,
    player2: Player,
    length: int,
    variant: str = "standard",
    crawford: bool = True,
    entry_mode: str = Match.EntryMode.MOVES,
    private: bool = False,
    created_by: Any = None,
    source: str = "",
    casual: bool = False,
) -> Match:
    """Create a match, ready for its opening roll (or first scoresheet result)."""
    match = new_match(
        player1=player1, player2=player2, length=length, variant=variant, crawford=crawford,
        entry_mode=entry_mode, private=private, created_by=created_by, source=source, casual=casual,
    )  # fmt: skip
    match.save()
    return match


def start_matches(matches: Sequence[Match]) -> list[Match]:
    """Store many matches made by :func:`new_match` at once (a round's draw: one INSERT for all of them)."""
    return Match.objects.bulk_create(matches)


def start_many_matches(
    pairs: Sequence[tuple[int, int, int, str]],
    *,
    variant: str = "standard",
    crawford: bool = True,
    entry_mode: str = Match.EntryMode.MOVES,
    private: bool = False,
    casual: bool = False,
) -> list[int]:
    """Store many matches of one set-up at once, given as (player 1's id, player 2's id, length, source), and return
    their ids in order: a whole round-robin schedule, 100,000 matches and more. Checked as :func:`new_match` checks
    one; no model instance is built per match (on PostgreSQL the ids are drawn from the sequence and the rows go in
    one COPY), and the cached engine state is left blank until the first action.

    :raises ApplicationError: INVALID_INPUT as :func:`new_match`; nothing is stored then."""
    if not pairs:
        return []
    for length in {length for _, _, length, _ in pairs}:
        _check_setup(length, variant, entry_mode)
    if any(player1 == player2 for player1, player2, _, _ in pairs):
        raise ApplicationError(ErrorCode.INVALID_INPUT, "a match needs two different players")
    # The engine state is left blank: a match with no action is at its start (games.engine_bridge.load_state).
    fields = ["player1_id", "player2_id", "length", "variant", "crawford", "entry_mode", "private", "source", "casual"]
    rows = [
        (p1, p2, length, variant, crawford and length > 0, entry_mode, private, source, casual)
        for p1, p2, length, source in pairs
    ]
    if connection.vendor != "postgresql":
        made = Match.objects.bulk_create(Match(**dict(zip(fields, row, strict=True))) for row in rows)
        return [m.pk for m in made]
    ids = reserve_ids(Match, len(rows))
    copy_new_rows(Match, ["id", *fields], ((pk, *row) for pk, row in zip(ids, rows, strict=True)))
    return ids


def delete_unplayed_matches(match_ids: Sequence[int]) -> int:
    """Delete matches nothing was recorded in (a round taken back before anyone played): their entry links go with
    them. Returns how many were deleted.

    :raises ApplicationError: CONFLICT if any of them has an action; nothing is deleted then."""
    with transaction.atomic():
        matches = list(Match.objects.select_for_update().filter(pk__in=match_ids).order_by("pk"))
        played = [m.pk for m in matches if m.seq or m.status != Match.Status.SCHEDULED]
        if played:
            raise ApplicationError(ErrorCode.CONFLICT, f"match {played[0]} has started: it cannot be taken back")
        Match.objects.filter(pk__in=[m.pk for m in matches]).delete()
    return len(matches)


def new_match(
    *,
    player1: Player,
    player2: Player,
    length: int,
    variant: str = "standard",
    crawford: bool = True,
    entry_mode: str = Match.EntryMode.MOVES,
    private: bool = False,
    created_by: Any = None,
    source: str = "",
    casual: bool = False,
) -> Match:
    """A validated, unsaved match with its initial engine state (what :func:`start_match` stores). A ``casual``
    match has no cube and every game is worth one point (the engine refuses a double, a gammon, a cube value).

    :raises ApplicationError: INVALID_INPUT for the same player twice, a length outside 0-99, an unknown variant or
        entry mode.
    """
    if player1.pk == player2.pk:
        raise ApplicationError(ErrorCode.INVALID_INPUT, "a match needs two different players")
    _check_setup(length, variant, entry_mode)
    match = Match(
        player1=player1,
        player2=player2,
        length=length,
        variant=variant,
        crawford=crawford and length > 0,
        entry_mode=entry_mode,
        private=private,
        created_by=created_by if created_by is not None and created_by.is_authenticated else None,
        source=source,
        casual=casual,
    )
    match.state = new_state(match).snapshot()
    return match


def _check_setup(length: int, variant: str, entry_mode: str) -> None:
    if not 0 <= length <= 99:
        raise ApplicationError(ErrorCode.INVALID_INPUT, f"a match is played to 1-99 points (0 for money), not {length}")
    if variant not in VARIANTS:
        known = ", ".join(VARIANTS)
        raise ApplicationError(ErrorCode.INVALID_INPUT, f"unknown variant {variant!r}; choose one of {known}")
    if entry_mode not in Match.EntryMode.values:
        raise ApplicationError(ErrorCode.INVALID_INPUT, "entry mode is 'moves' or 'scoresheet'")


SETUP_FIELDS = ("player1", "player2", "length", "variant", "crawford", "entry_mode", "private")


def update_match_setup(match_id: int, *, actor: Actor, changes: dict[str, Any]) -> Match:
    """Change a match's set-up (players, length, variant, Crawford rule, entry mode, privacy). Everything but privacy
    only while nothing has been recorded; the cached engine state is made again for the new set-up.

    :raises ApplicationError: CONFLICT once the match has started; INVALID_INPUT for an unknown field or value.
    """
    unknown = sorted(set(changes) - set(SETUP_FIELDS))
    if unknown:
        raise ApplicationError(ErrorCode.INVALID_INPUT, f"these fields cannot be changed here: {', '.join(unknown)}")
    with transaction.atomic():
        match = _lock(match_id)
        check_can_act(actor, match, None, director_only=True)
        setup = [name for name in changes if name != "private"]
        if setup and (match.seq or match.status != Match.Status.SCHEDULED):
            raise ApplicationError(
                ErrorCode.CONFLICT, f"the match has started, so its set-up ({', '.join(setup)}) cannot change"
            )
        for name, value in changes.items():
            setattr(match, name, value)
        if match.player1_id == match.player2_id:
            raise ApplicationError(ErrorCode.INVALID_INPUT, "a match needs two different players")
        if not 0 <= match.length <= 99 or match.variant not in VARIANTS:
            raise ApplicationError(
                ErrorCode.INVALID_INPUT, "a match is played to 1-99 points (0 for money) in a known variant"
            )
        update = list(changes)
        if setup:
            match.crawford = match.crawford and match.length > 0
            match.state = new_state(match).snapshot()
            update += ["crawford", "state"]
        match.save(update_fields=sorted(set(update)))
        return match


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


def record_action(
    match_id: int, action: EngineAction, *, actor: Actor, expected_seq: int | None, idempotency_key: str | None = None
) -> Recorded:
    """Record any engine action through the service of its kind (replaying a log into a live match, load tests).

    A match concession is a director's forfeit; everything else is checked exactly as its own service checks it.
    """
    common: dict[str, Any] = {"actor": actor, "expected_seq": expected_seq}
    keyed = {**common, "idempotency_key": idempotency_key}
    if isinstance(action, OpeningRoll):
        return record_opening_roll(match_id, dice=action.dice, **keyed)
    if isinstance(action, Roll):
        return record_roll(match_id, side=action.side, dice=action.dice, **keyed)
    if isinstance(action, Move):
        return record_play(match_id, side=action.side, play=action.play, **keyed)
    if isinstance(action, GameResult):
        return record_game_result(
            match_id, winner=action.winner, kind=action.kind, cube_value=action.cube_value, **keyed
        )
    if isinstance(action, ConcedeMatch):
        return forfeit_match(match_id, loser_side=action.side, reason="the match was conceded", **common)
    if isinstance(action, Resign):
        return offer_resignation(match_id, side=action.side, kind=action.kind, **keyed)
    if isinstance(action, ChooseDouble):
        return choose_double(match_id, side=action.side, die=action.die, **keyed)
    simple = {Double: offer_double, Take: take, Drop: drop, AcceptResignation: accept_resignation}
    service = simple.get(type(action), reject_resignation)
    return service(match_id, side=action.side, **keyed)


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

    :raises ApplicationError: INVALID_INPUT without a reason, CONFLICT with nothing of his to undo or a request
        already waiting, IDEMPOTENCY_KEY_REUSED for a key that asked for another side.
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
    now = timezone.now()
    _sync_game(match, before, after)
    match.seq = row.seq
    match.state = after.snapshot()
    match.score1, match.score2 = after.score
    update = ["seq", "state", "score1", "score2", "status"]
    if match.status == Match.Status.SCHEDULED:
        match.status = Match.Status.IN_PROGRESS
        match.started_at = now
        update.append("started_at")
    if after.is_over:
        match.status = Match.Status.FORFEITED if row.kind == Kind.FORFEIT else Match.Status.FINISHED
        match.winner = match.player(after.winner or 0)
        match.finished_at = now
        update += ["winner", "finished_at"]
    elif len(after.outcomes) > len(before.outcomes) and match.entry_mode == Match.EntryMode.MOVES:
        game_pk = match.pk
        transaction.on_commit(lambda: game_finished.send(sender=Match, match_id=game_pk))
    match.save(update_fields=update)
    if after.is_over:
        _result_changed(match, match_finished)


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
        match.seq = row.seq
        match.status = Match.Status.VOID if kind == Kind.VOID else Match.Status.FINISHED
        match.winner = None
        match.finished_at = timezone.now()
        match.save(update_fields=["seq", "status", "winner", "finished_at"])
        _result_changed(match, match_finished)
        return Recorded(match, row, state)


# -- corrections (replay) ------------------------------------------------------------------------------------------


def effective_actions(
    match: Match, *, up_to_seq: int | None = None, games: Q | None = None
) -> list[tuple[Action, EngineAction | None]]:
    """The log in force, in order, as (row, engine action): a row undone by a correction drops out, or is replaced
    by the correction's replacement (which may itself be corrected again). Rows with no engine action (void,
    finish) come with None. ``up_to_seq`` reads the log as it stood after that row; ``games`` (a condition on
    ``game_number``) reads the rows of some games only, which is their log in force, since a correction belongs to
    the game of the row it corrects."""
    rows_qs = Action.objects.filter(match=match).order_by("seq")
    if up_to_seq is not None:
        rows_qs = rows_qs.filter(seq__lte=up_to_seq)
    if games is not None:
        rows_qs = rows_qs.filter(games)
    rows = list(rows_qs)
    correction_of = {r.undoes_id: r for r in rows if r.kind == Kind.CORRECTION and r.undoes_id is not None}
    out: list[tuple[Action, EngineAction | None]] = []
    for row in rows:
        if row.kind == Kind.CORRECTION:
            continue
        # The row and the replacements put in its place, latest last; an undo of a replacement ("restores")
        # brings back what it replaced, any other correction without a replacement removes the row.
        chain: list[tuple[Action, EngineAction | None]] = [(row, engine_action(row))]
        current = row
        while chain and current.pk in correction_of:
            correction = correction_of[current.pk]
            replaced_by = replacement_action(correction)
            if replaced_by is not None:
                chain.append((correction, replaced_by))
            elif correction.data.get("restores") and len(chain) > 1:
                chain.pop()
            else:
                chain = []
            current = correction
        if chain:
            out.append(chain[-1])
    return out


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
    state = new_state(match)
    games: list[dict[str, Any]] = []
    status = Match.Status.SCHEDULED
    closing: str | None = None
    for row, action in effective_actions(match):
        status = Match.Status.IN_PROGRESS
        if action is None:
            closing = row.kind
            continue
        before = state
        try:
            state = state.apply(action)
        except EngineError as exc:
            raise ApplicationError(
                ErrorCode.ILLEGAL_ACTION, f"that change would make action {row.seq} of the log illegal: {exc}"
            ) from exc
        _collect_game(games, before, state)
        if len(state.outcomes) > len(before.outcomes) and state.is_over:
            closing = row.kind
    Game.objects.filter(match=match).delete()
    Game.objects.bulk_create([Game(match=match, **game) for game in games])
    match.state = state.snapshot()
    match.score1, match.score2 = state.score
    match.winner = None
    if closing == Kind.VOID:
        status = Match.Status.VOID
    elif closing == Kind.FINISH:
        status = Match.Status.FINISHED
    elif state.is_over:
        status = Match.Status.FORFEITED if closing == Kind.FORFEIT else Match.Status.FINISHED
        match.winner = match.player(state.winner or 0)
    match.status = status
    if status not in _CLOSED:
        match.finished_at = None
    elif match.finished_at is None:
        match.finished_at = timezone.now()
    if status == Match.Status.SCHEDULED:
        match.started_at = None
    match.save()
    return state


# -- import ----------------------------------------------------------------------------------------------------------


class MatchToImport:
    """A whole match ready to store with :func:`import_matches`: its set-up and its log's rows, prepared from its
    actions and the engine's state after each (the states themselves are not kept: a batch of prepared matches
    holds plain rows only)."""

    def __init__(
        self,
        *,
        players: tuple[str, str],
        length: int,
        variant: str,
        crawford: bool,
        log: _ImportedLog,
        source: str,
        casual: bool = False,
    ) -> None:
        self.players = players
        self.length = length
        self.variant = variant
        self.crawford = crawford
        self.casual = casual
        self.log = log
        self.source = source

    @property
    def actions(self) -> int:
        return len(self.log.rows)

    @classmethod
    def of_actions(
        cls,
        *,
        players: tuple[str, str],
        length: int,
        variant: str,
        crawford: bool,
        games: Sequence[Iterable[EngineAction]],
        states: Sequence[Sequence[MatchState]] | None = None,
        source: str = "",
        casual: bool = False,
    ) -> MatchToImport:
        """The match of these actions, game by game. ``states``, when given, are the engine's states after each
        of them, from a replay of these very actions from the start of a match of this set-up, and are used as
        they are; without them the actions are replayed.

        :raises ApplicationError: MATCH_TOO_LONG past the games or actions a match holds; INVALID_INPUT for a
            length or variant no match has; ILLEGAL_ACTION with the engine's reason and the action's place.
        """
        by_game = [list(actions) for actions in games]
        check_match_size(games=len(by_game), actions=sum(len(actions) for actions in by_game))
        _check_setup(length, variant, Match.EntryMode.MOVES)
        crawford = crawford and length > 0
        log = _ImportedLog(MatchState.new(length, variant=VARIANTS[variant], crawford_rule=crawford, casual=casual))
        for number, actions in enumerate(by_game, start=1):
            if states is None:
                log.replay(number, actions)
            else:
                log.take(actions, states[number - 1])
        return cls(
            players=players, length=length, variant=variant, crawford=crawford, log=log, source=source, casual=casual
        )

    @classmethod
    def of_log(cls, replay: LogReplay, *, source: str = "") -> MatchToImport:
        """A checked .mat log (:func:`engine.formats.matlog.replay_record` with no fault), with the states its check
        computed: it is not replayed again.

        :raises ApplicationError: as :meth:`of_actions`, but for ILLEGAL_ACTION.
        """
        assert replay.fault is None, "only a log that passed the check is stored"
        record = replay.record
        return cls.of_actions(
            players=record.players,
            length=record.match_length,
            variant=replay.variant.name,
            crawford=replay.crawford_rule,
            games=[game.actions for game in replay.games],
            states=[game.states for game in replay.games],
            source=source,
            casual=replay.casual,
        )


def import_match(
    *,
    players: tuple[str, str],
    length: int,
    variant: str,
    crawford: bool,
    games: Sequence[Iterable[EngineAction]],
    states: Sequence[Sequence[MatchState]] | None = None,
    source: str = "",
    created_by: Any = None,
    attach: Callable[[Match], None] | None = None,
) -> Match:
    """Store a whole match (e.g. a replayed .mat log) with its full action log, exactly as if it had been entered
    action by action; nothing is stored if any action is refused.

    ``states``, when given, are the engine's states after each action of ``games`` (game by game), from a replay
    of these very actions from the start of a match of this set-up (:func:`import_log` passes those of the check),
    and are used as they are instead of replaying the actions again. The log is written with one COPY.
    ``attach``, when given, is called with the stored match inside the transaction (games.hooks.import_target: the
    event the match is imported into).

    :raises ApplicationError: ILLEGAL_ACTION with the engine's reason and the action's place; MATCH_TOO_LONG past
        the games or actions a match holds.
    """
    wanted = MatchToImport.of_actions(
        players=players, length=length, variant=variant, crawford=crawford, games=games, states=states, source=source
    )
    return import_matches([wanted], created_by=created_by, attach=attach)[0]


def import_log(
    replay: LogReplay,
    *,
    source: str = "",
    created_by: Any = None,
    attach: Callable[[Match], None] | None = None,
    by_name: bool = True,
) -> Match:
    """Store a checked .mat log (:func:`engine.formats.matlog.replay_record` with no fault) with the states its
    check computed: the log is not replayed again. ``by_name``: as :func:`import_matches`.

    :raises ApplicationError: MATCH_TOO_LONG past the games or actions a match holds.
    """
    wanted = [MatchToImport.of_log(replay, source=source)]
    return import_matches(wanted, created_by=created_by, attach=attach, by_name=by_name)[0]


def import_matches(
    wanted: Sequence[MatchToImport],
    *,
    created_by: Any = None,
    attach: Callable[[Match], None] | None = None,
    by_name: bool = True,
) -> list[Match]:
    """Store whole matches (:class:`MatchToImport`, e.g. checked .mat logs) with their full action logs in one
    transaction, each exactly as :func:`import_match` stores one, and with the same statements whatever their
    number and length: the players looked up in one query and the new ones written in one INSERT, the matches in
    one, every log row in one COPY and the games in one INSERT. Nothing is stored if any of them is refused (a
    caller that must tell which stores them one by one). A finished match is signalled after the commit
    (games.hooks.match_finished, ``imported=True``; ``attached`` says whether ``attach`` was given).

    ``by_name`` false (an import by an account anyone may have: a .mat can name anyone) makes a new player of every
    name, so that a fabricated log never attaches to a real player of that name; true (the operator's command,
    staff) takes the one player of exactly that name where there is one.

    :raises ApplicationError: INVALID_INPUT for a player's name no player may have.
    """
    with transaction.atomic():
        pairs = _players_named([one.players for one in wanted], by_name=by_name)
        matches = []
        for one, (p1, p2) in zip(wanted, pairs, strict=True):
            match = new_match(
                player1=p1, player2=p2, length=one.length, variant=one.variant, crawford=one.crawford,
                created_by=created_by, source=one.source, casual=one.casual,
            )  # fmt: skip
            one.log.finish(match)
            matches.append(match)
        Match.objects.bulk_create(matches)  # one INSERT, the ids read back
        logs = [one.log for one in wanted]
        copy_rows(
            Action,
            ["match_id", *_LOG_COLUMNS, *_LOG_DEFAULTS],
            (
                (match.pk, *row, *_LOG_DEFAULTS.values())
                for match, log in zip(matches, logs, strict=True)
                for row in log.rows
            ),
        )
        Game.objects.bulk_create(
            [Game(match=match, **game) for match, log in zip(matches, logs, strict=True) for game in log.games]
        )
        for match in matches:
            if attach is not None:
                attach(match)
            if match.status == Match.Status.FINISHED:
                _signal_imported(match.pk, attached=attach is not None)
        return matches


def _signal_imported(match_pk: int, *, attached: bool) -> None:
    transaction.on_commit(
        lambda: match_finished.send(sender=Match, match_id=match_pk, imported=True, attached=attached)
    )


#: The columns of an imported log row that the import computes.
_LOG_COLUMNS = (
    "seq", "game_number", "kind", "side", "die1", "die2", "play", "steps", "value", "data",
    "position_id", "match_id_after", "reason", "created_at",
)  # fmt: skip
#: Every other column of a log row, with its field's default (an imported row has no correction, no entering user
#: or link, no idempotency key): a column added to the model later is written too.
_LOG_DEFAULTS = {
    field.attname: field.get_default()
    for field in Action._meta.concrete_fields
    if not field.primary_key and field.attname not in ("match_id", *_LOG_COLUMNS)
}


class _ImportedLog:
    """The rows of an imported log, as column values for COPY (all but the match's id, which the match row gets
    when it is written), and its games' fields, built from each action and the state after it; ``state`` is the
    state after the last action taken."""

    def __init__(self, state: MatchState) -> None:
        self.state = state
        self.rows: list[tuple[Any, ...]] = []
        self.games: list[dict[str, Any]] = []
        self.only_results = True
        self.now = timezone.now()
        self.keys = _KeyMemo()

    def replay(self, number: int, actions: Iterable[EngineAction]) -> None:
        """Take the actions of game ``number``, each replayed through the engine (the state after it computed)."""
        for action in actions:
            if isinstance(action, Move):
                action = Move(action.side, _resolve_play(self.state, action))
            try:
                after = self.state.apply(action)
            except EngineError as exc:
                raise ApplicationError(ErrorCode.ILLEGAL_ACTION, f"game {number}: {exc}") from exc
            self.add(action, after)

    def take(self, actions: Sequence[EngineAction], states: Sequence[MatchState]) -> None:
        """Take the actions of one game with the states after them, as a replay of them computed."""
        if len(actions) != len(states):
            raise ValueError("one state after each action")
        for action, after in zip(actions, states, strict=True):
            if isinstance(action, Move) and not isinstance(action.play, Play):
                raise ValueError(f"a replayed move carries its resolved play, not {action.play!r}")
            self.add(action, after)

    def add(self, action: EngineAction, after: MatchState) -> None:
        before, play = self.state, action.play if isinstance(action, Move) else None
        assert play is None or isinstance(play, Play)
        fields = row_fields(action, after, play)
        self.only_results = self.only_results and isinstance(action, (GameResult, ConcedeMatch))
        self.rows.append(
            (
                len(self.rows) + 1, before.game_number, fields["kind"], fields.get("side"),
                fields.get("die1"), fields.get("die2"), fields.get("play", ""), fields.get("steps", ""),
                fields.get("value"), fields.get("data", {}), _position_after(before, after, action, play, self.keys),
                after.match_id(), "", self.now,
            )
        )  # fmt: skip
        _collect_game(self.games, before, after)
        self.state = after

    def finish(self, match: Match) -> None:
        """Set the match row's caches after this log (the row is written afterwards, with the others)."""
        state = self.state
        match.seq = len(self.rows)
        match.state = state.snapshot()
        match.score1, match.score2 = state.score
        if self.only_results and self.rows:
            match.entry_mode = Match.EntryMode.SCORESHEET
        if self.rows:
            match.status = Match.Status.IN_PROGRESS
            match.started_at = self.now
        if state.is_over:
            match.status = Match.Status.FINISHED
            match.winner = match.player(state.winner or 0)
            match.finished_at = match.started_at


def _collect_game(games: list[dict[str, Any]], before: MatchState, after: MatchState) -> None:
    """As :func:`_sync_game`, on the fields of game rows kept in memory (``games``, the current game last)."""
    starting, fields = _game_fields(before, after)
    if starting:
        games.append({"number": before.game_number, **fields})
    elif fields:
        games[-1].update(fields)


def _players_named(pairs: Sequence[tuple[str, str]], *, by_name: bool = True) -> list[tuple[Player, Player]]:
    """For each pair of names, in order, the players: for each name the one player with exactly this name, or a
    new one (two namesakes: a new player, never a guess); the same name twice is two players. A player made for
    an earlier pair counts for the later ones, as if the pairs were stored one after the other. One query for the
    players there are, one INSERT for the new ones. Not ``by_name``: no player is looked up, so each name is a new
    player (one made for an earlier pair of the same call still counts for the later ones)."""
    wanted = [tuple(" ".join(name.split()) for name in names) for names in pairs]
    found: dict[str, list[Player]] = {}
    looked_up = {text for texts in wanted for text in texts} if by_name else set()
    for player in Player.objects.filter(display_name__in=looked_up).order_by("id"):
        found.setdefault(player.display_name, []).append(player)
    new: list[Player] = []

    def made(name: str) -> Player:
        player = _new_player(display_name=name or "Unknown player")
        found.setdefault(player.display_name, []).append(player)
        new.append(player)
        return player

    chosen = []
    for names, texts in zip(pairs, wanted, strict=True):
        pair = []
        for name, text in zip(names, texts, strict=True):
            same = found.get(text, [])
            pair.append(same[0] if len(same) == 1 else made(name))
        if pair[0] is pair[1]:
            pair[1] = made(names[1])
        chosen.append((pair[0], pair[1]))
    Player.objects.bulk_create(new)
    return chosen


# -- two records of one person -------------------------------------------------------------------------------------

#: The games rows that point at a player, as a merge moves them: (key in the audit, model, field).
PLAYER_REFERENCES: tuple[tuple[str, Any, str], ...] = (
    ("matches_as_player1", Match, "player1"),
    ("matches_as_player2", Match, "player2"),
    ("matches_won", Match, "winner"),
    ("analyses", PlayerAnalysis, "player"),
)


def fold_player(keep: Player, fold: Player) -> dict[str, list[int]]:
    """Move every games row of ``fold`` (his matches as either player and as winner, his analysed figures, his
    account) to ``keep`` and mark ``fold`` merged into ``keep``; returns the ids that moved per table, for
    :func:`unfold_player`. Called by the app that owns the merge, inside its transaction.

    :raises ApplicationError: the two are one record, one is already merged, they played each other, or both have
        an account.
    """
    if keep.pk == fold.pk:
        raise ApplicationError(
            ErrorCode.INVALID_INPUT, f"{keep.label} cannot be merged with himself: choose two players"
        )
    keep, fold = _lock_players(keep.pk, fold.pk)
    for player in (keep, fold):
        if player.merged_into_id is not None:
            raise ApplicationError(
                ErrorCode.CONFLICT, f"{player.label} is already merged into #{player.merged_into_id}: merge that one"
            )
    played = Match.objects.filter(Q(player1=keep, player2=fold) | Q(player1=fold, player2=keep)).values_list(
        "pk", flat=True
    )[:1]
    if played:
        raise ApplicationError(
            ErrorCode.CONFLICT,
            f"{keep.label} and {fold.label} played each other (match #{played[0]}): they are two people",
        )
    if keep.user_id is not None and fold.user_id is not None:
        raise ApplicationError(
            ErrorCode.CONFLICT, f"{keep.label} and {fold.label} each have an account: two accounts are two people"
        )
    moved: dict[str, list[int]] = {}
    for key, model, field in PLAYER_REFERENCES:
        rows = model.objects.filter(**{field: fold})
        moved[key] = sorted(rows.values_list("pk", flat=True))
        rows.update(**{field: keep})
    moved["user"] = [fold.user_id] if fold.user_id is not None else []
    if fold.user_id is not None:
        Player.objects.filter(pk=fold.pk).update(user=None)
        Player.objects.filter(pk=keep.pk).update(user_id=fold.user_id)
    Player.objects.filter(pk=fold.pk).update(merged_into=keep)
    return moved


def unfold_player(keep: Player, fold: Player, moved: dict[str, list[int]], *, made_since: Collection[int] = ()) -> None:
    """Undo :func:`fold_player`: the rows it moved (``moved``) go back to ``fold``, which is a record of its own
    again. ``keep`` never played ``fold``, so in a match that moved, and in ``made_since`` (matches the caller knows
    were made for ``fold``'s side after the merge: a bracket's next match of an entry that moved), every place of
    ``keep`` is ``fold``'s (a winner written since the merge too), and so are his analysed figures there. Inside
    the caller's transaction."""
    keep, fold = _lock_players(keep.pk, fold.pk)
    if fold.merged_into_id != keep.pk:
        raise ApplicationError(ErrorCode.CONFLICT, f"{fold.label} is not merged into {keep.label}")
    matches = {*made_since}.union(*(moved.get(key, []) for key, model, _ in PLAYER_REFERENCES if model is Match))
    for field in ("player1", "player2", "winner"):
        Match.objects.filter(pk__in=matches, **{field: keep}).update(**{field: fold})
    figures = Q(pk__in=moved.get("analyses", [])) | Q(analysis__match_id__in=matches)
    PlayerAnalysis.objects.filter(figures, player=keep).update(player=fold)
    user = moved.get("user", [])
    Player.objects.filter(pk=fold.pk).update(merged_into=None)
    if user:  # the account goes back to the record it came with
        Player.objects.filter(pk=keep.pk, user_id=user[0]).update(user=None)
        Player.objects.filter(pk=fold.pk).update(user_id=user[0])


def _lock_players(*ids: int) -> tuple[Player, Player]:
    """The two players' rows, locked in id order (two merges of the same players wait for each other)."""
    locked = {p.pk: p for p in Player.objects.select_for_update().filter(pk__in=ids).order_by("pk")}
    return locked[ids[0]], locked[ids[1]]
