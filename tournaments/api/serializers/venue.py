"""The venue's tables, the match each holds, and the queue of matches waiting for a table."""

from __future__ import annotations

from typing import Any

from django.core.validators import ProhibitNullCharactersValidator
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from common.api import fields
from tournaments import services
from tournaments.api.serializers.rounds import PairingSerializer

#: What a venue's table is doing (the schema's ``TableStateEnum``).
TABLE_STATES = ["free", "called", "playing"]


class VenueTableSerializer(serializers.Serializer):
    """A table of the venue (a :class:`~tournaments.selectors.venue.Seat`) and the match it holds."""

    number = serializers.IntegerField(source="table.number", help_text="numbered from 1 for the whole event")
    name = serializers.CharField(source="table.name", help_text='its name ("Feature table"), or "" for its number')
    label = serializers.CharField(source="table.label", help_text='how people name it: "Table 7", "Feature table"')
    held = fields.BooleanField(source="table.held", help_text="held back: a match goes to it only by hand")
    state = serializers.SerializerMethodField()
    division = serializers.CharField(
        source="pairing.division.slug", allow_null=True, default=None, help_text="the division of the match it holds"
    )
    pairing = PairingSerializer(
        allow_null=True, help_text="the match it holds (its table and called_at included), or null: free"
    )

    @extend_schema_field(
        serializers.ChoiceField(
            choices=TABLE_STATES,
            help_text="free; called (its match is sent to it and has not started); playing",
        )
    )
    def get_state(self, seat: Any) -> str:
        if seat.pairing is None:
            return "free"
        return "called" if seat.called else "playing"


class VenueQueueItemSerializer(serializers.Serializer):
    """A match ready to start and waiting for a table."""

    division = serializers.CharField(source="division.slug")
    pairing = PairingSerializer(source="*")


class VenueSerializer(serializers.Serializer):
    """The venue: its tables in order with what each holds, and the queue of matches waiting for a table (next
    first: earlier rounds first, the main flight before the consolation and the last chance, then the match waiting
    longest)."""

    tables_given = fields.BooleanField(
        help_text="the director gave the tables (a count or named tables); false: as many as there are matches"
    )
    tables = VenueTableSerializer(source="seats", many=True)
    queue = VenueQueueItemSerializer(many=True)


class TablesInput(serializers.Serializer):
    """The venue's tables: exactly one of ``count``, ``names`` or ``as_needed``."""

    count = fields.IntegerField(
        min_value=1, max_value=services.MAX_TABLES, required=False, help_text="that many tables, known by number"
    )
    names = serializers.ListField(
        child=serializers.CharField(
            max_length=60, allow_blank=True, trim_whitespace=True, validators=[ProhibitNullCharactersValidator()]
        ),
        min_length=1,
        max_length=services.MAX_TABLES,
        required=False,
        error_messages={
            "empty": "give at least one table",
            "min_length": "give at least one table",
            "max_length": f"give at most {services.MAX_TABLES} tables",
        },
        help_text='one table each, numbered from 1 in order: its name ("Feature table"), or "" for its number',
    )
    as_needed = fields.BooleanField(
        required=False, help_text="true: as many tables as there are matches to play (the tables so far are kept)"
    )

    def validate(self, data: dict[str, Any]) -> dict[str, Any]:
        given = [name for name in ("count", "names", "as_needed") if name in data]
        if len(given) != 1:
            raise serializers.ValidationError(
                'send exactly one of "count" (a number of tables), "names" (one table each) or "as_needed": true'
            )
        if given == ["as_needed"]:
            if not data["as_needed"]:
                raise serializers.ValidationError({"as_needed": ['only true: give "count" or "names" instead']})
            return {"names": None}
        if given == ["count"]:
            return {"names": [""] * data["count"]}
        return {"names": data["names"]}


class TableSeatInput(serializers.Serializer):
    table = fields.IntegerField(
        min_value=1,
        max_value=32767,
        help_text="the table's number; without tables given by the director, a number past the last adds a table",
    )
