"""Strict input fields of the API: a value is taken only in the type its schema gives.

DRF's own fields are lenient in ways that suited HTML forms: an ``IntegerField`` takes ``"3"`` and ``3.0``, a
``PrimaryKeyRelatedField`` hands ``1.5`` to the database, which reads it as 1, a ``FloatField`` takes ``true`` as 1.0;
and a serializer reading a query string treats ``?status=`` as if the parameter were absent. Request bodies are JSON
(common.api.parsers), so here an integer is a JSON integer, a number a JSON number, and a query parameter, when it is
sent, has a value. Every ``*Input`` serializer of the API uses these fields and every ``*Filter`` is a
:class:`QueryParams` (tests/games/api/test_strict_input.py keeps it so).
"""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

from django.http import QueryDict
from rest_framework import relations, serializers


def _is_integer(data: Any) -> bool:
    return isinstance(data, int) and not isinstance(data, bool)


class IntegerField(serializers.IntegerField):
    """A JSON integer: ``3``, never ``"3"``, ``3.0``, ``1.5`` or ``true``."""

    default_error_messages = {"invalid": "expected an integer (a whole number, not text or a decimal)"}  # noqa: RUF012

    def to_internal_value(self, data: Any) -> int:
        if not _is_integer(data):
            self.fail("invalid")
        return int(data)


class CharField(serializers.CharField):
    """A JSON string: ``"Oslo"``, never ``42`` or ``true`` (which DRF's own field would take as ``"42"``)."""

    default_error_messages = {"invalid": "expected text (a JSON string), not a number or true/false"}  # noqa: RUF012

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class BooleanField(serializers.BooleanField):
    """JSON ``true`` or ``false``, never ``"yes"``, ``"true"``, ``1`` or ``"on"`` (which DRF's own field, made for
    HTML forms, reads as true: a payout table was published by ``{"published": "yes"}``)."""

    default_error_messages = {"invalid": "expected true or false (JSON booleans, not text or a number)"}  # noqa: RUF012

    def to_internal_value(self, data: Any) -> bool:
        if not isinstance(data, bool):
            self.fail("invalid")
        return data


class SlugField(serializers.RegexField):
    """A slug (letters, digits, hyphens, underscores), or "" where the server makes one: its documented pattern
    accepts the documented default "" (openapi-spec-validator checks that a default matches its own pattern)."""

    default_error_messages = {  # noqa: RUF012
        "invalid": "use only letters, digits, hyphens and underscores (or leave it empty to have one made)"
    }

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(r"^[-a-zA-Z0-9_]*$", **kwargs)


class CountryField(serializers.RegexField):
    """An ISO 3166 alpha-2 country code (``NO``), or "" for none (the default, which its pattern accepts)."""

    default_error_messages = {"invalid": "give a two-letter country code (ISO 3166 alpha-2, such as NO), or none"}  # noqa: RUF012

    def __init__(self, **kwargs: Any) -> None:
        kwargs = {"required": False, "allow_blank": True, "default": "", "help_text": "ISO 3166 alpha-2 code", **kwargs}
        super().__init__(r"^([A-Za-z]{2})?$", **kwargs)


class FloatField(serializers.FloatField):
    """A JSON number: ``1500`` or ``1500.5``, never ``"1500"`` or ``true``."""

    default_error_messages = {"invalid": "expected a number, not text"}  # noqa: RUF012

    def to_internal_value(self, data: Any) -> float:
        if isinstance(data, bool) or not isinstance(data, (int, float)):
            self.fail("invalid")
        return super().to_internal_value(data)


class DecimalField(serializers.DecimalField):
    """A JSON number read as the decimal it is written as: ``50``, ``30.5``, never ``"30.5"`` or ``true`` (a money
    amount or a percentage: ``30.5`` is ``Decimal("30.5")``, not the binary float nearest to it)."""

    default_error_messages = {"invalid": "expected a number, not text"}  # noqa: RUF012

    def __init__(self, *, max_digits: int | None = None, decimal_places: int | None = None, **kwargs: Any) -> None:
        super().__init__(max_digits, decimal_places, coerce_to_string=False, **kwargs)

    def to_internal_value(self, data: Any) -> Decimal:
        if isinstance(data, bool) or not isinstance(data, (int, float)):
            self.fail("invalid")
        return super().to_internal_value(repr(data) if isinstance(data, float) else str(data))


class PrimaryKeyRelatedField(relations.PrimaryKeyRelatedField):
    """An object's id as a JSON integer (``1.5`` is refused, not read as 1; ``"1"`` is refused too)."""

    def to_internal_value(self, data: Any) -> Any:
        if not _is_integer(data):
            self.fail("incorrect_type", data_type=type(data).__name__)
        return super().to_internal_value(data)


class QueryIntegerField(serializers.IntegerField):
    """An integer in a query string: decimal digits (``?round=2``), never ``2.0`` or ``2e0``."""

    default_error_messages = {"invalid": "expected an integer (decimal digits)"}  # noqa: RUF012
    _DIGITS = re.compile(r"-?[0-9]{1,19}")

    def to_internal_value(self, data: Any) -> int:
        if not isinstance(data, str) or not self._DIGITS.fullmatch(data):
            self.fail("invalid")
        return int(data)


class QueryParams(serializers.Serializer):
    """Query parameters: a parameter that is sent must have a value, and only one (``?status=`` is a 400 saying so,
    where DRF would read it as "not sent")."""

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, QueryDict):
            problems = {name: _query_problem(values) for name, values in data.lists() if name in self.fields}
            errors = {name: [problem] for name, problem in problems.items() if problem}
            if errors:
                raise serializers.ValidationError(errors)
        return super().to_internal_value(data)


def _query_problem(values: list[str]) -> str | None:
    if len(values) > 1:
        return "give this parameter once"
    if values[0] == "":
        return "empty: give a value or leave the parameter out"
    return None
