"""Bracket plans and their resolution (pure Python, no database).

``play`` below is a resolver written independently of ``brackets.resolve``: it walks the plan once in its order
and tosses a coin for every match. Runs are cross-checked against ``resolve`` and then used to check who plays,
who loses how often, and how many immediate rematches each placement of a dropped wave would have given.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import pytest

from tournaments.pairing.brackets import (
    CONSOLATION,
    FORMATS,
    LAST_CHANCE,
    MAIN,
    Empty,
    Loser,
    Node,
    Opponent,
    Place,
    Plan,
    Seed,
    Source,
    Status,
    Winner,
    champion,
    describe,
    plan_bracket,
    resolve,
)
from tournaments.pairing.elimination import bracket_size

FIELDS = [1, 2, 3, 5, 17, 33, 48, 96]
# Options that not every field allows (the consolation of a 33-player field has a single entrant, so no
# consolation loser can drop into its last chance): a case is left out where ``plan_bracket`` refuses them.
CONFIGS: dict[str, tuple[str, dict[str, Any]]] = {
    "single": ("single", {}),
    "consolation": ("main-consolation", {}),
    "consolation-d2": ("main-consolation", {"drop_rounds": 2}),
    "progressive": ("progressive-consolation", {}),
    "last-chance": ("main-consolation-lastchance", {"last_chance_places": 2}),
    "last-chance-l2": ("main-consolation-lastchance", {"last_chance_drop_rounds": 2, "last_chance_places": 1}),
    "last-chance-progressive": ("main-consolation-lastchance", {"progressive": True, "last_chance_drop_rounds": 3}),
    "double": ("double-elimination", {}),
    "double-no-reset": ("double-elimination", {"reset": False}),
}


@cache
def planned(name: str, n: int) -> Plan | None:
    fmt, options = CONFIGS[name]
    try:
        return plan_bracket(n, fmt, **options)
    except ValueError:
        if any(key in options for key in ("drop_rounds", "last_chance_drop_rounds")):
            return None
        raise


def cases(names: list[str], sizes: Iterable[int]) -> list[tuple[str, int]]:
    return [(name, n) for n in sizes for name in names if planned(name, n) is not None]


def plan_of(name: str, n: int) -> Plan:
    plan = planned(name, n)
    assert plan is not None
    return plan


def plans(name: str, sizes: Iterable[int] = range(1, 129)) -> Iterator[Plan]:
    return (plan_of(name, n) for name, n in cases([name], sizes))


def sources(node: Node) -> tuple[Source, Source]:
    return (node.a, node.b)


def plain(src: Source) -> Source:
    """A conditional loser as the plain loser of the same match."""
    return Loser(src.key) if isinstance(src, Loser) else src


def upstream(src: Source) -> str | None:
    return src.key if isinstance(src, Winner | Loser) else None


@dataclass
class Run:
    """One tournament played with coin tosses: who was where, and who won."""

    plan: Plan
    places: dict[str, int]
    results: dict[str, int] = field(default_factory=dict)
    players: dict[str, tuple[int | None, int | None]] = field(default_factory=dict)
    winners: dict[str, int | None] = field(default_factory=dict)
    losers: dict[str, int] = field(default_factory=dict)

    def occupant(self, src: Source) -> int | None:
        if isinstance(src, Seed):
            return src.n
        if isinstance(src, Place):
            return self.places.get(src.label)
        if isinstance(src, Empty):
            return None
        if isinstance(src, Winner):
            return self.winners.get(src.key)
        loser = self.losers.get(src.key)
        if loser is not None and src.within is not None:
            bracket = self.plan.node(src.key).bracket
            return loser if self.matches_in(loser, bracket) <= src.within else None
        return loser

    def matches_in(self, player: int, bracket: str) -> int:
        """The matches a player has played so far in a bracket (byes are not matches)."""
        return sum(player in self.players[key] for key in self.results if self.plan.node(key).bracket == bracket)

    def played(self) -> list[tuple[str, int, int, int]]:
        """(key, a, b, winner) of every match actually played, in plan order."""
        out = []
        for key, winner in self.results.items():
            a, b = self.players[key]
            assert a is not None and b is not None
            out.append((key, a, b, winner))
        return out


def play(plan: Plan, rng: random.Random) -> Run:
    """Every match a coin toss; seed ``k`` is player ``k`` and the places are filled with new players."""
    run = Run(plan, {label: plan.entrants + i for i, label in enumerate(plan.places, 1)})
    for node in plan.nodes:
        a, b = run.occupant(node.a), run.occupant(node.b)
        if node.conditional:
            grand = upstream(node.a)
            assert grand is not None
            if grand not in run.results or run.results[grand] == run.players[grand][0]:
                continue
        run.players[node.key] = (a, b)
        if a is not None and b is not None:
            run.results[node.key] = rng.choice((a, b))
            run.winners[node.key] = run.results[node.key]
            run.losers[node.key] = b if run.results[node.key] == a else a
        else:
            run.winners[node.key] = a if b is None else b
    return run


def losses(run: Run) -> Counter[int]:
    return Counter(b if winner == a else a for _, a, b, winner in run.played())


def entrants_of(run: Run, bracket: str) -> set[int]:
    return {p for key, pair in run.players.items() if run.plan.node(key).bracket == bracket for p in pair if p}


def ancestors(plan: Plan) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for node in plan.nodes:
        keys = [k for k in map(upstream, sources(node)) if k is not None]
        found[node.key] = {node.key}.union(*(found[k] for k in keys))
    return found


# --- structure ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "n"), cases(list(CONFIGS), FIELDS))
def test_keys_rounds_and_topological_order(name: str, n: int) -> None:
    plan = plan_of(name, n)
    seen: set[str] = set()
    for node in plan.nodes:
        assert node.key == f"{node.bracket}-{node.round}-{node.index}"
        assert all(k in seen for k in map(upstream, sources(node)) if k is not None), node.key
        seen.add(node.key)
    assert len(seen) == len(plan.nodes)
    for bracket in (MAIN, CONSOLATION, LAST_CHANCE):
        for r, nodes in enumerate(plan.rounds(bracket), 1):
            assert nodes, f"{bracket} round {r} is empty"
            assert [(node.round, node.index) for node in nodes] == [(r, i) for i in range(len(nodes))]


@pytest.mark.parametrize("name", CONFIGS)
def test_every_source_is_used_once_and_no_node_is_statically_empty(name: str) -> None:
    for plan in plans(name):
        check_sources(plan)


def check_sources(plan: Plan) -> None:
    n = plan.entrants
    used = Counter(src for node in plan.nodes for src in sources(node) if not isinstance(src, Empty))
    assert max(used.values()) == 1
    assert sorted(src.n for src in used if isinstance(src, Seed)) == list(range(1, n + 1))
    for node in plan.nodes:
        assert not (isinstance(node.a, Empty) and isinstance(node.b, Empty))
        assert not isinstance(node.a, Empty)
        if isinstance(node.b, Empty) and node.bracket != MAIN:
            assert len(plan.rounds(node.bracket)) == 1 and len(plan.rounds(node.bracket)[0]) == 1  # a lone entrant
    finals = {plan.final_key(b) for b in (MAIN, CONSOLATION, LAST_CHANCE)}
    for node in plan.nodes:
        if node.key not in finals and not isinstance(node.b, Empty):
            assert Winner(node.key) in used, f"the winner of {node.key} goes nowhere"


@pytest.mark.parametrize("name", CONFIGS)
def test_byes_only_where_forced(name: str) -> None:
    for plan in plans(name):
        check_byes(plan)


def check_byes(plan: Plan) -> None:
    n = plan.entrants
    size = bracket_size(n)
    byes = [node for node in plan.rounds(MAIN)[0] if isinstance(node.b, Empty)]
    assert sorted(node.a.n for node in byes if isinstance(node.a, Seed)) == list(range(1, size - n + 1))
    for bracket in (CONSOLATION, LAST_CHANCE):
        nodes = [node for node in plan.nodes if node.bracket == bracket]
        sides = [(s, why) for node in nodes for s, why in ((node.a, node.why_a), (node.b, node.why_b))]
        entries = [s for s, _ in sides if not isinstance(s, Empty) and upstream(s) not in {x.key for x in nodes}]
        # every feeder node is a real match, so m entrants take m - 1 matches (a lone entrant: one bye node)
        assert len(nodes) == (len(entries) - 1 if len(entries) > 1 else len(entries))
        drawn = [why for _, why in sides if f"drawn as {bracket} seed" in why]
        first_byes = [why for why in drawn if f"bye in {bracket} round 1" in why]
        assert len(first_byes) == (bracket_size(len(drawn)) - len(drawn) if drawn else 0)
        assert all(f"seed {i} of" in why for i, why in enumerate(sorted(first_byes, key=_seed_in), 1))
        for r in range(2, len(plan.rounds(bracket)) + 1):  # later byes: an odd survivor, or a wave outnumbering
            waiting = [why for _, why in sides if f"bye in {bracket} round {r}" in why]
            dropped = [d for d in plan.drops if d.bracket == bracket and d.round == r]
            allowed = len(dropped[0].wave) - len(dropped[0].survivors) if dropped else 1
            assert len(waiting) <= allowed


def _seed_in(why: str) -> int:
    return int(why.split(" seed ")[1].split()[0])


@pytest.mark.parametrize(("name", "n"), cases(list(CONFIGS), FIELDS))
def test_explanations_for_every_source(name: str, n: int) -> None:
    plan = plan_of(name, n)
    for node in plan.nodes:
        for src, why in ((node.a, node.why_a), (node.b, node.why_b)):
            if isinstance(src, Seed):
                assert why == f"seed {src.n}"
            elif isinstance(src, Empty):
                assert why.startswith("bye: there is no seed") or why.startswith("nobody: the")
            elif node.conditional:
                assert "grand final" in why
            else:
                assert why.startswith(describe(src)), why
            dropped = isinstance(src, Loser) and node.bracket != MAIN and "drawn as" not in why and "alone" not in why
            if dropped:
                assert "placed" in why or "only possible placement" in why, why


# --- playing the plans ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", CONFIGS)
def test_independent_runs_agree_with_resolve(name: str) -> None:
    rng = random.Random(f"agree {name}")
    for plan in plans(name, [*FIELDS, *rng.sample(range(1, 129), 10)]):
        run = play(plan, rng)
        states = resolve(
            plan,
            seeds={k: k for k in range(1, plan.entrants + 1)},
            results=run.results,
            places=run.places,
            places_closed=True,
        )
        for node in plan.nodes:
            state = states[node.key]
            if node.key not in run.players:
                assert state.status is Status.SKIPPED
                continue
            assert (state.a, state.b) == run.players[node.key]
            assert state.winner == run.winners[node.key]
            assert state.status in (Status.FINISHED, Status.BYE, Status.EMPTY)


def test_resolve_step_by_step_reaches_the_end() -> None:
    """Record every ready match of a round at once until none is left: nothing stays waiting."""
    rng = random.Random(7)
    for name in CONFIGS:
        for plan in plans(name, FIELDS):
            seeds = {k: f"p{k}" for k in range(1, plan.entrants + 1) if k != 2}  # seed 2 did not come
            results: dict[str, str] = {}
            while True:
                states = resolve(plan, seeds=seeds, results=results, places={}, places_closed=True)
                ready = [s for s in states.values() if s.status is Status.READY]
                if not ready:
                    break
                results.update({s.key: rng.choice((s.a, s.b)) for s in ready if s.a and s.b})
            assert all(s.status not in (Status.WAITING, Status.READY) for s in states.values())
            if plan.entrants > 2:
                winner = champion(plan, states)
                assert winner is not None and winner in seeds.values()


@pytest.mark.parametrize("name", CONFIGS)
def test_every_player_plays_until_eliminated(name: str) -> None:
    """A player's matches chain: each is fed by his result in the one before, and his last result goes nowhere."""
    rng = random.Random(f"until {name}")
    for plan in plans(name, [*FIELDS, *rng.sample(range(1, 129), 12)]):
        run = play(plan, rng)
        consumer = {plain(src): node.key for node in plan.nodes for src in sources(node)}
        paths: dict[int, list[str]] = {}
        for key, pair in run.players.items():
            for p in pair:
                if p is not None:
                    paths.setdefault(p, []).append(key)
        for p, path in paths.items():
            outcomes = [Winner(k) if run.winners[k] == p else Loser(k) for k in path]
            for outcome, nxt in zip(outcomes, path[1:], strict=False):
                assert consumer[outcome] == nxt, f"player {p} went from {outcome} to {nxt}"
            last = consumer.get(plain(outcomes[-1]))
            assert p not in run.players.get(last or "", ()), f"player {p} stopped before {outcomes[-1]}"


@pytest.mark.parametrize("n", range(1, 129))
def test_single_elimination_everyone_but_the_champion_loses_once(n: int) -> None:
    plan = plan_of("single", n)
    run = play(plan, random.Random(n))
    lost = losses(run)
    assert len(run.results) == n - 1
    assert set(lost.values()) <= {1} and len(lost) == n - 1
    assert champion_of(run) not in lost


def champion_of(run: Run, bracket: str = MAIN) -> int | None:
    states = resolve(
        run.plan,
        seeds={k: k for k in range(1, run.plan.entrants + 1)},
        results=run.results,
        places=run.places,
        places_closed=True,
    )
    return champion(run.plan, states, bracket)


def first_losses(run: Run, bracket: str, matches: int) -> set[int]:
    """The players who lost one of their first ``matches`` matches of a bracket, its final's loser left out."""
    final, out, played = run.plan.final_key(bracket), set(), Counter[int]()
    for key in run.results:  # in plan order
        if run.plan.node(key).bracket != bracket:
            continue
        played.update(run.players[key])
        if key != final and played[run.losers[key]] <= matches:
            out.add(run.losers[key])
    return out


@pytest.mark.parametrize("name", ["consolation", "consolation-d2", "progressive"])
def test_consolation_entrants_are_the_players_who_lost_one_of_their_first_matches(name: str) -> None:
    """A bye is an advance, not a match: a seed with a bye who loses in round 2 lost his first match. A consolation
    that only one player reaches is not played."""
    rng = random.Random(name)
    for plan in plans(name):
        run = play(plan, rng)
        dropped = first_losses(run, MAIN, plan.drop_rounds)
        if plan.rounds(CONSOLATION):
            assert entrants_of(run, CONSOLATION) == dropped
        else:
            assert len(dropped) <= 1
            dropped = set()
        consolation = [key for key in run.results if key.startswith(CONSOLATION)]
        assert len(run.results) == plan.entrants - 1 + max(len(dropped) - 1, 0) == len(consolation) + plan.entrants - 1
        lost = losses(run)
        champ = champion_of(run, CONSOLATION)
        assert all(lost[p] == (1 if p == champ else 2) for p in dropped)
        assert all(lost[p] == 1 for p in lost if p not in dropped) and champion_of(run) not in set(lost)


def test_a_seed_with_a_bye_who_loses_his_first_match_enters_the_consolation() -> None:
    plan = plan_bracket(17, "main-consolation")  # 15 byes; seed 1 meets the winner of 16 v 17 in round 2
    sources = {describe(s) for n in plan.nodes if n.bracket == CONSOLATION for s in (n.a, n.b) if isinstance(s, Loser)}
    assert len(sources) == 9  # 16 v 17's loser and the eight round-2 losers (before: 16 v 17's loser alone)
    assert "loser of main round 2 match 1 if it was his first match in the main (else nobody)" in sources
    seeds = {k: f"p{k}" for k in range(1, 18)}

    def consolation_players(results: dict[str, str]) -> set[str | None]:
        states = resolve(plan, seeds=seeds, results=results, places={}, places_closed=True)
        return {p for n in plan.nodes if n.bracket == CONSOLATION for p in (states[n.key].a, states[n.key].b)}

    assert "p1" in consolation_players({"main-1-1": "p16", "main-2-0": "p16"})  # a bye, then a loss
    assert "p16" not in consolation_players({"main-1-1": "p16", "main-2-0": "p1"})  # his second match


@pytest.mark.parametrize("n", [3, 5, 9, 17, 33, 513])
def test_no_consolation_of_one_player(n: int) -> None:
    plan = plan_bracket(n, "main-consolation")
    consolation = plan.rounds(CONSOLATION)
    assert n == 3 or sum(len(r) for r in consolation) >= 1
    assert all(not (isinstance(node.b, Empty) or isinstance(node.a, Empty)) for r in consolation for node in r)


@pytest.mark.parametrize("name", ["last-chance", "last-chance-l2", "last-chance-progressive"])
def test_last_chance_entrants_are_consolation_losers_and_places(name: str) -> None:
    rng = random.Random(name)
    for plan in plans(name):
        run = play(plan, rng)
        within = plan.last_chance_drop_rounds
        dropped = first_losses(run, CONSOLATION, within) if within else set()
        if not plan.rounds(LAST_CHANCE):  # a last chance of one is not played, and has no place
            assert len(dropped) + len(run.places) <= 1 and not plan.places
            continue
        assert entrants_of(run, LAST_CHANCE) == dropped | set(run.places.values())
        entrants = len(dropped) + len(run.places)
        assert len([key for key in run.results if key.startswith(LAST_CHANCE)]) == max(entrants - 1, 0)


@pytest.mark.parametrize("name", ["double", "double-no-reset"])
def test_double_elimination_everyone_but_the_champion_loses_twice(name: str) -> None:
    rng = random.Random(name)
    for plan in plans(name):
        for _ in range(3):
            run = play(plan, rng)
            lost, champ, n = losses(run), champion_of(run), plan.entrants
            reset_played = f"main-{plan.main_rounds + 2}-0" in run.results
            assert len(run.results) == max(2 * n - 2 + reset_played, 0)
            assert champ is not None and lost[champ] <= 1
            others = {p: k for p, k in lost.items() if p != champ}
            if name == "double":
                assert set(others.values()) <= {2} and len(others) == n - 1
            else:  # without a reset, the main champion beaten in the grand final is out after one loss
                assert sorted(others.values()).count(1) <= 1 and len(others) == n - 1


# --- rematches ------------------------------------------------------------------------------------------------

REMATCH_CONFIGS = ["consolation-d2", "progressive", "last-chance-l2", "last-chance-progressive", "double"]
RUNS = 12


def meetings(run: Run) -> dict[frozenset[int], set[str]]:
    met: dict[frozenset[int], set[str]] = {}
    for key, a, b, _ in run.played():
        met.setdefault(frozenset((a, b)), set()).add(key)
    return met


def is_rematch(
    run: Run,
    met: dict[frozenset[int], set[str]],
    first: tuple[Source, Opponent],
    before: dict[str, set[str]],
    rng: random.Random,
) -> bool:
    """Whether a dropped player's first opponent would be someone he met upstream of this match."""
    dropped, opponent = first
    x = run.occupant(dropped)
    pair = opponent if isinstance(opponent, tuple) else (opponent,)
    present = [p for p in map(run.occupant, pair) if p is not None]
    y = rng.choice(present) if present else None  # the winner of a match between the two, by a coin toss
    if x is None or y is None:
        return False
    keys = [k for k in map(upstream, (dropped, *pair)) if k is not None]
    return any(m in before[k] for m in met.get(frozenset((x, y)), ()) for k in keys)


def rematch_counts(plan: Plan, seed: str, runs: int = RUNS) -> list[dict[str, int]]:
    """For each drop of the plan, the immediate rematches every candidate placement would have given."""
    rng, before = random.Random(seed), ancestors(plan)
    counts: list[dict[str, int]] = [dict.fromkeys((c.name for c in d.candidates), 0) for d in plan.drops]
    for _ in range(runs):
        run = play(plan, rng)
        met = meetings(run)
        for drop, count in zip(plan.drops, counts, strict=True):
            for c in drop.candidates:
                count[c.name] += sum(is_rematch(run, met, first, before, rng) for first in c.first_matches)
    return counts


@cache
def simulated(name: str, n: int) -> list[dict[str, int]]:
    return rematch_counts(plan_of(name, n), f"{name} {n}")


class Possible:
    """Who could stand where if results did not have to agree: an over-approximation of who could have met."""

    def __init__(self, plan: Plan) -> None:
        self.plan, self.before = plan, ancestors(plan)
        self.sides: dict[str, tuple[frozenset[int], frozenset[int]]] = {}
        for node in plan.nodes:
            self.sides[node.key] = (self.of(node.a), self.of(node.b))

    def of(self, src: Source) -> frozenset[int]:
        if isinstance(src, Seed):
            return frozenset((src.n,))
        if isinstance(src, Place):
            return frozenset((self.plan.entrants + 1 + self.plan.places.index(src.label),))
        if isinstance(src, Empty):
            return frozenset()
        a, b = self.sides[src.key]
        return a | b if isinstance(src, Winner) or (a and b) else frozenset()

    def rematch_free(self, first_matches: tuple[tuple[Source, Opponent], ...]) -> bool:
        for dropped, opponent in first_matches:
            pair = opponent if isinstance(opponent, tuple) else (opponent,)
            p, q = self.of(dropped), frozenset().union(*map(self.of, pair))
            keys = set().union(*(self.before[k] for k in map(upstream, (dropped, *pair)) if k is not None))
            if any((p & a and q & b) or (p & b and q & a) for a, b in map(self.sides.__getitem__, keys)):
                return False
        return True


@pytest.mark.parametrize("name", REMATCH_CONFIGS)
def test_chosen_placement_is_never_worse_than_plain_order(name: str) -> None:
    """Exactly by the plan's own expected counts; in the simulated runs, within sampling noise, and in total."""
    totals: Counter[str] = Counter()
    for plan in plans(name, range(2, 129)):
        for drop, count in zip(plan.drops, simulated(name, plan.entrants), strict=True):
            costs = {c.name: c.cost for c in drop.candidates}
            assert costs[drop.chosen] == min(costs.values()) <= costs["in plain order"]
            if costs[drop.chosen] == costs["in plain order"]:
                assert drop.chosen == "in plain order"  # plain order wins ties
            chosen, plain = count[drop.chosen], count["in plain order"]
            assert chosen <= plain + 3 * math.sqrt(chosen + plain), f"{plan.entrants}: {drop}"  # sampling noise
            totals.update(chosen=chosen, plain=plain)
    assert totals["chosen"] < totals["plain"]


@pytest.mark.parametrize("name", REMATCH_CONFIGS)
def test_no_rematch_whenever_some_candidate_avoids_them_all(name: str) -> None:
    """``Possible`` shows a candidate rematch-free without the plan's help; then the chosen one is too."""
    shown = 0
    for plan in plans(name, range(2, 129)):
        possible = Possible(plan)
        for drop, count in zip(plan.drops, simulated(name, plan.entrants), strict=True):
            chosen = next(c for c in drop.candidates if c.name == drop.chosen)
            if chosen.cost == 0:
                assert count[chosen.name] == 0
            elif any(possible.rematch_free(c.first_matches) for c in drop.candidates):
                pytest.fail(f"{plan.entrants} players: {drop.chosen} chosen but a candidate avoids every rematch")
            shown += any(possible.rematch_free(c.first_matches) for c in drop.candidates if c is not chosen)
    assert shown > 0


@pytest.mark.parametrize("name", REMATCH_CONFIGS)
def test_costs_are_the_expected_numbers_of_rematches(name: str) -> None:
    """The cost the plan minimises is what the simulated runs count, within five standard deviations."""
    for plan in plans(name, range(2, 129)):
        for drop, count in zip(plan.drops, simulated(name, plan.entrants), strict=True):
            for c in drop.candidates:
                mean = RUNS * c.cost
                assert abs(count[c.name] - mean) <= 5 * math.sqrt(mean + 1), f"{plan.entrants}: {c}"


@pytest.mark.parametrize("name", REMATCH_CONFIGS)
def test_chosen_first_matches_are_the_planned_ones(name: str) -> None:
    for plan in plans(name, range(2, 129)):
        pairs = {frozenset(sources(node)) for node in plan.nodes}
        winner_of = {frozenset(sources(node)): Winner(node.key) for node in plan.nodes}
        for drop in plan.drops:
            chosen = next(c for c in drop.candidates if c.name == drop.chosen)
            for dropped, opponent in chosen.first_matches:
                mate = winner_of[frozenset(opponent)] if isinstance(opponent, tuple) else opponent
                assert frozenset((dropped, mate)) in pairs


@pytest.mark.parametrize("n", [8, 16, 32, 64])
def test_classic_double_elimination_keeps_round_two_losers_from_rematches(n: int) -> None:
    plan = plan_of("double", n)
    drops = [d for d in plan.drops if all((upstream(s) or "").startswith("main-2-") for s in d.wave)]
    assert len(drops) == 1
    counts = rematch_counts(plan, f"classic {n}")[plan.drops.index(drops[0])]
    assert counts[drops[0].chosen] == 0 and drops[0].chosen == "in reverse order"
    assert next(c.cost for c in drops[0].candidates if c.name == drops[0].chosen) == 0


# --- examples, resolution errors, places, validation --------------------------------------------


def test_seventeen_players_consolation_takes_every_first_match_loser() -> None:
    one = plan_bracket(17, "main-consolation")  # before: the loser of 16 v 17 alone, a bye pairing
    entries = {s for n in one.nodes if n.bracket == CONSOLATION for s in sources(n) if isinstance(s, Loser)}
    assert entries == {Loser("main-1-1"), Loser("main-2-0", within=1)} | {Loser(f"main-2-{i}") for i in range(1, 8)}
    assert [len(r) for r in one.rounds(CONSOLATION)] == [1, 4, 2, 1]  # 9 players, 8 matches
    two = plan_bracket(17, "main-consolation", drop_rounds=2)  # the losers of one of their first two matches
    entries = {s for n in two.nodes if n.bracket == CONSOLATION for s in sources(n) if isinstance(s, Loser)}
    assert {Loser("main-1-1")} | {Loser(f"main-2-{i}") for i in range(1, 8)} < entries
    assert Loser("main-3-1") in entries and Loser("main-3-0", within=2) in entries


def test_classic_eight_player_double_elimination() -> None:
    plan = plan_bracket(8, "double-elimination")
    assert [len(r) for r in plan.rounds(CONSOLATION)] == [2, 2, 1, 1]
    assert [len(r) for r in plan.rounds(MAIN)] == [4, 2, 1, 1, 1]
    second = plan.node("consolation-2-0")
    assert (second.a, second.b) == (Winner("consolation-1-0"), Loser("main-2-1"))
    assert second.why_b.startswith("loser of main round 2 match 2; placed in reverse order so that he cannot meet")
    grand, reset = plan.node("main-4-0"), plan.node("main-5-0")
    assert (grand.a, grand.b, grand.conditional) == (Winner("main-3-0"), Winner("consolation-4-0"), False)
    assert (reset.a, reset.b, reset.conditional) == (Loser("main-4-0"), Winner("main-4-0"), True)
    assert plan.final_key(MAIN) == "main-5-0" and plan.final_key(CONSOLATION) == "consolation-4-0"


def resolved(plan: Plan, results: dict[str, str], **kw: Any) -> dict[str, Any]:
    seeds = kw.pop("seeds", {k: f"p{k}" for k in range(1, plan.entrants + 1)})
    return resolve(
        plan, seeds=seeds, results=results, places=kw.pop("places", {}), places_closed=kw.pop("closed", True)
    )


def test_resolution_statuses_along_a_small_double_elimination() -> None:
    plan = plan_bracket(3, "double-elimination")  # 1 has a bye; 2 v 3; final; losers' final; grand final; reset
    states = resolved(plan, {})
    assert [states[k].status for k in ("main-1-0", "main-1-1", "main-2-0")] == ["bye", "ready", "waiting"]
    assert (states["main-1-0"].winner, states["main-1-0"].loser) == ("p1", None)
    assert (states["main-2-0"].a, states["main-2-0"].b) == ("p1", None)
    states = resolved(plan, {"main-1-1": "p3", "main-2-0": "p1", "consolation-1-0": "p3", "main-3-0": "p1"})
    assert states["main-4-0"].status == "skipped" and (states["main-4-0"].a, states["main-4-0"].b) == (None, None)
    assert champion(plan, states) == "p1" and champion(plan, states, CONSOLATION) == "p3"
    states = resolved(plan, {"main-1-1": "p3", "main-2-0": "p1", "consolation-1-0": "p3", "main-3-0": "p3"})
    assert states["main-4-0"].status == "ready" and (states["main-4-0"].a, states["main-4-0"].b) == ("p1", "p3")
    assert champion(plan, states) is None
    states = resolved(
        plan, {"main-1-1": "p3", "main-2-0": "p1", "consolation-1-0": "p3", "main-3-0": "p3", "main-4-0": "p3"}
    )
    assert champion(plan, states) == "p3"


def test_resolution_refuses_bad_results() -> None:
    plan = plan_bracket(5, "main-consolation")
    with pytest.raises(ValueError, match=r"cannot record a result for main-2-0: the match is waiting"):
        resolved(plan, {"main-2-0": "p1"})
    with pytest.raises(ValueError, match=r"cannot record a result for main-1-0: the match is bye"):
        resolved(plan, {"main-1-0": "p1"})
    with pytest.raises(
        ValueError, match=r"cannot record 'p9' as the winner of main-1-1: its players are 'p4' and 'p5'"
    ):
        resolved(plan, {"main-1-1": "p9"})
    with pytest.raises(ValueError, match="cannot record a result for consolation-7-0: there is no such match"):
        resolved(plan, {"consolation-7-0": "p1"})
    with pytest.raises(ValueError, match="seed 6 is outside this 5-player plan"):
        resolved(plan, {}, seeds={6: "p6"})
    with pytest.raises(ValueError, match="a player holds more than one seed"):
        resolved(plan, {}, seeds={1: "p1", 2: "p1"})
    with pytest.raises(ValueError, match="no entry place 'last-chance place 1'"):
        resolved(plan, {}, places={"last-chance place 1": "p1"})


def test_a_missing_seed_is_an_empty_side() -> None:
    plan = plan_bracket(5, "main-consolation")  # round 1: 1 bye, 4 v 5, 2 bye, 3 bye
    states = resolved(plan, {}, seeds={1: "a", 2: "b", 3: "c", 4: "d"})
    assert states["main-1-1"].status == "bye" and states["main-1-1"].winner == "d"
    assert states["consolation-1-0"].a is None  # 4 v 5's loser is nobody: the consolation waits for main round 2
    states = resolved(plan, {}, seeds={})
    assert {s.status for s in states.values()} == {"empty"}


def test_last_chance_places_filled_unfilled_and_closed() -> None:
    plan = plan_bracket(8, "main-consolation-lastchance", last_chance_places=2)
    assert plan.places == ("last-chance place 1", "last-chance place 2")
    lc = plan.rounds(LAST_CHANCE)
    assert {s for r in lc for n in r for s in sources(n)} >= {Place(label) for label in plan.places}
    results = {"main-1-0": "p1", "main-1-1": "p4", "main-1-2": "p2", "main-1-3": "p3"}
    results |= {"consolation-1-0": "p5", "consolation-1-1": "p6"}  # p8 and p7 drop into the last chance
    open_ = resolved(plan, results, closed=False)
    place_nodes = [n for r in lc for n in r if any(isinstance(s, Place) for s in sources(n))]
    assert all(open_[n.key].status == "waiting" for n in place_nodes)
    filled = resolved(plan, results, places={"last-chance place 1": "late", "last-chance place 2": "p5"})
    players = {p for n in plan.nodes if n.bracket == LAST_CHANCE for p in (filled[n.key].a, filled[n.key].b)}
    assert {"late", "p5", "p7", "p8"} <= players
    closed = resolved(plan, results, places={"last-chance place 2": "p1"}, closed=True)
    statuses = Counter(closed[n.key].status for n in plan.nodes if n.bracket == LAST_CHANCE)
    assert statuses == {"ready": 1, "bye": 1, "waiting": 1}  # p1 v a dropped player; the empty place: a bye
    nobody = resolved(plan, results, closed=True)
    assert sorted(nobody[n.key].status for n in place_nodes) in (["bye", "bye"], ["empty"])


def test_a_player_cannot_meet_himself() -> None:
    plan = plan_bracket(2, "main-consolation-lastchance", last_chance_places=2)
    with pytest.raises(ValueError, match="a player holds more than one last-chance place"):
        resolved(plan, {}, places={"last-chance place 1": "x", "last-chance place 2": "x"})
    plan = plan_bracket(8, "main-consolation-lastchance", last_chance_places=2)
    results = {"main-1-2": "p2", "main-1-3": "p3", "consolation-1-1": "p6"}  # p7 loses twice
    assert (plan.node("last-chance-1-0").a, plan.node("last-chance-1-0").b) == (
        Loser("consolation-1-1"),
        Place("last-chance place 2"),
    )
    with pytest.raises(ValueError, match="last-chance-1-0: player 'p7' would meet himself"):
        resolved(plan, results, places={"last-chance place 2": "p7"})


def test_plan_options_are_validated_in_words_a_director_understands() -> None:
    with pytest.raises(ValueError, match="unknown bracket format 'swiss': choose one of single, main-consolation"):
        plan_bracket(8, "swiss")
    with pytest.raises(ValueError, match="a bracket needs at least one player"):
        plan_bracket(0, "single")
    message = r"drop_rounds must be between 1 and 3 for a 9-player main bracket \(it has 4 rounds\)"
    with pytest.raises(ValueError, match=message):
        plan_bracket(9, "progressive-consolation", drop_rounds=4)
    with pytest.raises(ValueError, match=r"drop_rounds must be between 1 and 2 .*use progressive-consolation"):
        plan_bracket(9, "main-consolation", drop_rounds=3)
    with pytest.raises(ValueError, match="drop_rounds cannot be set: a 2-player main bracket is only its final"):
        plan_bracket(2, "main-consolation", drop_rounds=1)
    with pytest.raises(ValueError, match="last_chance_drop_rounds must be between 1 and"):
        plan_bracket(96, "main-consolation-lastchance", last_chance_drop_rounds=9)
    refused: list[tuple[str, dict[str, Any]]] = [
        ("single", {"drop_rounds": 1}),
        ("double-elimination", {"drop_rounds": 1}),
        ("single", {"reset": False}),
        ("main-consolation", {"progressive": True}),
        ("progressive-consolation", {"last_chance_places": 1}),
    ]
    for fmt, option in refused:
        with pytest.raises(ValueError, match=f"{next(iter(option))} does not apply to the {fmt} format"):
            plan_bracket(8, fmt, **option)
    with pytest.raises(ValueError, match="last_chance_places cannot be negative"):
        plan_bracket(8, "main-consolation-lastchance", last_chance_places=-1)


@pytest.mark.parametrize("fmt", FORMATS)
def test_defaults_plan_every_field(fmt: str) -> None:
    for n in range(1, 129):
        plan = plan_bracket(n, fmt)
        assert plan.format == fmt and plan.entrants == n
        assert plan.final_key(MAIN) is not None


def test_small_fields() -> None:
    lone = plan_bracket(1, "double-elimination")
    assert [n.key for n in lone.nodes] == ["main-1-0"]
    assert champion(lone, resolved(lone, {})) == "p1"
    pair = plan_bracket(2, "double-elimination")
    assert [n.key for n in pair.nodes] == ["main-1-0", "consolation-1-0", "main-2-0", "main-3-0"]
    assert pair.node("consolation-1-0").b == Empty()  # a lone entrant's bye: the losers' bracket still has a final
    assert plan_bracket(2, "progressive-consolation").drop_rounds == 0
    assert plan_bracket(48, "progressive-consolation").drop_rounds == 5


def test_a_last_chance_only_one_player_reaches_has_no_champion() -> None:
    """Six players, the better seed always winning: main-2-0's and main-2-1's losers had played two main matches,
    so neither enters the consolation; its one match (5 v 6) is its only one, so the last chance holds only the
    loser of it, who walks over a bye. He never played there: the last chance has no champion (the consolation
    does: seed 5 won a match in it)."""
    plan = plan_bracket(6, "main-consolation-lastchance")
    results = {"main-1-1": "p4", "main-1-3": "p3", "main-2-0": "p1", "main-2-1": "p2", "main-3-0": "p1"}
    states = resolved(plan, {**results, "consolation-1-0": "p5"})
    assert states["last-chance-1-0"].status is Status.BYE and states["last-chance-1-0"].winner == "p6"
    assert champion(plan, states, LAST_CHANCE) is None
    assert champion(plan, states, CONSOLATION) == "p5"
    assert champion(plan, states) == "p1"


def test_a_round_1_walkover_counted_like_a_bye_lets_its_winner_enter_the_consolation() -> None:
    """Eight players, main with consolation. Seed 1's round-1 opponent does not show (a walkover); seed 1 then loses
    his round-2 match, his first match played. With ``walkover_as_bye`` he enters the consolation, as a seed with a
    bye would; without it he does not (he had two main matches); formats without a consolation refuse the option."""
    results = {"main-1-0": "p1", "main-1-1": "p4", "main-1-2": "p2", "main-1-3": "p3", "main-2-0": "p4"}
    results |= {"main-2-1": "p2", "consolation-1-0": "p8", "consolation-1-1": "p6"}
    plain = plan_bracket(8, "main-consolation")
    assert not any(isinstance(s, Loser) and s.key.startswith("main-2-") for n in plain.nodes for s in sources(n))
    plan = plan_bracket(8, "main-consolation", walkover_as_bye=True)
    conditional = [s for n in plan.nodes for s in sources(n) if isinstance(s, Loser) and s.key.startswith("main-2-")]
    assert set(conditional) == {Loser("main-2-0", within=1), Loser("main-2-1", within=1)}

    def consolation_players(walkovers: set[str]) -> set[str | None]:
        seeds = {k: f"p{k}" for k in range(1, 9)}
        states = resolve(plan, seeds=seeds, results=results, places={}, places_closed=True, walkovers=walkovers)
        return {p for n in plan.nodes if n.bracket == CONSOLATION for p in (states[n.key].a, states[n.key].b)}

    entrants = consolation_players({"main-1-0"})
    assert "p1" in entrants, "the walkover's winner lost his first match played"
    assert "p3" not in entrants, "main-2-1's loser had played two main matches"
    assert "p1" not in consolation_players(set()), "had he played round 1, he would have played two main matches"
    with pytest.raises(ValueError, match="walkover_as_bye does not apply to the single format"):
        plan_bracket(8, "single", walkover_as_bye=True)
