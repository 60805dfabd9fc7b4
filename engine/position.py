"""Positions, seen from the player on roll (the mover).

Each side is a tuple of 27 checker counts in that side's OWN numbering (RULES.md, "Board and orientation"):
slot 0 = borne off, 1..24 = points, 25 = bar, 26 = waiting to enter (Acey-Deucey only). The mover's point p is
the opponent's point 25 - p. A :class:`Position` is immutable and hashable; ``swapped()`` passes the turn.

Invariants (checked by the constructor): 15 checkers a side, no point held by both sides.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from engine.errors import InvalidPositionError
from engine.gnubg_id import decode_position_id, encode_position_id
from engine.types import BAR, CHECKERS, WAITING, ResultKind
from engine.variants import STANDARD, Variant

if TYPE_CHECKING:
    from engine.moves import Play

SLOTS = 27


def _check_side(name: str, side: Sequence[int]) -> None:
    if len(side) != SLOTS:
        raise InvalidPositionError(f"{name} needs {SLOTS} slots (off, points 1-24, bar, waiting), got {len(side)}")
    if any(c < 0 for c in side):
        raise InvalidPositionError(f"{name} has a negative checker count")
    total = sum(side)
    if total != CHECKERS:
        raise InvalidPositionError(f"{name} has {total} checkers; each side has exactly {CHECKERS}")


class Position:
    """A backgammon position from the point of view of the player on roll.

    >>> p = Position.initial()
    >>> p.gnubg_id()
    '4HPwATDgc/ABMA'
    >>> p.pips()
    (167, 167)
    """

    __slots__ = ("_hash", "me", "opp")

    me: tuple[int, ...]
    opp: tuple[int, ...]
    _hash: int

    def __init__(self, me: Iterable[int], opp: Iterable[int], *, validate: bool = True) -> None:
        me_t = tuple(me)
        opp_t = tuple(opp)
        if validate:
            _check_side("the player on roll", me_t)
            _check_side("the opponent", opp_t)
            for p in range(1, 25):
                if me_t[p] and opp_t[25 - p]:
                    raise InvalidPositionError(
                        f"both sides have checkers on the mover's {p}-point (the opponent's {25 - p}-point)"
                    )
        object.__setattr__(self, "me", me_t)
        object.__setattr__(self, "opp", opp_t)
        object.__setattr__(self, "_hash", hash((me_t, opp_t)))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Position is immutable")

    # -- construction ---------------------------------------------------------------------------------------------

    @classmethod
    def trusted(cls, me: tuple[int, ...], opp: tuple[int, ...]) -> Position:
        """A position from two 27-slot tuples the caller guarantees valid (the engine's own results)."""
        new = object.__new__(cls)
        object.__setattr__(new, "me", me)
        object.__setattr__(new, "opp", opp)
        object.__setattr__(new, "_hash", hash((me, opp)))
        return new

    @classmethod
    def initial(cls, variant: Variant = STANDARD) -> Position:
        """The starting position of ``variant`` (both sides set up alike)."""
        slots = variant.slots()
        return cls(slots, slots)

    @classmethod
    def from_gnubg_id(cls, position_id: str) -> Position:
        """Decode a GNU Backgammon Position ID; the player on roll (the ID's second half) becomes the mover.

        :raises NotationError: if the text is not a Position ID.
        :raises InvalidPositionError: if it decodes to an impossible position.
        """
        not_on_roll, on_roll = decode_position_id(position_id)
        return cls(_from_gnubg_slots(on_roll), _from_gnubg_slots(not_on_roll))

    @classmethod
    def from_points(
        cls, me: dict[int, int], opp: dict[int, int], *, me_off: int | None = None, opp_off: int | None = None
    ) -> Position:
        """Build a position from {point: count} maps in each side's own numbering (25 = bar, 26 = waiting).

        Checkers not placed are borne off unless ``*_off`` says otherwise (then the counts must add up).

        >>> Position.from_points({6: 2}, {6: 2}).pips()
        (12, 12)
        """
        return cls(_slots_from_map(me, me_off), _slots_from_map(opp, opp_off))

    # -- codecs ---------------------------------------------------------------------------------------------------

    def gnubg_id(self) -> str:
        """The GNU Backgammon Position ID (opponent first, mover second, as gnubg's code does).

        :raises InvalidPositionError: for Acey-Deucey positions with checkers still waiting to enter, which the
            format cannot express.
        """
        if self.me[WAITING] or self.opp[WAITING]:
            raise InvalidPositionError(
                "a GNU Backgammon Position ID cannot show Acey-Deucey checkers that have not entered yet"
            )
        return encode_position_id(self.opp[1:26], self.me[1:26])

    def key(self) -> str:
        """A compact text key for any position, Acey-Deucey included (the Position ID when it exists)."""
        if not (self.me[WAITING] or self.opp[WAITING]):
            return self.gnubg_id()
        return "ad:" + ",".join(map(str, self.me)) + "|" + ",".join(map(str, self.opp))

    # -- queries --------------------------------------------------------------------------------------------------

    def swapped(self) -> Position:
        """The same position seen by the other player (the turn passes)."""
        return Position(self.opp, self.me, validate=False)

    def pips(self) -> tuple[int, int]:
        """Pip counts (mover, opponent); a checker waiting to enter counts 25 like one on the bar."""
        return _pips(self.me), _pips(self.opp)

    def borne_off(self) -> tuple[int, int]:
        return self.me[0], self.opp[0]

    def is_game_over(self) -> bool:
        return self.me[0] == CHECKERS or self.opp[0] == CHECKERS

    def result_kind(self) -> ResultKind:
        """How the side that has borne off all 15 checkers wins (RULES.md, "Ending a game and scoring").

        :raises InvalidPositionError: if neither side has finished.
        """
        if self.me[0] == CHECKERS:
            return loss_kind(self.opp)
        if self.opp[0] == CHECKERS:
            return loss_kind(self.me)
        raise InvalidPositionError("the game is not over: neither side has borne off all 15 checkers")

    def apply(self, play: Play) -> Position:
        """The position after the mover makes ``play`` (still seen by the mover; call ``swapped()`` to pass)."""
        me = list(self.me)
        opp = list(self.opp)
        for src, dst, hit in play.steps:
            me[src] -= 1
            me[dst] += 1
            if hit:
                opp[25 - dst] -= 1
                opp[BAR] += 1
        return Position.trusted(tuple(me), tuple(opp))

    def checkers_at(self, point: int) -> int:
        """Signed count on the mover's ``point``: positive for the mover, negative for the opponent."""
        if point in (0, BAR, WAITING):
            return self.me[point]
        return self.me[point] or -self.opp[25 - point]

    # -- dunder ---------------------------------------------------------------------------------------------------

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Position):
            return NotImplemented
        return self.me == other.me and self.opp == other.opp

    def __hash__(self) -> int:
        return self._hash

    def __repr__(self) -> str:
        if not (self.me[WAITING] or self.opp[WAITING]):
            return f"Position.from_gnubg_id({self.gnubg_id()!r})"
        return f"Position({self.me!r}, {self.opp!r})"

    def __getstate__(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        return self.me, self.opp

    def __setstate__(self, state: tuple[tuple[int, ...], tuple[int, ...]]) -> None:
        object.__setattr__(self, "me", state[0])
        object.__setattr__(self, "opp", state[1])
        object.__setattr__(self, "_hash", hash(state))


def loss_kind(loser: Sequence[int]) -> ResultKind:
    """Single, gammon or backgammon for a loser whose checkers are ``loser`` (own numbering).

    Backgammon: nothing borne off and a checker on the bar, in the winner's home board (the loser's 19..24), or
    (Acey-Deucey) not yet entered, which counts as in the winner's home board (RULES.md, "Acey-Deucey").
    """
    if loser[0]:
        return ResultKind.SINGLE
    if loser[BAR] or loser[WAITING] or any(loser[19:25]):
        return ResultKind.BACKGAMMON
    return ResultKind.GAMMON


def _pips(side: Sequence[int]) -> int:
    return sum(p * side[p] for p in range(1, 26)) + 25 * side[WAITING]


def _from_gnubg_slots(slots: Sequence[int]) -> tuple[int, ...]:
    on_board = sum(slots)
    return (CHECKERS - on_board, *slots, 0)


def _slots_from_map(points: dict[int, int], off: int | None) -> tuple[int, ...]:
    slots = [0] * SLOTS
    for point, count in points.items():
        if not 1 <= point <= WAITING:
            raise InvalidPositionError(f"{point} is not a point (1..24, bar 25, waiting 26)")
        slots[point] += count
    placed = sum(slots)
    slots[0] = CHECKERS - placed if off is None else off
    return tuple(slots)
