"""The doubling cube (RULES.md, "The doubling cube")."""

from __future__ import annotations

from dataclasses import dataclass

from engine.errors import IllegalActionError


@dataclass(frozen=True, slots=True)
class CubeState:
    """Cube value and owner (``None`` = centred, else the side that owns it). No cap on the value."""

    value: int = 1
    owner: int | None = None

    def may_double(self, side: int) -> bool:
        """While the cube is centred either player may double; afterwards only its owner."""
        return self.owner is None or self.owner == side

    def check_double(self, side: int) -> None:
        if not self.may_double(side):
            raise IllegalActionError(
                f"you cannot double: your opponent owns the cube at {self.value}; only the cube's owner may redouble"
            )

    def taken(self, taker: int) -> CubeState:
        """The cube after ``taker`` accepts a double: twice the value, owned by the taker."""
        return CubeState(self.value * 2, taker)
