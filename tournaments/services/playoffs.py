"""Playoffs for ties: the director orders one for a tie that matters, its players play real matches, and its order
settles the tie in the standings (the rule: tournaments/standings/playoffs.py).

- **Order** (:func:`order_playoff`): the tie must be one the standings show now (:func:`tournaments.core.playoff_ties`
  over the stored table, which must be current), of two or three players, not already under a playoff. Its matches
  are made at once (a three-player stepladder's final once its first match is won), with entry links for both
  sides, at the division's variant, Crawford rule and entry mode; they are outside the rounds, so they get no
  table from the venue's queue: the director seats the players.
- **Follow-up** (:func:`settle_playoffs`, from the division's sync, under its lock): a won first match makes the
  final, which stays the top seed against the first match's winner (a correction that changes that winner, or
  reopens the first match, deletes an unplayed final or voids a started one, and the right one is made); once every
  match is won, the playoff is finished and stores its order; a correction of a playoff match changes that order
  again. The standings read the finished playoffs (tournaments/services/standings.py).
- **Confirmation**: a match is won once its result counts, as a round's pairing's does: a scoresheet result one
  player entered waits for the other side (``Playoff.first_confirmation``/``final_confirmation``, written in the
  match's transaction by tournaments/services/sync.py), who confirms or disputes it
  (:func:`confirm_playoff_result`, :func:`dispute_playoff_result`; a director confirms, and decides a dispute). A
  director awards a playoff match by forfeit (:func:`award_playoff_forfeit`): the playoff settles at once.
- **Cancel** (:func:`cancel_playoff`): an ordered playoff none of whose matches has started is deleted with its
  matches.

A Swiss into a knockout waits for a playoff ordered at its cut: its knockout is not drawn until the playoff is
finished (tournaments/services/knockout.py).
"""

from __future__ import annotations

from django.contrib.humanize.templatetags.humanize import ordinal
from django.db import transaction
from django.utils import timezone

import games.services
from common.actor import SYSTEM, Actor
from common.errors import ApplicationError, ErrorCode
from games.access import new_entry_tokens
from games.models import Match, Player
from tournaments.access import check_answers, check_directs, confirms_again, disputes_again
from tournaments.core import (
    COUNTED_CONFIRMATIONS,
    confirmation_needed,
    lock_division,
    playoff_source,
    playoff_table,
    playoff_ties,
    playoffs_in_play,
)
from tournaments.models import Division, Entry, Pairing, Playoff, Standing
from tournaments.services.followup import schedule_followup
from tournaments.services.knockout import why_not_yet
from tournaments.standings.playoffs import MAX_PLAYERS, Tie, bouts, finishing_order

Confirmation = Pairing.Confirmation

#: The longest playoff match a director may order.
MAX_LENGTH = 25


def order_playoff(division: Division, *, actor: Actor, entries: list[int], length: int = 1) -> Playoff:
    """Order a playoff between the tied ``entries`` (ids) with matches to ``length`` points.

    :raises ApplicationError: FORBIDDEN for someone who does not direct the event; INVALID_INPUT for a length out
        of 1-25, or players who are not one tie that matters; CONFLICT when the standings are being recomputed, or
        the tie has a playoff already. Nothing is stored then."""
    check_directs(actor, division.event)
    if not 1 <= length <= MAX_LENGTH:
        raise ApplicationError(
            ErrorCode.INVALID_INPUT, f"a playoff's match length is 1 to {MAX_LENGTH} points, not {length}"
        )
    with transaction.atomic():
        division = lock_division(division.pk)
        after, tie = _the_tie(division, entries)
        if division.is_swiss_knockout:
            why = why_not_yet(division, playoffs=False)
            if why:
                raise ApplicationError(ErrorCode.CONFLICT, f"the cut is not known yet: {why}")
        taken = Playoff.objects.filter(division=division, after_round=after).values_list("entries", flat=True)
        if any(set(tie.players) & set(others) for others in taken):
            raise ApplicationError(
                ErrorCode.CONFLICT,
                f"the tie at {ordinal(tie.place)} place has a playoff already: cancel it first to order another",
            )
        playoff = Playoff.objects.create(
            division=division, kind=tie.kind, place=tie.place, after_round=after,
            entries=[int(p) for p in tie.players],
            length=length,
        )  # fmt: skip
        first = bouts(tie.players)[0]
        assert first.b is not None  # the first match's two players are known
        match = _make_match(division, playoff, int(first.a), int(first.b), number=1)
        if len(tie.players) == 2:
            playoff.final_match = match
        else:
            playoff.first_match = match
        playoff.save(update_fields=["first_match", "final_match"])
    return playoff


def _the_tie(division: Division, entries: list[int]) -> tuple[int, Tie]:
    """The tie that matters whose players are ``entries``, and the table it is in."""
    latest = Standing.objects.filter(division=division).order_by("-after_round").values_list("after_round", flat=True)
    after = playoff_table(division, latest.first() or 0)
    if after is None:
        raise ApplicationError(
            ErrorCode.CONFLICT,
            f"{division.name} has no tie a playoff can settle now: a playoff settles a tie at a Swiss into a "
            "knockout's cut before its knockout is drawn, or a tie in a finished Swiss's or round robin's standings",
        )
    if division.standings_state != Division.Work.CURRENT:
        raise ApplicationError(
            ErrorCode.CONFLICT, "the standings are being computed again: order the playoff in a few seconds"
        )
    table = list(
        Standing.objects.filter(division=division, after_round=after)
        .order_by("rank", "entry__seed", "entry_id")
        .values_list("rank", "entry_id", "entry__status")
    )
    ties = playoff_ties(division, table)
    wanted = set(entries)
    tie = next((t for t in ties if set(t.players) == wanted), None)
    if tie is None or len(entries) != len(wanted):
        said = "; ".join(f"place {t.place}: entries {', '.join(map(str, t.players))}" for t in ties) or "none"
        raise ApplicationError(
            ErrorCode.INVALID_INPUT,
            f"entries {', '.join(map(str, entries)) or '(none)'} are not the players of one tie that matters: give "
            f"all the players of one of these ties ({said})",
        )
    if not tie.orderable:
        raise ApplicationError(
            ErrorCode.INVALID_INPUT,
            f"the tie at {ordinal(tie.place)} place has {len(tie.players)} players: a playoff settles a tie of two or "
            f"{MAX_PLAYERS}; settle it otherwise (by lot, or the division's rules)",
        )
    return after, tie


def _make_match(division: Division, playoff: Playoff, a: int, b: int, *, number: int) -> Match:
    players = dict(Entry.objects.filter(pk__in=[a, b]).values_list("pk", "player_id"))
    found = Player.objects.in_bulk(players.values())
    event = division.event
    match = games.services.start_match(
        player1=found[players[a]], player2=found[players[b]], length=playoff.length, variant=division.variant,
        crawford=division.crawford, casual=division.casual, entry_mode=division.entry_mode,
        private=not event.public, source=playoff_source(division, playoff.pk, number),
    )  # fmt: skip
    new_entry_tokens([match])
    return match


def cancel_playoff(playoff_id: int, *, actor: Actor, division: Division | None = None) -> None:
    """Cancel an ordered playoff none of whose matches has started: it is deleted with its matches. ``division``:
    the division it must be of (an address that names one).

    :raises ApplicationError: NOT_FOUND (no such playoff, or not of ``division``); FORBIDDEN; CONFLICT when it is
        finished or a match of it has started."""
    if division is not None:
        check_directs(actor, division.event)  # a stranger learns nothing of which playoffs exist
    division_id = Playoff.objects.filter(pk=playoff_id).values_list("division_id", flat=True).first()
    if division_id is None or (division is not None and division_id != division.pk):
        where = f" in {division.name}" if division is not None else ""
        raise ApplicationError(ErrorCode.NOT_FOUND, f"there is no playoff {playoff_id}{where}")
    with transaction.atomic():
        division = lock_division(division_id)
        check_directs(actor, division.event)
        playoff = Playoff.objects.select_related("first_match", "final_match").get(pk=playoff_id)
        matches = [m for m in (playoff.first_match, playoff.final_match) if m is not None]
        started = [m.pk for m in matches if m.seq or m.status != Match.Status.SCHEDULED]
        if playoff.status == Playoff.Status.FINISHED or started:
            which = f" (match {started[0]} has started)" if started else ""
            raise ApplicationError(
                ErrorCode.CONFLICT,
                f"the playoff for the tie at {ordinal(playoff.place)} place has been played{which}: it cannot be "
                "cancelled; correct its match instead",
            )
        playoff.delete()
        games.services.delete_unplayed_matches([m.pk for m in matches])


def settle_and_mark(division: Division) -> None:
    """:func:`settle_playoffs` (the caller holds the division's lock), and the standings marked to be computed
    again when a playoff's order changed (the division's sync, and a director's decision on a playoff's match)."""
    if playoffs_in_play(division) and settle_playoffs(division):  # the standings read the playoff's order
        division.results_version += 1
        division.standings_status = Division.Work.PENDING
        Division.objects.filter(pk=division.pk).update(
            results_version=division.results_version, standings_status=division.standings_status
        )


def settle_playoffs(division: Division) -> bool:
    """Move the division's playoffs on (the caller holds its lock): make a stepladder's final once its first match
    is won, and store the order of each playoff whose matches are all won (again after a correction). True when a
    playoff's order changed (the standings must be computed again)."""
    playoffs = list(division.playoffs.select_related("first_match", "final_match"))
    if not playoffs:
        return False
    players = dict(Entry.objects.filter(division=division).values_list("player_id", "pk"))
    changed = False
    for playoff in playoffs:
        _ask_if_skipped(playoff)
        if playoff.first_match is not None:
            _keep_final(division, playoff, players)
        winners = [players[int(m.winner_id or 0)] for m in _won(playoff)]
        order = list(finishing_order(playoff.entries, winners))
        if order != playoff.order:
            playoff.order = order
            playoff.status = Playoff.Status.FINISHED if order else Playoff.Status.ORDERED
            playoff.finished_at = timezone.now() if order else None
            playoff.save(update_fields=["order", "status", "finished_at"])
            changed = True
    return changed


def _keep_final(division: Division, playoff: Playoff, players: dict[int, int]) -> None:
    """Keep a stepladder's final between its top seed and its first match's winner: made once the first match is
    won, and made again when that winner changed (a director's correction, a take-back) or the first match is no
    longer won (reopened): a final not started is deleted with its entry links, a started or finished one voided (its
    log kept, as a bracket's match whose players changed), and a new final made for the new winner."""
    won = _won(playoff)[:1]
    winner = players[int(won[0].winner_id or 0)] if won else None
    final = playoff.final_match
    if final is not None:
        if winner is not None and {players[final.player1_id], players[final.player2_id]} == {
            playoff.entries[0],
            winner,
        }:
            return
        playoff.final_match = None  # unlinked first: the match voided below is no playoff's
        playoff.final_confirmation, playoff.final_confirmation_side = Confirmation.NOT_NEEDED, None
        playoff.final_correction = ""
        if playoff.first_confirmation != Confirmation.DISPUTED:  # the dispute was the final's
            playoff.dispute_text = ""
        fields = ["final_match", "final_confirmation", "final_confirmation_side", "final_correction", "dispute_text"]
        playoff.save(update_fields=fields)
        _drop_match(final)
    if winner is not None:
        playoff.final_match = _make_match(division, playoff, playoff.entries[0], winner, number=2)
        playoff.save(update_fields=["final_match"])


def _drop_match(match: Match) -> None:
    """A stepladder's final whose players are no longer the right ones: deleted when nothing was played in it,
    voided otherwise (its log stays)."""
    if not match.seq and match.status == Match.Status.SCHEDULED:
        games.services.delete_unplayed_matches([match.pk])
        return
    why = "its players changed: the stepladder's first match has another result (a correction)"
    if match.status in (Match.Status.FINISHED, Match.Status.FORFEITED):
        games.services.reopen_match(match.pk, actor=SYSTEM, reason=why, override=True)
    if Match.objects.filter(pk=match.pk).exclude(status=Match.Status.VOID).exists():
        games.services.void_match(match.pk, actor=SYSTEM, reason=why)


def _ask_if_skipped(playoff: Playoff) -> None:
    """A match over whose result a player entered, while the playoff says no confirmation is needed: its match's
    transaction found the playoff's row held by a sync and could not ask (tournaments/services/sync.py); it is
    asked now."""
    over = (Match.Status.FINISHED, Match.Status.FORFEITED)
    for match in (playoff.first_match, playoff.final_match):
        if match is None or match.status not in over or playoff.confirmation_of(match.pk)[0] != Confirmation.NOT_NEEDED:
            continue
        needed = confirmation_needed(match)
        if needed[0] != Confirmation.NOT_NEEDED:
            which = playoff.which(match.pk)
            setattr(playoff, f"{which}_confirmation", needed[0])
            setattr(playoff, f"{which}_confirmation_side", needed[1])
            playoff.save(update_fields=[f"{which}_confirmation", f"{which}_confirmation_side"])


def _won(playoff: Playoff) -> list[Match]:
    """The playoff's matches that are won (finished or forfeited) by a result that counts (not waiting for a
    confirmation, not disputed), in order; the first one not won ends the list."""
    over = (Match.Status.FINISHED, Match.Status.FORFEITED)
    won = []
    for match in (playoff.first_match, playoff.final_match):
        if match is None:
            continue
        if match.winner_id is None or match.status not in over:
            break
        if playoff.confirmation_of(match.pk)[0] not in COUNTED_CONFIRMATIONS:
            break
        won.append(match)
    return won


#: The kinds of forfeit a director awards on a playoff's match (a penalty forfeit is a round's pairing's).
FORFEIT_KINDS = ("no-show", "withdrawal")


def award_playoff_forfeit(match_id: int, *, actor: Actor, loser_side: int, kind: str, reason: str) -> Playoff:
    """Award a playoff's match to the opponent of ``loser_side`` (a no-show, a withdrawal): the playoff settles at
    once (a stepladder's final is made once its first match is won).

    :raises ApplicationError: INVALID_INPUT for another kind or no reason; NOT_FOUND (no playoff's match);
        FORBIDDEN; CONFLICT when the match is over (correct it instead). Nothing is stored then."""
    if kind not in FORFEIT_KINDS:
        raise ApplicationError(
            ErrorCode.INVALID_INPUT, f"a playoff's forfeit is for {' or '.join(FORFEIT_KINDS)}, not {kind!r}"
        )
    if not reason.strip():
        raise ApplicationError(ErrorCode.INVALID_INPUT, "give the reason for the forfeit (it is kept in the match log)")
    with transaction.atomic():
        division, playoff, match = _playoff_locked(match_id)
        check_directs(actor, division.event)
        if match.status in (Match.Status.FINISHED, Match.Status.FORFEITED, Match.Status.VOID):
            raise ApplicationError(
                ErrorCode.CONFLICT, f"match {match.pk} is over ({match.status}): correct its result instead"
            )
        games.services.forfeit_match(match.pk, actor=actor, loser_side=loser_side, reason=f"{kind}: {reason.strip()}")
        settle_and_mark(division)
        schedule_followup(division.pk)
    playoff.refresh_from_db()
    return playoff


# -- confirmation and disputes of a playoff's match ----------------------------------------------------------------


def _playoff_locked(match_id: int) -> tuple[Division, Playoff, Match]:
    """The playoff whose match is ``match_id``, read under its division's lock, and the match.

    :raises ApplicationError: NOT_FOUND when the match is no playoff's."""
    division_id = Playoff.objects.of_match(match_id).values_list("division_id", flat=True).first()
    if division_id is None:
        raise ApplicationError(ErrorCode.NOT_FOUND, f"match {match_id} is not a playoff's match")
    division = lock_division(division_id)
    playoff = (
        Playoff.objects.select_related("first_match__player1", "first_match__player2", "final_match__player1",
                                       "final_match__player2")
        .of_match(match_id)
        .get()
    )  # fmt: skip
    match = playoff.first_match if playoff.first_match_id == match_id else playoff.final_match
    assert match is not None
    return division, playoff, match


def confirm_playoff_result(match_id: int, *, actor: Actor) -> Playoff:
    """The opponent of the player who entered a playoff match's scoresheet result (or a director) confirms it: the
    playoff moves on in the division's follow-up (:func:`settle_playoffs`). Confirming it again is harmless.

    :raises ApplicationError: NOT_FOUND (no playoff's match); CONFLICT when its result waits for no confirmation;
        FORBIDDEN for anyone but the side asked or a director (a disputed result: a director only)."""
    with transaction.atomic():
        division, playoff, match = _playoff_locked(match_id)
        which = playoff.which(match.pk)
        if confirms_again(actor, match, *playoff.confirmation_of(match.pk)):
            return playoff  # confirmed already: the same answer sent twice changes nothing
        check_answers(actor, match, *playoff.confirmation_of(match.pk))
        setattr(playoff, f"{which}_confirmation", Confirmation.CONFIRMED)
        playoff.save(update_fields=[f"{which}_confirmation"])
        schedule_followup(division.pk)
    return playoff


def dispute_playoff_result(match_id: int, *, actor: Actor, reason: str) -> Playoff:
    """The player asked to confirm a playoff match's result says it is wrong, and why: a director decides (he
    confirms it, or corrects the match).

    :raises ApplicationError: INVALID_INPUT without a reason; as :func:`confirm_playoff_result` else (a director
        does not dispute: he corrects)."""
    if not reason.strip():
        raise ApplicationError(ErrorCode.INVALID_INPUT, "say what is wrong with the result (the director reads it)")
    with transaction.atomic():
        _, playoff, match = _playoff_locked(match_id)
        which = playoff.which(match.pk)
        same = playoff.dispute_text == reason.strip()
        if disputes_again(actor, match, *playoff.confirmation_of(match.pk), same_reason=same):
            return playoff  # disputed already, for this reason: the same answer sent twice changes nothing
        check_answers(actor, match, *playoff.confirmation_of(match.pk), director_may=False)
        setattr(playoff, f"{which}_confirmation", Confirmation.DISPUTED)
        playoff.dispute_text = reason.strip()
        playoff.save(update_fields=[f"{which}_confirmation", "dispute_text"])
    return playoff


def settled_orders(division: Division, after_round: int) -> list[list[int]]:
    """The orders of the division's finished playoffs of the table ``after_round`` (what the standings read)."""
    done = division.playoffs.filter(status=Playoff.Status.FINISHED, after_round=after_round)
    return [list(order) for order in done.values_list("order", flat=True)]
