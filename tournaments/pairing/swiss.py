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

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import chain
from typing import Any, TypeAlias

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


class _Ranks:
    """The players still unpaired, by rank in the sorted field: a Fenwick tree over 0/1 flags, so that "the k-th
    player still unpaired" and removing or restoring one cost O(log n) instead of a copy of the field."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.tree = [0] * (n + 1)
        for i in range(1, n + 1):
            self.tree[i] += 1
            parent = i + (i & -i)
            if parent <= n:
                self.tree[parent] += self.tree[i]
        self.top_bit = 1 << n.bit_length()

    def add(self, index: int, delta: int) -> None:
        i = index + 1
        while i <= self.n:
            self.tree[i] += delta
            i += i & -i

    def kth(self, k: int) -> int:
        """The field index of the ``k``-th (0-based) player still unpaired."""
        position, remaining, step = 0, k + 1, self.top_bit
        while step:
            nxt = position + step
            if nxt <= self.n and self.tree[nxt] < remaining:
                position, remaining = nxt, remaining - self.tree[nxt]
            step >>= 1
        return position


class _Search:
    """Depth-first search over top-down pairings with forward checking and a step budget.

    The search keeps an explicit stack (no recursion, so a field of any size pairs) of boards chosen so far; each
    frame holds the top unpaired player, the iterator over his remaining candidates (:func:`_candidate_ranks`),
    the partner chosen and the players whose "met" counts that choice touched, so backtracking restores exactly
    what the choice changed.
    """

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
        if not players:
            return []
        self.players = players
        self.ranks = _Ranks(len(players))
        self.alive = len(players)
        self.group_sizes: dict[int, int] = {}
        for p in players:
            self.group_sizes[p.score] = self.group_sizes.get(p.score, 0) + 1
        return self._search()

    def _take(self, index: int, delta: int) -> None:
        """Remove (-1) or restore (+1) a player from the unpaired field."""
        self.ranks.add(index, delta)
        self.group_sizes[self.players[index].score] += delta
        self.alive += delta

    def _frame(self) -> list[Any]:
        top = self.ranks.kth(0)
        size = self.group_sizes[self.players[top].score]
        return [top, _candidate_ranks(size, self.alive), None, None]

    def _choose(self, top: int, partner: int) -> list[PlayerId] | None:
        """Pair ``top`` with ``partner`` if the rest can still be completed (forward check); the touched ids."""
        a, b = self.players[top], self.players[partner]
        self._take(top, -1)
        self._take(partner, -1)
        touched = [*self.met[a.id], *self.met[b.id]]
        for pid in touched:
            self.met_left[pid] -= 1
        rest = self.alive
        # Forward check: everyone left must still have somebody left to meet (only possible near the end).
        if rest - 1 <= self.most_met and any(
            self.met_left[self.players[self.ranks.kth(j)].id] >= rest - 1 for j in range(rest)
        ):
            self._undo(top, partner, touched)
            return None
        return touched

    def _undo(self, top: int, partner: int, touched: list[PlayerId]) -> None:
        self._take(top, 1)
        self._take(partner, 1)
        for pid in touched:
            self.met_left[pid] += 1

    def _search(self) -> list[Pairing] | None:
        stack: list[list[Any]] = []
        frame = self._frame()
        while True:
            top, candidates, partner, touched = frame
            if partner is not None:  # everything below (top, partner) failed: undo it, try the next candidate
                self._undo(top, partner, touched)
                frame[2] = frame[3] = None
            descended = False
            for k in candidates:
                partner = self.ranks.kth(k)
                if self.players[partner].id in self.met[self.players[top].id]:
                    continue
                if self.steps_left <= 0:
                    self.exhausted = True
                    return None
                self.steps_left -= 1
                touched = self._choose(top, partner)
                if touched is None:
                    continue
                frame[2], frame[3] = partner, touched
                stack.append(frame)
                if self.alive == 0:
                    return [_board(self.players[f[0]], self.players[f[2]]) for f in stack]
                frame, descended = self._frame(), True
                break
            if not descended:
                if not stack:
                    return None
                frame = stack.pop()


def _candidate_ranks(size: int, alive: int) -> Iterator[int]:
    """Ranks (among the unpaired, the top one being 0) of the top player's partners in order of preference: his
    own score group from half-way down, then the top half upwards, then the players below (pull-ups)."""
    half = max(size // 2, 1)
    return chain(range(half, size), range(half - 1, 0, -1), range(size, alive))


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
