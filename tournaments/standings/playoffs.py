"""Playoffs for ties: which ties a playoff may settle, how a playoff's matches give its order, and how that order
settles the tie in the standings (pure: plain values in, plain values out).

Terms
- A **tie** is a group of players sharing one position after every tie-break (they share the places it spans:
  ``3-4``). It **matters** when it is one of these (the first that applies names its kind):

  - ``cut``: it straddles the cut line of a Swiss into a knockout (some of its players would go through, some not);
  - ``first``: it is for first place of a Swiss or a round robin (a 3-way cycle names no champion);
  - ``places``: the places it spans pay differently by the payout table (a shared ``3-4`` where 3rd pays more).

- A **playoff** settles a tie of two or three players (a bigger tie cannot be ordered: the director settles it
  otherwise). Two players play one match; its winner is placed first of the group.
  **Three players play a stepladder** (the published rule, said on the pages): the two lower of the three in the
  tie's order (the standings list a tie by seed) play first; the winner meets the top one; the final's winner is
  placed first of the group, its loser second, and the first match's loser third.
- **Settling**: a finished playoff's order splits its group's shared position: the group keeps its first position
  and its players take it and the next ones in the playoff's order. A playoff whose players no longer share one
  position exactly (a correction changed the standings) settles nothing: the standings stand as computed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from decimal import Decimal

from tournaments.standings.tiebreakers import PlayerId, Row

CUT = "cut"
FIRST = "first"
PLACES = "places"
KINDS = (PLACES, CUT, FIRST)

#: The most players a playoff takes.
MAX_PLAYERS = 3

#: The rule of a three-player playoff, as the pages say it.
THREE_PLAYER_RULE = (
    "A three-player playoff is a stepladder: the two lower of the three (by seed) play first, the winner meets the "
    "top one, and the final's winner is placed first of the three, its loser second, the first match's loser third."
)


@dataclass(frozen=True)
class Tie:
    """A tie that matters: its kind, the first place it spans (``place``, 1-based) and its players in the order the
    standings list them (by seed). ``orderable``: two or three players (a playoff can settle it)."""

    kind: str
    place: int
    players: tuple[PlayerId, ...]

    @property
    def last(self) -> int:
        return self.place + len(self.players) - 1

    @property
    def orderable(self) -> bool:
        return 2 <= len(self.players) <= MAX_PLAYERS


def ties_that_matter(
    rows: Sequence[tuple[int, PlayerId]],
    *,
    prizes: Sequence[Decimal] = (),
    cut: int | None = None,
    first: bool = False,
) -> list[Tie]:
    """The ties of ``rows`` (position, player) in standings order that matter: across the ``cut`` (the number of
    players going through), for first place when ``first``, or over places ``prizes`` (by place, place 1 first;
    percentages or amounts) pays differently.

    >>> ties_that_matter([(1, "a"), (1, "b"), (3, "c")], first=True)
    [Tie(kind='first', place=1, players=('a', 'b'))]
    >>> ties_that_matter([(1, "a"), (2, "b"), (2, "c"), (2, "d")], cut=2)
    [Tie(kind='cut', place=2, players=('b', 'c', 'd'))]
    >>> ties_that_matter([(1, "a"), (2, "b"), (2, "c")], prizes=[Decimal(50), Decimal(30), Decimal(30)])
    []
    """
    groups: dict[int, list[PlayerId]] = {}
    for position, player in rows:
        groups.setdefault(position, []).append(player)
    ties: list[Tie] = []
    index = 0  # 0-based index in the standings of the group's first player
    for position in sorted(groups):
        players = groups[position]
        size = len(players)
        span = range(index + 1, index + size + 1)  # the places the group spans
        kind = ""
        if size > 1:
            if cut is not None and index < cut < index + size:
                kind = CUT
            elif first and index == 0:
                kind = FIRST
            elif len({_prize(prizes, n) for n in span}) > 1:
                kind = PLACES
        if kind:
            ties.append(Tie(kind, index + 1, tuple(players)))
        index += size
    return ties


def _prize(prizes: Sequence[Decimal], place: int) -> Decimal:
    return prizes[place - 1] if place <= len(prizes) else Decimal(0)


@dataclass(frozen=True)
class Bout:
    """One match of a playoff as the rule draws it: ``a`` against ``b`` (``b`` None: the winner of the first match,
    not known yet)."""

    a: PlayerId
    b: PlayerId | None


def bouts(players: Sequence[PlayerId]) -> list[Bout]:
    """The matches a playoff of ``players`` (in the tie's order) plays: two players, one match; three, the
    stepladder's first match (the two lower ones) and its final (the top one against that match's winner).

    >>> bouts(["a", "b", "c"])
    [Bout(a='b', b='c'), Bout(a='a', b=None)]
    """
    if not 2 <= len(players) <= MAX_PLAYERS:
        raise ValueError(f"a playoff takes two or three players, not {len(players)}")
    if len(players) == 2:
        return [Bout(players[0], players[1])]
    return [Bout(players[1], players[2]), Bout(players[0], None)]


def finishing_order(players: Sequence[PlayerId], winners: Sequence[PlayerId]) -> tuple[PlayerId, ...]:
    """The order a playoff of ``players`` (in the tie's order) settles, from the ``winners`` of its matches in the
    order played (:func:`bouts`); empty while a match is still to be won.

    >>> finishing_order(["a", "b"], ["b"])
    ('b', 'a')
    >>> finishing_order(["a", "b", "c"], ["c", "a"])
    ('a', 'c', 'b')
    >>> finishing_order(["a", "b", "c"], ["c"])
    ()
    """
    drawn = bouts(players)
    if len(winners) < len(drawn):
        return ()
    if len(players) == 2:
        winner = winners[0]
        return (winner, next(p for p in players if p != winner))
    first_winner, final_winner = winners[0], winners[1]
    first_loser = players[2] if first_winner == players[1] else players[1]
    final_loser = players[0] if final_winner == first_winner else first_winner
    return (final_winner, final_loser, first_loser)


def settle(rows: Sequence[Row], orders: Sequence[Sequence[PlayerId]]) -> list[Row]:
    """The standings ``rows`` with each finished playoff's order (``orders``: each a playoff's players, first place
    first) splitting its group's shared position. An order whose players are not exactly the players of one shared
    position is left out (it settles nothing).

    >>> rows = [Row(1, "a", 2), Row(2, "b", 1), Row(2, "c", 1), Row(4, "d", 0)]
    >>> [(r.position, r.player) for r in settle(rows, [("c", "b")])]
    [(1, 'a'), (2, 'c'), (3, 'b'), (4, 'd')]
    """
    groups: dict[int, list[Row]] = {}
    for row in rows:
        groups.setdefault(row.position, []).append(row)
    by_players = {frozenset(r.player for r in group): position for position, group in groups.items() if len(group) > 1}
    for order in orders:
        position = by_players.get(frozenset(order))
        if position is None or len(order) != len(groups[position]):
            continue
        at = {r.player: r for r in groups[position]}
        groups[position] = [replace(at[p], position=position + n) for n, p in enumerate(order)]
    return [row for position in sorted(groups) for row in groups[position]]
