"""Starting a division and keeping its pairings in step with the results.

- :func:`start_division` seeds the field (by rating, by the director's seeds, or at random with the seed of the
  draw recorded), then draws: every slot of every bracket for the elimination formats, the first round of a Swiss,
  every round of a round robin.
- :func:`sync_division` is the one place that moves a division forward. It reads every pairing's match, derives
  the pairing's result, resolves the bracket from the counted results (a pure function of them, in
  tournaments/pairing/brackets.py), fills in the players of the slots that became known, creates their matches,
  pairs the next Swiss round when the division pairs itself, and finishes the division when nothing is left to
  play. It is idempotent (running it twice changes nothing) and serialised per division by a row lock, so two
  results arriving together advance the bracket once.
- :func:`pair_next_round` pairs a Swiss round on the director's request.

Results count (for the bracket, the next Swiss round and the standings) when the match is finished or forfeited
and, for a result entered from a scoresheet by one player, confirmed by the opponent or a director.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from django.db import transaction
from django.utils import timezone

from games import services as games
from games.access import SYSTEM, Actor
from games.errors import ApplicationError, ErrorCode
from games.models import Action, Match
from tournaments.access import check_directs
from tournaments.models import ELIMINATION_FORMATS, Division, Entry, Event, Pairing, Rating, Round
from tournaments.pairing import brackets
from tournaments.pairing.round_robin import round_robin
from tournaments.pairing.swiss import NoPairingError, SwissPlayer, pair_round
from tournaments.services.events import round_length

Status = Pairing.Status
_OPEN = (Status.WAITING, Status.READY, Status.PLAYING)
_COUNTED_CONFIRMATION = (Pairing.Confirmation.NOT_NEEDED, Pairing.Confirmation.CONFIRMED)


def _schedule_followup(division_id: int) -> None:
    from tournaments.services.results import schedule_followup  # results.py imports this module

    schedule_followup(division_id)


def lock_division(division_id: int) -> Division:
    """Lock a division's row: the per-division sequencer every write to its pairings goes through."""
    try:
        return Division.objects.select_for_update().select_related("event").get(pk=division_id)
    except Division.DoesNotExist:
        raise ApplicationError(ErrorCode.NOT_FOUND, f"there is no division {division_id}") from None


def counts(pairing: Pairing) -> bool:
    """Whether a pairing's result counts (finished and, where needed, confirmed; a bye counts as a win)."""
    if pairing.status == Status.BYE:
        return pairing.winner_id is not None
    return pairing.status == Status.FINISHED and pairing.confirmation in _COUNTED_CONFIRMATION


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
    Entry.objects.bulk_update(order, ["seed"])


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
            rounds[key] = Round.objects.create(
                division=division, bracket=node.bracket, number=node.round, length=length
            )
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
    Pairing.objects.bulk_create(pairings)


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
        division.last_chance_closed = True
        division.save(update_fields=["last_chance_closed"])
        _sync(division)
        _schedule_followup(division.pk)  # empty places become byes: players move on, the standings change
    return division


# -- Swiss and round robin -----------------------------------------------------------------------------------------


def _draw_round_robin(division: Division, entries: list[Entry]) -> None:
    ordered = sorted(entries, key=lambda e: e.seed or 0)
    schedule = round_robin([e.pk for e in ordered], double=division.double_round_robin)
    for number, boards in enumerate(schedule, start=1):
        rnd = Round.objects.create(
            division=division,
            bracket=Round.Bracket.ROUND_ROBIN,
            number=number,
            length=round_length(division, Round.Bracket.ROUND_ROBIN, number, final=number == len(schedule)),
        )
        cycle = 2 if division.double_round_robin and number > len(schedule) // 2 else 1
        reason = "round robin, circle method" + (" (second cycle, sides swapped)" if cycle == 2 else "")
        _create_boards(division, rnd, [(a, b, reason) for a, b in boards])


def _create_boards(division: Division, rnd: Round, boards: list[tuple[int, int | None, str]]) -> None:
    """Pairings for a round given (entry a, entry b or None for a bye, reason); byes last."""
    boards = sorted(boards, key=lambda board: board[1] is None)
    Pairing.objects.bulk_create(
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
    )


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
    pending = division.pairings.exclude(status__in=(Status.BYE,)).filter(round__number=done)
    waiting = [p for p in pending if not counts(p)]
    if waiting:
        tables = ", ".join(str(p.table) for p in waiting[:10])
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
    label = {e.pk: f"{e.player.display_name} (seed {e.seed})" for e in entries}
    labelled = [replace(p, id=label[p.id], opponents=frozenset(label[o] for o in p.opponents)) for p in players]
    try:
        pair_round(labelled)
    except NoPairingError as exc:
        return str(exc)
    return "no rematch-free pairing was found"  # not reached: the same search over the same players


def swiss_players(division: Division) -> list[SwissPlayer]:
    """Every entry's state before the next round, from the counted results."""
    entries = list(division.entries.exclude(seed__isnull=True))
    score = {e.pk: 0 for e in entries}
    met: dict[int, set[int]] = {e.pk: set() for e in entries}
    byes: set[int] = set()
    for p in division.pairings.all():
        if p.entry_b_id is None:
            byes.add(p.entry_a_id)
        else:
            met[p.entry_a_id].add(p.entry_b_id)
            met[p.entry_b_id].add(p.entry_a_id)
        if counts(p) and p.winner_id is not None:
            score[p.winner_id] += 1
    return [
        SwissPlayer(
            id=e.pk,
            rank=e.seed or 0,
            score=score[e.pk],
            opponents=frozenset(met[e.pk]),
            had_bye=e.pk in byes,
            withdrawn=e.status == Entry.Status.WITHDRAWN,
        )
        for e in entries
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
    pairings = list(division.pairings.select_related("match", "round").defer("match__state").order_by("id"))
    for pairing in pairings:
        _take_result(pairing, report)
    if division.is_elimination:
        _advance_brackets(division, pairings, report)
    _start_matches(division, pairings, report)
    if division.format == Division.Format.SWISS and division.auto_pair and division.status == Division.Status.RUNNING:
        report.paired = _auto_pair(division, pairings)
    if report.paired:
        after = _sync(division)  # the new round's matches; the report keeps the results that led to it
        merged = (report.results + after.results, report.filled + after.filled, report.matches + after.matches)
        return SyncReport(*merged, paired=report.paired, finished=after.finished)
    report.finished = _finish_if_done(division, pairings)
    if report.changed:
        changed = {"results_version": division.results_version + 1}
        if report.results or report.finished:
            # The standings stored do not show this yet (a recompute that ran before this sync may have marked them
            # current): pending until the follow-up recomputes them.
            changed["standings_status"] = division.standings_status = Division.Work.PENDING
        Division.objects.filter(pk=division.pk).update(**changed)
        division.results_version += 1
    return report


def _take_result(pairing: Pairing, report: SyncReport) -> None:
    """Copy a pairing's match outcome onto it (winner, score, status, confirmation)."""
    match = pairing.match
    if match is None or pairing.status in (Status.BYE, Status.EMPTY, Status.SKIPPED):
        return
    if match.status == Match.Status.VOID:
        _detach(pairing, "the match was voided: a new match is made")
        report.results.append(pairing.key)
        return
    new = _outcome(pairing, match)
    old = (pairing.status, pairing.winner_id, pairing.score_a, pairing.score_b)
    if new == old:
        return
    status, winner, score_a, score_b = new
    if status == Status.FINISHED and pairing.status != Status.FINISHED:
        pairing.confirmation, pairing.confirmation_side = _confirmation_needed(pairing, match)
    elif status != Status.FINISHED:
        pairing.confirmation, pairing.confirmation_side = Pairing.Confirmation.NOT_NEEDED, None
    elif winner != pairing.winner_id or (score_a, score_b) != (pairing.score_a, pairing.score_b):
        pairing.confirmation = Pairing.Confirmation.CONFIRMED  # a director's correction of a final result
    pairing.status, pairing.winner_id, pairing.score_a, pairing.score_b = new
    pairing.save(
        update_fields=["updated_at", "status", "winner", "score_a", "score_b", "confirmation", "confirmation_side"]
    )
    report.results.append(pairing.key)


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
    pairing.match = None
    pairing.status, pairing.winner_id, pairing.score_a, pairing.score_b = Status.WAITING, None, 0, 0
    pairing.confirmation, pairing.confirmation_side = Pairing.Confirmation.NOT_NEEDED, None
    pairing.decision_reason = why
    pairing.save(
        update_fields=[
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
    )


def resolve_division(division: Division, pairings: list[Pairing] | None = None) -> dict[str, brackets.NodeState]:
    """The bracket resolved from the division's seeds, places and counted results."""
    if pairings is None:
        pairings = list(division.pairings.all())
    entries = list(division.entries.exclude(seed__isnull=True, place=""))
    seeds = {e.seed: e.pk for e in entries if e.seed is not None and not e.late}
    places = {e.place: e.pk for e in entries if e.place}
    plan = plan_of(division)
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


def _advance_brackets(division: Division, pairings: list[Pairing], report: SyncReport) -> None:
    states = resolve_division(division, pairings)
    changed = [pairing for pairing in pairings if _apply_state(pairing, states[pairing.key], report)]
    fields = ["updated_at", "entry_a", "entry_b", "status", "winner", "match"]
    Pairing.objects.bulk_update(changed, fields, batch_size=1000)  # one UPDATE for a whole draw
    _mark_eliminated(division, plan_of(division), states)


_SETTLED = {"bye": Status.BYE, "empty": Status.EMPTY, "skipped": Status.SKIPPED}


def _apply_state(pairing: Pairing, state: brackets.NodeState, report: SyncReport) -> bool:
    """Put the resolved players on a slot (in memory; True when it changed and must be saved); a slot whose players
    changed loses its match (see _release_match).

    A settled slot (bye, empty, skipped) takes its status from the bracket; a slot with a match keeps the status
    its match gives it; any other slot is ready when both players are known and waiting otherwise."""
    before = (pairing.entry_a_id, pairing.entry_b_id, pairing.status, pairing.winner_id, pairing.match_id)
    if (state.a, state.b) != (pairing.entry_a_id, pairing.entry_b_id):
        if pairing.match is not None:
            _release_match(pairing)
        pairing.entry_a_id, pairing.entry_b_id = state.a, state.b
    if state.status in _SETTLED:
        pairing.status, pairing.winner_id = _SETTLED[state.status], state.winner
    elif pairing.match is None:
        both = state.a is not None and state.b is not None
        pairing.status, pairing.winner_id = (Status.READY if both else Status.WAITING), None
    after = (pairing.entry_a_id, pairing.entry_b_id, pairing.status, pairing.winner_id, pairing.match_id)
    if after == before:
        return False
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
    wanted = {e for p in todo for e in (p.entry_a_id, p.entry_b_id)}
    entries = Entry.objects.select_related("player").in_bulk(wanted)
    matches = games.start_matches(
        [
            games.new_match(
                player1=entries[p.entry_a_id].player,
                player2=entries[p.entry_b_id].player,
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
    Pairing.objects.bulk_update(todo, ["match", "updated_at"], batch_size=1000)
    for pairing in todo:
        a, b = entries[pairing.entry_a_id], entries[pairing.entry_b_id]
        if Entry.Status.WITHDRAWN in (a.status, b.status):
            _forfeit_withdrawn(pairing, a, report)


def _forfeit_withdrawn(pairing: Pairing, a: Entry, report: SyncReport) -> None:
    """A withdrawn player's new match is forfeited to the opponent at once."""
    assert pairing.match is not None
    loser = 0 if a.status == Entry.Status.WITHDRAWN else 1
    recorded = games.forfeit_match(pairing.match.pk, actor=SYSTEM, loser_side=loser, reason="withdrawal: withdrew")
    pairing.match = recorded.match
    pairing.decision, pairing.decision_reason = Pairing.Decision.FORFEIT_WITHDRAWAL, "the player had withdrawn"
    pairing.save(update_fields=["updated_at", "decision", "decision_reason"])
    _take_result(pairing, report)


def _auto_pair(division: Division, pairings: list[Pairing]) -> int | None:
    done = max((p.round.number for p in pairings), default=0)
    if done >= division.rounds_planned or not all(counts(p) for p in pairings):
        return None
    try:
        return _pair_swiss(division).number
    except ApplicationError:
        return None  # shown to the director when he pairs by hand


def _finish_if_done(division: Division, pairings: list[Pairing]) -> bool:
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
