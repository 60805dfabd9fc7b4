"""Static, explainable plans of every bracket match of a division, and their resolution from results.

Terms
-----
- **Plan**: every match (node) a division can play, fixed before play starts. A node names where its two players
  come from (its *sources*): ``Seed(n)``, ``Winner(key)``, ``Loser(key)``, ``Place(label)`` (a last-chance entry
  place the director fills) or ``Empty()`` (statically nobody: only the byes of main round 1).
- **Brackets**: ``main``, ``consolation`` (also the losers' bracket of double elimination) and ``last-chance``.
  Keys read ``f"{bracket}-{round}-{index}"``, round 1-based, index 0-based from the top. Explanations number
  matches from 1 ("main round 1 match 3" is ``main-1-2``).
- **Main bracket**: the single-elimination draw of ``elimination.py``: ``bracket_size(n)`` places, seeds placed by
  ``placement_order``, seeds ``1..size-n`` have a bye in round 1 (a node whose side ``b`` is ``Empty``).
- **Feeder bracket** (consolation, last chance, losers' bracket): built from *waves*, the players dropping in
  after one round of the bracket above (the losers of main round 2, say). Only sources that can produce a player
  are listed: the loser of a main-round-1 bye is nobody and is left out, so a feeder never pads to a power of two.
- **First losses**: the consolation takes the players who lose one of their first ``drop_rounds`` matches (1 by
  default), the last chance those who lose one of their first ``last_chance_drop_rounds`` consolation matches. A
  bye is an advance, not a match, so a seed with a bye who loses in round 2 lost his first match. Where a node's
  loser may or may not qualify (one side came through a bye, the other did not), the source is conditional,
  ``Loser(key, within=k)``: nobody when the loser had played more than ``k`` matches of that bracket.

How a feeder bracket is built (what a director reads)
-----------------------------------------------------
1. The first wave is drawn like a single-elimination draw of its own size, seeded by the seed expected in each
   place (the loser of "seed 3 v seed 14" is expected to be seed 14); its top seeds get the byes.
2. Each later wave meets the players still in (the *survivors*) in a *major* round. While the survivors outnumber
   the wave they first play *minor* rounds among themselves (neighbours in pairs; an odd last one waits a round).
   When the wave outnumbers the survivors, the wave players spread evenly over it meet one survivor each and the
   others wait a round (a bye).
3. Which survivor meets which dropped player is chosen among four orders of the wave: plain, reversed, halves
   swapped, reversed with halves swapped, and (when the counts match) the least-rematch matching if it does
   strictly better. The plan keeps the one with the fewest expected immediate rematches: a dropped player's first
   feeder match (against a survivor, or after a bye against the next round's neighbour) against someone he has
   already played anywhere in the plan, every result counted as a coin toss. Plain order wins ties. Reversing is
   the classic double-elimination rule (the loser of main round 2 match 1 cannot meet at once the player he beat
   in round 1); ``Plan.drops`` records every candidate with its expected rematches, and the dropped player's
   explanation says which placement was used and why.
4. After the last wave the survivors play minor rounds down to one: the bracket's champion. The losers' bracket
   of double elimination with a single entrant is one bye node, so it still sends him to the grand final; a feeder
   with none has no node.

The expected rematches are computed as if every match were a coin toss: a source holds a player with some chance
(a conditional loser may be nobody, and then his opponent walks over), and a rematch counts only when the match
where the two met was played.

Formats and their waves (R main rounds): ``single`` (none); ``main-consolation`` (the first losses within D
matches, D = 1 by default, at most 2: one wave per main round that has some); ``progressive-consolation`` (the
same, D = R - 1 by default: every loser but the final's); ``main-consolation-lastchance`` (a consolation as either
of those, then a last chance fed by the first consolation losses within L matches, L = 1 by default, with the entry
places joining its first wave). A consolation or last chance that a single player could reach has no node (it is
not played: no flight of one), and a last chance without nodes has no places;
``double-elimination`` (the losers of every main round, the final's too, then the grand final ``main-(R+1)-0``
and, with ``reset``, the conditional reset ``main-(R+2)-0``). A final's loser never drops in the other formats,
so a 2-player field has no consolation. ``plan_bracket`` caches its plans: they are immutable.

Invariants: nodes are listed so that every node comes after the nodes its sources name; no node has two
statically empty sides; every feeder node but a lone entrant's bye is a real match, so a feeder of ``m`` possible
entrants has ``m - 1`` nodes; every non-seed source has an explanation. ``resolve`` is a pure function of the results.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Hashable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum, StrEnum
from functools import cached_property, lru_cache
from typing import Generic, Literal, TypeAlias, TypeVar

from tournaments.pairing.elimination import bracket_size, draw_single_elimination, feeds, rounds
from tournaments.pairing.feeder import FeederState, SlotStatus, feeder_slots, resolve_feeder

MAIN, CONSOLATION, LAST_CHANCE = "main", "consolation", "last-chance"


class BracketFormat(StrEnum):
    """The stable format codes (they appear in the JSON contract)."""

    SINGLE = "single"
    MAIN_CONSOLATION = "main-consolation"
    PROGRESSIVE_CONSOLATION = "progressive-consolation"
    LAST_CHANCE = "main-consolation-lastchance"
    DOUBLE_ELIMINATION = "double-elimination"


FORMATS = tuple(f.value for f in BracketFormat)


@dataclass(frozen=True)
class Seed:
    n: int


@dataclass(frozen=True)
class Winner:
    key: str


@dataclass(frozen=True)
class Loser:
    """The loser of a match; with ``within``, only if that match was one of his first ``within`` matches in its
    bracket (a bye is an advance, not a match), and nobody otherwise."""

    key: str
    within: int | None = None


@dataclass(frozen=True)
class Place:
    label: str


@dataclass(frozen=True)
class Empty:
    """A side that is statically nobody."""


@dataclass(frozen=True)
class Drawn:
    """A side of a feeder bracket drawn late: whoever the draw of ``bracket`` round ``round`` puts there, once that
    round's players are known (tournaments/pairing/feeder.py); nobody when the round needs fewer matches."""

    bracket: str
    round: int


Source: TypeAlias = Seed | Winner | Loser | Place | Empty | Drawn
Opponent: TypeAlias = Source | tuple[Source, Source]  # a pair stands for the winner of a match between the two


@dataclass(frozen=True)
class Node:
    """One planned match: where its players come from (``a`` above ``b``) and why, in words."""

    key: str
    bracket: str
    round: int
    index: int
    a: Source
    b: Source
    why_a: str
    why_b: str
    conditional: bool = False  # the reset: played only when the losers' bracket player wins the grand final


@dataclass(frozen=True)
class Candidate:
    """One way to place a wave: its order, each dropped player's first match, and the expected rematches."""

    name: str
    order: tuple[Source, ...]
    first_matches: tuple[tuple[Source, Opponent], ...]
    cost: float


@dataclass(frozen=True)
class Drop:
    """A wave meeting the survivors in ``bracket`` round ``round``, with the placement chosen and the others."""

    bracket: str
    round: int
    survivors: tuple[Source, ...]
    wave: tuple[Source, ...]
    chosen: str
    candidates: tuple[Candidate, ...]


@dataclass(frozen=True)
class Plan:
    """Every node of a division, each after the nodes its sources name; immutable, and cached by plan_bracket."""

    format: BracketFormat
    entrants: int
    main_rounds: int
    drop_rounds: int  # main rounds whose losers drop (every round in double elimination, 0 without consolation)
    last_chance_drop_rounds: int
    nodes: tuple[Node, ...]
    drops: tuple[Drop, ...]
    places: tuple[str, ...]  # labels of the last-chance entry places
    drawn: tuple[str, ...] = ()  # the feeder brackets drawn round by round as their players are known
    waves: tuple[tuple[Source, ...], ...] = ()  # a drawn consolation's entrants, main round by main round
    capacity: tuple[tuple[str, tuple[int, ...]], ...] = ()  # a drawn bracket's most arrivals before each round

    def most_players(self, bracket: str) -> int | None:
        """The most players a bracket drawn late can have (None for a bracket planned at the start)."""
        return next((sum(counts) for name, counts in self.capacity if name == bracket), None)

    @cached_property
    def _by_key(self) -> dict[str, Node]:
        return {node.key: node for node in self.nodes}

    def __contains__(self, key: object) -> bool:
        return key in self._by_key

    def node(self, key: str) -> Node:
        if key not in self._by_key:
            raise KeyError(f"no match {key!r} in this {self.entrants}-player {self.format} plan")
        return self._by_key[key]

    def rounds(self, bracket: str) -> tuple[tuple[Node, ...], ...]:
        """The bracket's nodes round by round (round 1 first), each round from the top."""
        nodes = [node for node in self.nodes if node.bracket == bracket]
        last = max((node.round for node in nodes), default=0)
        return tuple(tuple(n for n in nodes if n.round == r) for r in range(1, last + 1))

    def final_key(self, bracket: str) -> str | None:
        """The bracket's last node (the reset in double elimination), None when the bracket has no node."""
        rounds_ = self.rounds(bracket)
        return rounds_[-1][-1].key if rounds_ else None


# --- planning -----------------------------------------------------------------------------------------------


def plan_bracket(
    entrants: int,
    format: str,
    *,
    drop_rounds: int | None = None,
    last_chance_drop_rounds: int = 1,
    last_chance_places: int = 0,
    progressive: bool = False,
    reset: bool = True,
    walkover_as_bye: bool = False,
    drawn: bool = False,
) -> Plan:
    """Plan every match of a division of ``entrants`` seeds in ``format`` (see the module docstring).
    ``walkover_as_bye``: a main round-1 match may be a walkover, which counts like a bye for the first losses (its
    winner, beaten in round 2, lost his first match played): every main round-2 loser is then a conditional
    consolation entrant, and :func:`resolve` is told which round-1 matches were walkovers.
    ``drawn``: the consolation and the last chance are drawn round by round once each round's players are known
    (tournaments/pairing/feeder.py: a bye only where an odd count forces one), instead of placed at the start; each
    of their rounds has the slots ``feeder_slots`` gives the most players who can be in it, the sides ``Drawn``.
    Double elimination's losers' bracket is always planned.

    :raises ValueError: an unknown format, an empty field, or an option outside what the format allows.
    """
    options = (drop_rounds, last_chance_drop_rounds, last_chance_places, progressive, reset, walkover_as_bye, drawn)
    return _plan(entrants, format, *options)


@lru_cache(maxsize=256)
def _plan(
    entrants: int,
    format: str,
    drop_rounds: int | None,
    last_chance_drop_rounds: int,
    last_chance_places: int,
    progressive: bool,
    reset: bool,
    walkover_as_bye: bool = False,
    drawn: bool = False,
) -> Plan:
    fmt = _parse_format(format)
    if entrants < 1:
        raise ValueError(f"a bracket needs at least one player, got {entrants}")
    _refuse_foreign_options(fmt, drop_rounds, last_chance_drop_rounds, last_chance_places, progressive, reset)
    if walkover_as_bye and fmt in (BracketFormat.SINGLE, BracketFormat.DOUBLE_ELIMINATION):
        raise ValueError(f"walkover_as_bye does not apply to the {fmt} format (it has no consolation)")
    graph = _Graph(entrants, last_chance_places, walkover_as_bye)
    main_rounds = rounds(bracket_size(entrants))
    _add_main(graph, entrants)
    drops, lc_drops = 0, 0
    drawn = drawn and fmt not in (BracketFormat.SINGLE, BracketFormat.DOUBLE_ELIMINATION)
    consolation_waves: list[list[Source]] = []
    if fmt is BracketFormat.DOUBLE_ELIMINATION:
        drops = main_rounds
        _add_double_elimination(graph, main_rounds, reset)
    elif fmt is not BracketFormat.SINGLE:
        progressive = progressive or fmt is BracketFormat.PROGRESSIVE_CONSOLATION
        drops = _drop_rounds(entrants, main_rounds, drop_rounds, progressive)
        consolation_waves = _first_losses(graph, MAIN, drops)
        if drawn:
            _add_drawn(
                graph,
                CONSOLATION,
                [len(wave) for wave in consolation_waves],
                _consolation_words(consolation_waves, drops),
            )
        else:
            _Feeder(CONSOLATION, graph).build(consolation_waves, alone=False)
    if fmt is BracketFormat.LAST_CHANCE:
        lc_drops = _last_chance_rounds(graph, last_chance_drop_rounds)
        if drawn:
            possible = _drawn_first_losses(graph, CONSOLATION, lc_drops)
            possible[0] += len(graph.places)
            if not _add_drawn(graph, LAST_CHANCE, possible, _last_chance_words(graph, lc_drops)):
                graph.places = ()
        else:
            waves = _first_losses(graph, CONSOLATION, lc_drops) if lc_drops else []
            waves = waves or [[]]
            waves[0] = waves[0] + [Place(label) for label in graph.places]
            if _Feeder(LAST_CHANCE, graph).build(waves, alone=False) is None:
                graph.places = ()  # a last chance of one is not played: it has no place to fill
    nodes = tuple(graph.nodes.values())
    late = tuple(b for b in (CONSOLATION, LAST_CHANCE) if drawn and any(n.bracket == b for n in nodes))
    waves_ = tuple(tuple(wave) for wave in consolation_waves) if CONSOLATION in late else ()
    capacity = tuple((b, graph.capacity[b]) for b in late)
    drops_ = tuple(graph.drops)
    return Plan(fmt, entrants, main_rounds, drops, lc_drops, nodes, drops_, graph.places, late, waves_, capacity)


def _add_drawn(graph: _Graph, bracket: str, possible: list[int], words: list[str]) -> bool:
    """The slots of a feeder bracket drawn round by round (``possible[k]``: the most players who can drop in before
    its round ``k + 1``; ``words[k]``: who its round ``k + 1`` is drawn from): none when fewer than two players can
    reach it (a flight of one is not played). Returns whether it has any."""
    if sum(possible) < 2:
        return False
    graph.capacity[bracket] = tuple(possible)
    for round_, count in enumerate(feeder_slots(possible), 1):
        said = words[round_ - 1] if round_ <= len(words) else f"the winners of {bracket} round {round_ - 1}"
        why = f"drawn once {bracket} round {round_}'s players are known: {said}"
        for index in range(count):
            graph.add(bracket, round_, index, (Drawn(bracket, round_), why), (Drawn(bracket, round_), why))
    return True


def _consolation_words(waves: list[list[Source]], drops: int) -> list[str]:
    """Who each round of a drawn consolation is drawn from, in words."""
    words = []
    for round_, wave in enumerate(waves, 1):
        within = any(isinstance(s, Loser) and s.within is not None for s in wave)
        nth = "his first main match" if drops == 1 else f"one of his first {drops} main matches"
        losers = f"the losers of main round {round_}" + (f" for whom it was {nth}" if within else "")
        before = f"the winners of consolation round {round_ - 1}"
        words.append(losers if round_ == 1 else f"{before} and {losers}" if wave else before)
    return words


def _last_chance_words(graph: _Graph, lc_drops: int) -> list[str]:
    nth = "their first consolation match" if lc_drops == 1 else f"one of their first {lc_drops} consolation matches"
    places = " and the entry places" if graph.places else ""
    words = []
    for round_ in range(1, max(graph.rounds_of(CONSOLATION), 1)):
        losers = f"the losers of consolation round {round_} who lost {nth}"
        words.append(losers + places if round_ == 1 else f"the winners of last-chance round {round_ - 1} and {losers}")
    return words or ["the entry places"]


def _drawn_first_losses(graph: _Graph, bracket: str, matches: int) -> list[int]:
    """The most players who can drop out of a drawn ``bracket`` into the next in each of its rounds but the last:
    every loser of a round but the last, while anyone there may have played no more than ``matches`` matches."""
    last = graph.rounds_of(bracket)
    counts = [sum(1 for n in graph.nodes.values() if n.bracket == bracket and n.round == r) for r in range(1, last)]
    return [c if matches else 0 for c in counts] or [0]


def _parse_format(format: str) -> BracketFormat:
    if format not in FORMATS:
        raise ValueError(f"unknown bracket format {format!r}: choose one of {', '.join(FORMATS)}")
    return BracketFormat(format)


def _refuse_foreign_options(
    fmt: BracketFormat, drop: int | None, lc_drop: int, places: int, progressive: bool, reset: bool
) -> None:
    consolation = fmt in (BracketFormat.MAIN_CONSOLATION, BracketFormat.PROGRESSIVE_CONSOLATION)
    refused = {
        "drop_rounds": drop is not None and not (consolation or fmt is BracketFormat.LAST_CHANCE),
        "last_chance_drop_rounds": lc_drop != 1 and fmt is not BracketFormat.LAST_CHANCE,
        "last_chance_places": places != 0 and fmt is not BracketFormat.LAST_CHANCE,
        "progressive": progressive and fmt not in (BracketFormat.LAST_CHANCE, BracketFormat.PROGRESSIVE_CONSOLATION),
        "reset": not reset and fmt is not BracketFormat.DOUBLE_ELIMINATION,
    }
    for option, bad in refused.items():
        if bad:
            raise ValueError(f"{option} does not apply to the {fmt} format")
    if places < 0:
        raise ValueError(f"last_chance_places cannot be negative, got {places}")


def _drop_rounds(entrants: int, main_rounds: int, chosen: int | None, progressive: bool) -> int:
    """Main rounds whose losers drop: never the final's loser (the runner-up)."""
    most = main_rounds - 1 if progressive else min(2, main_rounds - 1)
    if chosen is None:
        return most if progressive else min(1, most)
    if most < 1:
        raise ValueError(f"drop_rounds cannot be set: a {entrants}-player main bracket is only its final")
    if not 1 <= chosen <= most:
        span = f"for a {entrants}-player main bracket (it has {main_rounds} rounds)"
        hint = "" if progressive else "; use progressive-consolation to drop later losers too"
        raise ValueError(f"drop_rounds must be between 1 and {most} {span}{hint}")
    return chosen


def _last_chance_rounds(graph: _Graph, chosen: int) -> int:
    """Consolation rounds whose losers drop into the last chance: never the consolation final's loser."""
    most = graph.rounds_of(CONSOLATION) - 1
    if most < 1 and chosen == 1:
        return 0  # the default, when the consolation is at most its final: only the places enter
    if most < 1:
        raise ValueError("last_chance_drop_rounds cannot be set: this consolation has no round before its final")
    if not 1 <= chosen <= most:
        raise ValueError(
            f"last_chance_drop_rounds must be between 1 and {most}: this consolation has {most + 1} rounds "
            "and the loser of its final does not drop"
        )
    return chosen


def _add_main(graph: _Graph, entrants: int) -> None:
    size = bracket_size(entrants)
    for slot in draw_single_elimination(entrants):
        assert slot.a is not None  # every round-1 slot holds a real seed (elimination.py)
        b: Source = Empty() if slot.b is None else Seed(slot.b)
        why_b = f"seed {slot.b}" if slot.b else f"bye: there is no seed {size + 1 - slot.a} in this field"
        graph.add(MAIN, 1, slot.index, (Seed(slot.a), f"seed {slot.a}"), (b, why_b))
    for (r, index), ((r1, i1), (r2, i2)) in feeds(size).items():
        a, b = Winner(_key(MAIN, r1, i1)), Winner(_key(MAIN, r2, i2))
        graph.add(MAIN, r, index, (a, describe(a)), (b, describe(b)))


def _add_double_elimination(graph: _Graph, main_rounds: int, reset: bool) -> None:
    champion = _Feeder(CONSOLATION, graph).build([_losers(graph, MAIN, r) for r in range(1, main_rounds + 1)])
    if champion is None:
        return  # a lone entrant: nobody ever loses, so there is no losers' bracket and no grand final
    unbeaten = Winner(_key(MAIN, main_rounds, 0))
    grand = graph.add(
        MAIN,
        main_rounds + 1,
        0,
        (unbeaten, f"{describe(unbeaten)}: the main-bracket champion, still unbeaten"),
        (champion, f"{describe(champion)}: the consolation champion, beaten once"),
    )
    if reset:
        why_a = "the main-bracket champion, after his first loss in the grand final"
        why_b = "the consolation champion, who won the grand final; the reset is played only then"
        graph.add(MAIN, main_rounds + 2, 0, (Loser(grand), why_a), (Winner(grand), why_b), conditional=True)


def _first_losses(graph: _Graph, bracket: str, matches: int) -> list[list[Source]]:
    """The waves of the players who lose one of their first ``matches`` matches in ``bracket`` (a bye is an advance,
    not a match), one wave per round of the bracket, its final's loser never: the loser of a round-2 match who had a
    bye in round 1 lost his first match. Where a node's loser may or may not qualify (one side had a bye, the other
    did not), the source is conditional (``Loser(key, within=matches)``)."""
    waves: list[list[Source]] = []
    last = graph.rounds_of(bracket)
    for round_ in range(1, last):
        wave: list[Source] = []
        for node in (n for n in graph.nodes.values() if n.bracket == bracket and n.round == round_):
            counts = graph.loser_counts(node)
            if not counts or min(counts) > matches:
                continue
            wave.append(Loser(node.key) if max(counts) <= matches else Loser(node.key, within=matches))
        waves.append(wave)
    return waves


def _losers(graph: _Graph, bracket: str, round_: int) -> list[Source]:
    """The losers of a round, top to bottom, leaving out matches that statically have a single player."""
    nodes = [n for n in graph.nodes.values() if n.bracket == bracket and n.round == round_]
    return [Loser(n.key) for n in nodes if not isinstance(n.b, Empty)]


def _key(bracket: str, round_: int, index: int) -> str:
    return f"{bracket}-{round_}-{index}"


def describe(source: Source) -> str:
    """A source in words: "seed 4", "winner of main round 1 match 3", "last-chance place 2", "nobody"."""
    if isinstance(source, Seed):
        return f"seed {source.n}"
    if isinstance(source, Place):
        return source.label
    if isinstance(source, Empty):
        return "nobody"
    if isinstance(source, Drawn):
        return f"drawn into {source.bracket} round {source.round}"
    bracket, round_, index = source.key.rsplit("-", 2)
    verb = "winner" if isinstance(source, Winner) else "loser"
    said = f"{verb} of {bracket} round {round_} match {int(index) + 1}"
    if isinstance(source, Loser) and source.within is not None:
        nth = "his first match" if source.within == 1 else f"one of his first {source.within} matches"
        said += f" if it was {nth} in the {bracket} (else nobody)"
    return said


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


# --- resolution ---------------------------------------------------------------------------------------------

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
    if bracket == CONSOLATION:
        for wave in plan.waves:
            sides: list[PlayerT | Literal[_Unknown.YET] | None] = []
            for source in wave:
                side = _side(source, states, inputs)
                sides.append(side)
            arrivals.append(_known(sides))
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


def dependents(plan: Plan, key: str) -> list[str]:
    """Keys of the nodes whose players depend, directly or not, on the result of ``key``, in plan order."""
    plan.node(key)
    found, order = {key}, []
    for node in plan.nodes:
        if not _feeding(plan, node).isdisjoint(found):
            found.add(node.key)
            order.append(node.key)
    return order


def _feeding(plan: Plan, node: Node) -> set[str]:
    """The nodes whose results a node's players come from: its sources', or for a slot of a feeder bracket drawn
    late every slot of its earlier rounds and every match whose loser may drop in before its round (a consolation:
    the main bracket's first losses; a last chance: the consolation's rounds up to its own)."""
    if node.bracket not in plan.drawn:
        return {s.key for s in (node.a, node.b) if isinstance(s, Winner | Loser)}
    earlier = {n.key for n in plan.nodes if n.bracket == node.bracket and n.round < node.round}
    if node.bracket == CONSOLATION:
        earlier |= {s.key for wave in plan.waves[: node.round] for s in wave if isinstance(s, Winner | Loser)}
    else:
        earlier |= {n.key for n in plan.nodes if n.bracket == CONSOLATION and n.round <= node.round}
    return earlier
