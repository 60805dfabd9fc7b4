"""Read helpers over a match's log that the API needs and the selectors do not (yet) offer.

:func:`answer_state`: the match as it stood right after a given log row, to answer a retried request with exactly
the body of its first answer even when the match has moved on since.

"In force" is ``games.selectors.effective_actions``, read over the log as it stood after that row.
"""

from __future__ import annotations

import copy

from engine.match import MatchState
from games.engine_bridge import new_state
from games.models import Action, Match
from games.selectors import effective_actions

Kind = Action.Kind


def answer_state(match: Match, row: Action, current: MatchState) -> tuple[Match, MatchState]:
    """The match and engine state right after ``row``: the cached ones when ``row`` is still the last action,
    otherwise replayed from the log up to it (only a retry of an old request needs that)."""
    if match.seq == row.seq:
        return match, current
    rows = effective_actions(match, up_to_seq=row.seq)
    state = new_state(match)
    closing: str | None = None
    for kept, action in rows:
        if action is None:
            closing = kept.kind
            continue
        state = state.apply(action)
        closing = kept.kind if state.is_over else None
    then = copy.copy(match)
    then.seq = row.seq
    then.score1, then.score2 = state.score
    then.status = _status(closing, state, bool(rows))
    return then, state


def _status(closing: str | None, state: MatchState, started: bool) -> str:
    if closing == Kind.VOID:
        return Match.Status.VOID
    if closing == Kind.FINISH or (state.is_over and closing != Kind.FORFEIT):
        return Match.Status.FINISHED
    if state.is_over:
        return Match.Status.FORFEITED
    return Match.Status.IN_PROGRESS if started else Match.Status.SCHEDULED
