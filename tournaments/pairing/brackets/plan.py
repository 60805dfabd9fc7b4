"""The plan's values: the brackets and formats, the sources a side comes from, the planned matches (nodes), the
placements considered for each wave, and the plan itself; a source in words."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from functools import cached_property
from typing import TypeAlias

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
