"""Rating lists, a rating history, and a player's next match."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from games.models import Player
from tournaments.api.serializers.rounds import PairingSerializer
from tournaments.models import Playoff, Rating, RatingChange, RatingList
from tournaments.pages import playoff_words
from tournaments.selectors import NextFor


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


class PlayoffTurnDoc(serializers.Serializer):
    """The player's part in an ordered playoff for a tie, as "Your next match" says it."""

    id = serializers.IntegerField(help_text="the playoff's id (its division's playoffs/)")
    kind = serializers.ChoiceField(choices=Playoff.Kind.choices, help_text="what the tie decides")
    place = serializers.IntegerField(help_text="the first place the tie spans")
    entry = serializers.IntegerField(help_text="the player's entry (id) in the division")
    match = serializers.IntegerField(
        allow_null=True, help_text="his playoff match to play (ready or in progress); null: none now (see words)"
    )
    side = serializers.IntegerField(allow_null=True, help_text="his side in that match: 0 (player 1) or 1")
    opponent = PlayerDoc(allow_null=True)
    words = serializers.CharField(
        help_text='the playoff as the players hear it: "Playoff for the tie at 1st place" (a three-player '
        'stepladder\'s match: ", first match" or ", final")'
    )


class NextMatchDoc(serializers.Serializer):
    """The player's next match to play (ready or in progress), or his playoff match to play; null fields when there
    is none, and ``words`` says what the page "Your next match" says then."""

    player = PlayerDoc()
    event = NamedDoc(allow_null=True)
    division = NamedDoc(allow_null=True)
    side = serializers.IntegerField(allow_null=True, help_text="0: side a (player 1 of the match), 1: side b")
    pairing = PairingSerializer(allow_null=True)
    playoff = PlayoffTurnDoc(allow_null=True, help_text="his part in an ordered playoff for a tie (no pairing then)")
    place = serializers.CharField(
        allow_null=True,
        help_text='once his last division is over (he plays in none running): his place as the standings say it, "3"'
        ', "3-4" when shared ("" before they are computed); null otherwise',
    )
    words = serializers.CharField(
        help_text='what "Your next match" says without a match to play: a bracket slot waiting for its opponent, '
        'what he waits for in a playoff, his place once his division is over ("The Open is over: you share 3rd-4th '
        'place."); "" when he has a match to play or nothing is said'
    )


def next_match(player: Player, found: NextFor, words: str) -> dict[str, Any]:
    """The :class:`NextMatchDoc` of ``player``: ``found`` from ``selectors.next_for``, ``words`` what the page says
    of it (``tournaments.entry_views.next_words``)."""
    answer: dict[str, Any] = {
        "player": {"id": player.pk, "name": player.display_name},
        "event": None,
        "division": None,
        "side": None,
        "pairing": None,
        "playoff": None,
        "place": found.finished[1] if found.finished is not None else None,
        "words": words,
    }
    division = found.division
    if division is not None:
        answer["event"] = {"slug": division.event.slug, "name": division.event.name}
        answer["division"] = {"slug": division.slug, "name": division.name}
    pairing, turn = found.pairing, found.playoff
    if pairing is not None:
        answer["side"] = 0 if pairing.entry_a is not None and pairing.entry_a.player_id == player.pk else 1
        answer["pairing"] = PairingSerializer(pairing).data
    elif turn is not None:
        match = turn.match
        side = None if match is None else (0 if match.player1_id == player.pk else 1)
        opponent = turn.opponent
        answer["side"] = side
        answer["playoff"] = {
            "id": turn.playoff.pk,
            "kind": turn.playoff.kind,
            "place": turn.playoff.place,
            "entry": turn.entry,
            "match": match.pk if match is not None else None,
            "side": side,
            "opponent": {"id": opponent.pk, "name": opponent.display_name} if opponent is not None else None,
            "words": playoff_words(turn.playoff, match.pk if match is not None else None),
        }
    return answer
