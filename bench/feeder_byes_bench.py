"""Byes in the consolation and the last chance: the plan made at the draw against the same brackets drawn round by
round once their players are known (bench/README.md, "Byes in the consolation and the last chance").

Usage: python bench/feeder_byes_bench.py [--runs 3] [--sizes 5-32] [--seed 29]

Each rehearsal plays a division of 5 to 32 players (``main-consolation`` default and ``drop_rounds`` 2,
``progressive-consolation``, ``main-consolation-lastchance`` without and with 2 entry places) in three ways: every
match a coin toss; the same with withdrawals (before each of his matches a player withdraws with chance 1 in 10: he
loses that match by forfeit, and every later one he is drawn into); the same with forfeits (a match is lost by a
no-show with chance 1 in 10, the player staying in). A match between two withdrawn players is a double forfeit.

- **planned** (today's code): every bracket played through its plan (``plan_bracket``), node after node, as
  ``resolve`` does: a slot nobody fills is a bye, a withdrawn player keeps his slots and forfeits them.
- **drawn late** (the rule of tournaments/pairing/feeder.py): the main bracket as planned; each round of a feeder
  bracket drawn by ``draw_feeder_round`` from the players it holds then: the ones who won or had a bye in its round
  before, and the ones who have just dropped in (consolation round r: the losers of main round r who qualify by the
  same "first losses" rule as the plan; last-chance round r: the losers of consolation round r who do, and the entry
  places in round 1). A withdrawn player is not drawn. A lone player with more to come waits a round.

- **drawn plan** (the divisions' code): ``plan_bracket(..., drawn=True)`` played through ``brackets.resolve`` after
  each round of results, as ``resolve_division`` does (a withdrawn player passed with the first round of each
  feeder bracket not drawn yet when he left). It ranks by seed where *drawn late* ranks by arrival, so its draws,
  and then its coin tosses, differ: its columns are its byes and (B).

A feeder bracket of ``m`` players (``m`` >= 2: the ones who entered it still playing) is counted in a column when

- (A) a player had two byes or more (planned, or slots nobody filled) since his last match before one he plays;
- (A+) the same counting walkovers (his opponent withdrew or did not show) as rounds sat out;
- (B) it gave more byes than its field needs: the fewest a draw made round by round as its players drop in can give
  (``fewest_byes``); a lone player waiting for the next to drop in has nobody to play, and that is no bye;
- (K) it gave more byes than a knockout of its size (``bracket_size(m) - m``).

A rehearsal counts once in a column when any of its feeder brackets does. Last, it says how many feeder brackets
drawn late needed no more matches in any round than the plan has nodes in it (the plan's slots cannot simply be
reused for a draw made late; ``feeder_slots`` says how many a round needs).
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournaments.pairing.brackets import (
    CONSOLATION,
    LAST_CHANCE,
    MAIN,
    Empty,
    Loser,
    Place,
    Plan,
    Seed,
    Status,
    Winner,
    plan_bracket,
    resolve,
)
from tournaments.pairing.elimination import bracket_size
from tournaments.pairing.feeder import FeederState, SlotStatus, feeder_slots, fewest_byes, resolve_feeder

CONFIGS: dict[str, tuple[str, dict[str, Any]]] = {
    "main-consolation": ("main-consolation", {}),
    "main-consolation, drop_rounds 2": ("main-consolation", {"drop_rounds": 2}),
    "progressive-consolation": ("progressive-consolation", {}),
    "main-consolation-lastchance": ("main-consolation-lastchance", {}),
    "main-consolation-lastchance, 2 places": ("main-consolation-lastchance", {"last_chance_places": 2}),
}
SCENARIOS = {"coin tosses": (0.0, 0.0), "withdrawals": (0.1, 0.0), "forfeits": (0.0, 0.1)}
FEEDERS = (CONSOLATION, LAST_CHANCE)


@dataclass
class Fate:
    """Who wins a match: a coin toss, unless a player withdraws now (or has), or does not show. Each bracket draws
    from a stream of its own, so that both ways play the same main bracket (the same consolation entrants)."""

    seed: str
    withdraw: float
    forfeit: float
    gone: set[int] = field(default_factory=set)
    streams: dict[str, random.Random] = field(default_factory=dict)

    def play(self, a: int, b: int, bracket: str) -> tuple[int | None, int | None, bool]:
        """(winner, loser, walkover): a double forfeit has neither winner nor loser."""
        rng = self.streams.setdefault(bracket, random.Random(f"{self.seed}-{bracket}"))
        for player in (a, b):
            if player not in self.gone and rng.random() < self.withdraw:
                self.gone.add(player)
        if a in self.gone and b in self.gone:
            return None, None, True
        if a in self.gone or b in self.gone:
            return (b, a, True) if a in self.gone else (a, b, True)
        walkover = rng.random() < self.forfeit
        winner = rng.choice((a, b))
        return winner, b if winner == a else a, walkover


@dataclass
class Tally:
    """What the players of one feeder bracket sat out, and who was in each of its rounds."""

    players: set[int] = field(default_factory=set)
    before_matches: list[tuple[int, int]] = field(default_factory=list)  # before each match played: the rounds
    # sat out since his last match (byes and walkovers), and the byes among them
    byes: Counter[int] = field(default_factory=Counter)  # byes of a round
    arrivals: Counter[int] = field(default_factory=Counter)  # players dropping in after each round above
    matches: list[int] = field(default_factory=list)  # drawn late: the matches of each round

    def enter(self, round_: int, player: int | None, fate: Fate, bye: bool = False) -> None:
        if player is not None and player not in fate.gone:
            self.players.add(player)
            self.byes[round_] += bye

    def flags(self) -> tuple[bool, ...]:
        """(A) two byes or more before a match, (A+) two rounds sat out or more, walkovers counted, (B) more byes
        than the field needs, (K) more byes than a knockout of the field's size."""
        m = len(self.players)
        if m < 2:
            return False, False, False, False  # a flight of one is not played
        a = any(byes >= 2 for _, byes in self.before_matches)
        a_plus = any(rounds >= 2 for rounds, _ in self.before_matches)
        byes = sum(self.byes.values())
        return a, a_plus, byes > fewest_byes(_listed(self.arrivals)), byes > bracket_size(m) - m


def _listed(arrivals: Counter[int]) -> list[int]:
    return [arrivals[r] for r in range(1, max(arrivals, default=0) + 1)]


def planned(plan: Plan, fate: Fate) -> dict[str, Tally]:
    """Play every node of the plan in order, as resolve does, and tally what the feeder players sat out."""
    places = {label: plan.entrants + i for i, label in enumerate(plan.places, 1)}
    winners: dict[str, int | None] = {}
    losers: dict[str, int | None] = {}
    carry: dict[str, tuple[int, int]] = {}  # what the winner of a node had sat out (rounds, byes) since a match
    played: Counter[tuple[int, str]] = Counter()
    tallies = {bracket: Tally() for bracket in FEEDERS}

    def occupant(source: Any) -> int | None:
        if isinstance(source, Seed):
            return source.n
        if isinstance(source, Place):
            return places.get(source.label)
        if isinstance(source, Empty):
            return None
        if isinstance(source, Winner):
            return winners.get(source.key)
        loser = losers.get(source.key)
        bracket = source.key.rsplit("-", 2)[0]
        if loser is not None and source.within is not None and played[(loser, bracket)] > source.within:
            return None
        return loser

    for node in plan.nodes:
        if node.conditional:
            continue  # no reset outside double elimination
        a, b = occupant(node.a), occupant(node.b)
        sides = ((a, node.a, node.why_a), (b, node.b, node.why_b))
        sat = [_sat_before(src, why, node.bracket, carry) for _, src, why in sides]
        tally = tallies.get(node.bracket)
        if tally is not None:
            for player, source, _ in sides:
                if player is not None and player not in fate.gone and isinstance(source, Loser | Place):
                    tally.arrivals[int(source.key.rsplit("-", 2)[1]) if isinstance(source, Loser) else 1] += 1
            for player, _, why in sides:
                for r in _planned_byes(why, node.bracket):
                    tally.enter(r, player, fate, bye=True)
                tally.enter(node.round, player, fate, bye=(a is None) != (b is None))
        if a is None or b is None:
            winners[node.key], losers[node.key] = (a if b is None else b), None
            rounds, byes = sat[0] if b is None else sat[1]
            carry[node.key] = (rounds + 1, byes + 1)
            continue
        winner, loser, walkover = fate.play(a, b, node.bracket)
        winners[node.key], losers[node.key] = winner, loser
        played.update({(a, node.bracket): 1, (b, node.bracket): 1})
        if walkover:
            rounds, byes = sat[0] if winner == a else sat[1]
            carry[node.key] = (rounds + 1, byes)
            continue
        carry[node.key] = (0, 0)
        if tally is not None:
            tally.before_matches.extend(sat)
    return tallies


def _planned_byes(why: str, bracket: str) -> list[int]:
    """The rounds of the planned byes an explanation names ("...; bye in consolation round 2")."""
    marker = f"bye in {bracket} round "
    return [int(part.split(";")[0].split()[0]) for part in why.split(marker)[1:]]


def _sat_before(source: Any, why: str, bracket: str, carry: dict[str, tuple[int, int]]) -> tuple[int, int]:
    """What the player from ``source`` sat out (rounds, byes) since his last match, before this node: the planned
    byes its explanation names, and what he sat out on his way out of the node before it when he went through that
    without playing."""
    planned_byes = len(_planned_byes(why, bracket))
    if isinstance(source, Winner) and source.key.startswith(bracket + "-"):
        rounds, byes = carry.get(source.key, (0, 0))
        return rounds + planned_byes, byes + planned_byes
    return planned_byes, planned_byes


def drawn_late(plan: Plan, fate: Fate) -> dict[str, Tally]:
    """The main bracket as planned, each feeder bracket drawn round by round with draw_feeder_round."""
    winners: dict[str, int | None] = {}
    met: set[frozenset[int]] = set()
    main_played: Counter[int] = Counter()
    arrivals: dict[int, list[int]] = defaultdict(list)
    for node in plan.nodes:
        if node.bracket != MAIN:
            continue
        a = node.a.n if isinstance(node.a, Seed) else winners.get(getattr(node.a, "key", ""))
        b = node.b.n if isinstance(node.b, Seed) else winners.get(getattr(node.b, "key", ""))
        if a is None or b is None:
            winners[node.key] = a if b is None else b
            continue
        winner, loser, _ = fate.play(a, b, MAIN)
        winners[node.key] = winner
        met.add(frozenset((a, b)))
        main_played.update((a, b))
        if loser is not None and node.round < plan.main_rounds and main_played[loser] <= plan.drop_rounds:
            arrivals[node.round].append(loser)
    tallies = {CONSOLATION: Tally(), LAST_CHANCE: Tally()}
    lc_arrivals = _feeder(CONSOLATION, arrivals, fate, met, tallies[CONSOLATION], plan.last_chance_drop_rounds)
    if plan.format == "main-consolation-lastchance":
        lc_arrivals[1] = lc_arrivals.get(1, []) + [plan.entrants + i for i in range(1, len(plan.places) + 1)]
        _feeder(LAST_CHANCE, lc_arrivals, fate, met, tallies[LAST_CHANCE], 0)
    return tallies


def through_resolve(plan: Plan, fate: Fate) -> dict[str, tuple[int, int, int]]:
    """The division as the service plays it: the plan with ``drawn`` (``plan_bracket(..., drawn=True)``) resolved
    by ``brackets.resolve`` after each round of results, a withdrawn player passed with the first round of each
    feeder bracket not drawn when he withdrew. For each feeder bracket of two players or more: (players, byes, the
    fewest byes its arrivals allow)."""
    places = {label: plan.entrants + i for i, label in enumerate(plan.places, 1)}
    seeds = {n: n for n in range(1, plan.entrants + 1)}
    results: dict[str, int | None] = {}
    walkovers: set[str] = set()
    withdrawn: dict[str, dict[int, int]] = {bracket: {} for bracket in plan.drawn}
    while True:
        states = resolve(
            plan, seeds=seeds, results=results, places=places, places_closed=True,
            walkovers=walkovers, withdrawn=withdrawn,
        )  # fmt: skip
        ready = [state for state in states.values() if state.status is Status.READY]
        if not ready:
            break
        for state in ready:
            assert state.a is not None and state.b is not None
            bracket = state.key.rsplit("-", 2)[0]
            before = set(fate.gone)
            results[state.key], _, walkover = fate.play(state.a, state.b, bracket)
            if walkover and bracket != MAIN:
                walkovers.add(state.key)
            for late in plan.drawn:
                undrawn = [
                    node.round
                    for node in plan.nodes
                    if node.bracket == late and states[node.key].status is Status.WAITING
                ]
                first = min(undrawn, default=max(n.round for n in plan.nodes if n.bracket == late) + 1)
                withdrawn[late].update(dict.fromkeys(fate.gone - before, first))
    found: dict[str, tuple[int, int, int]] = {}
    for bracket, feeder in states.feeders.items():
        players = {p for slot in feeder.slots.values() for p in (slot.a, slot.b) if p is not None}
        players |= set(feeder.byes.values())
        if len(players) > 1:
            gone = withdrawn[bracket]
            came = [
                sum(1 for p in wave or () if gone.get(p, r + 1) > r)
                for r, wave in enumerate(states.arrivals[bracket], 1)
            ]
            found[bracket] = (len(players), len(feeder.byes), fewest_byes(came))
    return found


def _feeder(
    bracket: str, arrivals: dict[int, list[int]], fate: Fate, met: set[frozenset[int]], tally: Tally, drop: int
) -> dict[int, list[int]]:
    """Play one feeder bracket through ``resolve_feeder``, step by step; returns the losers who drop into the next
    one, by round (the ones who lost one of their first ``drop`` matches here, the final's loser never)."""
    waves = [arrivals.get(r, []) for r in range(1, max(arrivals, default=0) + 1)]
    if sum(map(len, waves)) < 2:
        return {}  # a flight of one is not played
    slots = feeder_slots([len(wave) for wave in waves])
    absent = dict.fromkeys(fate.gone, 1)  # withdrawn before the bracket: never drawn in it
    results: dict[str, int | None] = {}
    walkovers: set[str] = set()
    while True:
        state = resolve_feeder(bracket, slots, waves, results, met=met, absent=absent, walkovers=walkovers, drop=drop)
        ready = [slot for slot in state.slots.values() if slot.status is SlotStatus.READY]
        if not ready:
            break
        for slot in ready:
            assert slot.a is not None and slot.b is not None
            before = set(fate.gone)
            results[slot.key], _, walkover = fate.play(slot.a, slot.b, bracket)
            absent.update(dict.fromkeys(fate.gone - before, int(slot.key.rsplit("-", 2)[1]) + 1))
            if walkover:
                walkovers.add(slot.key)
    _tally(bracket, state, waves, absent, walkovers, tally)
    met.update(frozenset((s.a, s.b)) for s in state.slots.values() if s.a is not None and s.b is not None)
    return {r: list(players or ()) for r, players in state.dropped.items()}


def _tally(
    bracket: str,
    state: FeederState[int],
    waves: list[list[int]],
    absent: dict[int, int],
    walkovers: set[str],
    tally: Tally,
) -> None:
    """What the players of a bracket drawn late sat out, read from its resolved state round by round."""
    for r, wave in enumerate(waves, 1):
        came = [p for p in wave if absent.get(p, r + 1) > r]
        tally.arrivals[r] += len(came)
        tally.players.update(came)
    sat: Counter[int] = Counter()  # rounds sat out since his last match
    sat_byes: Counter[int] = Counter()  # byes among them
    rounds = max((int(key.rsplit("-", 2)[1]) for key in state.slots), default=0)
    for r in range(1, rounds + 1):
        drawn = [s for s in state.slots.values() if s.key.startswith(f"{bracket}-{r}-") and s.a is not None]
        tally.matches.append(len(drawn))
        if r in state.byes:
            sat[state.byes[r]] += 1
            sat_byes[state.byes[r]] += 1
            tally.byes[r] += 1
        for slot in drawn:
            assert slot.a is not None and slot.b is not None
            if slot.key not in walkovers:
                tally.before_matches.extend((sat.pop(p, 0), sat_byes.pop(p, 0)) for p in (slot.a, slot.b))
            elif slot.winner is not None:
                sat[slot.winner] += 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--sizes", default="5-32")
    parser.add_argument("--seed", type=int, default=29)
    args = parser.parse_args()
    low, _, high = args.sizes.partition("-")
    sizes = range(int(low), int(high or low) + 1)
    ways = " | ".join(f"({x}) planned | ({x}) drawn late" for x in ("A", "A+", "B", "K"))
    print(
        f"| scenario | format | rehearsals | {ways} | byes (planned / drawn late / drawn plan) | (B) drawn plan |\n"
        + "| --- " * 13
        + "|"
    )
    fit = Counter[str]()
    for scenario, (withdraw, forfeit) in SCENARIOS.items():
        totals = Counter[str]()
        for name, (fmt, options) in CONFIGS.items():
            counts = Counter[str]()
            for n in sizes:
                try:
                    plan = plan_bracket(n, fmt, **options)
                except ValueError:
                    continue  # the option does not fit this field (drop_rounds 2 on a 2-round main bracket)
                service = plan_bracket(n, fmt, drawn=True, **options)
                for run in range(args.runs):
                    counts["rehearsals"] += 1
                    fate = Fate(f"{args.seed}-{scenario}-{name}-{n}-{run}", withdraw, forfeit)
                    resolved = through_resolve(service, fate)
                    counts["byes resolve"] += sum(byes for _, byes, _ in resolved.values())
                    counts["B resolve"] += any(byes > fewest for _, byes, fewest in resolved.values())
                    for way, play in (("planned", planned), ("drawn late", drawn_late)):
                        fate = Fate(f"{args.seed}-{scenario}-{name}-{n}-{run}", withdraw, forfeit)
                        tallies = play(plan, fate)
                        if way == "drawn late":
                            fit.update(_fits(plan, tallies))
                        tallies = tallies.values()
                        flags = [t.flags() for t in tallies]
                        for i, x in enumerate(("A", "A+", "B", "K")):
                            counts[f"{x} {way}"] += any(flag[i] for flag in flags)
                        counts[f"byes {way}"] += sum(sum(t.byes.values()) for t in tallies if len(t.players) > 1)
            totals.update(counts)
            print(_row(scenario, name, counts))
        print(_row(scenario, "**all**", totals))
    print(
        f"\nFeeder brackets drawn late whose rounds fit the plan's nodes round by round: {fit['fits']} of "
        f"{fit['brackets']}"
    )


def _fits(plan: Plan, tallies: dict[str, Tally]) -> Counter[str]:
    """Whether each feeder bracket played drawn late needed no more matches in a round than the plan has nodes."""
    found = Counter[str]()
    for bracket, tally in tallies.items():
        if len(tally.players) > 1:
            nodes = [len(round_) for round_ in plan.rounds(bracket)]
            found["brackets"] += 1
            found["fits"] += len(tally.matches) <= len(nodes) and all(map(int.__le__, tally.matches, nodes))
    return found


def _row(scenario: str, name: str, c: Counter[str]) -> str:
    cells = (c[f"{x} {way}"] for x in ("A", "A+", "B", "K") for way in ("planned", "drawn late"))
    byes = f"{c['byes planned']} / {c['byes drawn late']} / {c['byes resolve']} | {c['B resolve']}"
    return f"| {scenario} | {name} | {c['rehearsals']} | " + " | ".join(str(x) for x in cells) + f" | {byes} |"


if __name__ == "__main__":
    main()
