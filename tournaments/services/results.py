"""What happens to a pairing's result: confirmation of scoresheet results, disputes, forfeits, withdrawals, swaps,
and the rule that guards corrections of results other matches depend on.

Results themselves are recorded in games/ (moves, scoresheet game results, director corrections); games tells this
app through its signals (games/hooks.py), and tournaments/services/followup.py runs the division's sync and
standings after the commit.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

import games.services
from common.actor import SYSTEM, Actor
from common.errors import ApplicationError, ErrorCode
from games.access import reissue_entry_token
from games.models import EntryToken, Match
from tournaments.access import check_answers, check_directs, confirms_again, disputes_again
from tournaments.core import bracket_slot, lock_division, pairing_words
from tournaments.models import Division, Entry, Pairing, Playoff, Round
from tournaments.services.bracket import dependent_keys
from tournaments.services.followup import schedule_followup
from tournaments.services.money import check_refund
from tournaments.services.sync import SyncReport, double_forfeit, make_matches, sync_locked_division

Confirmation = Pairing.Confirmation


def _pairing_locked(pairing: Pairing) -> tuple[Division, Pairing]:
    division = lock_division(pairing.division_id)
    return division, Pairing.objects.select_related("match", "entry_a__player", "entry_b__player").get(pk=pairing.pk)


def _with_match(division: Division, pairing: Pairing) -> Pairing:
    """``pairing`` (read under the division's lock) with its match: a round-robin pairing whose match is not due yet
    (:func:`tournaments.core.round_robin_ahead`) has it made now, as a director acts on it."""
    if pairing.match_id is not None or pairing.status != Pairing.Status.READY or pairing.entry_b_id is None:
        return pairing
    make_matches(division, [pairing], SyncReport())
    return Pairing.objects.select_related("match", "entry_a__player", "entry_b__player").get(pk=pairing.pk)


def pairing_match(pairing: Pairing, *, actor: Actor) -> int:
    """The id of the pairing's match for a director's action on it, made now if it is not due yet.

    :raises ApplicationError: CONFLICT when the pairing has no match because its players are not known yet (or it
        is a bye)."""
    with transaction.atomic():
        division, pairing = _pairing_locked(pairing)
        check_directs(actor, division.event)
        pairing = _with_match(division, pairing)
    if pairing.match_id is None:
        raise ApplicationError(ErrorCode.CONFLICT, "this pairing has no match yet (its players are not known)")
    return pairing.match_id


# -- confirmation and disputes -------------------------------------------------------------------------------------


def confirm_result(pairing: Pairing, *, actor: Actor) -> Pairing:
    """The opponent of the player who entered a scoresheet result (or a director) confirms it; confirming it again
    is harmless (nothing changes)."""
    with transaction.atomic():
        division, pairing = _pairing_locked(pairing)
        if pairing.match is not None and confirms_again(
            actor, pairing.match, pairing.confirmation, pairing.confirmation_side
        ):
            return pairing  # confirmed already: the same answer sent twice changes nothing
        _check_answers(actor, division, pairing)
        pairing.confirmation = Confirmation.CONFIRMED
        pairing.save(update_fields=["updated_at", "confirmation"])
        schedule_followup(division.pk)  # the bracket moves on in the task (or at once with eager tasks)
    return pairing


def dispute_result(pairing: Pairing, *, actor: Actor, reason: str) -> Pairing:
    """The player asked to confirm says the result is wrong: the pairing goes to the directors' queue. The same
    dispute sent again is harmless."""
    if not reason.strip():
        raise ApplicationError(ErrorCode.INVALID_INPUT, "say what is wrong with the result (the director reads it)")
    with transaction.atomic():
        division, pairing = _pairing_locked(pairing)
        same = pairing.dispute == reason.strip()
        if pairing.match is not None and disputes_again(
            actor, pairing.match, pairing.confirmation, pairing.confirmation_side, same_reason=same
        ):
            return pairing  # disputed already, for this reason: the same answer sent twice changes nothing
        _check_answers(actor, division, pairing, director_may=False)
        pairing.confirmation, pairing.dispute = Confirmation.DISPUTED, reason.strip()
        pairing.save(update_fields=["updated_at", "confirmation", "dispute"])
    return pairing


def _check_answers(actor: Actor, division: Division, pairing: Pairing, *, director_may: bool = True) -> None:
    if pairing.match is None:
        raise ApplicationError(ErrorCode.CONFLICT, "this result is not waiting for a confirmation")
    check_answers(actor, pairing.match, pairing.confirmation, pairing.confirmation_side, director_may=director_may)


def new_entry_link(match: Match, side: int, *, confirmation: str) -> EntryToken:
    """A new entry link for ``side`` of a match (every older link of that side stops opening), while a player
    still needs one: the match is not over, or its result waits for that match's confirmation or dispute
    (``confirmation``: the pairing's, or the playoff match's).

    :raises ApplicationError: CONFLICT once the result is settled: nobody enters anything on it any more."""
    still_played = match.status in (Match.Status.SCHEDULED, Match.Status.IN_PROGRESS)
    if not still_played and confirmation not in (Confirmation.AWAITING, Confirmation.DISPUTED):
        raise ApplicationError(
            ErrorCode.CONFLICT,
            "this match's result is settled, so no player needs an entry link for it: reopen the match first if "
            "it must be played on",
        )
    return reissue_entry_token(match, side)


# -- director decisions --------------------------------------------------------------------------------------------

FORFEIT_KINDS = {
    "no-show": Pairing.Decision.FORFEIT_NO_SHOW,
    "withdrawal": Pairing.Decision.FORFEIT_WITHDRAWAL,
    "penalty": Pairing.Decision.FORFEIT_PENALTY,
}


def award_forfeit(pairing: Pairing, *, actor: Actor, loser: Entry, kind: str, reason: str) -> Pairing:
    """Award the pairing's match to the opponent of ``loser`` (no-show, withdrawal, penalty)."""
    if kind not in FORFEIT_KINDS:
        raise ApplicationError(ErrorCode.INVALID_INPUT, f"a forfeit is for {', '.join(FORFEIT_KINDS)}, not {kind!r}")
    if not reason.strip():
        raise ApplicationError(ErrorCode.INVALID_INPUT, "give the reason for the forfeit (it is shown on the pairing)")
    with transaction.atomic():
        division, pairing = _pairing_locked(pairing)
        check_directs(actor, division.event)
        pairing = _with_match(division, pairing)
        if loser.pk not in (pairing.entry_a_id, pairing.entry_b_id):
            raise ApplicationError(ErrorCode.INVALID_INPUT, f"{loser.player.display_name} does not play this match")
        if pairing.match is None:
            raise ApplicationError(ErrorCode.CONFLICT, "this pairing has no match yet (its players are not known)")
        side = 0 if loser.pk == pairing.entry_a_id else 1
        games.services.forfeit_match(pairing.match.pk, actor=actor, loser_side=side, reason=f"{kind}: {reason.strip()}")
        pairing.decision, pairing.decision_reason = FORFEIT_KINDS[kind], reason.strip()
        pairing.save(update_fields=["updated_at", "decision", "decision_reason"])
        sync_locked_division(division)
        schedule_followup(division.pk)
    return pairing


def give_penalty(pairing: Pairing, *, actor: Actor, against: Entry, points: int, reason: str) -> Pairing:
    """Penalty points against a player (awarded to the opponent, between games). Once his penalties pass half the
    match length, the match is forfeited instead (tournament practice)."""
    if not reason.strip():
        raise ApplicationError(ErrorCode.INVALID_INPUT, "give the reason for the penalty (it is kept in the match log)")
    if not 1 <= points <= 99:
        raise ApplicationError(ErrorCode.INVALID_INPUT, f"a penalty is 1 to 99 points, not {points}")
    with transaction.atomic():
        division, pairing = _pairing_locked(pairing)
        check_directs(actor, division.event)
        pairing = _with_match(division, pairing)
        if against.pk not in (pairing.entry_a_id, pairing.entry_b_id) or pairing.match is None:
            raise ApplicationError(ErrorCode.INVALID_INPUT, "that player does not play this pairing's match")
        side = 0 if against.pk == pairing.entry_a_id else 1
        field = "penalty_a" if side == 0 else "penalty_b"
        total = getattr(pairing, field) + points
        if 2 * total > pairing.length:
            why = f"penalty points past half the match length ({total} in a {pairing.length}-point match): {reason}"
            games.services.forfeit_match(pairing.match.pk, actor=actor, loser_side=side, reason=why.strip())
            pairing.decision, pairing.decision_reason = Pairing.Decision.FORFEIT_PENALTY, why.strip()
        else:
            games.services.award_penalty(pairing.match.pk, actor=actor, side=side, points=points, reason=reason.strip())
        setattr(pairing, field, total)
        pairing.save(update_fields=["updated_at", field, "decision", "decision_reason"])
        sync_locked_division(division)
        schedule_followup(division.pk)
    return pairing


def withdraw_entry(entry: Entry, *, actor: Actor, reason: str, refund: bool = False) -> Entry:
    """Withdraw a player: no further pairings; a match of his not yet finished is forfeited to the opponent.
    ``refund``: before the start, the fees he paid go back to him and count in no pool (services/money.py)."""
    with transaction.atomic():
        division = lock_division(entry.division_id)
        check_directs(actor, division.event)
        entry = Entry.objects.select_related("player").get(pk=entry.pk)
        if entry.status == Entry.Status.WITHDRAWN:
            raise ApplicationError(ErrorCode.CONFLICT, f"{entry.player.display_name} has already withdrawn")
        if refund:
            check_refund(division, entry)
            entry.refunded = True
        if division.format == Division.Format.ROUND_ROBIN and division.status == Division.Status.RUNNING:
            # Every match of his still to play is forfeited below, the ones not due yet too: they are made now.
            unmade = division.pairings.filter(Q(entry_a=entry) | Q(entry_b=entry), match__isnull=True)
            make_matches(division, list(unmade.filter(status=Pairing.Status.READY)), SyncReport())
        entry.status, entry.withdrawn_at = Entry.Status.WITHDRAWN, timezone.now()
        entry.withdrawal_reason = reason.strip()
        if division.status == Division.Status.REGISTRATION:
            entry.seed = None  # not drawn: his seed is free for another player
        entry.save(update_fields=["status", "withdrawn_at", "withdrawal_reason", "seed", "refunded"])
        _undo_unplayed_forfeit_wins(entry, bracket=division.has_bracket)
        _forfeit_open_matches(entry, actor, reason)
        if division.status != Division.Status.REGISTRATION:
            sync_locked_division(division)
            schedule_followup(division.pk)
    return entry


def _undo_unplayed_forfeit_wins(entry: Entry, *, bracket: bool) -> None:
    """A match a withdrawing player was given by forfeit because his opponent had withdrawn, and in which nothing
    was played, is no win: both players have now withdrawn, so it is a double forfeit whichever went first. Its
    match is voided; in a bracket the sync then makes the slot a double forfeit (nobody wins it, and the slots it
    feeds hold nobody), in a Swiss or a round robin the board is one at once (it scores for neither)."""
    won = Pairing.objects.filter(
        division_id=entry.division_id,
        winner=entry,
        decision=Pairing.Decision.FORFEIT_WITHDRAWAL,
        match__status=Match.Status.FORFEITED,
        match__seq=1,  # the forfeit is the match's only action
    ).select_related("entry_a", "entry_b")
    why = "both players have withdrawn: a double forfeit"
    for pairing in won:
        opponent = pairing.entry_b if pairing.entry_a_id == entry.pk else pairing.entry_a
        if opponent is None or opponent.status != Entry.Status.WITHDRAWN:
            continue
        assert pairing.match_id is not None  # the filter on match__status
        games.services.reopen_match(pairing.match_id, actor=SYSTEM, reason=why, override=True)
        games.services.void_match(pairing.match_id, actor=SYSTEM, reason=why)
        if not bracket:
            double_forfeit(pairing, SyncReport())


def _forfeit_open_matches(entry: Entry, actor: Actor, reason: str) -> None:
    open_statuses = (Match.Status.SCHEDULED, Match.Status.IN_PROGRESS)
    mine = Pairing.objects.filter(division_id=entry.division_id, match__status__in=open_statuses)
    for pairing in mine.filter(entry_a=entry) | mine.filter(entry_b=entry):
        side = 0 if pairing.entry_a_id == entry.pk else 1
        why = f"withdrawal: {reason.strip() or 'withdrew'}"
        assert pairing.match_id is not None  # the filter on match__status
        games.services.forfeit_match(
            pairing.match_id, actor=actor if actor is not None else SYSTEM, loser_side=side, reason=why
        )
        Pairing.objects.filter(pk=pairing.pk).update(
            decision=Pairing.Decision.FORFEIT_WITHDRAWAL, decision_reason=reason.strip(), updated_at=timezone.now()
        )


def swap_players(
    division: Division, *, actor: Actor, first: Entry, second: Entry, reason: str, allow_rematch: bool = False
) -> None:
    """Exchange two players' places before their matches start: their seeds in a bracket, their boards in a
    Swiss or round-robin round. Refused once either has started the match concerned, and in a Swiss when it would
    pair two players who have met, unless ``allow_rematch`` (the director was warned and confirms)."""
    if not reason.strip():
        raise ApplicationError(ErrorCode.INVALID_INPUT, "give the reason for the swap (it is shown on the pairing)")
    with transaction.atomic():
        division = lock_division(division.pk)
        check_directs(actor, division.event)
        if first.pk == second.pk or {first.division_id, second.division_id} != {division.pk}:
            raise ApplicationError(ErrorCode.INVALID_INPUT, "choose two different players of this division")
        first, second = (Entry.objects.select_related("player").get(pk=e.pk) for e in (first, second))
        if division.has_bracket:
            _swap_seeds(division, first, second, reason)
        else:
            _swap_boards(division, first, second, reason, allow_rematch=allow_rematch)
        sync_locked_division(division)
        schedule_followup(division.pk)


def _current(division: Division, entry: Entry) -> Pairing:
    rows = Pairing.objects.filter(division=division).select_related(
        "match", "round", "table", "entry_a__player", "entry_b__player"
    )
    if division.knockout_drawn:  # his current pairing is in the knockout, not among the Swiss rounds before it
        rows = rows.filter(round__bracket=Round.Bracket.MAIN)
    found = (rows.filter(entry_a=entry) | rows.filter(entry_b=entry)).order_by("-round__number").first()
    if found is None:
        raise ApplicationError(ErrorCode.CONFLICT, f"{entry.player.display_name} has no pairing to swap")
    _refuse_started(found, entry, division)
    return found


def _refuse_started(pairing: Pairing, entry: Entry, division: Division) -> None:
    if pairing.status in (Pairing.Status.FINISHED, Pairing.Status.PLAYING) or (pairing.match and pairing.match.seq):
        raise ApplicationError(
            ErrorCode.CONFLICT,
            f"{entry.player.display_name}'s match ({pairing_words(pairing, division)}) has started: it cannot be "
            "swapped",
        )


def _swap_seeds(division: Division, first: Entry, second: Entry, reason: str) -> None:
    for entry in (first, second):
        _current(division, entry)
    a: int | None
    b: int | None
    if division.is_swiss_knockout:  # the knockout's seeds, drawn from the Swiss standings
        seeds = list(division.knockout_seeds)
        if first.pk not in seeds or second.pk not in seeds:
            raise ApplicationError(ErrorCode.CONFLICT, "only two players of the knockout can swap their seeds")
        i, j = seeds.index(first.pk), seeds.index(second.pk)
        seeds[i], seeds[j] = seeds[j], seeds[i]
        division.knockout_seeds = seeds
        Division.objects.filter(pk=division.pk).update(knockout_seeds=seeds)
        a, b = i + 1, j + 1
    else:
        a, b = first.seed, second.seed
        Entry.objects.filter(pk=first.pk).update(seed=None)
        Entry.objects.filter(pk=second.pk).update(seed=a)
        Entry.objects.filter(pk=first.pk).update(seed=b)
    note = f"seeds {a} and {b} swapped: {reason.strip()}"
    slots = Pairing.objects.filter(division=division, key__startswith="main-1-")
    slots.filter(Q(entry_a__in=(first, second)) | Q(entry_b__in=(first, second))).update(
        swapped_reason=note, updated_at=timezone.now()
    )


def _swap_boards(division: Division, first: Entry, second: Entry, reason: str, *, allow_rematch: bool) -> None:
    p1, p2 = _current(division, first), _current(division, second)
    if p1.round_id != p2.round_id:
        raise ApplicationError(ErrorCode.CONFLICT, "the two players are not paired in the same round")
    if p1.pk == p2.pk:
        raise ApplicationError(ErrorCode.CONFLICT, "the two players already play each other")
    for p, old, new in ((p1, first, second), (p2, second, first)):
        field = "entry_a_id" if p.entry_a_id == old.pk else "entry_b_id"
        setattr(p, field, new.pk)
    rematches = _rematches(division, (p1, p2)) if division.in_swiss_phase else []
    if rematches and not allow_rematch:
        raise ApplicationError(
            ErrorCode.CONFLICT,
            f"the swap makes a rematch: {'; '.join(rematches)}. Nothing was swapped; swap again with the rematch "
            "allowed to pair them all the same.",
        )
    note = f" (rematch: {'; '.join(rematches)})" if rematches else ""
    for p in (p1, p2):
        p.swapped_reason = reason.strip() + note
        if p.match is not None:
            games.services.void_match(
                p.match.pk, actor=SYSTEM, reason=f"pairing changed by the director: {reason.strip()}"
            )
            p.match = None
        p.status = Pairing.Status.READY if p.entry_b_id else Pairing.Status.BYE
        p.winner_id = p.entry_a_id if p.entry_b_id is None else None
    for p in (p1, p2):
        p.save(update_fields=["updated_at", "entry_a", "entry_b", "swapped_reason", "match", "status", "winner"])


def _rematches(division: Division, boards: tuple[Pairing, ...]) -> list[str]:
    """The boards among ``boards`` whose two players met in an earlier round: "A and B met in round 2"."""
    met = []
    for board in boards:
        if board.entry_a_id is None or board.entry_b_id is None:
            continue
        pair = (board.entry_a_id, board.entry_b_id)
        earlier = Pairing.objects.filter(division=division, round__number__lt=board.round.number).filter(
            Q(entry_a_id=pair[0], entry_b_id=pair[1]) | Q(entry_a_id=pair[1], entry_b_id=pair[0])
        )
        number = earlier.values_list("round__number", flat=True).first()
        if number is not None:
            names = dict(Entry.objects.filter(pk__in=pair).values_list("pk", "player__display_name"))
            met.append(f"{names[pair[0]]} and {names[pair[1]]} met in round {number}")
    return met


# -- the correction guard (registered into games/) -----------------------------------------------------------------


def guard_correction(match: Match, override: bool) -> None:
    """Refuse to change a result once either player has started a later match that depends on it (rule 4.10
    practice), unless the director overrides; the sync then voids and replays what depended on it."""
    pairing = Pairing.objects.of_match(match).select_related("division").first()
    if pairing is None or override:
        return
    started = [p for p in _dependents(pairing) if p.match is not None and (p.match.seq or p.status == "finished")]
    if started:
        names = "; ".join(pairing_words(p, pairing.division) for p in started[:5])
        then = (
            "the later matches are then voided and played again"
            if bracket_slot(pairing.division, pairing.key)
            else "the later pairings then stand and the standings count the corrected result"
        )
        if pairing.division.knockout_drawn and not bracket_slot(pairing.division, pairing.key):
            then += " (the knockout drawn from the Swiss standings stands as it was drawn)"
        raise ApplicationError(
            ErrorCode.CONFLICT,
            f"this result cannot be corrected: a later match that depends on it has started ({names}). A director "
            f"can override; {then}.",
        )


def guard_take_back(match: Match, side: int) -> None:
    """Refuse a player's take-back, or his request for a correction, once the result is confirmed (the player asked
    answered it, or a director did: a correction is for the director now): a round's pairing's result, and a
    playoff's match's alike. A result waiting for a confirmation, or disputed, may still be taken back."""
    confirmed = Pairing.objects.of_match(match).filter(confirmation=Confirmation.CONFIRMED)
    asked = list(confirmed.values_list("confirmation_side", flat=True)[:1]) or _playoff_confirmed(match)
    if asked:
        who = "you have" if asked[0] == side else f"{match.player(1 - side).display_name} has"
        if asked[0] is None:
            who = "the director has"
        raise ApplicationError(ErrorCode.CONFLICT, f"{who} confirmed this result: ask the director to correct it")


def _playoff_confirmed(match: Match) -> list[int | None]:
    """The side asked to confirm the playoff match's result, in a list, once it is confirmed (empty otherwise)."""
    found = (
        Playoff.objects.of_match(match)
        .filter(
            Q(first_match=match, first_confirmation=Confirmation.CONFIRMED)
            | Q(final_match=match, final_confirmation=Confirmation.CONFIRMED)
        )
        .values_list("first_match_id", "first_confirmation_side", "final_confirmation_side")
        .first()
    )
    if found is None:
        return []
    return [found[1] if found[0] == match.pk else found[2]]


def _dependents(pairing: Pairing) -> list[Pairing]:
    division = pairing.division
    rows = Pairing.objects.filter(division=division).select_related(
        "match", "round", "table", "entry_a__player", "entry_b__player"
    )
    if bracket_slot(division, pairing.key):
        return list(rows.filter(key__in=dependent_keys(division, pairing.key)))
    players = [e for e in (pairing.entry_a_id, pairing.entry_b_id) if e is not None]
    later = rows.filter(round__bracket=pairing.round.bracket, round__number__gt=pairing.round.number)
    dependents = list(later.filter(entry_a__in=players) | later.filter(entry_b__in=players))
    if division.knockout_drawn:  # every knockout match depends on the Swiss standings it was drawn from
        dependents += list(rows.filter(round__bracket=Round.Bracket.MAIN, match__isnull=False))
    return dependents
