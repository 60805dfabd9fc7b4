"""Application errors of the games app: a stable code, a message for people, and the HTTP status it maps to.

Engine refusals (an illegal play, a double in the Crawford game) arrive as ``engine.EngineError`` and are turned
into ``ApplicationError(ErrorCode.ILLEGAL_ACTION, <the engine's message>)`` by the services.
"""

from __future__ import annotations

import enum


class ErrorCode(enum.StrEnum):
    INVALID_INPUT = "invalid_input"
    ILLEGAL_ACTION = "illegal_action"
    STALE_SEQUENCE = "stale_sequence"
    MATCH_CLOSED = "match_closed"
    NOT_AUTHENTICATED = "not_authenticated"
    FORBIDDEN = "forbidden"
    NOT_FOUND = "not_found"
    CONFLICT = "conflict"
    MATCH_TOO_LONG = "match_too_long"


STATUS = {
    ErrorCode.INVALID_INPUT: 400,
    ErrorCode.ILLEGAL_ACTION: 400,
    ErrorCode.STALE_SEQUENCE: 409,
    ErrorCode.MATCH_CLOSED: 409,
    ErrorCode.CONFLICT: 409,
    ErrorCode.MATCH_TOO_LONG: 400,
    ErrorCode.NOT_AUTHENTICATED: 401,
    ErrorCode.FORBIDDEN: 403,
    ErrorCode.NOT_FOUND: 404,
}


class ApplicationError(Exception):
    """A refusal with a code; ``str()`` is the message shown to the user."""

    def __init__(self, code: ErrorCode, message: str, **extra: object) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.extra = extra

    @property
    def status(self) -> int:
        return STATUS[self.code]

    def as_dict(self) -> dict[str, object]:
        return {"code": str(self.code), "message": self.message, **self.extra}
