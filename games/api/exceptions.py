"""One error shape for the whole API: ``{"code": <stable code>, "message": <for people>, ...extra}``.

* :class:`~common.errors.ApplicationError` (a service's refusal): its own status, ``code``, ``message`` and extra
  fields (a stale sequence number carries the current ``seq``).
* DRF's validation errors: 400 ``invalid_input`` with the field errors under ``fields``.
* DRF's other errors (401, 403, 404, 405, 406, 415, 429): their status, with the codes of
  :class:`~common.errors.ErrorCode` where one fits.
* :class:`~engine.errors.EngineError` never reaches a view (services turn it into ``illegal_action``); if one did,
  it is a 400 ``illegal_action`` with the engine's message, never a 500. Django's ``Http404`` and
  ``ObjectDoesNotExist`` are 404 ``not_found``.
* A lost database (``OperationalError``, ``InterfaceError``: see :func:`common.middleware.is_database_unavailable`)
  is 503 ``database_unavailable`` with ``Retry-After``, and a log line: the services write in one transaction each,
  so nothing was half-written, and a retry (with the same idempotency key, for an action) is safe.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ObjectDoesNotExist
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.http import Http404
from rest_framework import exceptions, renderers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from common.errors import STATUS, ApplicationError, ErrorCode
from common.middleware import (
    RETRY_AFTER_SECONDS,
    database_unavailable_json,
    is_database_unavailable,
    log_database_unavailable,
)
from engine.errors import EngineError
from games.api.auth import AUTHENTICATE_HEADER

#: DRF's error codes, renamed to ours where the meaning is the same.
_CODES = {
    "not_authenticated": ErrorCode.NOT_AUTHENTICATED,
    "authentication_failed": ErrorCode.NOT_AUTHENTICATED,
    "permission_denied": ErrorCode.FORBIDDEN,
    "not_found": ErrorCode.NOT_FOUND,
    "parse_error": ErrorCode.INVALID_INPUT,
    "invalid": ErrorCode.INVALID_INPUT,
}


class ApiError(exceptions.APIException):
    """An API-level refusal that is not a service's: a status, a stable code, a message and extra fields."""

    def __init__(self, *, status_code: int, code: str, message: str, **extra: object) -> None:
        super().__init__(detail=message, code=code)
        self.status_code = status_code
        self.code = code
        self.message = message
        self.extra = extra


class JsonErrors:
    """A view mixin for views whose answers are not JSON (a .mat file, the schema in YAML): their errors still are,
    whatever the client accepts, as every error of the API is (a 429 on ``export.mat`` was text/plain)."""

    def finalize_response(self, request: Request, response: Any, *args: Any, **kwargs: Any) -> Any:
        if isinstance(response, Response) and response.status_code >= status.HTTP_400_BAD_REQUEST:
            request.accepted_renderer = renderers.JSONRenderer()
            request.accepted_media_type = request.accepted_renderer.media_type
        return super().finalize_response(request, response, *args, **kwargs)  # type: ignore[misc]


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """The ``EXCEPTION_HANDLER`` of REST_FRAMEWORK (settings)."""
    if isinstance(exc, ApplicationError):
        response = Response(exc.as_dict(), status=exc.status)
        if exc.status == status.HTTP_401_UNAUTHORIZED:
            response["WWW-Authenticate"] = AUTHENTICATE_HEADER
        return response
    if isinstance(exc, ApiError):
        return Response({"code": exc.code, "message": exc.message, **exc.extra}, status=exc.status_code)
    if isinstance(exc, EngineError):
        return Response({"code": str(ErrorCode.ILLEGAL_ACTION), "message": str(exc)}, status=400)
    if is_database_unavailable(exc):
        log_database_unavailable(context["request"], exc)
        headers = {"Retry-After": str(RETRY_AFTER_SECONDS), "Cache-Control": "no-store"}
        return Response(database_unavailable_json(), status=503, headers=headers)
    if isinstance(exc, (Http404, ObjectDoesNotExist)):
        exc = exceptions.NotFound(str(exc) or "not found")
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied(str(exc) or None)
    response = drf_exception_handler(exc, context)
    if response is None:
        return None  # a real bug: Django's 500
    if isinstance(exc, exceptions.ValidationError):
        fields = _fields(exc.detail)
        response.data = {"code": str(ErrorCode.INVALID_INPUT), "message": _first_message(fields), "fields": fields}
    elif isinstance(exc, exceptions.APIException):
        message = _text(exc.detail)
        if isinstance(exc, exceptions.NotAuthenticated):
            message = _wrong_scheme(context["request"]) or message
        response.data = {"code": str(_code(exc, response.status_code)), "message": message}
    return response


def _wrong_scheme(request: Any) -> str:
    """What is wrong with an ``Authorization`` header no authentication read (``Bearer KEY``), or "" without one."""
    words = request.META.get("HTTP_AUTHORIZATION", "").split()
    if not words or words[0].lower() == "token":
        return ""
    scheme = words[0][:20]
    return (
        f'the Authorization header\'s scheme "{scheme}" is not read here: send "Authorization: Token <key>" '
        "(python manage.py drf_create_token USER makes a key), or your entry link as X-Entry-Token"
    )


def _code(exc: exceptions.APIException, status_code: int) -> ErrorCode:
    """Ours for DRF's code (``throttled``, ``unsupported_media_type``, ...); by the status when it has none of ours."""
    code = exc.get_codes()
    code = _CODES.get(code, code) if isinstance(code, str) else ""
    if code in ErrorCode._value2member_map_:
        return ErrorCode(code)
    return next((known for known, status in STATUS.items() if status == status_code), ErrorCode.BAD_REQUEST)


def _fields(detail: Any) -> dict[str, Any]:
    """Field errors as ``{field: [messages]}`` (nested serializers keep their nesting)."""
    if isinstance(detail, dict):
        return {str(key): _plain(value) for key, value in detail.items()}
    return {"non_field_errors": _plain(detail if isinstance(detail, list) else [detail])}


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return str(value)


def _first_message(fields: dict[str, Any]) -> str:
    """``"dice: ensure this value is less than or equal to 6."``: the first field error, for people."""
    for name, value in fields.items():
        while isinstance(value, (list, dict)) and value:
            value = value[0] if isinstance(value, list) else next(iter(value.values()))
        if isinstance(value, str) and value:
            return value if name == "non_field_errors" else f"{name}: {value}"
    return "the request is not valid"


def _text(detail: Any) -> str:
    if isinstance(detail, (list, tuple)):
        return " ".join(_text(d) for d in detail)
    if isinstance(detail, dict):
        return " ".join(f"{k}: {_text(v)}" for k, v in detail.items())
    return str(detail)
