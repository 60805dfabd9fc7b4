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

The total is the sum of the two parts. A club may count its season by BackGames.org's Universal Club Master Points
(:func:`universal_points`: a table by level and by field size or rounds; a place's figure or a small amount per
match won, whichever is higher; a bonus multiplier per event), or by its own table (:class:`ClubTable`:
points per match won, optionally times its length, per place, for showing up, and a multiplier per event). Places
come from the standings, as the payouts read them (tournaments/selectors/common.py): this module only does the
arithmetic.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

__all__ = [
    "BACKGAMES",
    "CLUB",
    "DEFAULT_PLACES_PAID",
    "USBGF",
    "ClubEarned",
    "ClubTable",
    "Earned",
    "UniversalEarned",
    "club_points",
    "match_win_points",
    "placement_points",
    "rank_factor",
    "shared_factor",
    "universal_band",
    "universal_place_points",
    "universal_points",
    "usbgf_points",
]

USBGF = "usbgf"
#: A club's own table (:class:`ClubTable`).
CLUB = "club"
#: BackGames.org's Universal Club Master Points (:func:`universal_points`).
BACKGAMES = "backgames"
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


# -- a club's own table --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ClubTable:
    """A club's own points table for a season: ``per_win`` points a match won over the board (times its length when
    ``times_length``), ``places`` points by place (place 1 first; players sharing places split the points of the
    places they span), ``showing_up`` points for taking part; an event's ``multiplier`` scales the whole."""

    per_win: float = 1.0
    times_length: bool = False
    places: tuple[float, ...] = ()
    showing_up: float = 0.0

    def place_points(self, first: int, last: int) -> float:
        """The points of a place shared by the players who took ``first`` to ``last``: the mean of theirs.

        >>> ClubTable(places=(10, 6, 4, 2)).place_points(3, 4)
        3.0
        """
        points = [self.places[n - 1] if n <= len(self.places) else 0.0 for n in range(first, last + 1)]
        return sum(points) / len(points)


@dataclass(frozen=True)
class ClubEarned:
    """What one player earned in one event by a club's table (before and after the event's multiplier)."""

    match_wins: int
    win_points: float
    place_points: float
    showing_up: float
    multiplier: float = 1.0

    @property
    def total(self) -> float:
        return (self.win_points + self.place_points + self.showing_up) * self.multiplier


def club_points(
    table: ClubTable, won_lengths: Iterable[int], place: tuple[int, int] | None, *, multiplier: float = 1.0
) -> ClubEarned:
    """A player's points in one event by the club's ``table``: he took part (so he showed up), won matches of
    ``won_lengths`` over the board and took ``place`` (None: none yet).

    >>> club_points(ClubTable(per_win=1, times_length=True, places=(10, 6), showing_up=2), [5, 7], (2, 2)).total
    20.0
    """
    lengths = list(won_lengths)
    wins = sum(table.per_win * (n if table.times_length else 1) for n in lengths)
    placed = 0.0 if place is None else table.place_points(*place)
    return ClubEarned(len(lengths), wins, placed, table.showing_up, multiplier)


# -- BackGames.org's Universal Club Master Points ---------------------------------------------------------------------


def universal_band(players: int, rounds: int) -> tuple[str, str | None]:
    """The table's rows of a field of ``players`` and of ``rounds`` rounds: the field-size band, and the rounds band
    (None under 3 rounds: the table has no row for them).

    >>> universal_band(12, 4), universal_band(65, 9), universal_band(8, 2)
    (('12-23', '4'), ('65+', '7+'), ('1-11', None))
    """
    bands = (("1-11", 11), ("12-23", 23), ("24-32", 32), ("33-64", 64))
    size = next((band for band, top in bands if players <= top), "65+")
    return size, None if rounds < 3 else str(rounds) if rounds < 7 else "7+"


_SINGLE = {1: "1", 2: "2", 3: "3", 4: "4"}
_SHARED = {(1, 1): "1", (1, 2): "1/2", (2, 2): "2", (2, 3): "2/3", (3, 3): "3", (3, 4): "3/4", (4, 4): "4"}


def universal_place_points(row: Mapping[str, float], first: int, last: int) -> float:
    """The figure of the places ``first`` to ``last`` in one row of the table: the row's own for 1st, 1/2, 2nd, 2/3,
    3rd, 3/4 and 4th, its 5-8 figure for any place from 5th to 8th (alone or shared within them); a share the row has
    no figure for (a three-way tie for 1st, 4-5) gets the mean of the single places it spans (0 past 8th).

    >>> row = {"1": 10, "1/2": 8, "2": 6, "2/3": 5, "3": 4, "3/4": 3.5, "4": 3, "5-8": 1}
    >>> universal_place_points(row, 3, 4), universal_place_points(row, 5, 8), universal_place_points(row, 1, 3)
    (3.5, 1.0, 6.666666666666667)
    """
    if last < first or first < 1:
        raise ValueError(f"a shared place runs from a place to a later one, not {first}-{last}")
    if (first, last) in _SHARED:
        return float(row[_SHARED[first, last]])
    if first >= 5 and last <= 8:
        return float(row["5-8"])
    singles = [
        float(row[_SINGLE[n]]) if n <= 4 else float(row["5-8"]) if n <= 8 else 0.0 for n in range(first, last + 1)
    ]
    return sum(singles) / len(singles)


@dataclass(frozen=True)
class UniversalEarned:
    """What one player earned in one event by the universal club table: the place's figure and the matches won's,
    the higher of which counts, times the event's bonus multiplier."""

    match_wins: int
    place_points: float
    win_points: float
    multiplier: float = 1.0

    @property
    def total(self) -> float:
        return max(self.place_points, self.win_points) * self.multiplier


def universal_points(
    level: Mapping[str, Any],
    match_wins: int,
    place: tuple[int, int] | None,
    *,
    players: int,
    rounds: int,
    basis: str = "players",
    multiplier: float = 1.0,
) -> UniversalEarned:
    """A player's points in one event by one level's column of the universal club table (``level``: its
    ``per_win`` and its ``players`` and ``rounds`` rows, tournaments/universal_club_table.py): the figure of his
    ``place`` in the row of the field's size (``basis`` "players"), of the rounds played ("rounds") or the higher of
    the two ("higher"), or ``per_win`` for each of his ``match_wins`` if that is more; times ``multiplier``.

    >>> level = {"per_win": 1, "players": {"1-11": {"1": 4, "2": 3}}, "rounds": {"3": {"1": 5, "2": 1}}}
    >>> universal_points(level, 2, (2, 2), players=8, rounds=3, basis="players").total  # 3 for 2nd > 2 x 1
    3.0
    >>> universal_points(level, 2, (2, 2), players=8, rounds=3, basis="rounds").total  # 1 for 2nd < 2 x 1
    2.0
    """
    if basis not in ("players", "rounds", "higher"):
        raise ValueError(f"the table is read by players, rounds or the higher of the two, not {basis!r}")
    if players < 1:
        raise ValueError(f"a division with a place has at least 1 player, not {players}")
    placed = 0.0
    if place is not None:
        size, length = universal_band(players, rounds)
        by_players = universal_place_points(level["players"][size], *place)
        by_rounds = 0.0 if length is None else universal_place_points(level["rounds"][length], *place)
        placed = {"players": by_players, "rounds": by_rounds, "higher": max(by_players, by_rounds)}[basis]
    return UniversalEarned(match_wins, placed, match_wins * float(level["per_win"]), multiplier)
