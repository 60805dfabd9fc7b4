"""What the serializers of the tournaments API share: a status as an enum of the schema, the length of a reason, and
the director's reason to pass a division's cap."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

MAX_REASON = 2000


def status_field(choices: Any, text: str = "", source: str | None = None) -> serializers.ChoiceField:
    if source is None:
        return serializers.ChoiceField(choices=choices.choices, read_only=True, help_text=text)
    return serializers.ChoiceField(choices=choices.choices, read_only=True, help_text=text, source=source)


def override(help_text: str) -> serializers.CharField:
    """The director's reason to enter or check in a player outside a division's cap."""
    return serializers.CharField(max_length=500, required=False, allow_blank=True, default="", help_text=help_text)
