"""Round-robin schedules by the circle method.

With ``m`` (even) places, place 0 is fixed and places ``1..m-1`` rotate by one step each round; in each round
place ``i`` meets place ``m-1-i``. An odd field gets a phantom (``None``) in the fixed place, so every real entrant
rotates, meets the phantom exactly once (its bye) and is first exactly as often as second. In an even field the
fixed entrant alternates sides round by round, and every rotating entrant is first at most once more or less
than it is second, the best any single cycle of ``n - 1`` games can do.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Hashable, Iterable, Sequence
from typing import TypeVar

T = TypeVar("T")
K = TypeVar("K")


def round_robin(entrants: Sequence[T], *, double: bool = False) -> list[list[tuple[T, T | None]]]:
    """Rounds of pairings in which every pair of entrants meets exactly once (twice when ``double``).

    Entrants must be distinct. A pairing ``(a, None)`` is a bye for ``a``. An even field of ``n`` takes ``n - 1``
    rounds, an odd field ``n`` rounds with one bye per round. With ``double=True`` the first cycle is followed by
    the same rounds again with the sides swapped (byes stay byes).
    """
    places: list[T | None] = list(entrants)
    if not places:
        return []
    if len(places) % 2:
        places.insert(0, None)  # the phantom sits in the fixed place, so it meets every entrant once
    m = len(places)
    fixed, rotating = places[0], places[1:]

    first_cycle: list[list[tuple[T, T | None]]] = []
    for r in range(m - 1):
        order = [fixed, *rotating[r:], *rotating[:r]]
        pairings: list[tuple[T, T | None]] = []
        for i in range(m // 2):
            a, b = order[i], order[m - 1 - i]
            if i == 0 and r % 2:
                a, b = b, a  # the fixed entrant alternates sides
            pairings.append(_pairing(a, b))
        first_cycle.append(pairings)

    if not double:
        return first_cycle
    second_cycle: list[list[tuple[T, T | None]]] = [
        [(a, b) if b is None else (b, a) for a, b in rnd] for rnd in first_cycle
    ]
    return first_cycle + second_cycle


def due_pairings(
    pairings: Iterable[tuple[K, Hashable, Hashable]], ahead: int, *, of: Collection[Hashable] | None = None
) -> set[K]:
    """The pairings whose matches are due: ``pairings`` are the pairings not yet played, as (key, player a, player
    b), in the order they are to be played (round, then board); a pairing is due when it is among the first
    ``ahead`` of them of either of its players, so that every player has his next ``ahead`` matches at hand.

    ``of``: only the pairings due for these players (among their first ``ahead``), which need only their own
    pairings: what a result changes, since a player's next pairings move up only when one of his is played."""
    if ahead < 1:
        raise ValueError(f"ahead must be at least 1, not {ahead}")
    seen: Counter[Hashable] = Counter()
    due: set[K] = set()
    for key, a, b in pairings:
        if (seen[a] < ahead and (of is None or a in of)) or (seen[b] < ahead and (of is None or b in of)):
            due.add(key)
        seen[a] += 1
        seen[b] += 1
    return due


def _pairing(a: T | None, b: T | None) -> tuple[T, T | None]:
    """Order a pair so a bye always reads ``(entrant, None)``."""
    if a is None:
        assert b is not None, "two phantoms cannot meet"
        return (b, None)
    return (a, b)
