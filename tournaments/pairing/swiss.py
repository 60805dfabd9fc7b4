"""Swiss pairing by maximum-weight matching: score groups, no rematches, at most one bye per player. Pure Python
(networkx's matching, no Django).

What a round's pairing is, in order of importance:

1. Withdrawn players are skipped. Nobody meets a player he has already met: when no pairing without a rematch exists,
   :func:`pair_round` raises :class:`NoPairingError` (naming the players and why), unless the caller allows
   rematches (the director's consent), and then it pairs the fewest rematches possible.
2. In an odd field, the bye goes to the lowest-ranked player without a previous bye: lowest score first, then the
   worst seed (highest ``rank``). The next such player gets it only when the rest of the field cannot be paired
   otherwise, and the reason says so. A bye counts as a match win (``score`` + 1, set by the caller).
3. The fewest and smallest floats: boards between players of different scores are counted by the square of their
   score difference (a board 3 v 1 costs as much as four boards 3 v 2), and their sum is made as small as it can be.
4. Float history: a player paired down in the last round (he met a lower score) is not paired down again, and one
   pulled up (he met a higher score) is not pulled up again, when a pairing as good by 1-3 avoids it. Each board
   counts its players who would float the same way twice running, and the sum is made as small as it can be.
5. The stated order (:func:`ideal_boards`): the field is sorted by score (descending) and seed (ascending); a score
   group's players meet top half against bottom half (1v5, 2v6, 3v7, 4v8 in a group of 8); in a group of odd size
   its lowest player floats down to meet the highest of the next group. Each player's distance (in places of the
   sorted field) from his partner in that order is squared and summed, and the sum is made as small as it can be.

These five are one weight per board, compared in that order, and the pairing is a maximum-cardinality,
maximum-weight matching of the players (every pair that may meet is an edge; the bye is one more vertex): the best
pairing by that weight, with no search limit that can give up while a pairing exists.

A large field (over :data:`DENSE_FIELD` players) is paired in the same order without a matching over every pair:
the ideal boards are taken as they are, and each board that would be a rematch is re-paired by the matching together
with the boards around it in the sorted field (the window doubled until it pairs, up to the whole field; in a
window of more than DENSE_FIELD players, the pairs within :data:`REACH` places first). Early
in a big event a handful of boards need it, so 10,000 players pair in a fraction of a second.

Late entry is the caller's business (a late entrant is a player with no opponents and, normally, score 0);
:func:`late_entry_allowed` states the rule: entry is open while at most half the rounds are paired (a late entry
plays from the next round on, so the rounds paired are the rounds he misses).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeAlias

if TYPE_CHECKING:
    import networkx as nx

PlayerId: TypeAlias = int | str

#: Fields up to this size are paired by one matching over every pair of players; larger ones by the ideal boards
#: repaired where they would be rematches.
DENSE_FIELD = 64
#: The first window around a rematch in a large field: the boards with a player within this many places of it.
FIRST_WINDOW = 6
#: In a matching over more than DENSE_FIELD players, the pairs tried first: players this many places apart at most.
REACH = 24


#: How a player floated in the last round (:attr:`SwissPlayer.floated`): paired down (he met a lower score), pulled
#: up (he met a higher score), or neither.
DOWN, UP, LEVEL = -1, 1, 0


@dataclass(frozen=True)
class SwissPlayer:
    """A player's state before a round. ``rank`` is the initial seed (lower = stronger); ``score`` counts match
    wins, a bye included; ``floated`` how he floated in the last round (:data:`DOWN`, :data:`UP` or :data:`LEVEL`)."""

    id: PlayerId
    rank: int
    score: int = 0
    opponents: frozenset[PlayerId] = frozenset()
    had_bye: bool = False
    withdrawn: bool = False
    floated: int = LEVEL


@dataclass(frozen=True)
class Pairing:
    """One board: ``a`` meets ``b``, or ``a`` has the bye when ``b`` is None. ``reason`` explains the choice;
    ``rematch`` says that the two have met before (paired only with the director's consent)."""

    a: PlayerId
    b: PlayerId | None
    reason: str
    rematch: bool = False

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

    @property
    def rematches(self) -> int:
        return sum(p.rematch for p in self.pairings)


class NoPairingError(ValueError):
    """No rematch-free pairing exists. The message says who and why."""


def late_entry_allowed(rounds_paired: int, total_rounds: int) -> bool:
    """A player may enter late while at most half the rounds are paired (3 of 6, 2 of 5)."""
    return 2 * rounds_paired <= total_rounds


def _names(players: Iterable[SwissPlayer]) -> str:
    return ", ".join(str(p.id) for p in players)


#: The bye's vertex in the matching (players are numbered by their place in the sorted field, from 0).
_BYE = -1


class _Field:
    """The active players in the stated order, who has met whom (by place), and the weight of each board."""

    def __init__(self, players: Sequence[SwissPlayer], *, allow_rematches: bool) -> None:
        self.players = players
        self.allow_rematches = allow_rematches
        place = {p.id: i for i, p in enumerate(players)}
        self.met: list[set[int]] = [set() for _ in players]
        for i, p in enumerate(players):  # opponents lists may be one-sided; meeting is symmetric
            for o in p.opponents:
                j = place.get(o)
                if j is not None and j != i:
                    self.met[i].add(j)
                    self.met[j].add(i)
        candidates = sorted((i for i, p in enumerate(players) if not p.had_bye), key=lambda i: _bye_order(players[i]))
        self.bye_order = {i: k for k, i in enumerate(candidates)} if len(players) % 2 else {}
        self.first_bye = candidates[0] if self.bye_order else None
        self.ideal = ideal_boards([p.score for p in players], skip=self.first_bye)
        n = len(players)
        top, bottom = max((p.score for p in players), default=0), min((p.score for p in players), default=0)
        # The unit of each tier of the weight: more than the most that all boards can add up to in the tier below.
        self.repeat_unit = n * n * n + 1  # the order: at most 2 n**2 a board
        self.float_unit = self.repeat_unit * (n + 1)  # floats twice the same way: at most 2 a board
        self.bye_unit = self.float_unit * (n * (top - bottom) ** 2 + 1)
        self.rematch_unit = self.bye_unit * (n + 1)
        self.base = self.rematch_unit * (n + 1)

    def may_meet(self, i: int, j: int) -> bool:
        return self.allow_rematches or j not in self.met[i]

    def order_cost(self, i: int, j: int) -> int:
        return (j - self.ideal[i]) ** 2 + (i - self.ideal[j]) ** 2 if i in self.ideal and j in self.ideal else 0

    def repeat_floats(self, i: int, j: int) -> int:
        """The board's players who would float the same way as in the last round (0, 1 or 2)."""
        a, b = self.players[i], self.players[j]
        if a.score == b.score:
            return 0
        high, low = (a, b) if a.score > b.score else (b, a)
        return (high.floated == DOWN) + (low.floated == UP)

    def weight(self, i: int, j: int) -> int:
        """The board's weight (larger is better): the base less its costs, tier by tier."""
        if j == _BYE:
            return self.base - self.bye_unit * self.bye_order[i]
        cost = self.order_cost(i, j) + self.float_unit * (self.players[i].score - self.players[j].score) ** 2
        cost += self.repeat_unit * self.repeat_floats(i, j)
        if j in self.met[i]:
            cost += self.rematch_unit
        return self.base - cost

    def match(self, places: Iterable[int], *, bye: bool) -> dict[int, int] | None:
        """The best pairing of ``places`` (and the bye, if ``bye``) by :meth:`weight`, partner by place, or None
        when not all of them can be paired. Over :data:`DENSE_FIELD` players (rematches not allowed), the pairs
        within :data:`REACH` places of each other in the sorted field are tried first, and every pair only if they
        do not pair everyone."""
        places = sorted(places)
        if len(places) > DENSE_FIELD and not self.allow_rematches:
            near = self._match(places, bye=bye, reach=REACH)
            if near is not None:
                return near
        return self._match(places, bye=bye, reach=None)

    def _match(self, places: list[int], *, bye: bool, reach: int | None) -> dict[int, int] | None:
        import networkx as nx  # here, not at the top: every Django process loads this module, few of them pair

        graph: nx.Graph[int] = nx.Graph()
        graph.add_nodes_from(places)
        for k, i in enumerate(places):
            others = places[k + 1 :] if reach is None else [j for j in places[k + 1 : k + 1 + reach] if j - i <= reach]
            graph.add_weighted_edges_from((i, j, self.weight(i, j)) for j in others if self.may_meet(i, j))
        if bye:
            graph.add_weighted_edges_from((i, _BYE, self.weight(i, _BYE)) for i in places if i in self.bye_order)
        needed = (len(places) + bye) // 2
        matching = nx.max_weight_matching(graph, maxcardinality=True)
        if len(matching) < needed:
            return None
        partner: dict[int, int] = {}
        for i, j in matching:
            partner[i], partner[j] = j, i
        return partner


def _bye_order(p: SwissPlayer) -> tuple[int, int]:
    return p.score, -p.rank


def ideal_boards(scores: Sequence[int], *, skip: int | None = None) -> dict[int, int]:
    """The stated order of a round: partner by place in a field sorted by score (descending) then seed, the place
    ``skip`` (the bye) left out. Top-down by score group: a player floated down from the group above meets the
    group's highest player; of the rest, the lowest floats down if they are odd in number, and the others meet
    top half against bottom half (1v5, 2v6, 3v7, 4v8)."""
    partner: dict[int, int] = {}
    carry: int | None = None
    start = 0
    while start < len(scores):
        end = start
        while end < len(scores) and scores[end] == scores[start]:
            end += 1
        group = [i for i in range(start, end) if i != skip]
        if carry is not None and group:
            partner[carry], partner[group[0]] = group[0], carry
            group, carry = group[1:], None
        if len(group) % 2:
            carry = group.pop()
        half = len(group) // 2
        for top, bottom in zip(group[:half], group[half:], strict=True):
            partner[top], partner[bottom] = bottom, top
        start = end
    return partner


def _repair(field: _Field) -> dict[int, int] | None:
    """A large field: the ideal boards, those that would be rematches re-paired with the boards around them."""
    partner = dict(field.ideal)
    n = len(field.players)
    window = FIRST_WINDOW
    conflicts = [i for i, j in partner.items() if i < j and j in field.met[i]]
    while conflicts:
        if window >= n:
            return None
        unsolved: list[int] = []
        for places, own in _windows(partner, conflicts, window, n):
            solved = field.match(places, bye=False)
            if solved is None or any(solved[i] in field.met[i] for i in places):
                unsolved.extend(own)
            else:
                partner.update(solved)
        conflicts, window = unsolved, window * 2
    return partner


def _windows(partner: dict[int, int], conflicts: list[int], width: int, n: int) -> list[tuple[set[int], list[int]]]:
    """The players of the boards within ``width`` places of each conflicting board, overlapping windows merged; each
    window with the conflicts it holds."""
    windows: list[tuple[set[int], list[int]]] = []
    for c in conflicts:
        places: set[int] = set()
        for end in (c, partner[c]):
            for i in range(max(0, end - width), min(n, end + width + 1)):
                if i in partner:
                    places.update((i, partner[i]))
        own = [c]
        for other in [w for w in windows if not w[0].isdisjoint(places)]:
            windows.remove(other)
            places |= other[0]
            own += other[1]
        windows.append((places, own))
    return windows


def pair_round(players: Iterable[SwissPlayer], *, allow_rematches: bool = False) -> SwissResult:
    """Pair one Swiss round (see the module's docstring for the order of what counts).

    :raises NoPairingError: when no pairing without a rematch exists and ``allow_rematches`` is False, or when
        the field is odd and every active player has had a bye."""
    active = sorted((p for p in players if not p.withdrawn), key=lambda p: (-p.score, p.rank))
    ids = [p.id for p in active]
    if len(set(ids)) != len(ids):
        raise ValueError("duplicate player ids")
    if len(active) % 2 and all(p.had_bye for p in active):
        raise NoPairingError(f"odd field and every active player has already had a bye: {_names(active)}")
    strict = _Field(active, allow_rematches=False)
    partner = _pair(strict)
    field = strict
    if partner is None:
        if not allow_rematches:
            raise NoPairingError(_explain(strict))
        field = _Field(active, allow_rematches=True)
        partner = field.match(range(len(active)), bye=bool(field.bye_order))
        if partner is None:  # not reached: with rematches allowed every pair is an edge
            raise NoPairingError(_explain(field))
    return SwissResult(_boards(field, partner))


def _pair(field: _Field) -> dict[int, int] | None:
    n = len(field.players)
    stuck = [i for i, met in enumerate(field.met) if len(met) >= n - 1]  # only the bye is left for them
    if len(stuck) > n % 2 or any(i not in field.bye_order for i in stuck):
        return None
    if n > DENSE_FIELD and not stuck:
        partner = _repair(field)
        if partner is not None:
            if field.first_bye is not None:
                partner[field.first_bye], partner[_BYE] = _BYE, field.first_bye
            return partner
    return field.match(range(n), bye=bool(field.bye_order))


def _boards(field: _Field, partner: dict[int, int]) -> tuple[Pairing, ...]:
    players = field.players
    boards = [_board(field, i, j) for i, j in sorted(partner.items()) if i < j and i != _BYE]
    bye = partner.get(_BYE)
    if bye is not None:
        skipped = sorted((players[i] for i, k in field.bye_order.items() if k < field.bye_order[bye]), key=_bye_order)
        if not skipped:
            reason = "bye: lowest-ranked player without a bye"
        else:
            reason = (
                f"bye: lowest-ranked player without a bye whose absence leaves a rematch-free pairing "
                f"(skipped {_names(skipped)})"
            )
        boards.append(Pairing(players[bye].id, None, reason))
    return tuple(boards)


def _board(field: _Field, i: int, j: int) -> Pairing:
    a, b = field.players[i], field.players[j]
    if a.score == b.score:
        reason = f"score group {a.score}"
    else:
        reason = f"pulled up from score group {b.score} to score group {a.score}"
        if field.repeat_floats(i, j):
            reason += " (no pairing as good keeps a player from floating the same way as last round)"
    if j in field.met[i]:
        return Pairing(a.id, b.id, f"rematch (no rematch-free pairing exists): {reason}", rematch=True)
    return Pairing(a.id, b.id, reason)


def _explain(field: _Field) -> str:
    active = field.players
    odd = " (whoever gets the bye)" if len(active) % 2 else ""
    options = [len(active) - 1 - len(m) for m in field.met]
    stuck = [p for p, left in zip(active, options, strict=True) if left == 0]
    if stuck:
        stuck.sort(key=lambda p: p.rank)
        return (
            f"no rematch-free pairing{odd}: {_names(stuck)} "
            f"{'has' if len(stuck) == 1 else 'have'} already played every other active player"
        )
    fewest = sorted(range(len(active)), key=lambda i: options[i])[:4]
    detail = "; ".join(f"{active[i].id} has {options[i]} possible opponents left" for i in fewest)
    return f"no rematch-free pairing exists{odd}; most constrained players: {detail}"
