"""Events and divisions: what they show, and what a director sends to create or change them."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from common.api import fields
from engine.variants import VARIANTS
from games.models import Match
from tournaments import services
from tournaments.api.serializers.common import status_field
from tournaments.models import Club, Division, Event
from tournaments.selectors.playoffs import division_playoff_to_play
from tournaments.standings.tiebreakers import Tiebreak

MAX_ROUND_RULES = 50


BYE_RULE = "a bye counts as a match win against a virtual opponent scored 0 for Buchholz and Sonneborn-Berger"


#: What ``playoff_to_play`` says, in the schema.
PLAYOFF_TO_PLAY_TEXT = (
    "true while a playoff for a tie is still to be played though the rounds are over: status stays finished, but "
    '{what} is not over (the pages say "playoff to play"): the standings show the tie until the playoff settles it'
)


def playoff_to_play_field(what: str) -> serializers.SerializerMethodField:
    return serializers.SerializerMethodField(help_text=PLAYOFF_TO_PLAY_TEXT.format(what=what))


class EventSerializer(serializers.ModelSerializer):
    """An event as the list shows it."""

    status = status_field(Event.Status)
    playoff_to_play = playoff_to_play_field("the event")
    rating_list = serializers.SlugRelatedField(
        read_only=True, allow_null=True, slug_field="slug", help_text="the rating list's slug, if any"
    )
    club = serializers.SlugRelatedField(
        read_only=True, allow_null=True, slug_field="slug", help_text="the club running it, if any"
    )

    class Meta:
        model = Event
        fields: tuple[str, ...] = (
            "slug",
            "name",
            "venue",
            "time_zone",
            "starts_on",
            "ends_on",
            "status",
            "playoff_to_play",
            "public",
            "analyse_imported",
            "rating_list",
            "points_weight",
            "club",
            "created_at",
        )
        read_only_fields: tuple[str, ...] = fields

    @extend_schema_field(serializers.BooleanField())
    def get_playoff_to_play(self, event: Event) -> bool:
        """Read with the event (``playoff_to_play``: one of its divisions); said only of a finished event."""
        return event.status == Event.Status.FINISHED and bool(getattr(event, "playoff_to_play", False))


class DivisionSummarySerializer(serializers.ModelSerializer):
    """A division in its event's page: what it is and how far it got."""

    status = status_field(Division.Status)
    playoff_to_play = playoff_to_play_field("the division")
    standings_status = status_field(Division.Work, source="standings_state")
    entries = serializers.IntegerField(source="entry_count", help_text="entries not withdrawn")

    class Meta:
        model = Division
        fields = (
            "slug",
            "name",
            "format",
            "match_length",
            "entry_mode",
            "status",
            "playoff_to_play",
            "standings_status",
            "entries",
        )
        read_only_fields = fields

    @extend_schema_field(serializers.BooleanField())
    def get_playoff_to_play(self, division: Division) -> bool:
        return division_playoff_to_play(division)


class EventDetailSerializer(EventSerializer):
    """An event with its divisions summarised (``context["divisions"]``: annotated with ``entry_count``)."""

    divisions = serializers.SerializerMethodField()

    class Meta(EventSerializer.Meta):
        fields = (*EventSerializer.Meta.fields, "divisions")
        read_only_fields = fields

    @extend_schema_field(DivisionSummarySerializer(many=True))
    def get_divisions(self, event: Event) -> list[dict[str, Any]]:
        return DivisionSummarySerializer(self.context["divisions"], many=True).data


class DivisionSerializer(serializers.ModelSerializer):
    """A division's settings and state. ``context["director"]``: whether the caller directs its event (the
    standings error is shown to directors only)."""

    event = serializers.CharField(source="event.slug", read_only=True, help_text="the event's slug")
    status = status_field(Division.Status)
    playoff_to_play = playoff_to_play_field("the division")
    standings_status = status_field(Division.Work, source="standings_state")
    round_lengths = serializers.DictField(
        child=serializers.IntegerField(),
        read_only=True,
        help_text='per-round lengths: {"main:final": 11, "main:1": 5, "consolation": 5, "swiss:5": 9}',
    )
    tiebreaks = serializers.ListField(
        child=serializers.ChoiceField(choices=[t.value for t in Tiebreak]),
        read_only=True,
        help_text="tie-break codes, in the order they are applied",
    )
    standings_error = serializers.SerializerMethodField()
    bye_rule = serializers.SerializerMethodField()
    repair_offered = serializers.SerializerMethodField()
    phase = serializers.ChoiceField(
        choices=["swiss", "knockout", ""],
        read_only=True,
        help_text='a Swiss into a knockout: "swiss" while its Swiss rounds are played, "knockout" once its knockout '
        'is drawn; "" for every other format',
    )
    points_season = serializers.CharField(
        source="points_season.slug",
        read_only=True,
        allow_null=True,
        default=None,
        help_text="the season of the club whose points points_under counts (null: no points cap)",
    )
    knockout_seeds = serializers.ListField(
        child=serializers.IntegerField(),
        read_only=True,
        help_text="a Swiss into a knockout: the entries (ids) of its knockout, seed 1 first, as drawn from the Swiss "
        "standings (empty before the draw); the bracket itself is pairings/?bracket=main",
    )

    class Meta:
        model = Division
        fields = (
            "event",
            "slug",
            "name",
            "format",
            "match_length",
            "round_lengths",
            "crawford",
            "casual",
            "variant",
            "entry_mode",
            "clock",
            "seeding",
            "draw_seed",
            "tiebreaks",
            "forfeit_tiebreaks",
            "bye_rule",
            "rounds_planned",
            "knockout_size",
            "phase",
            "knockout_seeds",
            "double_round_robin",
            "drop_rounds",
            "last_chance_drop_rounds",
            "walkover_as_bye",
            "last_chance_places",
            "last_chance_closed",
            "grand_final_reset",
            "auto_pair",
            "analyse_each_game",
            "points_weight",
            "points_places",
            "level",
            "rating_under",
            "rating_from",
            "points_under",
            "points_season",
            "status",
            "playoff_to_play",
            "standings_status",
            "standings_error",
            "repair_offered",
            "results_version",
            "standings_version",
            "started_at",
            "finished_at",
        )
        read_only_fields = fields

    @extend_schema_field(
        serializers.CharField(allow_null=True, help_text="why the last computation failed (directors only)")
    )
    def get_standings_error(self, division: Division) -> str | None:
        return division.standings_error if self.context.get("director") else None

    @extend_schema_field(serializers.BooleanField())
    def get_playoff_to_play(self, division: Division) -> bool:
        return division_playoff_to_play(division)

    @extend_schema_field(serializers.CharField(help_text="how a bye counts in the tie-breaks"))
    def get_bye_rule(self, division: Division) -> str:
        return BYE_RULE

    @extend_schema_field(
        fields.BooleanField(
            allow_null=True,
            help_text="a running Swiss, to its directors: a correction changed the score groups the current round "
            "was paired on and none of its matches has started, so it can be paired again (swiss/repair/)",
        )
    )
    def get_repair_offered(self, division: Division) -> bool | None:
        if not self.context.get("director") or not division.in_swiss_phase:
            return None
        return services.round_needs_repairing(division)


class EventInput(serializers.Serializer):
    name = serializers.CharField(max_length=200)
    slug = fields.SlugField(
        max_length=100,
        required=False,
        allow_blank=True,
        default="",
        help_text="the event's address; made from the name if empty",
    )
    venue = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")
    time_zone = serializers.CharField(max_length=64, default="UTC", help_text="an IANA name such as Europe/Oslo")
    starts_on = serializers.DateField(required=False, allow_null=True, default=None)
    ends_on = serializers.DateField(required=False, allow_null=True, default=None)
    public = fields.BooleanField(default=True, help_text="spectators can follow it")
    analyse_imported = fields.BooleanField(
        default=False, help_text="GNU Backgammon analyses each match imported into the event as it is imported"
    )
    points_weight = fields.FloatField(
        min_value=0.01,
        max_value=10,
        default=1.0,
        help_text="master points: the event's weight (1 for a main event, less for a club night)",
    )
    club = serializers.SlugRelatedField(
        slug_field="slug",
        queryset=Club.objects.all(),
        required=False,
        allow_null=True,
        default=None,
        help_text="the club running it (its directors only): its players come from the club's roster and it is "
        "rated on the club's rating list",
    )


class DirectorInput(serializers.Serializer):
    username = serializers.CharField(max_length=150, help_text="the user who becomes a director of the event")


class DirectorsDoc(serializers.Serializer):
    event = serializers.CharField()
    directors = serializers.ListField(child=serializers.CharField(), help_text="usernames")


def _cap(kind: Any, least: float, most: float, who: str) -> Any:
    """A division's entry cap (none by default): open only to players ``who``."""
    return kind(
        min_value=least, max_value=most, required=False, allow_null=True, default=None, help_text=f"open only to {who}"
    )


class DivisionInput(serializers.Serializer):
    """The fields of ``tournaments.services.DivisionSettings`` (the service checks how they fit together)."""

    name = serializers.CharField(max_length=100)
    slug = fields.SlugField(
        max_length=100, required=False, allow_blank=True, default="", help_text="made from the name if empty"
    )
    format = serializers.ChoiceField(choices=Division.Format.choices)
    match_length = fields.IntegerField(min_value=1, max_value=99, default=7)
    round_lengths = serializers.DictField(
        child=fields.IntegerField(min_value=1, max_value=99),
        required=False,
        allow_null=True,
        default=None,
        help_text='per-round lengths: {"main:final": 11, "main:1": 5, "consolation": 5, "swiss:5": 9}',
    )
    crawford = fields.BooleanField(default=True)
    casual = fields.BooleanField(
        default=False, help_text="no doubling cube and no gammons: every game is worth one point (beginners' events)"
    )
    variant = serializers.ChoiceField(choices=list(VARIANTS), default="standard")
    entry_mode = serializers.ChoiceField(choices=Match.EntryMode.choices, default=Match.EntryMode.MOVES)
    clock = serializers.CharField(max_length=100, required=False, allow_blank=True, default="")
    seeding = serializers.ChoiceField(choices=Division.Seeding.choices, default=Division.Seeding.RATING)
    draw_seed = fields.IntegerField(min_value=0, max_value=2**62, required=False, allow_null=True, default=None)
    tiebreaks = serializers.ListField(
        child=serializers.ChoiceField(choices=[t.value for t in Tiebreak]),
        max_length=len(Tiebreak),
        required=False,
        allow_null=True,
        default=None,
        help_text="tie-break codes in order (default: buchholz, sonneborn-berger, points-diff)",
    )
    forfeit_tiebreaks = serializers.ChoiceField(
        choices=Division.ForfeitRule.choices,
        default=Division.ForfeitRule.LEFT_OUT,
        help_text="left-out: a forfeit is a match win, left out of points for and against and of Buchholz; "
        "as-played: it counts as the match recorded",
    )
    rounds_planned = fields.IntegerField(
        min_value=0, max_value=100, default=0, help_text="Swiss (and a Swiss into a knockout): Swiss rounds to play"
    )
    knockout_size = fields.IntegerField(
        min_value=0,
        max_value=32,
        default=0,
        help_text="a Swiss into a knockout (swiss-knockout): the top 4, 8, 16 or 32 of the Swiss standings go into "
        "a seeded single elimination (0 for every other format)",
    )
    double_round_robin = fields.BooleanField(default=False)
    drop_rounds = fields.IntegerField(min_value=0, max_value=20, required=False, allow_null=True, default=None)
    last_chance_drop_rounds = fields.IntegerField(min_value=0, max_value=20, default=1)
    walkover_as_bye = fields.BooleanField(
        default=False,
        help_text="formats with a consolation: a main round-1 walkover (a forfeit, nothing played) counts like a bye "
        "for entry into the consolation (its winner, beaten in his next match, enters it)",
    )
    last_chance_places = fields.IntegerField(min_value=0, max_value=1024, default=0)
    grand_final_reset = fields.BooleanField(default=True)
    auto_pair = fields.BooleanField(default=False, help_text="Swiss: pair the next round when all results are in")
    analyse_each_game = fields.BooleanField(
        default=False, help_text="GNU Backgammon analyses each game of a match as it ends, not only the finished match"
    )
    points_weight = fields.FloatField(
        min_value=0.01,
        max_value=10,
        default=1.0,
        help_text="master points: the division's weight (USBGF: 1 open, 0.7 intermediate, 0.5 novice)",
    )
    points_places = fields.IntegerField(
        min_value=1, max_value=1024, default=4, help_text="master points: how many places earn placement points"
    )
    level = serializers.ChoiceField(
        choices=Division.Level.choices,
        default=Division.Level.OPEN,
        help_text="its players' level (BackGames' universal club table has a column for each)",
    )
    rating_under = _cap(fields.IntegerField, 1, 9999, "rated under this on the event's rating list")
    rating_from = _cap(fields.IntegerField, 1, 9999, "rated this or more on the event's rating list")
    points_under = _cap(fields.FloatField, 0.01, 1_000_000, "with fewer points than this in points_season")
    points_season = fields.SlugField(
        max_length=100,
        required=False,
        allow_blank=True,
        default="",
        help_text="the address of the season of the event's club whose points points_under counts",
    )

    def validate_round_lengths(self, value: dict[str, int] | None) -> dict[str, int] | None:
        if value is not None and len(value) > MAX_ROUND_RULES:
            raise serializers.ValidationError(f"at most {MAX_ROUND_RULES} round rules")
        return value

    def validate_tiebreaks(self, value: list[str] | None) -> list[str] | None:
        if value is not None and len(set(value)) != len(value):
            raise serializers.ValidationError("name each tie-break once")
        return value
