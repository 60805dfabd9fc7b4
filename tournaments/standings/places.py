"""Places within a flight of an elimination division: what prizes are paid on.

Terms
- A **flight** is a bracket with its own places: the main bracket, the consolation, the last chance. In double
  elimination the main and losers' brackets are one flight (nobody is out before his second loss).
- A player's **stage** in a flight is how far he went: the round of the match that put him out of it (later is
  further). The flight's champion is first; every other player who is out is placed after everyone who went
  further, and the players out at the same stage share the places they span, shown as ``5-8``.

So a 17-player knockout places its runner-up 2, its semi-final losers 3-4, its quarter-final losers 5-8, its
round-2 losers 9-16 and the loser of its one round-1 match 17. Byes are advances, not matches: a player never
goes out on a bye.

While a flight is played, a player still in has no place yet. Every match still to be played puts one more
player out at its stage, so it keeps a place in that stage's span: the first semi-final's loser is ``3-4`` while
the other semi-final is pending, not ``4``, and a quarter-final still to be played goes out behind him. First place
is kept for the champion to come.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from typing import TypeVar

P = TypeVar("P", bound=Hashable)


@dataclass(frozen=True, order=True)
class Place:
    """A place, or the span of places that players level there share (``first`` to ``last``)."""

    first: int
    last: int

    def __str__(self) -> str:
        return str(self.first) if self.first == self.last else f"{self.first}-{self.last}"


def flight_places(
    out_at: Mapping[P, float], champion: P | None, pending: Mapping[float, int] | None = None
) -> dict[P, Place]:
    """The places of a flight: ``out_at`` maps each player who is out to his stage (higher went further), the
    champion (None until decided) is first, and ``pending`` counts by stage the players still to go out there (one
    per match still to be played at that stage). While anything is pending and the champion is not decided, first
    place is kept for him.

    >>> {p: str(x) for p, x in flight_places({"a": 2, "b": 1, "c": 1}, "d").items()}
    {'d': '1', 'a': '2', 'b': '3-4', 'c': '3-4'}
    >>> {p: str(x) for p, x in flight_places({"a": 2, "b": 1}, None, {2: 1, 3: 1}).items()}
    {'a': '3-4', 'b': '5'}
    """
    if champion is not None and champion in out_at:
        raise ValueError(f"the champion {champion!r} cannot also be out")
    pending = {stage: n for stage, n in (pending or {}).items() if n > 0}
    places: dict[P, Place] = {}
    ahead = 0
    if champion is not None:
        places[champion] = Place(1, 1)
        ahead = 1
    elif pending:
        ahead = 1  # the champion to come
    for stage in sorted(set(out_at.values()) | pending.keys(), reverse=True):
        level = [p for p, s in out_at.items() if s == stage]
        size = len(level) + pending.get(stage, 0)
        for p in level:
            places[p] = Place(ahead + 1, ahead + size)
        ahead += size
    return places
