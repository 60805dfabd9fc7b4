"""The plan being built: its nodes so far, and what each source is expected to hold if every match were a coin
toss (its player's seed, the matches he may have played, his likely history), from which the rematches a
placement risks are counted."""

from __future__ import annotations

from typing import TypeAlias

from tournaments.pairing.brackets.plan import (
    MAIN,
    Drawn,
    Drop,
    Empty,
    Loser,
    Node,
    Opponent,
    Place,
    Seed,
    Source,
    Winner,
)


def _key(bracket: str, round_: int, index: int) -> str:
    return f"{bracket}-{round_}-{index}"


History: TypeAlias = dict[tuple[str, bool], float]
Counts: TypeAlias = dict[int, float]
_NEW: Counts = {0: 1.0}  # a player new to a bracket, surely there, has played none of its matches


#: With walkovers counted as byes, the chance the planner gives a main round-1 match of being a walkover: it only
#: makes the loser of each round-2 match a conditional consolation entrant, and barely moves the expected rematches.
_WALKOVER = 0.05


class _Graph:
    """The nodes planned so far, with the expected seed and the likely history of any source."""

    def __init__(self, entrants: int, places: int, walkovers: bool = False) -> None:
        self.entrants = entrants
        self.walkovers = walkovers
        self.places = tuple(f"last-chance place {i}" for i in range(1, places + 1))
        self.nodes: dict[str, Node] = {}
        self.drops: list[Drop] = []
        self.capacity: dict[str, tuple[int, ...]] = {}
        self._histories: dict[Source, History] = {}
        self._ranks: dict[Source, float] = {}
        self._occupancy: dict[Source, Counts] = {}

    def add(
        self, bracket: str, round_: int, index: int, a: tuple[Source, str], b: tuple[Source, str], **kw: bool
    ) -> str:
        key = _key(bracket, round_, index)
        self.nodes[key] = Node(key, bracket, round_, index, a[0], b[0], a[1], b[1], **kw)
        return key

    def rounds_of(self, bracket: str) -> int:
        return max((n.round for n in self.nodes.values() if n.bracket == bracket), default=0)

    def occupancy(self, source: Source) -> Counts:
        """Who a source may hold, if every match were a coin toss: for each number of matches its player may have
        played in the bracket the source comes out of, the chance of it (0: new to the consuming bracket); what the
        chances leave to 1 is the chance that it holds nobody (a conditional loser who did not qualify, a bye)."""
        if isinstance(source, Seed | Place):
            return _NEW
        if isinstance(source, Empty | Drawn):
            return {}
        if source not in self._occupancy:
            node = self.nodes[source.key]
            da, db = self.occupancy(node.a), self.occupancy(node.b)
            pa, pb = sum(da.values()), sum(db.values())
            found: Counts = {}
            if isinstance(source, Loser):
                found = {0: self._qualifying(node, source.within)} if pa and pb else {}
            else:
                walkover = _WALKOVER if self.walkovers and node.bracket == MAIN and node.round == 1 else 0.0
                for counts, alone, other in ((da, 1 - pb, pb), (db, 1 - pa, pa)):
                    for c, p in counts.items():
                        found[c + 1] = found.get(c + 1, 0.0) + p * other / 2 * (1 - walkover)
                        found[c] = found.get(c, 0.0) + p * alone + p * other / 2 * walkover
            self._occupancy[source] = {c: p for c, p in found.items() if p > 0}
        return self._occupancy[source]

    def loser_counts(self, node: Node) -> frozenset[int]:
        """The numbers of matches in its bracket a node's loser may have played, this one included."""
        da, db = self.occupancy(node.a), self.occupancy(node.b)
        return frozenset(c + 1 for c in (*da, *db)) if da and db else frozenset()

    def _qualifying(self, node: Node, within: int | None, side: str | None = None) -> float:
        """The chance that the node is played and its loser (from ``side``, or either) has played at most ``within``
        matches of its bracket, this one included."""
        da, db = self.occupancy(node.a), self.occupancy(node.b)
        pa, pb = sum(da.values()), sum(db.values())
        total = 0.0
        for name, counts, other in (("a", da, pb), ("b", db, pa)):
            if side in (None, name):
                total += sum(p for c, p in counts.items() if within is None or c + 1 <= within) * other / 2
        return total

    def rank(self, source: Source) -> float:
        """The seed expected from a source if the better seed always won; places rank after every seed."""
        if isinstance(source, Seed):
            return source.n
        if isinstance(source, Place):
            return self.entrants + 1 + self.places.index(source.label)
        if isinstance(source, Empty | Drawn):
            return float("inf")
        if source not in self._ranks:
            node = self.nodes[source.key]
            ranks = (self.rank(node.a), self.rank(node.b))
            self._ranks[source] = min(ranks) if isinstance(source, Winner) else max(ranks)
        return self._ranks[source]

    def history(self, source: Opponent) -> History:
        """For each (node, won), given that the node is played, the chance that the source holds a player and that
        he won (or lost) that node."""
        if isinstance(source, tuple):
            return _blend(self.history(source[0]), self.history(source[1]))
        if not isinstance(source, Winner | Loser):
            return {}
        if source not in self._histories:
            node = self.nodes[source.key]
            pa, pb = sum(self.occupancy(node.a).values()), sum(self.occupancy(node.b).values())
            if isinstance(source, Winner):  # he won it, or walked over an empty side (a bye: nobody was played)
                wa, wb, played = 1 - pb / 2, 1 - pa / 2, 1.0
            else:  # he lost it (and, for a conditional loser, it was one of his first matches)
                wa = self._qualifying(node, source.within, "a") / pa if pa else 0.0
                wb = self._qualifying(node, source.within, "b") / pb if pb else 0.0
                played = self._qualifying(node, source.within) / (pa * pb) if pa and pb else 0.0
            found: History = {}
            for history, weight in ((self.history(node.a), wa), (self.history(node.b), wb)):
                for k, p in history.items():
                    found[k] = found.get(k, 0.0) + p * weight
            if played and pa and pb:
                found[(node.key, isinstance(source, Winner))] = played
            self._histories[source] = found
        return self._histories[source]

    def rematch(self, x: Opponent, y: Opponent) -> float:
        """Expected number of earlier meetings of the players coming from ``x`` and ``y``."""
        hx, hy = self.history(x), self.history(y)
        if len(hx) > len(hy):
            hx, hy = hy, hx
        return sum(self.played(key) * p * hy.get((key, not won), 0.0) for (key, won), p in hx.items())

    def played(self, key: str) -> float:
        """The chance that a node is played (both its sides hold a player)."""
        node = self.nodes[key]
        return sum(self.occupancy(node.a).values()) * sum(self.occupancy(node.b).values())


def _blend(h1: History, h2: History) -> History:
    """The history of a player who is equally likely to come from either history."""
    blended = {k: p / 2 for k, p in h1.items()}
    for k, p in h2.items():
        blended[k] = blended.get(k, 0.0) + p / 2
    return blended
