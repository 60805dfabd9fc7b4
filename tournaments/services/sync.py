"""Keeping a division's pairings in step with its results.

:func:`sync_division` is the one place that moves a division forward. It loads as models only the pairings that can
change: those whose result does not count yet (waiting, ready, playing, awaiting a confirmation) and the finished
ones whose match no longer says what the pairing says (a director's correction in games/); a counted result changes
only through its match, so the others are left unread (Swiss, round robin) or read as plain values (the bracket). A
round robin's sync loads fewer still, only the pairings whose match says something else than the pairing: nothing in
a round robin is advanced from the others, and thousands of its matches are open at once. It derives each loaded
pairing's result, resolves the bracket from the counted results (tournaments/services/bracket.py), fills in the
players of the slots that became known, creates their matches, pairs the next Swiss round when the division pairs
itself (tournaments/services/swiss.py; the knockout of a Swiss into a knockout once its Swiss rounds are over:
tournaments/services/knockout.py), and finishes the division when nothing is left to play. It sends the same
statements whatever the size of the field (rows are written many at a time: common/bulk.py), is idempotent (running
it twice changes nothing) and is serialised per division by a row lock (:func:`tournaments.core.lock_division`), so
two results arriving together advance the bracket once. When it changed anything, it then gives the venue's tables
to the matches that can start (tournaments/services/tables.py). The services that already hold the lock call
:func:`sync_locked_division`.

Results count (for the bracket, the next Swiss round and the standings) as :mod:`tournaments.core` says.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils import timezone

import games.services
from common.actor import SYSTEM
from common.bulk import update_rows
from common.errors import ApplicationError
from games.models import Action, Match, Player
from games.selectors import director_decided_a_game
from tournaments.core import (
    COUNTED,
    FINISHED_AS_MATCH,
    OPEN_AS_MATCH,
    PLAYABLE,
    PLAYOFF_SOURCE,
    TO_COME,
    confirmation_needed,
    counts,
    held_outcome,
    lock_division,
    outcome_of,
    round_robin_lead,
)
from tournaments.models import Division, Entry, Event, Pairing, Playoff, Round
from tournaments.pairing.round_robin import due_pairings
from tournaments.services.bracket import advance_brackets
from tournaments.services.followup import followup_after_commit, schedule_followup
from tournaments.services.knockout import draw_knockout, knockout_due
from tournaments.services.playoffs import settle_and_mark
from tournaments.services.swiss import follow_score_groups, pair_swiss_round
from tournaments.services.tables import assign_tables

Status = Pairing.Status
Followup = Pairing.Followup
_OPEN = (Status.WAITING, Status.READY, Status.PLAYING)
#: A pairing whose follow-up is due: its result was written in its match's transaction (:func:`show_match_result`)
#: and what depends on it has not followed yet.
FOLLOWUP_DUE = ~Q(followup=Followup.NONE)
#: The pairings a sync can change: a result that does not count yet, or a finished one its match contradicts (a
#: correction, a reopened or voided match), and those whose follow-up is due. Every other pairing's result counts
#: and stands as it is.
_LIVE = ~COUNTED | (Q(status=Status.FINISHED, match__isnull=False) & ~FINISHED_AS_MATCH) | FOLLOWUP_DUE
#: The pairings with a match that a sync changes: the match says something else (a game or a result entered, a
#: correction, a voided match), or the follow-up of its result is due. A round robin's sync loads only these: its
#: pairings are not advanced from one another, and there are thousands of them open at once (each player's next
#: matches, made ahead of play).
_DIFFERS_FROM_MATCH = Q(match__isnull=False) & (
    (Q(status__in=_OPEN) & ~OPEN_AS_MATCH) | (Q(status=Status.FINISHED) & ~FINISHED_AS_MATCH) | FOLLOWUP_DUE
)
#: The pairings whose match moved on without the division: a match over (or voided) that the pairing does not
#: show, a finished pairing its match contradicts, or a result shown whose follow-up is still due. A sync leaves
#: none behind, so any is follow-up work that was lost (or not run yet).
_UNTAKEN = (
    Q(
        status__in=_OPEN,
        confirmation=Pairing.Confirmation.NOT_NEEDED,
        match__status__in=(Match.Status.FINISHED, Match.Status.FORFEITED, Match.Status.VOID),
    )
    | (Q(status=Status.FINISHED, match__isnull=False) & ~FINISHED_AS_MATCH)
    | FOLLOWUP_DUE
)


def divisions_behind_their_matches() -> list[int]:
    """Divisions with a result their sync has not taken (:data:`_UNTAKEN`).

    A result's follow-up is enqueued only after the result's transaction commits; if the process dies or loses the
    broker in between, the result is stored with its pairing flagged due, and nothing else runs. ``reconcile``
    finds such divisions here, from the state alone."""
    return list(
        Pairing.objects.filter(_UNTAKEN)
        .exclude(division__status=Division.Status.REGISTRATION)
        .exclude(
            division__event__status=Event.Status.FINISHED
        )  # closed events: the scan stays as small as the live ones
        .order_by()
        .values_list("division_id", flat=True)
        .distinct()
    )


@dataclass
class SyncReport:
    """What one sync changed (empty on a second run: the sync is idempotent)."""

    results: list[str] = field(default_factory=list)
    filled: list[str] = field(default_factory=list)
    matches: list[str] = field(default_factory=list)
    paired: int | None = None
    finished: bool = False
    corrected: list[int] = field(default_factory=list)  # the rounds of the results a director corrected

    @property
    def changed(self) -> bool:
        return bool(self.results or self.filled or self.matches or self.paired or self.finished)


def sync_division(division_id: int) -> SyncReport:
    """Bring a division's pairings, matches and status in step with its results (idempotent)."""
    with transaction.atomic():
        division = lock_division(division_id)
        if division.status == Division.Status.REGISTRATION:
            return SyncReport()
        settle_and_mark(division)
        return sync_locked_division(division)


def sync_locked_division(division: Division) -> SyncReport:
    """:func:`sync_division` for a caller that holds the division's lock (:func:`tournaments.core.lock_division`)
    and is past its registration."""
    with _syncing():
        return _sync_locked(division)


_within = threading.local()


@contextmanager
def _syncing() -> Iterator[None]:
    """While a sync runs: the results of the games services it calls itself (a withdrawn player's forfeit, a match
    voided because its slot's players changed) are its own to take, so they queue no follow-up
    (:func:`show_match_result`)."""
    _within.depth = getattr(_within, "depth", 0) + 1
    try:
        yield
    finally:
        _within.depth -= 1


def show_match_result(match: Match) -> None:
    """Write a match's new result onto its pairing, in the transaction that changed it (``games.hooks.
    RESULT_WRITERS``: a match ended, forfeited, voided, reopened or corrected, its row locked and written): the
    pairing shows what :func:`tournaments.core.outcome_of` says at once, whether a worker runs or not, and its
    follow-up is marked due (``Pairing.followup``: the division's standings read pending from it), which the
    division's sync takes (the next slot or round, tables and calls, standings, ratings) and which ``reconcile``
    finds if it never runs. The follow-up is enqueued after the commit, and nothing is written then.

    Only the pairing's row is locked, after the match's (the lock order: division, match, pairing; a games service
    never takes the division's). A row a sync holds is skipped: the follow-up queued after this commit takes the
    result. A playoff's match has no pairing: its division is marked pending after the commit. Nothing is written
    or queued inside a sync, whose calls' results are its own."""
    if getattr(_within, "depth", 0):
        return
    pairing = Pairing.objects.select_for_update(of=("self",), skip_locked=True).of_match(match).first()
    if pairing is None:
        _follow_unflagged(match)  # a match of no pairing, or a sync is writing it
        return
    pairing.match = match
    report = SyncReport()
    if match.status == Match.Status.VOID:
        fields = ["followup", "updated_at"]  # the sync takes the voided match off and makes a new one
    elif _show_outcome(pairing, report, replacement_reason=_replacement_reason_in_hand):
        fields = _RESULT_FIELDS
    else:
        followup_after_commit(pairing.division_id)
        return
    if pairing.followup != Followup.CORRECTION:  # a correction still to follow up stays one
        pairing.followup = Followup.CORRECTION if report.corrected else Followup.RESULT
    pairing.save(update_fields=fields)
    followup_after_commit(pairing.division_id)


def _follow_unflagged(match: Match) -> None:
    """The follow-up of a result whose pairing this transaction could not flag: one a sync holds (that sync, or the
    follow-up enqueued after this commit, takes it), or a playoff's match (the confirmation its result needs written
    on the playoff, and its division marked pending after the commit). A stand-alone match has neither: nothing
    follows, and no playoff is looked for where the match's source says it is no playoff's."""
    division_id = Pairing.objects.of_match(match).values_list("division_id", flat=True).first()
    if division_id is not None:
        followup_after_commit(division_id)
        return
    if PLAYOFF_SOURCE not in match.source:  # no playoff's match, as its source says (as entry_panel.playoff_of reads)
        return
    playoffs = Playoff.objects.of_match(match)
    playoff_division = playoffs.values_list("division_id", flat=True).first()
    if playoff_division is None:
        return
    # Its row is locked after the match's, as a pairing's, and skipped if a sync holds it: that sync's follow-up
    # (or the one queued after this commit) asks for the confirmation (tournaments/services/playoffs.py).
    playoff = playoffs.select_for_update(of=("self",), skip_locked=True).first()
    if playoff is not None:
        _show_playoff_confirmation(playoff, match)
    transaction.on_commit(lambda: schedule_followup(playoff_division))


#: The match states whose result stands (a playoff's match won).
_OVER = (Match.Status.FINISHED, Match.Status.FORFEITED)


def _show_playoff_confirmation(playoff: Playoff, match: Match) -> None:
    """Write the confirmation a playoff's match needs now that its result changed, in the match's transaction (its
    row locked after the match's, as a pairing's): a result a player entered from a scoresheet waits for the other
    side (:func:`confirmation_needed`); a director's correction of a result stands by his decision (confirmed); a
    match reopened or voided needs none until it is over again. A dispute said about it goes with the result it
    was about. A result a director corrected, or one with a game's result he replaced, is marked with his reason
    (``Playoff.*_correction``), as a pairing's ``Pairing.Decision.DIRECTOR`` is."""
    correction = ""
    if match.status not in _OVER or match.winner_id is None:
        state: tuple[str, int | None] = (Pairing.Confirmation.NOT_NEEDED, None)
    elif _corrected(match):
        state = (Pairing.Confirmation.CONFIRMED, None)
        correction = _replacement_reason_in_hand(match) or _correction_reason(match)
    else:
        state = confirmation_needed(match)
        correction = (_replacement_reason_in_hand(match) or "") if match.status == Match.Status.FINISHED else ""
    which = playoff.which(match.pk)
    fields = (f"{which}_confirmation", f"{which}_confirmation_side", f"{which}_correction")
    if tuple(getattr(playoff, name) for name in fields) == (*state, correction):
        return
    changed = (getattr(playoff, fields[0]), getattr(playoff, fields[1])) != state
    for name, value in zip(fields, (*state, correction), strict=True):
        setattr(playoff, name, value)
    if changed:
        playoff.dispute_text = ""
    playoff.save(update_fields=[*fields, "dispute_text"])


def _corrected(match: Match) -> bool:
    """Whether the match's latest action in force is a director's correction (its result stands by his decision; a
    player's take-back is entered from his link)."""
    in_force = Action.objects.filter(match=match, undone_by__isnull=True).order_by("-seq")
    last = in_force.values_list("kind", "entered_by_token").first()
    return last is not None and last[0] == Action.Kind.CORRECTION and last[1] is None


def _sync_locked(division: Division) -> SyncReport:
    report = SyncReport()
    live_rows = division.pairings.filter(_LIVE)
    if division.format == Division.Format.ROUND_ROBIN:
        # Only what the matches changed: a round-robin pairing whose match is not made yet has nothing to take (the
        # ones now due are found apart, as plain values: :func:`_round_robin_due`), and nothing else is advanced
        # from the pairings loaded (:func:`_finish_if_done` asks the database what is still open).
        live_rows = division.pairings.filter(_DIFFERS_FROM_MATCH)
    live = list(live_rows.select_related("match").defer("match__state").order_by("id"))
    taken = [pairing for pairing in live if _take_result(pairing, report)]
    update_rows(Pairing, taken, _RESULT_FIELDS)
    if report.corrected:  # the later Swiss rounds stand: their boards say the score groups as they are now
        numbers = Round.objects.filter(pk__in=report.corrected, bracket=Round.Bracket.SWISS).values_list("number")
        for (number,) in numbers:
            follow_score_groups(division, after=number)
    touched = live
    if division.has_bracket:
        touched, filled = advance_brackets(division, live)
        report.filled += filled
    doubled = _start_matches(division, touched, report, taken)
    if division.in_swiss_phase and division.auto_pair and division.status == Division.Status.RUNNING:
        report.paired = _auto_pair(division, touched)
    if report.paired or doubled:
        # The new round's matches, or what a double forfeit settles further on (the next opponent's bye); the
        # report keeps the results that led to it.
        after = _sync_locked(division)
        merged = (report.results + after.results, report.filled + after.filled, report.matches + after.matches)
        return SyncReport(*merged, paired=report.paired, finished=after.finished)
    report.finished = _finish_if_done(division, touched)
    if report.changed:
        # A table freed here may go to a match of another division: the lock held is the event's too.
        assign_tables(division.event_id, tables_given=division.event.tables_given)
        changed: dict[str, int | str] = {"results_version": division.results_version + 1}
        if report.results or report.finished:
            # The standings stored do not show this yet (a recompute that ran before this sync may have marked them
            # current): pending until the follow-up recomputes them.
            changed["standings_status"] = division.standings_status = Division.Work.PENDING
        Division.objects.filter(pk=division.pk).update(**changed)
        division.results_version += 1
    return report


_RESULT_FIELDS = [
    "updated_at",
    "followup",
    "match",
    "status",
    "winner",
    "score_a",
    "score_b",
    "confirmation",
    "confirmation_side",
    "decision",
    "decision_reason",
    "played_at",
]


def _take_result(pairing: Pairing, report: SyncReport) -> bool:
    """Put a pairing's match outcome on it (winner, score, status, confirmation: :func:`tournaments.core.outcome_of`)
    in memory, and take its follow-up if due; True when it changed and its :data:`_RESULT_FIELDS` must be written."""
    due = pairing.followup
    changed = _show_outcome(pairing, report)
    if due == Followup.NONE:
        return changed
    if not changed:  # shown already, in its match's transaction: what depends on it follows now
        report.results.append(pairing.key)
    if due == Followup.CORRECTION and pairing.round_id not in report.corrected:
        report.corrected.append(pairing.round_id)
    pairing.followup = Followup.NONE
    return True


def _show_outcome(
    pairing: Pairing,
    report: SyncReport,
    *,
    replacement_reason: Callable[[Match], str | None] = lambda match: _replacement_reason(match),
) -> bool:
    """Put a pairing's match outcome on it in memory (a voided match is taken off); True when it changed.
    ``replacement_reason``: :func:`_replacement_reason`, or :func:`_replacement_reason_in_hand` for a match whose
    state is loaded."""
    match = pairing.match
    if match is None or pairing.status in (Status.BYE, Status.EMPTY, Status.SKIPPED):
        return False
    if match.status == Match.Status.VOID:
        _detach(pairing, "the match was voided: a new match is made")
        report.results.append(pairing.key)
        return True
    new, old = outcome_of(pairing, match), held_outcome(pairing)
    if new == old:
        return False
    if new.status == Status.FINISHED and pairing.status != Status.FINISHED:
        pairing.confirmation, pairing.confirmation_side = confirmation_needed(match)
        replaced = replacement_reason(match) if match.status == Match.Status.FINISHED else None
        if replaced is not None:  # a game's result the director replaced (that reopened it, say): as a correction
            pairing.decision, pairing.decision_reason = Pairing.Decision.DIRECTOR, replaced
            report.corrected.append(pairing.round_id)
    elif new.status != Status.FINISHED:
        pairing.confirmation, pairing.confirmation_side = Pairing.Confirmation.NOT_NEEDED, None
        # The result was undone (a forfeit reopened, say): its decision goes with it, on every page. The table it
        # was played at stays named until the sync's assignment gives it back, or, taken by another match since,
        # forgets it (tournaments/services/tables.py).
        pairing.decision, pairing.decision_reason = Pairing.Decision.NONE, ""
    elif new.winner_id != old.winner_id or (new.score_a, new.score_b) != (old.score_a, old.score_b):
        pairing.confirmation = Pairing.Confirmation.CONFIRMED  # a director's correction of a final result
        # The result stands by the director's decision: the pages and the results CSV say so, with his reason.
        pairing.decision, pairing.decision_reason = Pairing.Decision.DIRECTOR, _correction_reason(match)
        report.corrected.append(pairing.round_id)
    pairing.status, pairing.winner_id, pairing.score_a, pairing.score_b = (
        new.status,
        new.winner_id,
        new.score_a,
        new.score_b,
    )
    pairing.updated_at = timezone.now()
    report.results.append(pairing.key)
    return True


def _correction_reason(match: Match) -> str:
    """The reason the director gave for the match's latest correction ("" when none was recorded)."""
    reason = Action.objects.filter(match=match, kind=Action.Kind.CORRECTION).order_by("-seq").values_list("reason")
    found = reason.first()
    return found[0] if found else ""


def _replacement_reason(match: Match) -> str | None:
    """The reason of the latest game result the director replaced in the match and nobody undid since
    (``games.services.replace_game_result``), or None when none is in force: such a result stands partly by his
    decision, and the pages and the results CSV say so, as of a final result he corrected."""
    return _replacements(match).values_list("reason", flat=True).first()


def _replacement_reason_in_hand(match: Match) -> str | None:
    """:func:`_replacement_reason` of a match whose cached state is loaded (a games service's, in the transaction
    that changed its result): no statement when no game of it was decided by the director, as none of its results
    can then be a replacement in force (a sync's matches come without their state: it asks the log)."""
    return _replacement_reason(match) if director_decided_a_game(match) else None


def _replacements(match: Match) -> QuerySet[Action]:
    """The game results the director replaced in ``match`` and nobody undid since, latest first."""
    replaced = Action.objects.filter(
        match=match, kind=Action.Kind.CORRECTION, data__has_key="replacement", undone_by__isnull=True
    )
    return replaced.order_by("-seq")


def _detach(pairing: Pairing, why: str) -> None:
    """Take a voided match off its pairing (in memory: the caller writes :data:`_RESULT_FIELDS`)."""
    pairing.match = None
    pairing.status, pairing.winner_id, pairing.score_a, pairing.score_b = Status.WAITING, None, 0, 0
    pairing.confirmation, pairing.confirmation_side = Pairing.Confirmation.NOT_NEEDED, None
    pairing.decision, pairing.decision_reason = Pairing.Decision.NONE, why
    pairing.updated_at = timezone.now()


def _start_matches(division: Division, pairings: list[Pairing], report: SyncReport, taken: list[Pairing]) -> bool:
    """Create the match of every slot whose two players are known: one INSERT for the matches, one UPDATE for the
    slots, whatever the size of the round. A slot whose two players have both withdrawn gets no match: it is a
    double forfeit (:func:`double_forfeit`). True when there was one."""
    if division.format != Division.Format.ROUND_ROBIN:
        todo = [p for p in pairings if p.match_id is None and p.status == Status.READY and p.entry_b_id is not None]
        return make_matches(division, todo, report)
    # A round robin's matches due were made with the draw, and a player's next pairings move up only when one of
    # his is played: only the players of the results taken here (and of the results the new matches get at once,
    # a withdrawn player's forfeits) can have a pairing newly due.
    doubled = False
    players = {e for p in taken if p.status == Status.FINISHED for e in _entry_ids(p)}
    while players:
        todo = _round_robin_due(division, players)
        pairings.extend(todo)  # the sync's loaded pairings: the division is not over while these are played
        doubled = make_matches(division, todo, report) or doubled
        players = {e for p in todo if p.status == Status.FINISHED for e in _entry_ids(p)}
    return doubled


def _round_robin_due(division: Division, players: set[int]) -> list[Pairing]:
    """The round-robin pairings due for ``players`` (their next pairings:
    :func:`tournaments.pairing.round_robin.due_pairings`) and not made yet, read from their pairings not played
    yet as plain values."""
    numbers = dict(division.rounds.order_by().values_list("pk", "number"))
    ahead = round_robin_lead(len(numbers), double=division.double_round_robin)
    rows = (
        division.pairings.filter(status__in=PLAYABLE)
        .filter(Q(entry_a__in=players) | Q(entry_b__in=players))
        .order_by()  # sorted here, by the rounds' numbers: no join for the model's ordering
        .values_list("pk", "round_id", "board", "entry_a_id", "entry_b_id", "match_id")
    )
    unplayed = sorted(rows, key=lambda row: (numbers[row[1]], row[2]))
    due = due_pairings(((pk, a, b) for pk, _, _, a, b, _ in unplayed), ahead, of=players)
    wanted = [pk for pk, _, _, _, b, match in unplayed if match is None and b is not None and pk in due]
    return list(division.pairings.filter(pk__in=wanted, status=Status.READY).order_by("id")) if wanted else []


def make_matches(division: Division, todo: list[Pairing], report: SyncReport) -> bool:
    """Make the matches of ``todo`` (ready pairings, both players known, no match yet); a withdrawn player's is
    forfeited at once, and a pairing of two withdrawn players is a double forfeit. The caller holds the division's
    lock. True when there was a double forfeit."""
    if not todo:
        return False
    event = division.event
    wanted = {e for p in todo for e in _entry_ids(p)}
    entries = {
        pk: (player, status)
        for pk, player, status in Entry.objects.filter(pk__in=wanted)
        .order_by()
        .values_list("pk", "player_id", "status")
    }
    gone = [p for p in todo if all(entries[e][1] == Entry.Status.WITHDRAWN for e in _entry_ids(p))]
    for pairing in gone:
        double_forfeit(pairing, report)
    todo = [p for p in todo if p not in gone]
    if not todo:
        return bool(gone)
    players = Player.objects.in_bulk({player for player, _ in entries.values()})
    matches = games.services.start_matches(
        [
            games.services.new_match(
                player1=players[entries[_entry_ids(p)[0]][0]],
                player2=players[entries[_entry_ids(p)[1]][0]],
                length=p.length,
                variant=division.variant,
                crawford=division.crawford,
                casual=division.casual,
                entry_mode=division.entry_mode,
                private=not event.public,
                source=f"{event.slug}/{division.slug}/{p.key}",
            )
            for p in todo
        ]
    )
    now = timezone.now()
    for pairing, match in zip(todo, matches, strict=True):
        pairing.match, pairing.updated_at = match, now
        report.matches.append(pairing.key)
    update_rows(Pairing, todo, ["match", "updated_at"])
    for pairing in todo:
        status_a, status_b = (entries[e][1] for e in _entry_ids(pairing))
        if Entry.Status.WITHDRAWN in (status_a, status_b):
            _forfeit_withdrawn(pairing, 0 if status_a == Entry.Status.WITHDRAWN else 1, report)
    return bool(gone)


def _entry_ids(pairing: Pairing) -> tuple[int, int]:
    """The two entries of a slot ready to play (a ready slot has both players)."""
    assert pairing.entry_a_id is not None and pairing.entry_b_id is not None
    return pairing.entry_a_id, pairing.entry_b_id


def _forfeit_withdrawn(pairing: Pairing, loser: int, report: SyncReport) -> None:
    """A withdrawn player's new match (``loser``: his side) is forfeited to the opponent at once."""
    assert pairing.match is not None
    recorded = games.services.forfeit_match(
        pairing.match.pk, actor=SYSTEM, loser_side=loser, reason="withdrawal: withdrew"
    )
    pairing.match = recorded.match
    pairing.decision, pairing.decision_reason = Pairing.Decision.FORFEIT_WITHDRAWAL, "the player had withdrawn"
    _take_result(pairing, report)
    pairing.save(update_fields=_RESULT_FIELDS)


def double_forfeit(pairing: Pairing, report: SyncReport) -> None:
    """Both players of a slot have withdrawn: nobody wins it. The slot is finished without a winner and without a
    match (a match voided because both had withdrawn is taken off it); in a bracket each side it feeds is nobody
    (the next opponent has a bye), in a Swiss or a round robin neither player scores and the standings count it for
    neither."""
    pairing.status, pairing.winner_id, pairing.match = Status.FINISHED, None, None
    pairing.score_a, pairing.score_b = 0, 0
    pairing.decision, pairing.decision_reason = Pairing.Decision.DOUBLE_FORFEIT, "both players had withdrawn"
    pairing.confirmation, pairing.confirmation_side = Pairing.Confirmation.NOT_NEEDED, None
    pairing.updated_at = timezone.now()
    pairing.save(update_fields=_RESULT_FIELDS)
    report.results.append(pairing.key)


def _auto_pair(division: Division, touched: list[Pairing]) -> int | None:
    """Pair the next round once every result counts. ``touched``: the pairings the sync loaded; all the others
    count (they were left unread for that reason)."""
    if not all(counts(p) for p in touched):
        return None
    if division.rounds.filter(bracket=Round.Bracket.SWISS).count() >= division.rounds_planned:
        if not knockout_due(division):
            return None
        try:
            draw_knockout(division)  # the Swiss into a knockout's knockout, as its next round
        except ApplicationError:
            return None  # shown to the director when he asks for it by hand
        return division.rounds_planned + 1
    try:
        return pair_swiss_round(division).number
    except ApplicationError:
        return None  # shown to the director when he pairs by hand


def _finish_if_done(division: Division, pairings: list[Pairing]) -> bool:
    """Finish the division when nothing is left to play (or run it again when a forced correction reopened a match).
    ``pairings``: those the sync loaded; every other one counts, so it is neither open nor unconfirmed (but in a
    round robin, whose sync loads only the pairings its matches changed: the database is asked for the others)."""
    if division.status == Division.Status.FINISHED and any(p.status in _OPEN for p in pairings):
        # A correction the director forced through voided a played match (a final, say): it is played again.
        division.status, division.finished_at = Division.Status.RUNNING, None
        division.save(update_fields=["status", "finished_at"])
        Event.objects.filter(pk=division.event_id, status=Event.Status.FINISHED).update(status=Event.Status.RUNNING)
        return False
    if division.status != Division.Status.RUNNING or any(p.status in _OPEN for p in pairings):
        return False
    if any(p.status == Status.FINISHED and not counts(p) for p in pairings):
        return False
    if division.format == Division.Format.ROUND_ROBIN and division.pairings.filter(TO_COME).exists():
        return False  # a pairing to play or to confirm that the sync did not load (its match not made, say)
    if division.in_swiss_phase and division.rounds.count() < division.rounds_planned:
        return False
    if division.is_swiss_knockout and not division.knockout_drawn:
        return False  # its knockout is still to be drawn
    if division.format == Division.Format.LAST_CHANCE and not division.last_chance_closed:
        Division.objects.filter(pk=division.pk).update(last_chance_closed=True)
        division.last_chance_closed = True
        return bool(sync_locked_division(division).finished)
    division.status, division.finished_at = Division.Status.FINISHED, timezone.now()
    division.save(update_fields=["status", "finished_at"])
    event = division.event
    if not event.divisions.exclude(status=Division.Status.FINISHED).exists():
        Event.objects.filter(pk=event.pk).update(status=Event.Status.FINISHED)
    return True
