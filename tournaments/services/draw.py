"""Starting a division and keeping its pairings in step with the results.

- :func:`start_division` seeds the field (by rating, by the director's seeds, or at random with the seed of the
  draw recorded), then draws: every slot of every bracket for the elimination formats, the first round of a Swiss,
  every round of a round robin.
- :func:`sync_division` is the one place that moves a division forward. It loads as models only the pairings that
  can change: those whose result does not count yet (waiting, ready, playing, awaiting a confirmation) and the
  finished ones whose match no longer says what the pairing says (a director's correction in games/); a counted
  result changes only through its match, so the others are left unread (Swiss, round robin) or read as plain values
  (the bracket). It derives each loaded pairing's result, resolves the bracket from the counted results (a pure
  function of them, in tournaments/pairing/brackets.py), fills in the players of the slots that became known,
  creates their matches, pairs the next Swiss round when the division pairs itself, and finishes the division when
  nothing is left to play. It sends the same statements whatever the size of the field (rows are written many at a
  time: tournaments/services/bulk.py), is idempotent (running it twice changes nothing) and is serialised per
  division by a row lock, so two results arriving together advance the bracket once.
- :func:`pair_next_round` pairs a Swiss round on the director's request.

Results count (for the bracket, the next Swiss round and the standings) when the match is finished or forfeited
and, for a result entered from a scoresheet by one player, confirmed by the opponent or a director.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

from games import services as games
from games.access import SYSTEM, Actor
from games.errors import ApplicationError, ErrorCode
from games.models import Action, Match, Player
from tournaments.access import check_directs
from tournaments.models import ELIMINATION_FORMATS, Division, Entry, Event, Pairing, Rating, Round
from tournaments.pairing import brackets
from tournaments.pairing.round_robin import round_robin
from tournaments.pairing.swiss import NoPairingError, PlayerId, SwissPlayer, pair_round
from tournaments.services.bulk import copy_instances, update_rows
from tournaments.services.events import round_length

Status = Pairing.Status
_OPEN = (Status.WAITING, Status.READY, Status.PLAYING)
_COUNTED_CONFIRMATION = (Pairing.Confirmation.NOT_NEEDED, Pairing.Confirmation.CONFIRMED)
#: The pairings whose result counts (what :func:`counts` says, as a filter).
COUNTED = Q(status=Status.BYE, winner__isnull=False) | Q(status=Status.FINISHED, confirmation__in=_COUNTED_CONFIRMATION)
#: A finished pairing whose match still says what the pairing says: the same winner and score, the match closed.
_SAME_AS_MATCH = Q(
    match__status__in=(Match.Status.FINISHED, Match.Status.FORFEITED),
    match__score1=F("score_a"),
    match__score2=F("score_b"),
) & (
    Q(winner=F("entry_a"), match__winner=F("match__player1"))
    | Q(winner=F("entry_b"), match__winner=F("match__player2"))
)
#: The pairings a sync can change: a result that does not count yet, or a finished one its match contradicts (a
#: correction, a reopened or voided match). Every other pairing's result counts and stands as it is.
_LIVE = ~COUNTED | (Q(status=Status.FINISHED, match__isnull=False) & ~_SAME_AS_MATCH)
#: The pairings whose match moved on without the division: a match over (or voided) that no sync has taken, or a
#: finished pairing its match contradicts. A sync leaves none behind, so any is follow-up work that was lost.
_UNTAKEN = Q(
    status__in=_OPEN,
    confirmation=Pairing.Confirmation.NOT_NEEDED,
    match__status__in=(Match.Status.FINISHED, Match.Status.FORFEITED, Match.Status.VOID),
) | (Q(status=Status.FINISHED, match__isnull=False) & ~_SAME_AS_MATCH)


def divisions_behind_their_matches() -> list[int]:
    """Divisions with a result their sync has not taken (:data:`_UNTAKEN`).

    A result marks its division's standings pending only after the result's transaction commits (games/ sends its
    signals then); if the process dies or loses the database in between, the result is stored but the division
    still reads "current". ``reconcile`` finds such divisions here, from the state alone."""
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


def _schedule_followup(division_id: int) -> None:
    from tournaments.services.results import schedule_followup  # results.py imports this module

    schedule_followup(division_id)


def lock_division(division_id: int) -> Division:
    """Lock a division's row: the per-division sequencer every write to its pairings goes through."""
    try:
        return Division.objects.select_for_update().select_related("event").get(pk=division_id)
    except Division.DoesNotExist:
        raise ApplicationError(ErrorCode.NOT_FOUND, f"there is no division {division_id}") from None


def counts(pairing: Any) -> bool:
    """Whether a pairing's result counts (finished and, where needed, confirmed; a bye counts as a win). Takes a
    pairing or anything with its ``status``, ``winner_id`` and ``confirmation``."""
    return result_counts(pairing.status, pairing.winner_id, pairing.confirmation)


def result_counts(status: str, winner_id: int | None, confirmation: str) -> bool:
    """:func:`counts` on a pairing's values."""
    if status == Status.BYE:
        return winner_id is not None
    return status == Status.FINISHED and confirmation in _COUNTED_CONFIRMATION


# -- starting ------------------------------------------------------------------------------------------------------


def start_division(division: Division, *, actor: Actor, only_checked_in: bool | None = None) -> Division:
    """Seed and draw. ``only_checked_in``: None plays the checked-in players if anyone has checked in, else all."""
    check_directs(actor, division.event)
    with transaction.atomic():
        division = lock_division(division.pk)
        if division.status != Division.Status.REGISTRATION:
            raise ApplicationError(ErrorCode.CONFLICT, f"{division.name} has already started")
        entries = _field(division, only_checked_in)
        _seed(division, entries)
        division.status, division.started_at = Division.Status.RUNNING, timezone.now()
        division.save(update_fields=["status", "started_at", "draw_seed"])
        if division.event.status != Event.Status.RUNNING:
            Event.objects.filter(pk=division.event_id).update(status=Event.Status.RUNNING)
        if division.is_elimination:
            _draw_brackets(division, len(entries))
        elif division.format == Division.Format.ROUND_ROBIN:
            _draw_round_robin(division, entries)
        else:
            _pair_swiss(division)
        if _sync(division).finished:  # a lone player (or a field of byes): over at once, standings to compute
            _schedule_followup(division.pk)
    return division


def _field(division: Division, only_checked_in: bool | None) -> list[Entry]:
    entries = list(division.entries.exclude(status=Entry.Status.WITHDRAWN).select_related("player"))
    checked = [e for e in entries if e.status == Entry.Status.CHECKED_IN]
    if only_checked_in or (only_checked_in is None and checked):
        absent = [e for e in entries if e.status != Entry.Status.CHECKED_IN]
        Entry.objects.filter(pk__in=[e.pk for e in absent]).update(
            status=Entry.Status.WITHDRAWN, withdrawn_at=timezone.now(), withdrawal_reason="not checked in", seed=None
        )
        entries = checked
    if not entries:
        raise ApplicationError(ErrorCode.CONFLICT, f"{division.name} has nobody to play: register players first")
    return entries


def _seed(division: Division, entries: list[Entry]) -> None:
    if division.seeding == Division.Seeding.MANUAL:
        seeds = sorted(e.seed for e in entries if e.seed is not None)
        missing = [e.player.display_name for e in entries if e.seed is None]
        if missing or seeds != list(range(1, len(entries) + 1)):
            raise ApplicationError(
                ErrorCode.CONFLICT,
                f"manual seeding needs seeds 1 to {len(entries)}, each once"
                + (f"; without a seed: {', '.join(missing)}" if missing else f"; the seeds given are {seeds}"),
            )
        return
    if division.seeding == Division.Seeding.RANDOM:
        if division.draw_seed is None:
            division.draw_seed = secrets.randbits(62)
        order = sorted(entries, key=lambda e: e.pk)
        random.Random(division.draw_seed).shuffle(order)
    else:
        known = _list_ratings(division, entries)
        order = sorted(entries, key=lambda e: (-_rating(e, known), e.pk))
    Entry.objects.filter(pk__in=[e.pk for e in entries]).update(seed=None)
    for number, entry in enumerate(order, start=1):
        entry.seed = number
    update_rows(Entry, order, ["seed"])


def _list_ratings(division: Division, entries: Iterable[Entry]) -> dict[int, float]:
    if division.event.rating_list_id is None:
        return {}
    rows = Rating.objects.filter(
        rating_list_id=division.event.rating_list_id, player__in=[e.player_id for e in entries]
    )
    return {r.player_id: r.rating for r in rows}


def _rating(entry: Entry, known: dict[int, float]) -> float:
    if entry.rating is not None:
        return entry.rating
    return known.get(entry.player_id, 1500.0)


# -- elimination ---------------------------------------------------------------------------------------------------


def plan_of(division: Division, entrants: int | None = None) -> brackets.Plan:
    """The division's bracket plan (a pure function of its settings and the size of the field at the start)."""
    if entrants is None:
        entrants = division.entries.filter(seed__isnull=False, late=False).count()
    fmt = division.format
    options: dict[str, Any] = {}
    if division.drop_rounds is not None:
        options["drop_rounds"] = division.drop_rounds
    if fmt == Division.Format.DOUBLE:
        options["reset"] = division.grand_final_reset
    if fmt == Division.Format.LAST_CHANCE:
        options["last_chance_drop_rounds"] = division.last_chance_drop_rounds
        options["last_chance_places"] = division.last_chance_places
    try:
        return brackets.plan_bracket(entrants, fmt, **options)
    except ValueError as exc:
        raise ApplicationError(ErrorCode.INVALID_INPUT, str(exc)) from None


def _draw_brackets(division: Division, entrants: int) -> None:
    plan = plan_of(division, entrants)
    last = {b: max(n.round for n in plan.nodes if n.bracket == b) for b in {n.bracket for n in plan.nodes}}
    rounds: dict[tuple[str, int], Round] = {}
    for node in plan.nodes:
        key = (node.bracket, node.round)
        if key not in rounds:
            grand_final = division.format == Division.Format.DOUBLE and node.bracket == "main"
            final = node.round == last[node.bracket] or (grand_final and node.round > plan.main_rounds)
            length = round_length(division, node.bracket, node.round, final=final)
            rounds[key] = Round(division=division, bracket=node.bracket, number=node.round, length=length)
    Round.objects.bulk_create(rounds.values())  # one INSERT for every round of every bracket
    pairings = [
        Pairing(
            division=division,
            round=rounds[(node.bracket, node.round)],
            key=node.key,
            table=node.index + 1,
            source_a=node.why_a,
            source_b=node.why_b,
            conditional=node.conditional,
            length=rounds[(node.bracket, node.round)].length,
        )
        for node in plan.nodes
    ]
    copy_instances(Pairing, pairings)  # one COPY for every slot


def check_place_free(division: Division, place: str) -> None:
    """Refuse a last-chance place that does not exist, is taken, or is closed."""
    plan = plan_of(division)
    if place not in plan.places:
        labels = ", ".join(plan.places) or "none"
        raise ApplicationError(ErrorCode.INVALID_INPUT, f"there is no last-chance place {place!r} (places: {labels})")
    if division.last_chance_closed:
        raise ApplicationError(ErrorCode.CONFLICT, "the last-chance places are closed")
    if division.entries.filter(place=place).exists():
        raise ApplicationError(ErrorCode.CONFLICT, f"{place} is already taken")


def close_last_chance_places(division: Division, *, actor: Actor) -> Division:
    """Close the last-chance entries: unfilled places become byes and the last chance can start."""
    check_directs(actor, division.event)
    with transaction.atomic():
        division = lock_division(division.pk)
        if division.format != Division.Format.LAST_CHANCE:
            raise ApplicationError(
                ErrorCode.CONFLICT,
                f"{division.name} has no last chance: only a {Division.Format.LAST_CHANCE.label} "
                "division has last-chance places",
            )
        if division.status != Division.Status.RUNNING:
            raise ApplicationError(ErrorCode.CONFLICT, f"{division.name} is not running: start it first")
        if division.last_chance_closed:
            raise ApplicationError(ErrorCode.CONFLICT, "the last-chance places are already closed")
        division.last_chance_closed = True
        division.save(update_fields=["last_chance_closed"])
        _sync(division)
        _schedule_followup(division.pk)  # empty places become byes: players move on, the standings change
    return division


# -- Swiss and round robin -----------------------------------------------------------------------------------------


def _draw_round_robin(division: Division, entries: list[Entry]) -> None:
    ordered = sorted(entries, key=lambda e: e.seed or 0)
    schedule = round_robin([e.pk for e in ordered], double=division.double_round_robin)
    rounds = Round.objects.bulk_create(
        Round(
            division=division,
            bracket=Round.Bracket.ROUND_ROBIN,
            number=number,
            length=round_length(division, Round.Bracket.ROUND_ROBIN, number, final=number == len(schedule)),
        )
        for number in range(1, len(schedule) + 1)
    )
    pairings: list[Pairing] = []
    for rnd, boards in zip(rounds, schedule, strict=True):
        cycle = 2 if division.double_round_robin and rnd.number > len(schedule) // 2 else 1
        reason = "round robin, circle method" + (" (second cycle, sides swapped)" if cycle == 2 else "")
        pairings += _boards(division, rnd, [(a, b, reason) for a, b in boards])
    copy_instances(Pairing, pairings)


def _create_boards(division: Division, rnd: Round, boards: list[tuple[int, int | None, str]]) -> None:
    """Pairings for a round given (entry a, entry b or None for a bye, reason); byes last."""
    copy_instances(Pairing, _boards(division, rnd, boards))


def _boards(division: Division, rnd: Round, boards: list[tuple[int, int | None, str]]) -> list[Pairing]:
    boards = sorted(boards, key=lambda board: board[1] is None)
    return [
        Pairing(
            division=division,
            round=rnd,
            key=f"{rnd.bracket}-{rnd.number}-{table}",
            table=table,
            entry_a_id=a,
            entry_b_id=b,
            reason=reason,
            length=rnd.length,
            status=Status.READY if b is not None else Status.BYE,
            winner_id=a if b is None else None,
        )
        for table, (a, b, reason) in enumerate(boards, start=1)
    ]


def pair_next_round(division: Division, *, actor: Actor) -> Round:
    """Pair the next Swiss round (every result of the current round must count first)."""
    check_directs(actor, division.event)
    with transaction.atomic():
        division = lock_division(division.pk)
        if division.format != Division.Format.SWISS:
            raise ApplicationError(ErrorCode.INVALID_INPUT, "only a Swiss division is paired round by round")
        if division.status != Division.Status.RUNNING:
            raise ApplicationError(ErrorCode.CONFLICT, f"{division.name} is not running")
        _sync(division)
        division.refresh_from_db()
        rnd = _pair_swiss(division)
        _sync(division)
    return rnd


def _pair_swiss(division: Division) -> Round:
    done = division.rounds.count()
    if done >= division.rounds_planned:
        raise ApplicationError(ErrorCode.CONFLICT, f"all {division.rounds_planned} rounds have been paired")
    pending = division.pairings.filter(round__number=done).exclude(status=Status.BYE).exclude(COUNTED)
    waiting = list(pending.order_by("table").values_list("table", flat=True)[:10])
    if waiting:
        tables = ", ".join(str(table) for table in waiting)
        raise ApplicationError(
            ErrorCode.CONFLICT, f"round {done} is not complete: results missing or unconfirmed at table(s) {tables}"
        )
    players = swiss_players(division)
    try:
        result = pair_round(players)
    except NoPairingError:
        raise ApplicationError(
            ErrorCode.CONFLICT,
            f"round {done + 1} cannot be paired without a rematch: {_why_unpaired(division, players)}. Nothing was "
            "paired; the director can withdraw a player or end the division.",
        ) from None
    number = done + 1
    rnd = Round.objects.create(
        division=division,
        bracket=Round.Bracket.SWISS,
        number=number,
        length=round_length(division, Round.Bracket.SWISS, number, final=number == division.rounds_planned),
    )
    _create_boards(division, rnd, [(int(p.a), None if p.b is None else int(p.b), p.reason) for p in result.pairings])
    return rnd


def _why_unpaired(division: Division, players: list[SwissPlayer]) -> str:
    """The pairing's own explanation, naming the players (it names them by id: here entry ids, which say nothing
    to a director): the same search run again over the same players labelled by name and seed."""
    entries = division.entries.select_related("player").filter(pk__in=[p.id for p in players])
    label: dict[PlayerId, str] = {e.pk: f"{e.player.display_name} (seed {e.seed})" for e in entries}
    labelled = [replace(p, id=label[p.id], opponents=frozenset(label[o] for o in p.opponents)) for p in players]
    try:
        pair_round(labelled)
    except NoPairingError as exc:
        return str(exc)
    return "no rematch-free pairing was found"  # not reached: the same search over the same players


def swiss_players(division: Division) -> list[SwissPlayer]:
    """Every entry's state before the next round, from the counted results (two reads of plain values)."""
    entries = list(division.entries.exclude(seed__isnull=True).values_list("pk", "seed", "status"))
    score = {pk: 0 for pk, _, _ in entries}
    met: dict[int, set[int]] = {pk: set() for pk, _, _ in entries}
    byes: set[int] = set()
    rows = division.pairings.values_list("entry_a_id", "entry_b_id", "status", "winner_id", "confirmation")
    for a, b, status, winner, confirmation in rows.order_by():
        if b is None:
            byes.add(a)
        else:
            met[a].add(b)
            met[b].add(a)
        if winner is not None and result_counts(status, winner, confirmation):
            score[winner] += 1
    return [
        SwissPlayer(
            id=pk,
            rank=seed or 0,
            score=score[pk],
            opponents=frozenset(met[pk]),
            had_bye=pk in byes,
            withdrawn=status == Entry.Status.WITHDRAWN,
        )
        for pk, seed, status in entries
    ]


# -- keeping pairings in step --------------------------------------------------------------------------------------


@dataclass
class SyncReport:
    """What one sync changed (empty on a second run: the sync is idempotent)."""

    results: list[str] = field(default_factory=list)
    filled: list[str] = field(default_factory=list)
    matches: list[str] = field(default_factory=list)
    paired: int | None = None
    finished: bool = False

    @property
    def changed(self) -> bool:
        return bool(self.results or self.filled or self.matches or self.paired or self.finished)


def sync_division(division_id: int) -> SyncReport:
    """Bring a division's pairings, matches and status in step with its results (idempotent)."""
    with transaction.atomic():
        division = lock_division(division_id)
        if division.status == Division.Status.REGISTRATION:
            return SyncReport()
        return _sync(division)


def _sync(division: Division) -> SyncReport:
    report = SyncReport()
    live = list(division.pairings.filter(_LIVE).select_related("match").defer("match__state").order_by("id"))
    taken = [pairing for pairing in live if _take_result(pairing, report)]
    update_rows(Pairing, taken, _RESULT_FIELDS)
    touched = live
    if division.is_elimination:
        touched = _advance_brackets(division, live, report)
    _start_matches(division, touched, report)
    if division.format == Division.Format.SWISS and division.auto_pair and division.status == Division.Status.RUNNING:
        report.paired = _auto_pair(division, touched)
    if report.paired:
        after = _sync(division)  # the new round's matches; the report keeps the results that led to it
        merged = (report.results + after.results, report.filled + after.filled, report.matches + after.matches)
        return SyncReport(*merged, paired=report.paired, finished=after.finished)
    report.finished = _finish_if_done(division, touched)
    if report.changed:
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
    "match",
    "status",
    "winner",
    "score_a",
    "score_b",
    "confirmation",
    "confirmation_side",
    "decision_reason",
]


def _take_result(pairing: Pairing, report: SyncReport) -> bool:
    """Copy a pairing's match outcome onto it (winner, score, status, confirmation) in memory; True when it changed
    and its :data:`_RESULT_FIELDS` must be written."""
    match = pairing.match
    if match is None or pairing.status in (Status.BYE, Status.EMPTY, Status.SKIPPED):
        return False
    if match.status == Match.Status.VOID:
        _detach(pairing, "the match was voided: a new match is made")
        report.results.append(pairing.key)
        return True
    new = _outcome(pairing, match)
    old = (pairing.status, pairing.winner_id, pairing.score_a, pairing.score_b)
    if new == old:
        return False
    status, winner, score_a, score_b = new
    if status == Status.FINISHED and pairing.status != Status.FINISHED:
        pairing.confirmation, pairing.confirmation_side = _confirmation_needed(pairing, match)
    elif status != Status.FINISHED:
        pairing.confirmation, pairing.confirmation_side = Pairing.Confirmation.NOT_NEEDED, None
    elif winner != pairing.winner_id or (score_a, score_b) != (pairing.score_a, pairing.score_b):
        pairing.confirmation = Pairing.Confirmation.CONFIRMED  # a director's correction of a final result
    pairing.status, pairing.winner_id, pairing.score_a, pairing.score_b = new
    pairing.updated_at = timezone.now()
    report.results.append(pairing.key)
    return True


def _outcome(pairing: Pairing, match: Match) -> tuple[str, int | None, int, int]:
    if match.status in (Match.Status.FINISHED, Match.Status.FORFEITED) and match.winner_id is not None:
        winner = pairing.entry_a_id if match.winner_id == match.player1_id else pairing.entry_b_id
        return Status.FINISHED, winner, match.score1, match.score2
    status = Status.PLAYING if match.status == Match.Status.IN_PROGRESS else Status.READY
    return status, None, match.score1, match.score2


def _confirmation_needed(pairing: Pairing, match: Match) -> tuple[str, int | None]:
    """A scoresheet result entered by one player waits for the other's confirmation (or a director's)."""
    if match.entry_mode != Match.EntryMode.SCORESHEET or match.status == Match.Status.FORFEITED:
        return Pairing.Confirmation.NOT_NEEDED, None
    last = (
        Action.objects.filter(match=match, kind__in=(Action.Kind.GAME_RESULT, Action.Kind.CONCEDE_MATCH))
        .order_by("-seq")
        .values("entered_by_token__side", "entered_by_user", "side")
        .first()
    )
    if last is None:
        return Pairing.Confirmation.NOT_NEEDED, None
    entering_side = last["entered_by_token__side"]
    if entering_side is None and last["entered_by_user"] is not None:
        entering_side = _side_of_user(match, last["entered_by_user"])
    if entering_side is None:
        return Pairing.Confirmation.NOT_NEEDED, None  # entered by a director
    return Pairing.Confirmation.AWAITING, 1 - entering_side


def _side_of_user(match: Match, user_id: int) -> int | None:
    for side, player in ((0, match.player1), (1, match.player2)):
        if player.user_id == user_id:
            return side
    return None


def _detach(pairing: Pairing, why: str) -> None:
    """Take a voided match off its pairing (in memory: the caller writes :data:`_RESULT_FIELDS`)."""
    pairing.match = None
    pairing.status, pairing.winner_id, pairing.score_a, pairing.score_b = Status.WAITING, None, 0, 0
    pairing.confirmation, pairing.confirmation_side = Pairing.Confirmation.NOT_NEEDED, None
    pairing.decision_reason = why
    pairing.updated_at = timezone.now()


@dataclass
class _Slot:
    """A pairing read as plain values: what the bracket needs of a slot whose result already counts."""

    pk: int
    key: str
    entry_a_id: int | None
    entry_b_id: int | None
    status: str
    winner_id: int | None
    match_id: int | None
    confirmation: str


_SLOT_COLUMNS = ("pk", "key", "entry_a_id", "entry_b_id", "status", "winner_id", "match_id", "confirmation")


def resolve_division(
    division: Division, pairings: Sequence[Any] | None = None, plan: brackets.Plan | None = None
) -> dict[str, brackets.NodeState]:
    """The bracket resolved from the division's seeds, places and counted results. ``pairings``: every slot of the
    division, as pairings or anything with their ``key``, players, ``status``, ``winner_id`` and ``confirmation``
    (read here as values when not given)."""
    if pairings is None:
        pairings = [_Slot(*row) for row in division.pairings.order_by("id").values_list(*_SLOT_COLUMNS)]
    entries = division.entries.exclude(seed__isnull=True, place="").values_list("pk", "seed", "late", "place")
    seeds: dict[int, int] = {}
    places: dict[str, int] = {}
    for pk, seed, late, place in entries:
        if seed is not None and not late:
            seeds[seed] = pk
        if place:
            places[place] = pk
    plan = plan or plan_of(division)
    finished = {p.key: p for p in pairings if counts(p) and p.status == Status.FINISHED}

    def resolve(results: dict[str, int | None]) -> dict[str, brackets.NodeState]:
        return brackets.resolve(
            plan, seeds=seeds, results=results, places=places, places_closed=division.last_chance_closed
        )

    def same_players(key: str, states: dict[str, brackets.NodeState]) -> bool:
        return (states[key].a, states[key].b) == (finished[key].entry_a_id, finished[key].entry_b_id)

    try:
        states = resolve({key: p.winner_id for key, p in finished.items()})
        if all(same_players(key, states) for key in finished):
            return states
    except ValueError:
        pass
    # An upstream correction (with the director's override) changed the players of slots whose matches were
    # already played: those results no longer count (the sync voids their matches and the slots are played
    # again). Count the results round by round, each only while its slot still holds the players its match was
    # played between.
    results: dict[str, int | None] = {}
    while True:
        states = resolve(results)
        more = {
            key: p.winner_id
            for key, p in finished.items()
            if key not in results and states[key].status == brackets.Status.READY and same_players(key, states)
        }
        if not more:
            return states
        results.update(more)


def _advance_brackets(division: Division, live: list[Pairing], report: SyncReport) -> list[Pairing]:
    """Resolve the bracket and put the resolved players on the slots that change. The slots not loaded as models
    are read as values; the few of them the resolution changes (a bye or a played slot an upstream correction or a
    swap of seeds reaches) are loaded then. Returns every slot loaded as a model, in id order."""
    loaded = {pairing.pk for pairing in live}
    slots = [_Slot(*row) for row in division.pairings.values_list(*_SLOT_COLUMNS).order_by() if row[0] not in loaded]
    plan = plan_of(division)
    states = resolve_division(division, [*live, *slots], plan)
    moved = [slot.pk for slot in slots if _slot_after(slot, states[slot.key]) != _slot_now(slot)]
    more = list(division.pairings.filter(pk__in=moved).select_related("match").defer("match__state")) if moved else []
    touched = sorted([*live, *more], key=lambda pairing: pairing.pk)
    changed = [pairing for pairing in touched if _apply_state(pairing, states[pairing.key], report)]
    update_rows(Pairing, changed, ["updated_at", "entry_a", "entry_b", "status", "winner", "match"])
    _mark_eliminated(division, plan, states)
    return touched


_SETTLED = {"bye": Status.BYE, "empty": Status.EMPTY, "skipped": Status.SKIPPED}

_SlotValues = tuple[int | None, int | None, str, int | None, int | None]


def _slot_now(pairing: Any) -> _SlotValues:
    return (pairing.entry_a_id, pairing.entry_b_id, pairing.status, pairing.winner_id, pairing.match_id)


def _slot_after(pairing: Any, state: brackets.NodeState) -> _SlotValues:
    """A slot's players, status, winner and match once the resolved ``state`` is put on it (see _apply_state)."""
    status, winner, match_id = pairing.status, pairing.winner_id, pairing.match_id
    if (state.a, state.b) != (pairing.entry_a_id, pairing.entry_b_id):
        match_id = None  # its players changed: the match is released
    if state.status in _SETTLED:
        status, winner = _SETTLED[state.status], state.winner
    elif match_id is None:
        both = state.a is not None and state.b is not None
        status, winner = (Status.READY if both else Status.WAITING), None
    return (state.a, state.b, status, winner, match_id)


def _apply_state(pairing: Pairing, state: brackets.NodeState, report: SyncReport) -> bool:
    """Put the resolved players on a slot (in memory; True when it changed and must be saved); a slot whose players
    changed loses its match (see _release_match).

    A settled slot (bye, empty, skipped) takes its status from the bracket; a slot with a match keeps the status
    its match gives it; any other slot is ready when both players are known and waiting otherwise."""
    after = _slot_after(pairing, state)
    if after == _slot_now(pairing):
        return False
    if (state.a, state.b) != (pairing.entry_a_id, pairing.entry_b_id) and pairing.match is not None:
        _release_match(pairing)
    pairing.entry_a_id, pairing.entry_b_id, pairing.status, pairing.winner_id, _ = after
    pairing.updated_at = timezone.now()
    report.filled.append(pairing.key)
    return True


def _release_match(pairing: Pairing) -> None:
    """The slot's players changed (an upstream correction): void its match, keeping its log.

    Corrections are refused while a dependent match has started, unless the director overrides; with the
    override, the dependent match (even a finished one) is voided here and the slot is played again."""
    match = pairing.match
    assert match is not None
    why = f"the players of {pairing.key} changed (a corrected result or a swap of seeds)"
    if match.status in (Match.Status.FINISHED, Match.Status.FORFEITED):
        games.reopen_match(match.pk, actor=SYSTEM, reason=why, override=True)
    if match.status != Match.Status.VOID:
        games.void_match(match.pk, actor=SYSTEM, reason=why)
    pairing.match = None
    pairing.winner_id, pairing.score_a, pairing.score_b = None, 0, 0
    pairing.confirmation, pairing.confirmation_side = Pairing.Confirmation.NOT_NEEDED, None
    pairing.decision_reason = why
    fields = ["updated_at", "match", "winner", "score_a", "score_b", "confirmation", "confirmation_side"]
    pairing.save(update_fields=[*fields, "decision_reason"])


def _mark_eliminated(division: Division, plan: brackets.Plan, states: dict[str, brackets.NodeState]) -> None:
    alive = {p for s in states.values() if s.status in ("waiting", "ready") for p in (s.a, s.b) if p is not None}
    champions = {brackets.champion(plan, states, bracket) for bracket in ("main", "consolation", "last-chance")}
    alive |= {c for c in champions if c is not None}
    playing = division.entries.exclude(status=Entry.Status.WITHDRAWN).exclude(seed__isnull=True, place="")
    playing.filter(pk__in=alive, status=Entry.Status.ELIMINATED).update(status=Entry.Status.CHECKED_IN)
    playing.exclude(pk__in=alive).exclude(status=Entry.Status.ELIMINATED).update(status=Entry.Status.ELIMINATED)


def _start_matches(division: Division, pairings: list[Pairing], report: SyncReport) -> None:
    """Create the match of every slot whose two players are known: one INSERT for the matches, one UPDATE for the
    slots, whatever the size of the round."""
    event = division.event
    todo = [p for p in pairings if p.match_id is None and p.status == Status.READY and p.entry_b_id is not None]
    if not todo:
        return
    wanted = {e for p in todo for e in _entry_ids(p)}
    entries = {
        pk: (player, status)
        for pk, player, status in Entry.objects.filter(pk__in=wanted).values_list("pk", "player_id", "status")
    }
    players = Player.objects.in_bulk({player for player, _ in entries.values()})
    matches = games.start_matches(
        [
            games.new_match(
                player1=players[entries[_entry_ids(p)[0]][0]],
                player2=players[entries[_entry_ids(p)[1]][0]],
                length=p.length,
                variant=division.variant,
                crawford=division.crawford,
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


def _entry_ids(pairing: Pairing) -> tuple[int, int]:
    """The two entries of a slot ready to play (a ready slot has both players)."""
    assert pairing.entry_a_id is not None and pairing.entry_b_id is not None
    return pairing.entry_a_id, pairing.entry_b_id


def _forfeit_withdrawn(pairing: Pairing, loser: int, report: SyncReport) -> None:
    """A withdrawn player's new match (``loser``: his side) is forfeited to the opponent at once."""
    assert pairing.match is not None
    recorded = games.forfeit_match(pairing.match.pk, actor=SYSTEM, loser_side=loser, reason="withdrawal: withdrew")
    pairing.match = recorded.match
    pairing.decision, pairing.decision_reason = Pairing.Decision.FORFEIT_WITHDRAWAL, "the player had withdrawn"
    _take_result(pairing, report)
    pairing.save(update_fields=[*_RESULT_FIELDS, "decision"])


def _auto_pair(division: Division, touched: list[Pairing]) -> int | None:
    """Pair the next round once every result counts. ``touched``: the pairings the sync loaded; all the others
    count (they were left unread for that reason)."""
    if not all(counts(p) for p in touched) or division.rounds.count() >= division.rounds_planned:
        return None
    try:
        return _pair_swiss(division).number
    except ApplicationError:
        return None  # shown to the director when he pairs by hand


def _finish_if_done(division: Division, pairings: list[Pairing]) -> bool:
    """Finish the division when nothing is left to play (or run it again when a forced correction reopened a match).
    ``pairings``: those the sync loaded; every other one counts, so it is neither open nor unconfirmed."""
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
    if division.format == Division.Format.SWISS and division.rounds.count() < division.rounds_planned:
        return False
    if division.format == Division.Format.LAST_CHANCE and not division.last_chance_closed:
        Division.objects.filter(pk=division.pk).update(last_chance_closed=True)
        division.last_chance_closed = True
        return bool(_sync(division).finished)
    division.status, division.finished_at = Division.Status.FINISHED, timezone.now()
    division.save(update_fields=["status", "finished_at"])
    event = division.event
    if not event.divisions.exclude(status=Division.Status.FINISHED).exists():
        Event.objects.filter(pk=event.pk).update(status=Event.Status.FINISHED)
    return True


__all__ = [
    "ELIMINATION_FORMATS",
    "SyncReport",
    "check_place_free",
    "close_last_chance_places",
    "counts",
    "lock_division",
    "pair_next_round",
    "plan_of",
    "start_division",
    "swiss_players",
    "sync_division",
]
