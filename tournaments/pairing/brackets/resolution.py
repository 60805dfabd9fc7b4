"""``resolve``: the state of every planned match from the seeds, results and places (a pure function of them), and
the champion of a bracket. Which later matches depend on a result is the resolution's to say, compared with and
without it (tournaments/services/bracket.py, ``refilled``)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Hashable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum, StrEnum
from typing import Generic, Literal, TypeVar

from tournaments.pairing.brackets.plan import (
    CONSOLATION,
    LAST_CHANCE,
    MAIN,
    Drawn,
    Empty,
    Loser,
    Node,
    Place,
    Plan,
    Seed,
    Source,
    Winner,
)
from tournaments.pairing.feeder import FeederState, SlotStatus, resolve_feeder

PlayerT = TypeVar("PlayerT", bound=Hashable)


class Status(StrEnum):
    WAITING = "waiting"  # a side is not known yet
    READY = "ready"  # both players known, no result
    FINISHED = "finished"
    BYE = "bye"  # one player, the other side is definitively nobody: he advances, nobody loses
    EMPTY = "empty"  # nobody on either side: no winner, no loser
    SKIPPED = "skipped"  # the reset, when the main-bracket player won the grand final


@dataclass(frozen=True)
class NodeState(Generic[PlayerT]):
    """A node after resolution: its players as far as known, its status, and its winner and loser if any."""

    key: str
    status: Status
    a: PlayerT | None
    b: PlayerT | None
    winner: PlayerT | None = None
    loser: PlayerT | None = None


class _Unknown(Enum):
    YET = "not known yet"


_YET = _Unknown.YET


@dataclass(frozen=True)
class _Inputs(Generic[PlayerT]):
    seeds: Mapping[int, PlayerT]
    results: Mapping[str, PlayerT | None]
    places: Mapping[str, PlayerT]
    closed: bool
    played: Counter[tuple[PlayerT, str]]  # matches played so far by a player in a bracket
    walkovers: Collection[str] = ()


def resolve(
    plan: Plan,
    *,
    seeds: Mapping[int, PlayerT],
    results: Mapping[str, PlayerT | None],
    places: Mapping[str, PlayerT],
    places_closed: bool,
    walkovers: Collection[str] = (),
    withdrawn: Mapping[str, Mapping[PlayerT, int]] | None = None,
) -> Resolution[PlayerT]:
    """The state of every node given the seeded players, the winners recorded so far and the filled places.
    ``walkovers``: finished nodes that were walkovers counted like byes (nothing played): they are no match for the
    first losses (see ``plan_bracket``'s ``walkover_as_bye``). ``withdrawn``: for each feeder bracket drawn late,
    the players who withdrew, each with the first of its rounds not drawn yet when he did (he is drawn in no round
    from that one on; a round once drawn stays as it was).

    A result of None is a double forfeit: the node is finished with neither a winner nor a loser, so the sides it
    feeds hold nobody (the next opponent has a bye, or the next node is empty).

    A seed missing from ``seeds`` is nobody; an unfilled place is nobody once ``places_closed``.

    :raises ValueError: unknown seeds, places or nodes; a result for a node that is not ready; a winner who is not
        one of the node's players; a player on both sides of a node.
    """
    _check_inputs(plan, seeds, results, places)
    inputs = _Inputs(seeds, results, places, places_closed, Counter(), walkovers)
    states: Resolution[PlayerT] = Resolution()
    for node in plan.nodes:
        if node.bracket in plan.drawn:
            continue
        state = states[node.key] = _state(node, states, inputs)
        if state.status is Status.FINISHED and node.key not in walkovers:
            inputs.played.update((player, node.bracket) for player in (state.a, state.b) if player is not None)
    for bracket in plan.drawn:
        _resolve_drawn(plan, bracket, states, inputs, (withdrawn or {}).get(bracket, {}))
    return states


class Resolution(dict[str, NodeState[PlayerT]]):
    """Every node's state (a dict by key), with each feeder bracket drawn late as resolved (``feeders``)."""

    def __init__(self) -> None:
        super().__init__()
        self.feeders: dict[str, FeederState[PlayerT]] = {}
        self.arrived: dict[str, set[PlayerT]] = {}  # the players known to have entered it (withdrawn ones not)
        self.unknown: dict[str, int] = {}  # the most players who may still enter it
        self.arrivals: dict[str, list[list[PlayerT] | None]] = {}  # who dropped in before each round (None: not known)
        # The players known to have a match to come in it, or in the bracket it feeds, in a round not drawn yet: a
        # first loss in the main draw while its round is played (a consolation's wave not known yet), and a feeder's
        # ``ahead`` (tournaments/pairing/feeder.py).
        self.coming: dict[str, set[PlayerT]] = {}


def _known(sides: Sequence[PlayerT | _Unknown | None]) -> list[PlayerT] | None:
    """The players of sides once every one is known (None while any is not), nobody left out."""
    if any(isinstance(side, _Unknown) for side in sides):
        return None
    return [side for side in sides if side is not None and not isinstance(side, _Unknown)]


_SLOT_STATUS = {
    SlotStatus.WAITING: Status.WAITING,
    SlotStatus.READY: Status.READY,
    SlotStatus.FINISHED: Status.FINISHED,
    SlotStatus.EMPTY: Status.EMPTY,
}


def _resolve_drawn(
    plan: Plan, bracket: str, states: Resolution[PlayerT], inputs: _Inputs[PlayerT], absent: Mapping[PlayerT, int]
) -> None:
    """Resolve a feeder bracket drawn round by round (tournaments/pairing/feeder.py): its entrants from the sources
    of its waves (a consolation: the first losses of the main bracket; a last chance: the consolation's first
    losses, and the places with its first round), none known while any is not; the meetings of the matches played
    so far; the seeds as the ranking, the places after them."""
    nodes = [node for node in plan.nodes if node.bracket == bracket]
    slots = [sum(1 for node in nodes if node.round == r) for r in range(1, max(n.round for n in nodes) + 1)]
    arrivals: list[list[PlayerT] | None] = []
    coming: set[PlayerT] = set()
    if bracket == CONSOLATION:
        for wave in plan.waves:
            sides: list[PlayerT | Literal[_Unknown.YET] | None] = []
            for source in wave:
                side = _side(source, states, inputs)
                sides.append(side)
            arrivals.append(_known(sides))
            if arrivals[-1] is None:
                coming.update(side for side in sides if side is not None and not isinstance(side, _Unknown))
    else:
        above = states.feeders.get(CONSOLATION)
        dropped = dict(above.dropped) if above else {}
        arrivals = [None if d is None else list(d) for _, d in sorted(dropped.items())] or [[]]
        entered = _known([inputs.places.get(label, None if inputs.closed else _YET) for label in plan.places])
        first = arrivals[0]
        arrivals[0] = None if first is None or entered is None else [*first, *entered]
    met = {
        frozenset((state.a, state.b))
        for key, state in states.items()
        if state.status is Status.FINISHED and state.a is not None and state.b is not None
        if key not in inputs.walkovers
    }
    rank: dict[PlayerT, float] = {player: n for n, player in inputs.seeds.items()}
    rank.update({p: plan.entrants + 1 + i for i, label in enumerate(plan.places) if (p := inputs.places.get(label))})
    drop = plan.last_chance_drop_rounds if bracket == CONSOLATION and LAST_CHANCE in plan.drawn else 0
    feeder = resolve_feeder(
        bracket,
        slots,
        arrivals,
        {key: winner for key, winner in inputs.results.items() if key.startswith(f"{bracket}-")},
        met=met,
        rank=rank,
        absent=absent,
        walkovers=[key for key in inputs.walkovers if key.startswith(f"{bracket}-")],
        drop=drop,
    )
    states.feeders[bracket] = feeder
    states.arrivals[bracket] = arrivals
    states.coming[bracket] = coming | feeder.ahead
    capacity = dict(plan.capacity)[bracket]
    states.arrived[bracket] = {p for r, wave in enumerate(arrivals, 1) for p in wave or () if absent.get(p, r + 1) > r}
    states.unknown[bracket] = sum(n for n, wave in zip(capacity, arrivals, strict=False) if wave is None)
    states.unknown[bracket] += sum(capacity[len(arrivals) :])
    for node in nodes:
        slot = feeder.slots[node.key]
        states[node.key] = NodeState(node.key, _SLOT_STATUS[slot.status], slot.a, slot.b, slot.winner, slot.loser)


def _check_inputs(
    plan: Plan, seeds: Mapping[int, Hashable], results: Mapping[str, Hashable], places: Mapping[str, Hashable]
) -> None:
    for n in seeds:
        if not 1 <= n <= plan.entrants:
            raise ValueError(f"seed {n} is outside this {plan.entrants}-player plan")
    for label in places:
        if label not in plan.places:
            raise ValueError(f"no entry place {label!r} in this plan")
    for key in results:
        if key not in plan:
            raise ValueError(f"cannot record a result for {key}: there is no such match in this plan")
    if len(set(seeds.values())) < len(seeds):
        raise ValueError("a player holds more than one seed")
    if len(set(places.values())) < len(places):
        raise ValueError("a player holds more than one last-chance place")


def _state(node: Node, states: Mapping[str, NodeState[PlayerT]], inputs: _Inputs[PlayerT]) -> NodeState[PlayerT]:
    if node.conditional and _reset_skipped(node, states):
        return _no_result(node, inputs, NodeState(node.key, Status.SKIPPED, None, None))
    a, b = _side(node.a, states, inputs), _side(node.b, states, inputs)
    if a is _YET or b is _YET:
        known = (None if a is _YET else a, None if b is _YET else b)
        return _no_result(node, inputs, NodeState(node.key, Status.WAITING, *known))
    if a is None or b is None:
        status = Status.EMPTY if a is None and b is None else Status.BYE
        return _no_result(node, inputs, NodeState(node.key, status, a, b, winner=a if b is None else b))
    if a == b:
        raise ValueError(f"{node.key}: player {a!r} would meet himself")
    return _played(node, a, b, inputs)


def _reset_skipped(node: Node, states: Mapping[str, NodeState[PlayerT]]) -> bool:
    """The reset is skipped unless the grand final is finished and its side ``b`` won it."""
    assert isinstance(node.a, Loser)
    grand = states[node.a.key]
    if grand.status in (Status.WAITING, Status.READY):
        return False
    return grand.status is not Status.FINISHED or grand.winner != grand.b


def _no_result(node: Node, inputs: _Inputs[PlayerT], state: NodeState[PlayerT]) -> NodeState[PlayerT]:
    if node.key in inputs.results:
        raise ValueError(f"cannot record a result for {node.key}: the match is {state.status} (not ready)")
    return state


def _played(node: Node, a: PlayerT, b: PlayerT, inputs: _Inputs[PlayerT]) -> NodeState[PlayerT]:
    if node.key not in inputs.results:
        return NodeState(node.key, Status.READY, a, b)
    winner = inputs.results[node.key]
    if winner is None:
        # A double forfeit (both players withdrew): nobody wins and nobody loses; each side it feeds is nobody.
        return NodeState(node.key, Status.FINISHED, a, b)
    if winner not in (a, b):
        raise ValueError(f"cannot record {winner!r} as the winner of {node.key}: its players are {a!r} and {b!r}")
    return NodeState(node.key, Status.FINISHED, a, b, winner, b if winner == a else a)


def _side(
    source: Source, states: Mapping[str, NodeState[PlayerT]], inputs: _Inputs[PlayerT]
) -> PlayerT | Literal[_Unknown.YET] | None:
    if isinstance(source, Seed):
        return inputs.seeds.get(source.n)
    if isinstance(source, Place):
        return inputs.places.get(source.label, None if inputs.closed else _YET)
    if isinstance(source, Empty | Drawn):
        return None  # a drawn side is resolved with its bracket (_resolve_drawn), never from here
    state = states[source.key]
    if state.status in (Status.WAITING, Status.READY):
        return _YET
    if isinstance(source, Winner):
        return state.winner
    if source.within is not None and state.loser is not None:
        bracket = source.key.rsplit("-", 2)[0]
        return state.loser if inputs.played[(state.loser, bracket)] <= source.within else None
    return state.loser


def champion(plan: Plan, states: Mapping[str, NodeState[PlayerT]], bracket: str = MAIN) -> PlayerT | None:
    """The bracket's champion once decided: its final's winner (after a skipped reset, the grand final's). A
    consolation or last chance that only one player reached (the others it could have had were nobody, so he walked
    over byes) was not played: it has no champion."""
    if bracket in plan.drawn:
        feeders = getattr(states, "feeders", None)
        if feeders is None:
            raise ValueError(f"the {bracket} is drawn round by round: pass the states resolve() returned")
        return feeders[bracket].champion if bracket in feeders else None
    key = plan.final_key(bracket)
    if key is None:
        return None
    state = states[key]
    node = plan.node(key)
    if state.status is Status.SKIPPED and isinstance(node.a, Loser):
        state = states[node.a.key]
    winner = state.winner if state.status in (Status.FINISHED, Status.BYE) else None
    if winner is None or bracket == MAIN:
        return winner
    played = (s for n, s in zip(plan.nodes, (states[n.key] for n in plan.nodes), strict=True) if n.bracket == bracket)
    return winner if any(s.status is Status.FINISHED and winner in (s.a, s.b) for s in played) else None
