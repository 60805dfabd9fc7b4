"""Clubs, their rosters, seasons and their tables, and players' merges."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from common.api import fields
from games.models import Player
from tournaments.api.serializers.entries import PlayerChoiceInput
from tournaments.models import Club, Event, PlayerMerge, Season
from tournaments.selectors.clubs import Champion, ClubPage


class ClubSerializer(serializers.ModelSerializer):
    rating_list = serializers.CharField(
        source="rating_list.slug", read_only=True, allow_null=True, help_text="its events' rating list"
    )

    class Meta:
        model = Club
        fields = ("slug", "name", "public", "rating_list", "created_at")
        read_only_fields = fields


class ClubInput(serializers.Serializer):
    name = serializers.CharField(max_length=200)
    slug = fields.SlugField(
        max_length=100, required=False, allow_blank=True, default="", help_text="made from the name if empty"
    )
    public = fields.BooleanField(default=True, help_text="its page is public")


class FlatRows(serializers.ListSerializer):
    """Many rows of a serializer whose fields are plain attributes (one name each, no nesting): each row read in
    one pass, its fields' ``to_representation`` called directly (a season's thousand rows: DRF's way per row costs
    about four times more), the same values."""

    def to_representation(self, data: Any) -> list[dict[str, Any]]:
        fields = [(f.field_name, f.source_attrs[0], f.to_representation) for f in self.child._readable_fields]
        return [
            {name: None if (value := getattr(row, attr)) is None else shown(value) for name, attr, shown in fields}
            for row in data
        ]


class ClubEventSerializer(serializers.ModelSerializer):
    class Meta:
        model = Event
        fields = ("slug", "name", "starts_on", "status")
        read_only_fields = fields
        list_serializer_class = FlatRows  # a season of 200 nights lists them all


class ClubRatingSerializer(serializers.Serializer):
    player = serializers.IntegerField(source="player_id")
    name = serializers.CharField(source="player.display_name")
    rating = serializers.FloatField()
    experience = serializers.IntegerField()
    matches = serializers.IntegerField()


class ClubChampionSerializer(serializers.Serializer):
    """A finished division's champion; while a playoff for its tie at 1st is to be played, one row for each player
    tied at 1st, each with ``playoff_to_play``."""

    event = serializers.CharField(source="event.slug")
    division = serializers.CharField(source="division.slug")
    division_name = serializers.CharField(source="division.name")
    player = serializers.IntegerField(source="player.pk")
    name = serializers.CharField(source="player.display_name")
    playoff_to_play = serializers.SerializerMethodField(
        help_text="true while the tie at 1st waits for its playoff: no champion yet, the row is one of the tied"
    )

    @extend_schema_field(serializers.BooleanField())
    def get_playoff_to_play(self, champion: Champion) -> bool:
        return bool(champion.playoff)


class ClubPageSerializer(serializers.Serializer):
    """A club with its events running, to come and played, the top of its rating list and its recent champions."""

    club = ClubSerializer()
    running = ClubEventSerializer(many=True)
    upcoming = ClubEventSerializer(many=True)
    recent = ClubEventSerializer(many=True)
    ratings = ClubRatingSerializer(many=True)
    champions = serializers.SerializerMethodField()

    @extend_schema_field(ClubChampionSerializer(many=True))
    def get_champions(self, page: ClubPage) -> list[dict[str, Any]]:
        """A tie at 1st whose playoff is to be played (one :class:`Champion` on the page): a row per tied player."""
        rows = [
            Champion(c.event, c.division, player, c.playoff)
            for c in page.champions
            for player in c.playoff or [c.player]
        ]
        return ClubChampionSerializer(rows, many=True).data


class RosterPlayerSerializer(serializers.ModelSerializer):
    name = serializers.CharField(source="display_name")
    events = serializers.IntegerField(read_only=True, default=0, help_text="the club's events he entered")

    class Meta:
        model = Player
        fields = ("id", "name", "club", "country", "events")
        read_only_fields = fields


class RosterInput(PlayerChoiceInput):
    """An existing player (``player``) or one by name: the roster's player named so, or a new one."""


class SeasonSerializer(serializers.ModelSerializer):
    club = serializers.CharField(source="club.slug", read_only=True)

    class Meta:
        model = Season
        fields = ("club", "slug", "name", "starts_on", "ends_on", "system", "table", "qualify")
        read_only_fields = fields


class SeasonInput(serializers.Serializer):
    name = serializers.CharField(max_length=100)
    slug = fields.SlugField(max_length=100, required=False, allow_blank=True, default="")
    starts_on = serializers.DateField()
    ends_on = serializers.DateField()
    system = serializers.ChoiceField(choices=Season.System.choices, default=Season.System.CLUB)
    table = serializers.DictField(
        required=False,
        default=dict,
        help_text='the club\'s own table: {"per_win": 1, "times_length": true, "places": [10, 6, 4, 4], '
        '"showing_up": 2, "multipliers": {"final-night": 2}}; BackGames\' universal club table (system backgames): '
        '{"basis": "players" | "rounds" | "higher", "multipliers": {"final-night": 1.5}, "figures": {"open": '
        '{"per_win": 0.25, "players": {"1-11": {"1": 4}}}}} (figures: any part of the table, over the default); '
        "each key optional; ignored for usbgf",
    )
    qualify = fields.IntegerField(min_value=0, max_value=1000, default=0, help_text="the top N qualify (0: no line)")


class SeasonChangeInput(serializers.Serializer):
    """What a change of a season may give (each optional: what is not given stays)."""

    starts_on = serializers.DateField(required=False)
    ends_on = serializers.DateField(required=False)
    system = serializers.ChoiceField(choices=Season.System.choices, required=False)
    table = serializers.DictField(required=False, help_text="the club's own table, whole (as for a new season)")
    qualify = fields.IntegerField(min_value=0, max_value=1000, required=False, help_text="the top N qualify")


class SeasonRowSerializer(serializers.Serializer):
    class Meta:
        list_serializer_class = FlatRows

    rank = serializers.IntegerField()
    player = serializers.IntegerField(source="player_id")
    name = serializers.CharField()
    points = serializers.FloatField()
    events = serializers.IntegerField(help_text="the season's events he played")
    match_wins = serializers.IntegerField(help_text="over the board")
    qualified = serializers.BooleanField(help_text="above the playoff line")
    tied_at_line = serializers.BooleanField(
        help_text="level on points and events with players on the other side of the playoff line: a playoff or a "
        "tie-break decides who of them qualifies"
    )


class SeasonTableSerializer(serializers.Serializer):
    season = SeasonSerializer()
    events = ClubEventSerializer(many=True)
    rows = SeasonRowSerializer(many=True)


class MergePlayerSerializer(serializers.ModelSerializer):
    name = serializers.CharField(source="display_name")
    label = serializers.CharField(help_text="the name with club, country and id, as the directors' pages show it")

    class Meta:
        model = Player
        fields = ("id", "name", "label")
        read_only_fields = fields


class MergeSerializer(serializers.ModelSerializer):
    """A merge of two records of one person: ``folded`` became ``kept``; ``moved`` counts the rows that moved."""

    kept = MergePlayerSerializer()
    folded = MergePlayerSerializer()
    moved = serializers.SerializerMethodField(help_text="how many rows of each table moved (entries, matches, ...)")
    merged_by = serializers.CharField(source="merged_by.username", allow_null=True, default=None)
    undone_by = serializers.CharField(source="undone_by.username", allow_null=True, default=None)

    class Meta:
        model = PlayerMerge
        fields = ("id", "kept", "folded", "moved", "merged_by", "created_at", "undone_at", "undone_by")
        read_only_fields = fields

    @extend_schema_field(serializers.DictField(child=serializers.IntegerField()))
    def get_moved(self, merge: PlayerMerge) -> dict[str, int]:
        return {key: len(ids) for key, ids in merge.moved.items() if key != "rating_lists"}


class MergeInput(serializers.Serializer):
    keep = fields.IntegerField(min_value=1, help_text="the roster's player to keep")
    fold = fields.IntegerField(min_value=1, help_text="the record of the same person folded into it")
