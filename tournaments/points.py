"""Master points: what a player earns in an event for the matches he won and the place he took (pure Python, no
database).

The system is the United States Backgammon Federation's master points (2019):

* **Match-win points**: for each match won, ``event weight x division weight x sqrt(match length) / 3``. A bye or a
  forfeit is not a match won over the board and earns none (the caller leaves them out).
* **Placement points**: ``event weight x division weight x 0.6 x log2(players) x rank factor``, with ``players``
  the division's field and the rank factor 1.0 for first, 0.7 for second and ``1 / (R - 1)`` for rank ``R >= 3``.
* **Ties**: N players who share a place (the two semi-final losers share 3-4) split the factors of the N ranks they
  span: each gets their mean.
* **Places paid**: only the top four places earn placement points unless the division names more; a rank past them
  has a factor of 0, so players sharing 3-6 with four places paid each get ``(f3 + f4 + 0 + 0) / 4``.
* **Weights**: 1 unless the event or the division sets one (the USBGF uses 1.0 for an open division, 0.7 for an
  intermediate one, 0.5 for novices; less than 1 for a club night's event).

The total is the sum of the two parts. Places come from the standings, as the payouts read them
(tournaments/selectors/common.py): this module only does the arithmetic.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

__all__ = [
    "DEFAULT_PLACES_PAID",
    "USBGF",
    "Earned",
    "match_win_points",
    "placement_points",
    "rank_factor",
    "shared_factor",
    "usbgf_points",
]

USBGF = "usbgf"
#: Placement points go to this many places unless the division names more.
DEFAULT_PLACES_PAID = 4


def rank_factor(rank: int, places_paid: int = DEFAULT_PLACES_PAID) -> float:
    """The USBGF rank factor: 1.0 for first, 0.7 for second, ``1 / (rank - 1)`` from third on; 0 past the places
    paid.

    >>> [round(rank_factor(r), 4) for r in (1, 2, 3, 4, 5)]
    [1.0, 0.7, 0.5, 0.3333, 0.0]
    """
    if rank < 1:
        raise ValueError(f"a rank is 1 or more, not {rank}")
    if rank > places_paid:
        return 0.0
    if rank == 1:
        return 1.0
    if rank == 2:
        return 0.7
    return 1.0 / (rank - 1)


def shared_factor(first: int, last: int, places_paid: int = DEFAULT_PLACES_PAID) -> float:
    """The factor of each of the players sharing the places ``first`` to ``last``: the mean of their ranks' factors.

    >>> round(shared_factor(3, 4), 6)  # two semi-final losers: (1/2 + 1/3) / 2
    0.416667
    """
    if last < first:
        raise ValueError(f"a shared place runs from a place to a later one, not {first}-{last}")
    return sum(rank_factor(r, places_paid) for r in range(first, last + 1)) / (last - first + 1)


def match_win_points(length: int, *, event_weight: float = 1.0, division_weight: float = 1.0) -> float:
    """The points of one match won over the board, to ``length`` points.

    >>> round(match_win_points(9), 6)  # sqrt(9) / 3
    1.0
    """
    if length < 1:
        raise ValueError(f"a match is played to 1 point or more, not {length}")
    return event_weight * division_weight * math.sqrt(length) / 3


def placement_points(
    first: int,
    last: int,
    players: int,
    *,
    places_paid: int = DEFAULT_PLACES_PAID,
    event_weight: float = 1.0,
    division_weight: float = 1.0,
) -> float:
    """The placement points of a player who took the places ``first`` to ``last`` (one place: ``first == last``)
    in a division of ``players``.

    >>> round(placement_points(1, 1, 8), 6)  # 0.6 x log2(8) x 1.0
    1.8
    """
    if players < 1:
        raise ValueError(f"a division with a place has at least 1 player, not {players}")
    return event_weight * division_weight * 0.6 * math.log2(players) * shared_factor(first, last, places_paid)


@dataclass(frozen=True)
class Earned:
    """What one player earned: the matches he won over the board, their points, his placement points (0 without a
    place) and the total."""

    match_wins: int
    match_win_points: float
    placement_points: float

    @property
    def total(self) -> float:
        return self.match_win_points + self.placement_points


def usbgf_points(
    won_lengths: Iterable[int],
    place: tuple[int, int] | None,
    players: int,
    *,
    places_paid: int = DEFAULT_PLACES_PAID,
    event_weight: float = 1.0,
    division_weight: float = 1.0,
) -> Earned:
    """A player's USBGF master points: ``won_lengths`` are the lengths of the matches he won over the board (no
    byes, no forfeits), ``place`` his place as ``(first, last)`` (None while he has none), ``players`` the field.

    >>> e = usbgf_points([9, 9, 9], (1, 1), 8)
    >>> (e.match_wins, round(e.match_win_points, 6), round(e.placement_points, 6), round(e.total, 6))
    (3, 3.0, 1.8, 4.8)
    """
    weights = event_weight * division_weight
    lengths = list(won_lengths)
    wins = sum(match_win_points(n, event_weight=weights) for n in lengths)
    placed = 0.0
    if place is not None:
        placed = placement_points(place[0], place[1], players, places_paid=places_paid, event_weight=weights)
    return Earned(len(lengths), wins, placed)
