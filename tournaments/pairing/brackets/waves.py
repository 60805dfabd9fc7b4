"""A planned feeder bracket built from its waves (steps 1-4 of the package docstring): the first wave drawn, the
later ones placed against the survivors in the order with the fewest expected rematches, and the note that says
why."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tournaments.pairing.brackets.graph import _Graph
from tournaments.pairing.brackets.plan import Candidate, Drop, Empty, Opponent, Source, Winner, describe
from tournaments.pairing.elimination import draw_single_elimination


@dataclass(frozen=True)
class _Entry:
    """A source still in a feeder bracket, with the notes that explain how it got to its next match."""

    source: Source
    notes: tuple[str, ...] = ()

    def noted(self, note: str) -> _Entry:
        return _Entry(self.source, (*self.notes, note))

    def why(self) -> str:
        return "; ".join((describe(self.source), *self.notes))


class _Feeder:
    """Builds one feeder bracket from its waves (see the module docstring, steps 1-4)."""

    def __init__(self, bracket: str, graph: _Graph) -> None:
        self.bracket, self.graph, self.round, self.index = bracket, graph, 0, 0

    def build(self, waves: Sequence[Sequence[Source]], *, alone: bool = True) -> Source | None:
        """Add the bracket's nodes; return the source of its champion (None without entrants). A bracket that a
        single player can reach is one bye node with ``alone`` (the losers' bracket of a two-player double
        elimination still sends its player to the grand final), and has no node without it (a consolation or a last
        chance of one is not played: that player keeps the place his main bracket gave him)."""
        waves = [wave for wave in waves if wave]
        if not alone and sum(map(len, waves)) < 2:
            return None
        alive: list[_Entry] = []
        for k, wave in enumerate(waves):
            entries = [_Entry(source) for source in wave]
            if not alive:
                alive = self._draw(entries)
                continue
            while len(alive) > len(entries):
                alive = self._minor(alive)
            alive = self._major(alive, entries, len(waves[k + 1]) if k + 1 < len(waves) else 1)
        while len(alive) > 1:
            alive = self._minor(alive)
        if alive and self.round == 0:
            alive = [self._lone(alive[0])]
        return alive[0].source if alive else None

    def _next_round(self) -> None:
        self.round, self.index = self.round + 1, 0

    def _match(self, a: _Entry, b: _Entry) -> _Entry:
        key = self.graph.add(self.bracket, self.round, self.index, (a.source, a.why()), (b.source, b.why()))
        self.index += 1
        return _Entry(Winner(key))

    def _bye(self, entry: _Entry) -> _Entry:
        return entry.noted(f"bye in {self.bracket} round {self.round}")

    def _lone(self, entry: _Entry) -> _Entry:
        self._next_round()
        alone = f"nobody: the {self.bracket} has a single player, who wins it without playing"
        return _Entry(Winner(self.graph.add(self.bracket, 1, 0, (entry.source, entry.why()), (Empty(), alone))))

    def _draw(self, entries: list[_Entry]) -> list[_Entry]:
        """Step 1: the first wave as a single-elimination draw seeded by expected seed."""
        if len(entries) == 1:
            return [entries[0].noted(f"alone in the first wave of the {self.bracket}")]
        ranked = sorted(entries, key=lambda entry: self.graph.rank(entry.source))
        self._next_round()
        seeded = [e.noted(f"drawn as {self.bracket} seed {i} of {len(ranked)}") for i, e in enumerate(ranked, 1)]
        alive: list[_Entry] = []
        for slot in draw_single_elimination(len(seeded)):
            assert slot.a is not None
            a = seeded[slot.a - 1]
            alive.append(self._bye(a) if slot.b is None else self._match(a, seeded[slot.b - 1]))
        return alive

    def _minor(self, alive: list[_Entry]) -> list[_Entry]:
        """Survivors in pairs, top down; an odd last one waits."""
        self._next_round()
        paired = [self._match(alive[i], alive[i + 1]) for i in range(0, len(alive) - 1, 2)]
        return [*paired, self._bye(alive[-1])] if len(alive) % 2 else paired

    def _major(self, alive: list[_Entry], wave: list[_Entry], next_size: int) -> list[_Entry]:
        """Step 2-3: the wave meets the survivors, placed in the order with the fewest expected rematches."""
        self._next_round()
        survivors = tuple(entry.source for entry in alive)
        candidates = _candidates(self.graph, survivors, tuple(e.source for e in wave), next_size)
        chosen = min(candidates, key=lambda c: round(c.cost, 9))
        self.graph.drops.append(Drop(self.bracket, self.round, survivors, candidates[0].order, chosen.name, candidates))
        note = _placement_note(chosen, candidates)
        opposite = {j: i for i, j in enumerate(_spread(len(alive), len(wave)))}
        result = []
        for j, source in enumerate(chosen.order):
            dropped = _Entry(source, (note,))
            result.append(self._match(alive[opposite[j]], dropped) if j in opposite else self._bye(dropped))
        return result


def _spread(survivors: int, wave: int) -> list[int]:
    """Positions of the wave (in placed order) that meet a survivor, spread evenly, one per survivor."""
    return [i * wave // survivors for i in range(survivors)]


def _orders(wave: tuple[Source, ...]) -> list[tuple[str, tuple[Source, ...]]]:
    half, reverse = len(wave) // 2, wave[::-1]
    return [
        ("in plain order", wave),
        ("in reverse order", reverse),
        ("with halves swapped", wave[half:] + wave[:half]),
        ("in reverse order with halves swapped", reverse[half:] + reverse[:half]),
    ]


def _candidates(
    graph: _Graph, survivors: tuple[Source, ...], wave: tuple[Source, ...], next_size: int
) -> tuple[Candidate, ...]:
    """The four simple orders (duplicates dropped), then the least-rematch matching if it does strictly better."""
    found: dict[tuple[Source, ...], Candidate] = {}
    for name, order in _orders(wave):
        if order not in found:
            found[order] = _candidate(graph, name, survivors, order, next_size)
    if len(wave) == len(survivors) > 2 and min(c.cost for c in found.values()) > 1e-9:
        costs = [[graph.rematch(d, s) for d in wave] for s in survivors]
        order = tuple(wave[j] for j in _assignment(costs))
        matched = _candidate(graph, "by the least-rematch matching", survivors, order, next_size)
        if matched.cost < min(c.cost for c in found.values()) - 1e-9:  # else a simple order is as good
            found[order] = matched
    return tuple(found.values())


def _candidate(
    graph: _Graph, name: str, survivors: tuple[Source, ...], order: tuple[Source, ...], next_size: int
) -> Candidate:
    matches = _first_matches(survivors, order, next_size)
    return Candidate(name, order, matches, sum(graph.rematch(d, o) for d, o in matches))


def _assignment(cost: list[list[float]]) -> list[int]:
    """For each row the column that minimises the total cost of a square matrix (the Hungarian method, O(n^3))."""
    n, inf = len(cost), float("inf")
    u, v, owner, way = [0.0] * (n + 1), [0.0] * (n + 1), [0] * (n + 1), [0] * (n + 1)
    for row in range(1, n + 1):
        owner[0], col, slack, used = row, 0, [inf] * (n + 1), [False] * (n + 1)
        while owner[col]:
            used[col], here, delta, nxt = True, owner[col], inf, 0
            for j in range(1, n + 1):
                if not used[j]:
                    reduced = cost[here - 1][j - 1] - u[here] - v[j]
                    if reduced < slack[j]:
                        slack[j], way[j] = reduced, col
                    if slack[j] < delta:
                        delta, nxt = slack[j], j
            for j in range(n + 1):
                if used[j]:
                    u[owner[j]], v[j] = u[owner[j]] + delta, v[j] - delta
                else:
                    slack[j] -= delta
            col = nxt
        while col:
            owner[col], col = owner[way[col]], way[col]
    columns = [0] * n
    for j in range(1, n + 1):
        columns[owner[j] - 1] = j - 1
    return columns


def _first_matches(
    survivors: tuple[Source, ...], order: tuple[Source, ...], next_size: int
) -> tuple[tuple[Source, Opponent], ...]:
    """Each dropped player's first opponent: a survivor, or after a bye the next round's neighbour."""
    opposite = {j: survivors[i] for i, j in enumerate(_spread(len(survivors), len(order)))}
    matches: list[tuple[Source, Opponent]] = [(order[j], s) for j, s in opposite.items()]
    if len(order) > next_size:  # a minor round follows, pairing neighbours
        for j in (j for j in range(len(order)) if j not in opposite and j ^ 1 < len(order)):
            mate = order[j ^ 1]
            matches.append((order[j], (opposite[j ^ 1], mate) if j ^ 1 in opposite else mate))
    return tuple(matches)


def _placement_note(chosen: Candidate, candidates: tuple[Candidate, ...]) -> str:
    plain = candidates[0]
    if len(candidates) == 1:
        risk = f" (he may meet again a player he has already played: {plain.cost:.2f} expected)"
        return "the only possible placement" + (risk if plain.cost > 1e-9 else "")
    if chosen.cost < 1e-9 and chosen is plain:
        return "placed in plain order: nobody dropping in can meet at once a player he has already played"
    if chosen.cost < 1e-9:
        return (
            f"placed {chosen.name} so that he cannot meet at once a player he has already played "
            f"(plain order would give about {plain.cost:.2f} such rematches)"
        )
    versus = "" if chosen is plain else f", plain order {plain.cost:.2f}"
    return (
        f"placed {chosen.name}: no placement avoids every immediate rematch and this one expects the fewest "
        f"({chosen.cost:.2f}{versus})"
    )
