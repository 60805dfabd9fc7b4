"""One round of a feeder bracket (a consolation, a last chance), drawn once its players are known.

A feeder bracket planned at the draw (tournaments/pairing/brackets.py) keeps a slot for every player who *may*
drop into it; when fewer come (byes in the main bracket, withdrawals, forfeits, a conditional loser who does not
qualify), the empty slots become byes nobody needed, and one player can ride two of them to a final. Real
directors draw a consolation round by round instead: a round is drawn when its players are known (the ones who
won or had a bye in the round before, and the ones who have just dropped in), and the only bye is the one an odd
count forces. :func:`draw_feeder_round` is that rule, as a pure function:

1. **Byes only where forced.** ``n`` players make ``n // 2`` matches; an odd count leaves exactly one bye, an even
   count none. Pairing everyone is also what keeps the byes of the whole bracket fewest: a bye given where it is
   not forced only adds players to the next round.
2. **The bye to a player who has had fewest.** The forced bye goes to a player with the fewest byes in this
   bracket so far, so nobody has a second bye while a player beside him in the round has none; among them, to one
   who did not sit out the round before (``rested``: a bye or a walkover), so nobody waits two rounds running where
   another could take the bye.
3. **No rematch where one can be avoided.** Among the pairings that keep rule 2, the fewest meetings of players
   who have already played each other (in any bracket of the division).
4. **Then the seeding.** Among those, the best-ranked player with fewest byes takes the bye, and the others meet
   as in a knockout draw: the best left against the worst left (``rank``: lower is better, e.g. the main seed).

Rules 2-4 are one maximum-weight matching (networkx) whose weights are ordered so that a better rule always
outweighs every worse one. A lone player has nobody to meet: he waits (the round's only player is its ``waiting``
player; he is the bracket's champion if nobody else comes).
"""

from __future__ import annotations

from collections.abc import Collection, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

PlayerT = TypeVar("PlayerT", bound=Hashable)


@dataclass(frozen=True)
class FeederRound(Generic[PlayerT]):
    """A drawn round: its matches (the better-ranked player first, best pair first) and the player who sits it out
    (the forced bye, or a lone player waiting), or None."""

    matches: tuple[tuple[PlayerT, PlayerT], ...]
    bye: PlayerT | None
    rematches: int


def draw_feeder_round(
    players: Sequence[PlayerT],
    *,
    byes: Mapping[PlayerT, int] | None = None,
    met: Collection[frozenset[PlayerT]] = (),
    rank: Mapping[PlayerT, float] | None = None,
    rested: Collection[PlayerT] = (),
) -> FeederRound[PlayerT]:
    """Draw one feeder round of ``players`` (see the module docstring). ``byes``: the byes each has had in this
    bracket (none when missing); ``met``: the pairs who have already played each other; ``rank``: lower is better
    (the order of ``players`` when missing); ``rested``: the players who sat out the round before (a bye, a walkover;
    a walkover may be counted in ``byes`` too, as a round without a match).

    :raises ValueError: a player listed twice.
    """
    if len(set(players)) != len(players):
        raise ValueError("a player is listed twice in the round: each plays once")
    byes = byes or {}
    order = sorted(players, key=lambda p: (rank[p], players.index(p)) if rank else players.index(p))
    if len(order) < 2:
        return FeederRound((), order[0] if order else None, 0)
    pairs = _matching(order, byes, {frozenset(pair) for pair in met}, set(rested))
    sitting = [p for p in order if not any(p in pair for pair in pairs)]
    ranked = [(a, b) if order.index(a) < order.index(b) else (b, a) for a, b in pairs]
    matches = tuple(sorted(ranked, key=lambda match: order.index(match[0])))
    return FeederRound(matches, sitting[0] if sitting else None, sum(frozenset(m) in met for m in matches))


def _matching(
    order: list[PlayerT], byes: Mapping[PlayerT, int], met: set[frozenset[PlayerT]], rested: set[PlayerT]
) -> list[tuple[PlayerT, PlayerT]]:
    """The pairs of the best draw of ``order`` (ranked best first) by rules 2-4, as one maximum-weight matching
    (an odd round's bye is a match against the pseudo-player -1)."""
    import networkx as nx  # here, not at the top: every Django process loads the pairing package, few draw

    n = len(order)
    fewest = min(byes.get(p, 0) for p in order)
    # Penalties, from the least important rule up, each unit above the largest sum of the ones below it. Rule 4:
    # the bye's place in the ranking (at most n * (n - 1)) and each pair's distance from best-against-worst
    # squared ((i + j - (n - 1)) ** 2, under n ** 3 / 2 summed over the pairs).
    rematch = n**3 + n * n + 1  # rule 3: at most n / 2 rematches
    running = rematch * (n + 1)  # rule 2, second: a bye to a player who sat out the round before
    unfair = 2 * running  # rule 2: a bye to a player who has had more than the fewest (one bye a round)
    base = 2 * unfair  # every edge is worth more than any penalty: the matching pairs as many as it can
    graph: nx.Graph[int] = nx.Graph()
    for i, a in enumerate(order):
        for j in range(i + 1, n):
            penalty = rematch * (frozenset((a, order[j])) in met) + (i + j - (n - 1)) ** 2
            graph.add_edge(i, j, weight=base - penalty)
        if n % 2:
            penalty = unfair * (byes.get(a, 0) > fewest) + running * (a in rested) + i * n
            graph.add_edge(i, -1, weight=base - penalty)
    chosen = nx.max_weight_matching(graph, maxcardinality=True)
    return [(order[i], order[j]) for i, j in chosen if i >= 0 and j >= 0]


def fewest_byes(arrivals: Sequence[int]) -> int:
    """The fewest byes a feeder bracket can give when each round is drawn as its players drop in: ``arrivals[k]``
    players join before its round ``k + 1`` (after round ``k + 1`` of the bracket above). A round of ``n`` players
    needs ``n % 2`` byes when it pairs all it can, and pairing fewer only leaves more players, and at least as many
    byes, for the rounds after. A lone player waiting for the next to drop in has nobody to play: that is no bye.
    :func:`draw_feeder_round` gives exactly this many while nobody leaves in between (a double forfeit, say)."""
    players, byes, round_ = 0, 0, 0
    while round_ < len(arrivals) or players > 1:
        players += arrivals[round_] if round_ < len(arrivals) else 0
        round_ += 1
        if players > 1:
            byes, players = byes + players % 2, (players + 1) // 2
    return byes


def feeder_slots(possible: Sequence[int]) -> tuple[int, ...]:
    """The matches to plan for each round of a feeder bracket drawn round by round, when at most ``possible[k]``
    players can drop in before its round ``k + 1``: as many as the round can need, ``p // 2`` of the ``p`` players it
    can hold. Fewer players (a bye above, a withdrawal, a conditional loser who does not qualify) never need more
    matches in a round nor more rounds, since a round of ``n <= p`` players leaves ``ceil(n / 2) <= ceil(p / 2)``; a
    slot not needed is left empty. A round that can hold a single player has no match (he waits)."""
    slots: list[int] = []
    players, round_ = 0, 0
    while round_ < len(possible) or players > 1:
        players += possible[round_] if round_ < len(possible) else 0
        round_ += 1
        slots.append(players // 2)
        players -= players // 2
    return tuple(slots)
