"""Reading and writing the records of ``event.json``: plain values in and out, each checked as a form would check
it, every refusal an INVALID_INPUT naming the record and what is wrong."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from decimal import Decimal
from typing import Any

from django.core.exceptions import ValidationError
from django.db import models

from common.actor import Actor
from common.errors import ApplicationError, ErrorCode
from tournaments.services.archive.fields import ADDED_SINCE_FIRST_WRITTEN, EVENT_JSON


def _invalid(where: str, message: str) -> ApplicationError:
    place = f"{EVENT_JSON}, {where}" if where else EVENT_JSON
    return ApplicationError(ErrorCode.INVALID_INPUT, f"{place}: {message}")


def _importing_user(actor: Actor) -> Any:
    if actor.token is not None:
        raise ApplicationError(ErrorCode.FORBIDDEN, "an entry link cannot import an event")
    if actor.user is None:
        return None  # the system: no director is added
    if not actor.user.is_authenticated:
        raise ApplicationError(ErrorCode.NOT_AUTHENTICATED, "log in to import an event")
    return actor.user


def _record(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise _invalid(where, f"expected an object, not {_json_type(value)}")
    return value


def _get(record: Any, key: str, where: str, kind: type | tuple[type, ...]) -> Any:
    record = _record(record, where)
    if key not in record:
        raise _invalid(where, f"the key {key!r} is missing")
    value = record[key]
    if not isinstance(value, kind):
        names = " or ".join(_KIND_NAMES.get(k, k.__name__) for k in (kind if isinstance(kind, tuple) else (kind,)))
        raise _invalid(f"{where}.{key}" if where else key, f"expected {names}, not {_json_type(value)}")
    return value


_KIND_NAMES = {
    dict: "an object",
    list: "a list",
    str: "a string",
    int: "a whole number",
    float: "a number",
    bool: "true or false",
    type(None): "null",
}


def _keys(record: Any, keys: Iterable[str], where: str) -> None:
    record = _record(record, where)
    missing = [key for key in keys if key not in record]
    if missing:
        names = ", ".join(map(repr, missing))
        raise _invalid(where, f"the keys {names} are missing" if len(missing) > 1 else f"the key {names} is missing")


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    return {dict: "an object", list: "a list", str: "a string", bool: "true/false"}.get(type(value), "a number")


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _id(record: dict[str, Any], where: str, seen: dict[int, Any]) -> int:
    value = _get(record, "id", where, int)
    if isinstance(value, bool):
        raise _invalid(f"{where}.id", "an id is a number")
    if value in seen:
        raise _invalid(f"{where}.id", f"the id {value} is used twice")
    return value


def _ref(record: dict[str, Any], key: str, where: str, table: dict[int, Any], *, nullable: bool = False) -> Any:
    value = _record(record, where).get(key, ...)
    if value is ...:
        raise _invalid(where, f"the key {key!r} is missing")
    if value is None and nullable:
        return None
    if not _is_int(value) or value not in table:
        raise _invalid(f"{where}.{key}", f"{value!r} is not the id of a record of the file")
    return table[value]


def _dice(value: Any, where: str) -> tuple[int | None, int | None]:
    if value is None:
        return None, None
    if not (isinstance(value, list) and len(value) == 2 and all(_is_int(d) and 1 <= d <= 6 for d in value)):
        raise _invalid(where, f"dice are two numbers from 1 to 6, or null; not {value!r}")
    return value[0], value[1]


def _build(model: type[models.Model], record: Any, fields: Sequence[str], where: str, **links: Any) -> Any:
    """A model instance from a record's plain fields (checked as a form would: JSON types, choices, lengths,
    ranges) and the references already resolved."""
    later = ADDED_SINCE_FIRST_WRITTEN.get(model, frozenset())
    _keys(record, [name for name in fields if name not in later], where)
    values: dict[str, Any] = {}
    for name in fields:
        field = _field(model, name)
        value = record[name] if name in record else field.get_default()
        if isinstance(field, models.DateTimeField):
            value = _datetime(value, f"{where}.{name}")
        elif isinstance(field, models.DateField):
            value = _date(value, f"{where}.{name}")
        elif name in record and not (value is None and field.null):  # a default needs no checking
            expected = _json_kind(field)
            if expected is not None and not _is_json_kind(value, expected):
                raise _invalid(f"{where}.{name}", f"expected {_KIND_NAMES[expected]}, not {_json_type(value)}")
        values[name] = value
    obj = model(**values, **links)
    # References are resolved by the caller; JSON values are checked above (a JSON document holds only JSON).
    unchecked = [
        f.name
        for f in model._meta.concrete_fields
        if f.is_relation or f.primary_key or f.get_internal_type() == "JSONField"
    ]
    try:
        obj.clean_fields(exclude=unchecked)
    except ValidationError as exc:
        problems = "; ".join(f"{name}: {' '.join(messages)}" for name, messages in exc.message_dict.items())
        raise _invalid(where, problems) from None
    return obj


def _json_kind(field: models.Field) -> type | None:
    """The JSON type a field's value has in the file (None: any, or checked elsewhere)."""
    if isinstance(field, models.JSONField):
        return type(field.default()) if callable(field.default) else None
    if isinstance(field, models.BooleanField):
        return bool
    if isinstance(field, models.IntegerField):
        return int
    if isinstance(field, models.FloatField):
        return float
    if isinstance(field, (models.CharField, models.TextField, models.DecimalField)):
        return str  # an amount as text, exactly: "5.00"
    return None


def _is_json_kind(value: Any, kind: type) -> bool:
    if kind is int:
        return _is_int(value)
    if kind is float:
        return _is_int(value) or isinstance(value, float)
    return isinstance(value, kind)


def _datetime(value: Any, where: str) -> dt.datetime | None:
    if value is None:
        return None
    try:
        parsed = dt.datetime.fromisoformat(value) if isinstance(value, str) else None
    except ValueError:
        parsed = None
    if parsed is None or parsed.tzinfo is None:
        raise _invalid(where, f"expected an ISO 8601 date and time with its UTC offset, not {value!r}")
    return parsed


def _date(value: Any, where: str) -> dt.date | None:
    if value is None:
        return None
    try:
        return dt.date.fromisoformat(value)
    except (TypeError, ValueError):
        raise _invalid(where, f"expected an ISO 8601 date, not {value!r}") from None


def _show(value: Any) -> str:
    if isinstance(value, list):
        return "-".join(map(str, value))
    return repr(value)


def _field(model: type[models.Model], name: str) -> models.Field[Any, Any]:
    field = model._meta.get_field(name)
    assert isinstance(field, models.Field)
    return field


def _plain(obj: models.Model, fields: Iterable[str]) -> dict[str, Any]:
    return {name: _value(getattr(obj, name)) for name in fields}


def _value(value: Any) -> Any:
    if isinstance(value, Decimal):
        return str(value)  # an amount, exactly: "5.00"
    if isinstance(value, dt.datetime):
        return value.astimezone(dt.UTC).isoformat()
    if isinstance(value, dt.date):
        return value.isoformat()
    return value
