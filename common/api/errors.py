"""The one shape of an error answer, for the OpenAPI schema of every app's API (docs/ARCHITECTURE.md, "common/"):
``{"code": <stable code>, "message": <for people>, ...extra}``."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from common.errors import ErrorCode

#: Every error code (the schema's ``ErrorCodeEnum``).
ERROR_CODES = [str(code) for code in ErrorCode]


class ErrorDoc(serializers.Serializer):
    code = serializers.ChoiceField(choices=ERROR_CODES, help_text="stable: a client tests it")
    message = serializers.CharField()
    fields = serializers.DictField(required=False, help_text="field errors (400 invalid_input)")
    seq = serializers.IntegerField(required=False, help_text="the match's current seq (409 stale_sequence)")
    table = serializers.IntegerField(required=False, help_text="the table's number (404 unknown_table)")


ERROR_RESPONSES: dict[int, Any] = {status: ErrorDoc for status in (400, 401, 403, 404, 409)}
