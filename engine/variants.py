"""Variants: the starting layout and the few rules that differ between standard backgammon, Nackgammon and
Acey-Deucey (RULES.md, "Starting layouts" and "Acey-Deucey").

A :class:`Variant` is a value. Custom layouts are variants of their own, so a director can run an event on any
legal distribution of 15 checkers a side.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from engine.errors import InvalidPositionError
from engine.types import BAR, CHECKERS, WAITING

#: Slot of a side's checkers that have not yet entered the board (Acey-Deucey only).


@dataclass(frozen=True, slots=True)
class Variant:
    """A starting layout plus the variant's own rules.

    ``layout`` maps a point in the side's own numbering (1..24, ``BAR``, or ``WAITING`` for Acey-Deucey checkers
    not yet entered) to a checker count; the same layout is used for both sides.
    """

    name: str
    layout: Mapping[int, int]
    acey_deucey: bool = False
    #: Acey-Deucey option: all 15 checkers must enter before an entered checker may move (off by default).
    enter_all_first: bool = False
    label: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        total = 0
        for point, count in self.layout.items():
            if not (1 <= point <= BAR or point == WAITING):
                raise InvalidPositionError(f"layout point {point} is not a point (1..24, bar 25)")
            if count < 0:
                raise InvalidPositionError(f"layout has a negative count on point {point}")
            total += count
        if total != CHECKERS:
            raise InvalidPositionError(f"a layout needs {CHECKERS} checkers a side; this one has {total}")
        for point, count in self.layout.items():
            if count and 1 <= point <= 24 and self.layout.get(25 - point, 0):
                raise InvalidPositionError(
                    f"layout puts both sides on the same point ({point} and the opponent's {25 - point})"
                )
        if self.layout.get(WAITING, 0) and not self.acey_deucey:
            raise InvalidPositionError("only Acey-Deucey starts with checkers waiting to enter")

    def slots(self) -> tuple[int, ...]:
        """The layout as a side's 27 slots (0 off, 1..24, 25 bar, 26 waiting)."""
        slots = [0] * 27
        for point, count in self.layout.items():
            slots[point] += count
        return tuple(slots)

    @property
    def pips(self) -> int:
        return sum(point * count for point, count in self.layout.items() if point <= BAR) + 25 * self.layout.get(
            WAITING, 0
        )

    @classmethod
    def custom(cls, name: str, layout: Mapping[int, int]) -> Variant:
        """A variant with its own starting layout (validated: 15 checkers, no point shared by both sides)."""
        return cls(name=name, layout=dict(layout), label=name)


STANDARD = Variant("standard", {24: 2, 13: 5, 8: 3, 6: 5}, label="Backgammon")
NACKGAMMON = Variant("nackgammon", {24: 2, 23: 2, 13: 4, 8: 3, 6: 4}, label="Nackgammon")
ACEY_DEUCEY = Variant("acey-deucey", {WAITING: 15}, acey_deucey=True, label="Acey-Deucey")
ACEY_DEUCEY_ENTER_ALL = Variant(
    "acey-deucey-enter-all",
    {WAITING: 15},
    acey_deucey=True,
    enter_all_first=True,
    label="Acey-Deucey (all checkers enter first)",
)

VARIANTS: dict[str, Variant] = {v.name: v for v in (STANDARD, NACKGAMMON, ACEY_DEUCEY, ACEY_DEUCEY_ENTER_ALL)}


def get_variant(name: str) -> Variant:
    """Look a built-in variant up by name (``standard``, ``nackgammon``, ``acey-deucey``, ...).

    :raises InvalidPositionError: for an unknown name (the message lists the known ones).
    """
    key = name.strip().lower().replace("_", "-").replace(" ", "-")
    if key == "backgammon":
        key = "standard"
    try:
        return VARIANTS[key]
    except KeyError:
        known = ", ".join(sorted(VARIANTS))
        raise InvalidPositionError(f"unknown variant {name!r}; known variants: {known}") from None
