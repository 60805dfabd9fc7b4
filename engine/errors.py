"""The engine's exceptions.

Every refusal the engine makes is an :class:`EngineError`, a :class:`ValueError`, with a message written for
the player or director who made the mistake ("no checker on your 9-point", "5 is blocked"). Callers catch
``EngineError`` and show ``str(error)``; nothing else escapes the engine for bad input.
"""

from __future__ import annotations


class EngineError(ValueError):
    """Base class of every error the engine raises for bad input or an illegal action."""


class NotationError(EngineError):
    """Text that is not a well-formed play, roll or identifier (syntax, not rules)."""


class IllegalPlayError(EngineError):
    """A well-formed play that the rules do not allow for this position and roll."""


class AmbiguousPlayError(EngineError):
    """Text that matches more than one legal play (the message lists them)."""


class IllegalActionError(EngineError):
    """An action (roll, double, take, drop, resignation ...) that is not allowed in the current state."""


class InvalidPositionError(EngineError):
    """A position that cannot exist: wrong checker counts, a point held by both sides, bad layout."""


class FormatError(EngineError):
    """A file (a .mat match log) that cannot be read. ``line`` and ``column`` are 1-based when known."""

    def __init__(self, message: str, *, line: int | None = None, column: int | None = None) -> None:
        self.line = line
        self.column = column
        where = ""
        if line is not None:
            where = f"line {line}" + (f", column {column}" if column is not None else "") + ": "
        super().__init__(where + message)
        self.reason = message
