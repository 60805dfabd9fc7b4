"""The games API's own input field: a player among those the caller may see. The strict fields it builds on are
every app's (common.api.fields)."""

from __future__ import annotations

from typing import Any

from common.api.fields import PrimaryKeyRelatedField
from games.models import Player
from games.selectors import players_visible_to


class VisiblePlayerField(PrimaryKeyRelatedField):
    """A player's id among the players the caller may see (games.selectors.players_visible_to, the rule of
    ``/api/players/ID/``): a player entered only in private events the caller cannot see is refused with the very
    message of an id that does not exist, so that walking ids reads no hidden name. The caller is the ``user`` of
    the serializer's context (anonymous without one)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(queryset=Player.objects.all(), **kwargs)

    def get_queryset(self) -> Any:
        return players_visible_to(self.context.get("user"))
