"""URL converters. ``<id:...>`` is a database id: 1 to 18 digits, so an id past the 64-bit range never reaches a
query (it is a 404 like any unknown id, not a database error)."""

from django.urls import register_converter


class IdConverter:
    regex = "[0-9]{1,18}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)


register_converter(IdConverter, "id")
