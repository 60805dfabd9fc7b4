"""Plays: what a player does with one roll.

A :class:`Play` is the sequence of single-die steps of one turn, in an order in which they can be played. A step is
``(src, dst, hit)`` in the mover's numbering: ``src`` 25 is the bar and 26 a checker waiting to enter (Acey-Deucey),
``dst`` 0 is off. Plays compare equal when their steps are equal; :func:`engine.legal_plays` returns one play per
distinct resulting position.
"""

from __future__ import annotations

from collections import Counter
from typing import NamedTuple, Protocol, TypeVar

from engine.types import BAR, OFF, WAITING

_Result = TypeVar("_Result", covariant=True)
_Applied = TypeVar("_Applied")


class Board(Protocol[_Result]):
    """What a play is applied to: :class:`engine.position.Position`, which knows how (a play knows only its steps,
    as python-chess's ``Move`` knows nothing of the board)."""

    def apply(self, play: Play) -> _Result: ...


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

    def apply(self, position: Board[_Applied]) -> _Applied:
        """The position after this play, still seen by the mover (``position.apply(play)``)."""
        return position.apply(self)

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


# -- writing -------------------------------------------------------------------------------------------------------


def format_play(play: Play) -> str:
    """GNU Backgammon's notation for ``play`` ("" when nothing is played).

    >>> format_play(Play(((24, 18, False), (18, 13, False))))
    '24/13'
    >>> format_play(Play(((6, 0, False), (6, 0, False))))
    '6/off(2)'
    """
    paths: list[list[tuple[int, bool]]] = []  # each path: [(point, hit_here), ...]
    for step in sorted(play.steps, key=lambda s: (-_sort_src(s.src), -s.dst)):
        for path in paths:
            if path[-1][0] == step.src and path[-1][0] != 0:
                path.append((step.dst, step.hit))
                break
        else:
            paths.append([(step.src, False), (step.dst, step.hit)])
    texts = []
    for path in paths:
        parts = [point_text(path[0][0])]
        for point, hit in path[1:-1]:
            if hit:
                parts.append(f"{point_text(point)}*")
        last, last_hit = path[-1]
        parts.append(point_text(last) + ("*" if last_hit else ""))
        texts.append("/".join(parts))
    counts = Counter(texts)
    ordered: list[str] = []
    for text in texts:
        if text in counts:
            n = counts.pop(text)
            ordered.append(f"{text}({n})" if n > 1 else text)
    return " ".join(ordered)


def point_text(point: int) -> str:
    """A point as the notation writes it: "bar" (an Acey-Deucey checker still to enter too), "off", or its number."""
    if point in (BAR, WAITING):
        return "bar"
    return "off" if point == 0 else str(point)


def _sort_src(point: int) -> float:
    return 25.5 if point == WAITING else point


__all__ = ["OFF", "Board", "Play", "Step", "format_play", "point_text"]
