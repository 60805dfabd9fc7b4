"""Swiss pairing: score groups, no rematches, at most one bye per player. Pure Python (no Django).

The algorithm, for one round:

1. Withdrawn players are skipped.
2. If the field is odd, the bye goes to the lowest-ranked player without a previous bye: lowest score first, then
   the worst seed (highest ``rank``). If the rest of the field then cannot be paired without a rematch, the next
   such player gets the bye instead, and the reason says so. A bye counts as a match win (``score`` + 1, set by the
   caller).
3. The others are sorted by score (descending) then seed (ascending) and paired top-down. The highest unpaired
   player of a score group prefers the player half a group below him (1v5, 2v6, 3v7, 4v8 in a group of 8), then
   the rest of the bottom half, then the top half; when his group has nobody left he can meet, the best-fitting
   player of the next group (highest first) is pulled up. A depth-first search with backtracking undoes choices
   that lead to a rematch, so the first pairing found is the one closest to that ideal order.
4. The search is bounded: it prunes as soon as some unpaired player has nobody left he has not met, and it gives up
   after ``max_steps`` choices. It never returns a rematch: when no rematch-free pairing exists (or none is found
   within the bound) it raises :class:`NoPairingError`, whose message names the players and says why.

Late entry is the caller's business (a late entrant is a player with no opponents and, normally, score 0);
:func:`late_entry_allowed` states the rule: entry is open while at most half the rounds have been played.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TypeAlias

PlayerId: TypeAlias = int | str

DEFAULT_MAX_STEPS = 100_000


@dataclass(frozen=True)
class SwissPlayer:
    """A player's state before a round. ``rank`` is the initial seed (lower = stronger); ``score`` counts match
    wins, a bye included."""

    id: PlayerId
    rank: int
    score: int = 0
    opponents: frozenset[PlayerId] = frozenset()
    had_bye: bool = False
    withdrawn: bool = False


@dataclass(frozen=True)
class Pairing:
    """One board: ``a`` meets ``b``, or ``a`` has the bye when ``b`` is None. ``reason`` explains the choice."""

    a: PlayerId
    b: PlayerId | None
    reason: str

    @property
    def is_bye(self) -> bool:
        return self.b is None


@dataclass(frozen=True)
class SwissResult:
    """The pairings of a round, strongest board first, the bye (if any) last."""

    pairings: tuple[Pairing, ...]

    @property
    def bye(self) -> PlayerId | None:
        return next((p.a for p in self.pairings if p.b is None), None)


class NoPairingError(ValueError):
    """No rematch-free pairing exists (or none was found within the search bound). The message says who and why."""


def late_entry_allowed(rounds_played: int, total_rounds: int) -> bool:
    """A player may enter late while at most half the rounds have been played (3 of 6, 2 of 5)."""
    return 2 * rounds_played <= total_rounds


def _can_meet(x: SwissPlayer, y: SwissPlayer) -> bool:
    return x.id != y.id and y.id not in x.opponents and x.id not in y.opponents


def _names(players: Iterable[SwissPlayer]) -> str:
    return ", ".join(str(p.id) for p in players)


class _Search:
    """Depth-first search over top-down pairings with forward checking and a step budget."""

    def __init__(self, max_steps: int) -> None:
        self.steps_left = max_steps
        self.exhausted = False

    def pair(self, players: Sequence[SwissPlayer]) -> list[Pairing] | None:
        """Pair ``players`` (sorted by score desc, rank asc) without rematches, or None."""
        ids = {p.id for p in players}
        self.met: dict[PlayerId, set[PlayerId]] = {p.id: set(p.opponents & ids) for p in players}
        for p in players:  # opponents lists may be one-sided; meeting is symmetric
            for q in self.met[p.id]:
                self.met[q].add(p.id)
        # met_left[x]: how many of the players still unpaired x has already met. x is stuck when that is all of them.
        self.met_left = {pid: len(m) for pid, m in self.met.items()}
        self.most_met = max(self.met_left.values(), default=0)
        if any(self.met_left[pid] >= len(players) - 1 for pid in ids):
            return None
        return self._pair(list(players))

    def _pair(self, remaining: list[SwissPlayer]) -> list[Pairing] | None:
        if not remaining:
            return []
        top = remaining[0]
        for partner in _candidates(remaining):
            if partner.id in self.met[top.id]:
                continue
            if self.steps_left <= 0:
                self.exhausted = True
                return None
            self.steps_left -= 1
            rest = [p for p in remaining if p is not top and p is not partner]
            touched = [*self.met[top.id], *self.met[partner.id]]
            for pid in touched:
                self.met_left[pid] -= 1
            # Forward check: everyone left must still have somebody left to meet (only possible near the end).
            dead_end = len(rest) - 1 <= self.most_met and any(self.met_left[p.id] >= len(rest) - 1 for p in rest)
            found = None if dead_end else self._pair(rest)
            for pid in touched:
                self.met_left[pid] += 1
            if found is not None:
                return [_board(top, partner), *found]
            if self.exhausted:
                return None
        return None


def _candidates(remaining: list[SwissPlayer]) -> list[SwissPlayer]:
    """Partners for ``remaining[0]`` in order of preference: own score group from half-way down, then the top half,
    then the players below (pull-ups), highest first. ``remaining`` is sorted by score descending."""
    score = remaining[0].score
    size = next((i for i, p in enumerate(remaining) if p.score != score), len(remaining))
    half = max(size // 2, 1)
    return remaining[half:size] + remaining[half - 1 : 0 : -1] + remaining[size:]


def _board(a: SwissPlayer, b: SwissPlayer) -> Pairing:
    if a.score == b.score:
        return Pairing(a.id, b.id, f"score group {a.score}")
    return Pairing(a.id, b.id, f"pulled up from score group {b.score} to score group {a.score}")


def pair_round(players: Iterable[SwissPlayer], *, max_steps: int = DEFAULT_MAX_STEPS) -> SwissResult:
    """Pair one Swiss round. Raises :class:`NoPairingError` rather than ever pairing a rematch."""
    active = sorted((p for p in players if not p.withdrawn), key=lambda p: (-p.score, p.rank))
    ids = [p.id for p in active]
    if len(set(ids)) != len(ids):
        raise ValueError("duplicate player ids")
    search = _Search(max_steps)
    if len(active) % 2 == 0:
        pairings = search.pair(active)
        if pairings is None:
            raise NoPairingError(_explain(active, search))
        return SwissResult(tuple(pairings))

    bye_candidates = sorted((p for p in active if not p.had_bye), key=lambda p: (p.score, -p.rank))
    if not bye_candidates:
        raise NoPairingError(f"odd field and every active player has already had a bye: {_names(active)}")
    for n, bye in enumerate(bye_candidates):
        pairings = search.pair([p for p in active if p is not bye])
        if pairings is not None:
            if n == 0:
                reason = "bye: lowest-ranked player without a bye"
            else:
                reason = (
                    f"bye: lowest-ranked player without a bye whose absence leaves a rematch-free pairing "
                    f"(skipped {_names(bye_candidates[:n])})"
                )
            return SwissResult((*pairings, Pairing(bye.id, None, reason)))
        if search.exhausted:
            break
    raise NoPairingError(_explain(active, search, bye_candidates=True))


def _explain(active: Sequence[SwissPlayer], search: _Search, *, bye_candidates: bool = False) -> str:
    stuck = sorted((p for p in active if not any(_can_meet(p, q) for q in active)), key=lambda p: p.rank)
    odd = " (whoever gets the bye)" if bye_candidates else ""
    if stuck:
        return (
            f"no rematch-free pairing{odd}: {_names(stuck)} "
            f"{'has' if len(stuck) == 1 else 'have'} already played every other active player"
        )
    options = sorted(active, key=lambda p: sum(_can_meet(p, q) for q in active))[:4]
    detail = "; ".join(f"{p.id} has {sum(_can_meet(p, q) for q in active)} possible opponents left" for p in options)
    if search.exhausted:
        return f"no rematch-free pairing found within the search limit{odd}; most constrained players: {detail}"
    return f"no rematch-free pairing exists{odd}; most constrained players: {detail}"
