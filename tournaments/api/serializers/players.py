"""Rating lists, a rating history, and a player's next match."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from games.models import Player
from tournaments.api.serializers.rounds import PairingSerializer
from tournaments.models import Pairing, Rating, RatingChange, RatingList


class RatingRowSerializer(serializers.ModelSerializer):
    rank = serializers.SerializerMethodField()
    player = serializers.IntegerField(source="player_id", read_only=True)
    name = serializers.CharField(source="player.display_name", read_only=True)

    class Meta:
        model = Rating
        fields = ("rank", "player", "name", "rating", "experience", "matches")
        read_only_fields = fields

    @extend_schema_field(serializers.IntegerField(help_text="players with the same rating share it"))
    def get_rank(self, rating: Rating) -> int:
        return self.context["ranks"][rating.pk]


class RatingListSerializer(serializers.ModelSerializer):
    ratings = serializers.SerializerMethodField()

    class Meta:
        model = RatingList
        fields = ("slug", "name", "start", "k_factor", "computed_at", "ratings")
        read_only_fields = fields

    @extend_schema_field(RatingRowSerializer(many=True))
    def get_ratings(self, rating_list: RatingList) -> list[dict[str, Any]]:
        rows = self.context["ratings"]
        return RatingRowSerializer(rows, many=True, context={"ranks": self.context["ranks"]}).data


class RatingChangeSerializer(serializers.ModelSerializer):
    """One rated match of a player. ``match`` and ``opponent`` are null for a private match the caller may not
    see."""

    match = serializers.SerializerMethodField()
    opponent = serializers.SerializerMethodField()
    delta = serializers.FloatField(read_only=True)

    class Meta:
        model = RatingChange
        fields = ("order", "match", "opponent", "won", "before", "after", "delta", "experience_before")
        read_only_fields = fields

    def _shown(self, change: RatingChange) -> bool:
        return not change.match.private or change.match_id in self.context["visible"]

    @extend_schema_field(serializers.IntegerField(allow_null=True))
    def get_match(self, change: RatingChange) -> int | None:
        return change.match_id if self._shown(change) else None

    @extend_schema_field(serializers.IntegerField(allow_null=True, help_text="the opponent's player id"))
    def get_opponent(self, change: RatingChange) -> int | None:
        if not self._shown(change):
            return None
        match = change.match
        return match.player2_id if match.player1_id == change.player_id else match.player1_id


class NamedDoc(serializers.Serializer):
    slug = serializers.CharField()
    name = serializers.CharField()


class PlayerDoc(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()


class NextMatchDoc(serializers.Serializer):
    """The player's next match to play (ready or in progress); null fields when there is none."""

    player = PlayerDoc()
    event = NamedDoc(allow_null=True)
    division = NamedDoc(allow_null=True)
    side = serializers.IntegerField(allow_null=True, help_text="0: side a (player 1 of the match), 1: side b")
    pairing = PairingSerializer(allow_null=True)


def next_match(player: Player, pairing: Pairing | None) -> dict[str, Any]:
    """The :class:`NextMatchDoc` of ``player`` (``pairing`` from ``selectors.next_pairing_for``, or None)."""
    answer: dict[str, Any] = {"player": {"id": player.pk, "name": player.display_name}}
    if pairing is None:
        return {**answer, "event": None, "division": None, "side": None, "pairing": None}
    division = pairing.division
    return {
        **answer,
        "event": {"slug": division.event.slug, "name": division.event.name},
        "division": {"slug": division.slug, "name": division.name},
        "side": 0 if pairing.entry_a is not None and pairing.entry_a.player_id == player.pk else 1,
        "pairing": PairingSerializer(pairing).data,
    }
