"""Plays: what a player does with one roll.

A :class:`Play` is the sequence of single-die steps of one turn, in an order in which they can be played. A step is
``(src, dst, hit)`` in the mover's numbering: ``src`` 25 is the bar and 26 a checker waiting to enter (Acey-Deucey),
``dst`` 0 is off. Plays compare equal when their steps are equal; :func:`engine.legal_plays` returns one play per
distinct resulting position.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from engine.types import BAR, OFF

if TYPE_CHECKING:
    from engine.position import Position

WAITING = 26


class Step(NamedTuple):
    """One checker moved by one die."""

    src: int
    dst: int
    hit: bool = False


class Play:
    """The steps of one turn. ``str(play)`` is GNU Backgammon's notation (``24/18* 13/11``, ``6/off(2)``)."""

    __slots__ = ("steps",)

    steps: tuple[Step, ...]

    def __init__(self, steps: tuple[tuple[int, int, bool], ...] | list[Step] | tuple[Step, ...] = ()) -> None:
        object.__setattr__(self, "steps", tuple(Step(*s) for s in steps))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Play is immutable")

    # Immutable: a copy is the play itself, and pickling rebuilds it from its steps (the default protocols would
    # set the slot and meet __setattr__).
    def __copy__(self) -> Play:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Play:
        return self

    def __reduce__(self) -> tuple[type[Play], tuple[tuple[Step, ...]]]:
        return (Play, (self.steps,))

    def apply(self, position: Position) -> Position:
        """The position after this play, still seen by the mover."""
        from engine.position import Position

        me = list(position.me)
        opp = list(position.opp)
        for src, dst, hit in self.steps:
            me[src] -= 1
            me[dst] += 1
            if hit:
                opp[25 - dst] -= 1
                opp[BAR] += 1
        return Position.trusted(tuple(me), tuple(opp))

    @property
    def dice_used(self) -> int:
        return len(self.steps)

    def hits(self) -> int:
        return sum(1 for s in self.steps if s.hit)

    def __len__(self) -> int:
        return len(self.steps)

    def __bool__(self) -> bool:
        return bool(self.steps)

    def __str__(self) -> str:
        from engine.notation import format_play

        return format_play(self)

    def mat(self) -> str:
        """The .mat (Jellyfish / gnubg export) form: one ``from/to`` per die, in play order, 25 = bar, 0 = off."""
        return " ".join(f"{_mat_point(s.src)}/{s.dst}{'*' if s.hit else ''}" for s in self.steps)

    def __repr__(self) -> str:
        return f"Play({tuple(tuple(s) for s in self.steps)!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Play):
            return NotImplemented
        return self.steps == other.steps

    def __hash__(self) -> int:
        return hash(self.steps)


def _mat_point(point: int) -> int:
    return BAR if point == WAITING else point


__all__ = ["OFF", "Play", "Step"]
