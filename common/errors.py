"""Application errors of the games app: a stable code, a message for people, and the HTTP status it maps to.

Engine refusals (an illegal play, a double in the Crawford game) arrive as ``engine.EngineError`` and are turned
into ``ApplicationError(ErrorCode.ILLEGAL_ACTION, <the engine's message>)`` by the services.
"""

from __future__ import annotations

import enum


class ErrorCode(enum.StrEnum):
    """Every ``code`` an error of the API can carry (the schema's ``ErrorCodeEnum``): the services' refusals, then
    the answers of the API's plumbing (games.api.exceptions, config.views, common.middleware)."""

    INVALID_INPUT = "invalid_input"
    ILLEGAL_ACTION = "illegal_action"
    STALE_SEQUENCE = "stale_sequence"
    MATCH_CLOSED = "match_closed"
    NOT_AUTHENTICATED = "not_authenticated"
    FORBIDDEN = "forbidden"
    NOT_FOUND = "not_found"
    CONFLICT = "conflict"
    MATCH_TOO_LONG = "match_too_long"
    IDEMPOTENCY_KEY_REUSED = "idempotency_key_reused"
    NOT_PUBLISHED = "not_published"
    # The venue's tables (tournaments/services/tables.py).
    UNKNOWN_TABLE = "unknown_table"
    TABLE_OCCUPIED = "table_occupied"
    MATCH_NOT_READY = "match_not_ready"
    # A club's roster (tournaments/services/clubs.py): a name close to the roster's, for the director to choose.
    PLAYER_TO_CHOOSE = "player_to_choose"
    # A division open by rating or points (tournaments/entry_caps.py): a player outside it, unless overridden.
    OUTSIDE_CAP = "outside_cap"
    # The API's plumbing: a .mat log that does not replay, a request refused before a view, a lost database.
    INVALID_LOG = "invalid_log"
    BAD_REQUEST = "bad_request"
    REQUEST_TOO_LARGE = "request_too_large"
    TOO_MANY_FIELDS = "too_many_fields"
    TOO_MANY_FILES = "too_many_files"
    METHOD_NOT_ALLOWED = "method_not_allowed"
    NOT_ACCEPTABLE = "not_acceptable"
    UNSUPPORTED_MEDIA_TYPE = "unsupported_media_type"
    THROTTLED = "throttled"
    SERVER_ERROR = "server_error"
    DATABASE_UNAVAILABLE = "database_unavailable"
    QUEUE_UNAVAILABLE = "queue_unavailable"


STATUS = {
    ErrorCode.INVALID_INPUT: 400,
    ErrorCode.ILLEGAL_ACTION: 400,
    ErrorCode.STALE_SEQUENCE: 409,
    ErrorCode.MATCH_CLOSED: 409,
    ErrorCode.CONFLICT: 409,
    ErrorCode.MATCH_TOO_LONG: 400,
    ErrorCode.IDEMPOTENCY_KEY_REUSED: 422,
    ErrorCode.UNKNOWN_TABLE: 404,
    ErrorCode.TABLE_OCCUPIED: 409,
    ErrorCode.MATCH_NOT_READY: 409,
    ErrorCode.PLAYER_TO_CHOOSE: 409,
    ErrorCode.OUTSIDE_CAP: 409,
    ErrorCode.NOT_AUTHENTICATED: 401,
    ErrorCode.FORBIDDEN: 403,
    ErrorCode.NOT_PUBLISHED: 403,
    ErrorCode.NOT_FOUND: 404,
    ErrorCode.INVALID_LOG: 400,
    ErrorCode.BAD_REQUEST: 400,
    ErrorCode.REQUEST_TOO_LARGE: 400,
    ErrorCode.TOO_MANY_FIELDS: 400,
    ErrorCode.TOO_MANY_FILES: 400,
    ErrorCode.METHOD_NOT_ALLOWED: 405,
    ErrorCode.NOT_ACCEPTABLE: 406,
    ErrorCode.UNSUPPORTED_MEDIA_TYPE: 415,
    ErrorCode.THROTTLED: 429,
    ErrorCode.SERVER_ERROR: 500,
    ErrorCode.DATABASE_UNAVAILABLE: 503,
    ErrorCode.QUEUE_UNAVAILABLE: 503,
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
