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

A whole bracket drawn this way: :func:`feeder_slots` says how many matches to plan in each of its rounds (as many
as the most players who can be in it need), :func:`resolve_feeder` resolves it from its results (each round drawn
once the round before is finished and its arrivals known; the slots it does not need are empty), and
:func:`fewest_byes` is the fewest byes any such draw can give, which it gives. The divisions draw their consolation
and last chance this way: tournaments/pairing/brackets.py's plans with ``drawn`` (see bench/README.md, "Byes in the
consolation and the last chance").
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Hashable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Generic, TypeVar

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


# --- a whole feeder bracket, resolved from its results -----------------------------------------------------------


class SlotStatus(StrEnum):
    WAITING = "waiting"  # its round is not drawn yet (or an earlier round is still being played)
    READY = "ready"  # drawn, no result
    FINISHED = "finished"
    EMPTY = "empty"  # its round is drawn and needs fewer matches than it has slots


@dataclass(frozen=True)
class SlotState(Generic[PlayerT]):
    """A planned match of a feeder bracket drawn late (key ``f"{bracket}-{round}-{index}"``), as far as known."""

    key: str
    status: SlotStatus
    a: PlayerT | None = None
    b: PlayerT | None = None
    winner: PlayerT | None = None
    loser: PlayerT | None = None


@dataclass(frozen=True)
class FeederState(Generic[PlayerT]):
    """A feeder bracket drawn late, resolved: every slot, the bye of each drawn round (round -> player), its
    champion once decided (None when nobody or a single player came: a flight of one is not played), and the
    players who drop out of it into the next bracket, by round (None for a round where that is not known yet), and
    ``ahead``: the players known to have a match to come in a round not drawn yet, of this bracket (the winners of
    a round still played, the players waiting for a round's arrivals) or of the next (the ones who drop out of a
    round still played)."""

    slots: dict[str, SlotState[PlayerT]]
    byes: dict[int, PlayerT]
    champion: PlayerT | None
    dropped: dict[int, tuple[PlayerT, ...] | None]
    ahead: frozenset[PlayerT] = frozenset()


def resolve_feeder(
    bracket: str,
    slots: Sequence[int],
    arrivals: Sequence[Sequence[PlayerT] | None],
    results: Mapping[str, PlayerT | None],
    *,
    met: Collection[frozenset[PlayerT]] = (),
    rank: Mapping[PlayerT, float] | None = None,
    absent: Mapping[PlayerT, int] | None = None,
    walkovers: Collection[str] = (),
    drop: int = 0,
) -> FeederState[PlayerT]:
    """Resolve a feeder bracket drawn round by round, a pure function of its inputs: ``slots[k]`` matches planned
    for its round ``k + 1`` (:func:`feeder_slots`); ``arrivals[k]`` the players dropping in before that round, None
    while not known (the round above is still being played); ``results`` the winner of each finished slot (None: a
    double forfeit); ``met`` the pairs who have played each other before this bracket; ``rank`` lower is better;
    ``absent`` the players who withdrew, each with the first round he is not drawn in (the first not drawn yet when
    he withdrew: a round once drawn stays as it was, so that the draw is a function of what was known then);
    ``walkovers`` the finished slots nobody played (a round sat out, like a bye); ``drop``: a player who loses one
    of his first ``drop`` matches here drops out into the next bracket, the final's loser never. Each round is drawn
    with :func:`draw_feeder_round` once the round before is finished and its arrivals are known.

    :raises ValueError: a result for a slot that is not ready, or a winner who is not one of its players; a round
        needing more matches than ``slots`` gives it.
    """
    absent, met_ = absent or {}, {frozenset(pair) for pair in met}
    states: dict[str, SlotState[PlayerT]] = {}
    byes: Counter[PlayerT] = Counter()
    played: Counter[PlayerT] = Counter()
    round_byes: dict[int, PlayerT] = {}
    dropped: dict[int, tuple[PlayerT, ...] | None] = {}
    alive: list[PlayerT] = []
    rested: list[PlayerT] = []
    champion: PlayerT | None = None
    drawn_any, blocked = False, False
    ahead: set[PlayerT] = set()
    for round_ in range(1, len(slots) + 1):
        keys = [f"{bracket}-{round_}-{i}" for i in range(slots[round_ - 1])]
        new = arrivals[round_ - 1] if round_ <= len(arrivals) else ()
        if blocked or new is None:
            if not blocked:  # the round's arrivals are not known: its players so far wait for its draw
                ahead.update(p for p in alive if absent.get(p, round_ + 1) > round_)
            blocked = True
            states.update((key, _refused_if_recorded(key, results, SlotStatus.WAITING)) for key in keys)
            continue
        alive = [p for p in (*alive, *new) if absent.get(p, round_ + 1) > round_]
        later = enumerate(arrivals[round_:], round_ + 1)
        more = any(wave is None or any(absent.get(p, r + 1) > r for p in wave) for r, wave in later)
        if len(alive) < 2:
            states.update((key, _refused_if_recorded(key, results, SlotStatus.EMPTY)) for key in keys)
            dropped[round_] = ()
            if not more and alive:
                champion = alive[0] if drawn_any else None  # a flight of one is not played
                alive = []
            continue
        drawn = draw_feeder_round(alive, byes=byes, met=met_, rank=rank, rested=rested)
        if len(drawn.matches) > len(keys):
            raise ValueError(
                f"{bracket} round {round_} needs {len(drawn.matches)} matches and has {len(keys)} slots: plan them "
                "with feeder_slots from the players who can drop in"
            )
        drawn_any = True
        final = len(drawn.matches) == 1 and drawn.bye is None and not more
        rested = [drawn.bye] if drawn.bye is not None else []
        if drawn.bye is not None:
            byes[drawn.bye] += 1
            round_byes[round_] = drawn.bye
        survivors, losers = list(rested), []
        for key, (a, b) in zip(keys, drawn.matches, strict=False):
            state = _slot(key, a, b, results)
            states[key] = state
            blocked = blocked or state.status is SlotStatus.READY
            if state.status is SlotStatus.FINISHED:
                met_.add(frozenset((a, b)))
                if key not in walkovers:
                    played.update((a, b))
                elif state.winner is not None:
                    byes[state.winner] += 1
                    rested.append(state.winner)
                survivors += [state.winner] if state.winner is not None else []
                losers += [state.loser] if state.loser is not None else []
        states.update((key, _refused_if_recorded(key, results, SlotStatus.EMPTY)) for key in keys[len(drawn.matches) :])
        dropping = () if final else tuple(p for p in losers if played[p] <= drop)
        if blocked:
            ahead.update((*survivors, *dropping))
            continue
        dropped[round_] = dropping
        alive = survivors
        if final:
            champion, alive = (survivors[0] if survivors else None), []
    for round_ in range(1, len(slots) + 1):
        dropped.setdefault(round_, () if not blocked else None)
    return FeederState(states, round_byes, champion, dropped, frozenset(ahead))


def _slot(key: str, a: PlayerT, b: PlayerT, results: Mapping[str, PlayerT | None]) -> SlotState[PlayerT]:
    if key not in results:
        return SlotState(key, SlotStatus.READY, a, b)
    winner = results[key]
    if winner is None:
        return SlotState(key, SlotStatus.FINISHED, a, b)  # a double forfeit: nobody goes on
    if winner not in (a, b):
        raise ValueError(f"cannot record {winner!r} as the winner of {key}: its players are {a!r} and {b!r}")
    return SlotState(key, SlotStatus.FINISHED, a, b, winner, b if winner == a else a)


def _refused_if_recorded(key: str, results: Mapping[str, object], status: SlotStatus) -> SlotState[Any]:
    if key in results:
        raise ValueError(f"cannot record a result for {key}: the match is {status} (not ready)")
    return SlotState(key, status)
