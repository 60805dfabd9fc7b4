"""Who is acting (docs/ARCHITECTURE.md, "common/"): the value every service takes and every interface makes.

An actor is a logged-in user, the holder of a per-side entry link, or nobody. What that actor may do to a match is
games' decision (games.access); what it may do to an event is tournaments' (tournaments.access). This module knows
neither app, so the entry link an actor holds (games.models.EntryToken) is typed loosely here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Actor:
    """Who is acting: a logged-in user, the holder of an entry token, or nobody (anonymous)."""

    user: Any = None
    token: Any = None  # an entry link (games.models.EntryToken), or None

    @property
    def is_authenticated(self) -> bool:
        return self.token is not None or bool(self.user is not None and self.user.is_authenticated)

    def describe(self) -> str:
        if self.token is not None:
            return f"entry link for side {self.token.side}"
        if self.user is not None and self.user.is_authenticated:
            return str(self.user)
        return "anonymous"


SYSTEM = Actor()
