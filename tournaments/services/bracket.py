"""Drawing a knockout (:func:`draw_brackets`: every slot of every bracket, from the plan) and moving it forward:
the bracket resolved from the counted results (a pure function of them, in tournaments/pairing/brackets/,
through :func:`tournaments.core.resolve_division`) is put on the slots, whose players, status and match change
when it says so; a slot whose players changed loses its match; the players out
of every bracket are marked eliminated.

Called with the division locked: the draw by the start (tournaments/services/start.py) and by the knockout of a
Swiss into a knockout (tournaments/services/knockout.py), the rest by the division's sync
(tournaments/services/sync.py).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from django.utils import timezone

import games.services
from common.actor import SYSTEM
from common.bulk import copy_instances, update_rows
from games.models import Match
from tournaments.core import (
    SLOT_COLUMNS,
    Slot,
    knockout_slot,
    plan_of,
    resolve_division,
    round_kind,
    round_length,
    round_words,
    shape_of,
)
from tournaments.models import Division, Entry, Pairing, Round
from tournaments.pairing import brackets

Status = Pairing.Status


def draw_brackets(
    division: Division,
    plan: brackets.Plan,
    *,
    seed_words: dict[int, str] | None = None,
    reasons: dict[str, str] | None = None,
    winner_words: dict[str, str] | None = None,
) -> None:
    """Write every round and every slot of the plan: one INSERT for the rounds, one COPY for the slots.
    ``seed_words``: how to explain seed n on a slot (default "seed n"); ``reasons``: why a slot was made, by key;
    ``winner_words``: how to name the winner of a slot, by its key (default "winner of Main semi-final match 1":
    the slots' winners and losers are named with their rounds' names, :func:`tournaments.core.round_words`)."""
    seed_words, reasons, winner_words = seed_words or {}, reasons or {}, winner_words or {}
    last = {b: max(n.round for n in plan.nodes if n.bracket == b) for b in {n.bracket for n in plan.nodes}}
    rounds: dict[tuple[str, int], Round] = {}
    for node in plan.nodes:
        key = (node.bracket, node.round)
        if key not in rounds:
            grand_final = division.format == Division.Format.DOUBLE and node.bracket == brackets.MAIN
            final = node.round == last[node.bracket] or (grand_final and node.round > plan.main_rounds)
            semi_final = not grand_final and node.round == last[node.bracket] - 1
            length = round_length(division, node.bracket, node.round, final=final, semi_final=semi_final)
            rounds[key] = Round(division=division, bracket=node.bracket, number=node.round, length=length)
    Round.objects.bulk_create(rounds.values())

    shape, double = shape_of(plan), division.format == Division.Format.DOUBLE
    named = {
        key: round_words(rnd, division, kind=round_kind(shape, rnd.bracket, rnd.number, double=double))
        for key, rnd in rounds.items()
    }

    def why(source: brackets.Source, words: str) -> str:
        if isinstance(source, brackets.Winner) and source.key in winner_words:
            return winner_words[source.key]
        if isinstance(source, brackets.Winner | brackets.Loser):
            return _named_source(source, words, named)
        if isinstance(source, brackets.Drawn):
            return _ROUND.sub(lambda m: named.get((m[1], int(m[2])), m[0]), words)
        return seed_words.get(source.n, words) if isinstance(source, brackets.Seed) else words

    pairings = [
        Pairing(
            division=division,
            round=rounds[(node.bracket, node.round)],
            key=node.key,
            board=node.index + 1,
            source_a=why(node.a, node.why_a),
            source_b=why(node.b, node.why_b),
            reason=reasons.get(node.key, ""),
            conditional=node.conditional,
            length=rounds[(node.bracket, node.round)].length,
        )
        for node in plan.nodes
    ]
    copy_instances(Pairing, pairings)


#: A round of a bracket in the plan's words ("consolation round 2"), named on a slot as every page names it.
_ROUND = re.compile(r"\b(main|consolation|last-chance) round (\d+)")


def _named_source(source: brackets.Winner | brackets.Loser, words: str, named: dict[tuple[str, int], str]) -> str:
    """The plan's words for a slot's winner or loser ("winner of main round 2 match 1 ...") with its round named as
    every page names it ("winner of Main semi-final match 1 ...")."""
    bracket, number, index = source.key.rsplit("-", 2)
    verb = "winner" if isinstance(source, brackets.Winner) else "loser"
    plain = f"{verb} of {bracket} round {number} match {int(index) + 1}"
    if not words.startswith(plain) or (bracket, int(number)) not in named:
        return words
    return f"{verb} of {named[(bracket, int(number))]} match {int(index) + 1}{words[len(plain) :]}"


def advance_brackets(division: Division, live: list[Pairing]) -> tuple[list[Pairing], list[str]]:
    """Resolve the bracket and put the resolved players on the slots that change. The slots not loaded as models
    are read as values; the few of them the resolution changes (a bye or a played slot an upstream correction or a
    swap of seeds reaches) are loaded then. Returns every slot loaded as a model, in id order, and the keys of the
    slots that changed."""
    others: list[Pairing] = []
    if division.is_swiss_knockout:  # its Swiss boards are not slots of the knockout
        others = [pairing for pairing in live if not knockout_slot(pairing.key)]
        live = [pairing for pairing in live if knockout_slot(pairing.key)]
    loaded = {pairing.pk for pairing in live}
    rows = division.pairings.values_list(*SLOT_COLUMNS).order_by()
    if division.is_swiss_knockout:
        rows = rows.filter(round__bracket=Round.Bracket.MAIN)
    slots = [Slot(*row) for row in rows if row[0] not in loaded]
    plan = plan_of(division)
    states = resolve_division(division, [*live, *slots], plan)
    moved = [slot.pk for slot in refilled(slots, states)]
    more = list(division.pairings.filter(pk__in=moved).select_related("match").defer("match__state")) if moved else []
    touched = sorted([*live, *more], key=lambda pairing: pairing.pk)
    changed = [pairing for pairing in touched if _apply_state(pairing, states[pairing.key])]
    update_rows(Pairing, changed, ["updated_at", "entry_a", "entry_b", "status", "winner", "match"])
    _mark_eliminated(division, plan, states)
    return sorted([*others, *touched], key=lambda pairing: pairing.pk), [pairing.key for pairing in changed]


def refilled(
    slots: Sequence[Any],
    states: Mapping[str, brackets.NodeState],
    before: Mapping[str, brackets.NodeState] | None = None,
) -> list[Any]:
    """The slots a resolution refills: what :func:`advance_brackets` would write on each (players, status,
    winner, match) differs from what it holds, or, given ``before``, from what it would write after the resolution
    ``before``. The one answer to "which later matches does this result change": the sync refills these, and the
    correction guard asks :func:`dependent_keys`, which asks this."""
    if before is None:
        return [slot for slot in slots if _slot_after(slot, states[slot.key]) != _slot_now(slot)]
    return [slot for slot in slots if _slot_after(slot, states[slot.key]) != _slot_after(slot, before[slot.key])]


def dependent_keys(division: Division, key: str) -> list[str]:
    """The keys of the slots that depend on the result of slot ``key``, in id order: those the sync would refill
    were that result withdrawn (:func:`refilled`). A corrected winner refills these or fewer: in a bracket drawn
    round by round, a later draw may keep some pairs. Three queries and two resolutions of the bracket."""
    rows = division.pairings.order_by("id").values_list(*SLOT_COLUMNS)
    slots = [slot for slot in (Slot(*row) for row in rows) if not division.is_swiss_knockout or knockout_slot(slot.key)]
    withdrawn = [replace(slot, status=Status.READY, winner_id=None) if slot.key == key else slot for slot in slots]
    plan = plan_of(division)
    now, without = resolve_division(division, slots, plan), resolve_division(division, withdrawn, plan)
    return [slot.key for slot in refilled(slots, without, now) if slot.key != key]


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
    elif state.status == brackets.Status.FINISHED and match_id is None:
        status, winner = Status.FINISHED, None  # a double forfeit: both players withdrew, no match was made
    elif match_id is None:
        both = state.a is not None and state.b is not None
        status, winner = (Status.READY if both else Status.WAITING), None
    return (state.a, state.b, status, winner, match_id)


def _apply_state(pairing: Pairing, state: brackets.NodeState) -> bool:
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
    return True


def _release_match(pairing: Pairing) -> None:
    """The slot's players changed (an upstream correction): void its match, keeping its log.

    Corrections are refused while a dependent match has started, unless the director overrides; with the
    override, the dependent match (even a finished one) is voided here and the slot is played again."""
    match = pairing.match
    assert match is not None
    why = "its players changed (a corrected result or a swap of seeds)"
    if match.status in (Match.Status.FINISHED, Match.Status.FORFEITED):
        games.services.reopen_match(match.pk, actor=SYSTEM, reason=why, override=True)
    if match.status != Match.Status.VOID:
        games.services.void_match(match.pk, actor=SYSTEM, reason=why)
    pairing.match = None
    pairing.winner_id, pairing.score_a, pairing.score_b = None, 0, 0
    pairing.confirmation, pairing.confirmation_side = Pairing.Confirmation.NOT_NEEDED, None
    pairing.decision, pairing.decision_reason = Pairing.Decision.NONE, why
    fields = ["updated_at", "match", "winner", "score_a", "score_b", "confirmation", "confirmation_side"]
    pairing.save(update_fields=[*fields, "decision", "decision_reason"])


def _mark_eliminated(division: Division, plan: brackets.Plan, states: dict[str, brackets.NodeState]) -> None:
    still_to_play = (brackets.Status.WAITING, brackets.Status.READY)
    alive = {p for s in states.values() if s.status in still_to_play for p in (s.a, s.b) if p is not None}
    every = (brackets.MAIN, brackets.CONSOLATION, brackets.LAST_CHANCE)
    champions = {brackets.champion(plan, states, bracket) for bracket in every}
    alive |= {c for c in champions if c is not None}
    if isinstance(states, brackets.Resolution):  # bound for a feeder's round not drawn yet (its ``coming``): in play
        alive |= {player for coming in states.coming.values() for player in coming}
    playing = division.entries.exclude(status=Entry.Status.WITHDRAWN).exclude(seed__isnull=True, place="")
    playing.filter(pk__in=alive, status=Entry.Status.ELIMINATED).update(status=Entry.Status.CHECKED_IN)
    playing.exclude(pk__in=alive).exclude(status=Entry.Status.ELIMINATED).update(status=Entry.Status.ELIMINATED)
