"""Single-elimination draws for any field size, with byes for the top seeds.

The bracket size is the smallest power of two that holds the field (at least 2, so a lone entrant still gets a
one-slot draw). Seeds are placed by the classic recursive rule: start from ``[1]`` and repeatedly replace every
seed ``s`` by the pair ``(s, m - s)`` where ``m`` is twice the current length plus one. For 8 this gives
``[1, 8, 4, 5, 2, 7, 3, 6]``: the round-1 pairs sum to ``size + 1``, seeds 1 and 2 sit in different halves,
seeds 1-4 in different quarters, and in general seeds ``1..2**k`` in different ``2**k``-ths of the bracket, so
if the better seed always wins, the last ``2**k`` standing are exactly seeds ``1..2**k``.

Seeds above the field size are absent, so the seed opposite them gets a bye: seed ``k`` has a bye exactly when
``k <= size - n``. Because ``size < 2 * n``, every bye goes to a real seed: no round-1 slot is empty, and two
byes never meet.
"""

from __future__ import annotations

from dataclasses import dataclass

SlotKey = tuple[int, int]


@dataclass(frozen=True)
class Slot:
    """One first-round match. ``round`` is 1-based, ``index`` 0-based from the top of the bracket.

    ``a`` is the better (lower-numbered) seed, ``b`` its opponent; ``b`` is None when ``a`` has a bye.
    """

    round: int
    index: int
    a: int | None
    b: int | None
    bye: bool


@dataclass(frozen=True)
class Bracket:
    """A complete single-elimination draw for ``entrants`` seeds."""

    entrants: int
    size: int
    slots: tuple[Slot, ...]

    @property
    def rounds(self) -> int:
        return rounds(self.size)

    @property
    def feeds(self) -> dict[SlotKey, tuple[SlotKey, SlotKey]]:
        return feeds(self.size)


def bracket_size(n: int) -> int:
    """Smallest power of two, at least 2, that holds ``n`` entrants."""
    if n < 1:
        raise ValueError(f"a draw needs at least one entrant, got {n}")
    size = 2
    while size < n:
        size *= 2
    return size


def _check_size(size: int) -> None:
    if size < 2 or size & (size - 1):
        raise ValueError(f"bracket size must be a power of two >= 2, got {size}")


def rounds(size: int) -> int:
    """Number of rounds in a bracket of ``size`` (log2 of it)."""
    _check_size(size)
    return size.bit_length() - 1


def placement_order(size: int) -> list[int]:
    """Seeds in bracket order from top to bottom; consecutive pairs meet in round 1."""
    _check_size(size)
    order = [1]
    while len(order) < size:
        m = 2 * len(order) + 1
        order = [x for s in order for x in (s, m - s)]
    return order


def draw_single_elimination(n: int) -> list[Slot]:
    """First-round slots for seeds ``1..n``; seeds ``1..size-n`` get byes."""
    order = placement_order(bracket_size(n))
    slots: list[Slot] = []
    for index in range(len(order) // 2):
        a, b = order[2 * index], order[2 * index + 1]
        has_bye = b > n  # a < b always, and size < 2n keeps a <= n
        slots.append(Slot(round=1, index=index, a=a, b=None if has_bye else b, bye=has_bye))
    return slots


def draw(n: int) -> Bracket:
    """The full draw for ``n`` seeds."""
    return Bracket(entrants=n, size=bracket_size(n), slots=tuple(draw_single_elimination(n)))


def feeds(size: int) -> dict[SlotKey, tuple[SlotKey, SlotKey]]:
    """For every match after round 1, the two earlier matches whose winners meet in it."""
    result: dict[SlotKey, tuple[SlotKey, SlotKey]] = {}
    for r in range(2, rounds(size) + 1):
        for index in range(size >> r):
            result[(r, index)] = ((r - 1, 2 * index), (r - 1, 2 * index + 1))
    return result
