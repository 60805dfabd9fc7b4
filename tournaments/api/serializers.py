"""Input and output shapes of the tournaments API.

Input serializers check shape, types and ranges only (STYLE.md 4.5); whether a setting, an entry or a decision is
allowed is the services' call. Output serializers render models and selector results; the ``*Doc`` serializers
only describe, for the OpenAPI schema, dictionaries the views build.

Every status is an enum of the schema, named in settings (``ENUM_NAME_OVERRIDES``: ``EventStatusEnum``,
``PairingStatusEnum``, ...), since the field name ``status`` means five different sets of values.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.core.validators import ProhibitNullCharactersValidator
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from engine.variants import VARIANTS
from games.api import fields as strict
from games.models import Match, Player
from tournaments import services
from tournaments.core import round_words
from tournaments.models import (
    Club,
    Division,
    Entry,
    Event,
    Pairing,
    PlayerMerge,
    Playoff,
    Rating,
    RatingChange,
    RatingList,
    Round,
    Season,
    Standing,
)
from tournaments.services.followup import Sent
from tournaments.standings.payouts import cents_text
from tournaments.standings.tiebreakers import Tiebreak

MAX_REASON = 2000
MAX_IMPORT_BYTES = 256 * 1024
MAX_SEED = 100_000
MAX_ROUND_RULES = 50
#: Forfeit kinds (tournaments.services.results.FORFEIT_KINDS).
FORFEIT_KINDS = ("no-show", "withdrawal", "penalty")
#: What a venue's table is doing (the schema's ``TableStateEnum``).
TABLE_STATES = ["free", "called", "playing"]
BYE_RULE = "a bye counts as a match win against a virtual opponent scored 0 for Buchholz and Sonneborn-Berger"


def _status_field(choices: Any, text: str = "", source: str | None = None) -> serializers.ChoiceField:
    if source is None:
        return serializers.ChoiceField(choices=choices.choices, read_only=True, help_text=text)
    return serializers.ChoiceField(choices=choices.choices, read_only=True, help_text=text, source=source)


def _pair_field(help_text: str) -> Any:
    return extend_schema_field(
        serializers.ListField(child=serializers.IntegerField(), min_length=2, max_length=2, help_text=help_text)
    )


# -- events and divisions --------------------------------------------------------------------------------------------


class EventSerializer(serializers.ModelSerializer):
    """An event as the list shows it."""

    status = _status_field(Event.Status)
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
            "public",
            "analyse_imported",
            "rating_list",
            "points_weight",
            "club",
            "created_at",
        )
        read_only_fields: tuple[str, ...] = fields


class DivisionSummarySerializer(serializers.ModelSerializer):
    """A division in its event's page: what it is and how far it got."""

    status = _status_field(Division.Status)
    standings_status = _status_field(Division.Work, source="standings_state")
    entries = serializers.IntegerField(source="entry_count", help_text="entries not withdrawn")

    class Meta:
        model = Division
        fields = ("slug", "name", "format", "match_length", "entry_mode", "status", "standings_status", "entries")
        read_only_fields = fields


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
    status = _status_field(Division.Status)
    standings_status = _status_field(
        Division.Work, "current: up to date, pending: being computed, failed", source="standings_state"
    )
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

    @extend_schema_field(serializers.CharField(help_text="how a bye counts in the tie-breaks"))
    def get_bye_rule(self, division: Division) -> str:
        return BYE_RULE

    @extend_schema_field(
        strict.BooleanField(
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
    slug = strict.SlugField(
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
    public = strict.BooleanField(default=True, help_text="spectators can follow it")
    analyse_imported = strict.BooleanField(
        default=False, help_text="GNU Backgammon analyses each match imported into the event as it is imported"
    )
    points_weight = strict.FloatField(
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


def _override(help_text: str) -> serializers.CharField:
    """The director's reason to enter or check in a player outside a division's cap."""
    return serializers.CharField(max_length=500, required=False, allow_blank=True, default="", help_text=help_text)


class DivisionInput(serializers.Serializer):
    """The fields of ``tournaments.services.DivisionSettings`` (the service checks how they fit together)."""

    name = serializers.CharField(max_length=100)
    slug = strict.SlugField(
        max_length=100, required=False, allow_blank=True, default="", help_text="made from the name if empty"
    )
    format = serializers.ChoiceField(choices=Division.Format.choices)
    match_length = strict.IntegerField(min_value=1, max_value=99, default=7)
    round_lengths = serializers.DictField(
        child=strict.IntegerField(min_value=1, max_value=99),
        required=False,
        allow_null=True,
        default=None,
        help_text='per-round lengths: {"main:final": 11, "main:1": 5, "consolation": 5, "swiss:5": 9}',
    )
    crawford = strict.BooleanField(default=True)
    casual = strict.BooleanField(
        default=False, help_text="no doubling cube and no gammons: every game is worth one point (beginners' events)"
    )
    variant = serializers.ChoiceField(choices=list(VARIANTS), default="standard")
    entry_mode = serializers.ChoiceField(choices=Match.EntryMode.choices, default=Match.EntryMode.MOVES)
    clock = serializers.CharField(max_length=100, required=False, allow_blank=True, default="")
    seeding = serializers.ChoiceField(choices=Division.Seeding.choices, default=Division.Seeding.RATING)
    draw_seed = strict.IntegerField(min_value=0, max_value=2**62, required=False, allow_null=True, default=None)
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
    rounds_planned = strict.IntegerField(
        min_value=0, max_value=100, default=0, help_text="Swiss (and a Swiss into a knockout): Swiss rounds to play"
    )
    knockout_size = strict.IntegerField(
        min_value=0,
        max_value=32,
        default=0,
        help_text="a Swiss into a knockout (swiss-knockout): the top 4, 8, 16 or 32 of the Swiss standings go into "
        "a seeded single elimination (0 for every other format)",
    )
    double_round_robin = strict.BooleanField(default=False)
    drop_rounds = strict.IntegerField(min_value=0, max_value=20, required=False, allow_null=True, default=None)
    last_chance_drop_rounds = strict.IntegerField(min_value=0, max_value=20, default=1)
    walkover_as_bye = strict.BooleanField(
        default=False,
        help_text="formats with a consolation: a main round-1 walkover (a forfeit, nothing played) counts like a bye "
        "for entry into the consolation (its winner, beaten in his next match, enters it)",
    )
    last_chance_places = strict.IntegerField(min_value=0, max_value=1024, default=0)
    grand_final_reset = strict.BooleanField(default=True)
    auto_pair = strict.BooleanField(default=False, help_text="Swiss: pair the next round when all results are in")
    analyse_each_game = strict.BooleanField(
        default=False, help_text="GNU Backgammon analyses each game of a match as it ends, not only the finished match"
    )
    points_weight = strict.FloatField(
        min_value=0.01,
        max_value=10,
        default=1.0,
        help_text="master points: the division's weight (USBGF: 1 open, 0.7 intermediate, 0.5 novice)",
    )
    points_places = strict.IntegerField(
        min_value=1, max_value=1024, default=4, help_text="master points: how many places earn placement points"
    )
    level = serializers.ChoiceField(
        choices=Division.Level.choices,
        default=Division.Level.OPEN,
        help_text="its players' level (BackGames' universal club table has a column for each)",
    )
    rating_under = _cap(strict.IntegerField, 1, 9999, "rated under this on the event's rating list")
    rating_from = _cap(strict.IntegerField, 1, 9999, "rated this or more on the event's rating list")
    points_under = _cap(strict.FloatField, 0.01, 1_000_000, "with fewer points than this in points_season")
    points_season = strict.SlugField(
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


# -- entries ---------------------------------------------------------------------------------------------------------


class EntrySerializer(serializers.ModelSerializer):
    player = serializers.IntegerField(source="player_id", read_only=True, help_text="the player's id")
    name = serializers.CharField(source="player.display_name", read_only=True)
    status = _status_field(Entry.Status)
    cap_override = serializers.SerializerMethodField()

    class Meta:
        model = Entry
        fields = ("id", "player", "name", "seed", "rating", "status", "late", "place", "cap_override")
        read_only_fields = fields

    @extend_schema_field(
        serializers.CharField(
            allow_null=True,
            help_text="a division open by rating or points: the director's reason for entering him outside its cap "
            '("": within it); in the answers to the directors\' own writes only, null elsewhere',
        )
    )
    def get_cap_override(self, entry: Entry) -> str | None:
        return entry.cap_override if self.context.get("director") else None


class PlayerChoiceInput(serializers.Serializer):
    """An existing player (``player``) or one by name (``name``, ``club``, ``country``): in a club's event or roster,
    the roster's player of that name, else a new one."""

    body_required = True  # one of the two (games.api.schema.AutoSchema)

    player = strict.VisiblePlayerField(required=False, allow_null=True, default=None, help_text="an existing player")
    name = serializers.CharField(max_length=100, required=False, allow_blank=True, default="", help_text="a new player")
    club = serializers.CharField(max_length=100, required=False, allow_blank=True, default="", help_text="as text")
    country = strict.CountryField()
    new_player = strict.BooleanField(
        default=False,
        help_text="a club's event or roster: the name is a new person, not one of the roster's players it is close "
        "to (a close name is refused with player_to_choose and its candidates until the player or this is given)",
    )

    def validate(self, data: dict[str, Any]) -> dict[str, Any]:
        if (data["player"] is None) == (not data["name"].strip()):
            raise serializers.ValidationError("give either an existing player's id or a new player's name")
        return data


class EntryInput(PlayerChoiceInput):
    """An existing player (``player``) or a new one (``name``, ``club``, ``country``), with the entry's rating, seed
    and last-chance place."""

    rating = strict.FloatField(
        required=False, allow_null=True, default=None, help_text="declared rating, used for seeding"
    )
    seed = strict.IntegerField(min_value=1, max_value=MAX_SEED, required=False, allow_null=True, default=None)
    place = serializers.CharField(
        max_length=40, required=False, allow_blank=True, default="", help_text="a last-chance place (late entry)"
    )
    cap_override = _override(
        "a division open by rating or points: your reason to enter a player outside its cap (refused with "
        "outside_cap and the reason without one)"
    )


class EntryImportInput(serializers.Serializer):
    """The list as JSON text (``csv``) or as an uploaded file (``file``), UTF-8, at most 256 KB."""

    body_required = True  # one of the two (games.api.schema.AutoSchema)

    csv = strict.CharField(
        required=False,
        trim_whitespace=False,
        help_text=(
            "CSV text: one player a line, name (required), club, country, rating, seed in this order, or under a "
            "header row naming the columns"
        ),
    )
    file = serializers.FileField(required=False, help_text="the same as an uploaded .csv file")

    def validate_csv(self, value: str) -> str:
        if len(value.encode("utf-8")) > MAX_IMPORT_BYTES:
            raise serializers.ValidationError("a list has at most 256 KB")
        return value.removeprefix("\ufeff")

    def validate_file(self, upload: Any) -> str:
        if upload.size > MAX_IMPORT_BYTES:
            raise serializers.ValidationError("a list has at most 256 KB")
        try:
            text = upload.read().decode("utf-8-sig")
        except UnicodeDecodeError:
            raise serializers.ValidationError("the file is not UTF-8 text") from None
        ProhibitNullCharactersValidator()(text)
        return text

    def validate(self, data: dict[str, Any]) -> dict[str, Any]:
        if ("csv" in data) == ("file" in data):
            raise serializers.ValidationError("send the list either as csv text or as a file")
        return {"text": data.get("csv", data.get("file"))}


class ImportResultDoc(serializers.Serializer):
    created = serializers.IntegerField(help_text="entries registered")
    entries = EntrySerializer(many=True)


class CheckInInput(serializers.Serializer):
    present = strict.BooleanField(default=True, help_text="false undoes a check-in")
    cap_override = _override(
        "a division open by rating or points: your reason to check in a player now outside its cap"
    )


class SeedInput(serializers.Serializer):
    seed = strict.IntegerField(min_value=1, max_value=MAX_SEED, allow_null=True, help_text="null clears it")


class WithdrawInput(serializers.Serializer):
    reason = serializers.CharField(max_length=MAX_REASON, required=False, allow_blank=True, default="")
    refund = strict.BooleanField(
        default=False, help_text="before the start only: the fees he paid go back to him and count in no pool"
    )


PAYMENT_METHODS = ["", "cash", "transfer"]


class PaymentInput(serializers.Serializer):
    """A payment marked at the door; a field left out leaves its mark as it is."""

    fee = serializers.ChoiceField(
        choices=PAYMENT_METHODS, required=False, help_text='how the entry fee was paid ("": not paid)'
    )
    side_pool = serializers.ChoiceField(
        choices=PAYMENT_METHODS, required=False, help_text='how the side pool fee was paid ("": not in the side pool)'
    )


class PaymentSerializer(serializers.Serializer):
    entry = serializers.IntegerField(source="pk", help_text="the entry's id")
    name = serializers.CharField(source="player.display_name")
    paid = serializers.ChoiceField(choices=PAYMENT_METHODS, help_text='how the entry fee was paid ("": not paid)')
    side_pool = serializers.ChoiceField(choices=PAYMENT_METHODS, help_text='"": not in the side pool')
    refunded = strict.BooleanField(help_text="withdrawn before the start and given the fees back")


def _amount_field(help_text: str, *, most: str = "9999999.99") -> Any:
    return strict.DecimalField(
        min_value=Decimal(0),
        max_value=Decimal(most),
        max_digits=9,
        decimal_places=2,
        default=Decimal(0),
        help_text=help_text,
    )


class MoneyInput(serializers.Serializer):
    """A division's fees (all of them: what is left out is 0)."""

    entry_fee = _amount_field("what each player pays to enter (0: free)")
    side_pool_fee = _amount_field("an optional side pool's fee (0: no side pool)")
    house_share = _amount_field("percent of the entry fees paid the club keeps", most="100")
    added_money = _amount_field("money the club or a sponsor adds to the prize pool")
    side_pool_prizes = serializers.ListField(
        child=strict.DecimalField(min_value=Decimal(0), max_value=Decimal(100), max_digits=5, decimal_places=2),
        max_length=64,
        default=list,
        help_text="the side pool's percentages by rank among its players, best first (empty: all to the best)",
    )


def _cents(help_text: str) -> Any:
    return serializers.IntegerField(help_text=f"{help_text} (cents)")


class MoneySerializer(serializers.Serializer):
    """A division's fees, what its pools hold from the payments marked, its cash sheet's lines and each entry's
    payment (its directors only)."""

    division = serializers.CharField(help_text="the division's slug")
    entry_fee = serializers.DecimalField(max_digits=9, decimal_places=2)
    side_pool_fee = serializers.DecimalField(max_digits=9, decimal_places=2)
    house_share = serializers.DecimalField(max_digits=5, decimal_places=2)
    added_money = serializers.DecimalField(max_digits=9, decimal_places=2)
    side_pool_prizes = serializers.ListField(child=serializers.CharField())
    prize_pool = _cents("fees paid, less the refunds and the house share, plus the added money")
    side_pool = _cents("side pool fees paid, less the refunds")
    house = _cents("the house's share of the fees")
    paid_in = _cents("fees and side pool fees received, refunded ones included")
    refunded = _cents("given back to players who withdrew before the start")
    paid_out = _cents("the prizes the standings pay now, side pool included")
    left_over = _cents("what stays in the cash box once the added money is put in and refunds and prizes are paid")
    payments = PaymentSerializer(many=True)


# -- running a division ----------------------------------------------------------------------------------------------


class StartInput(serializers.Serializer):
    only_checked_in = strict.BooleanField(
        required=False,
        allow_null=True,
        default=None,
        help_text="play only the checked-in players; null: them if anyone has checked in, else everyone",
    )


class SwapInput(serializers.Serializer):
    first = strict.IntegerField(min_value=1, help_text="an entry id")
    second = strict.IntegerField(min_value=1, help_text="an entry id")
    reason = serializers.CharField(max_length=MAX_REASON, help_text="shown on the pairing")
    allow_rematch = strict.BooleanField(
        required=False, default=False, help_text="Swiss: swap even though it pairs two players who have met"
    )


class PairRoundInput(serializers.Serializer):
    allow_rematches = strict.BooleanField(
        required=False,
        default=False,
        help_text="when no rematch-free pairing exists, pair the fewest rematches (each board says so)",
    )


class SwissRoundsInput(serializers.Serializer):
    rounds = strict.IntegerField(min_value=1, max_value=99, help_text="the rounds to play, at least those paired")


class UnpairedDoc(serializers.Serializer):
    round = serializers.IntegerField(help_text="the round taken back")


class QueuedDoc(serializers.Serializer):
    division = serializers.CharField()
    task = serializers.CharField(help_text="the task asked for")
    status = serializers.ChoiceField(
        choices=[str(sent) for sent in Sent],
        help_text="queued (a worker will run it), done (ran in-process) or left_to_reconcile (the queue is down)",
    )


# -- rounds, pairings, standings -------------------------------------------------------------------------------------


class RoundSerializer(serializers.ModelSerializer):
    class Meta:
        model = Round
        fields = ("id", "bracket", "number", "length", "seed")
        read_only_fields = fields


class PairingSideDoc(serializers.Serializer):
    entry = serializers.IntegerField()
    player = serializers.IntegerField()
    name = serializers.CharField()
    seed = serializers.IntegerField(allow_null=True)


def _side(entry: Entry | None) -> dict[str, Any] | None:
    if entry is None:
        return None
    return {"entry": entry.pk, "player": entry.player_id, "name": entry.player.display_name, "seed": entry.seed}


class PairingSerializer(serializers.ModelSerializer):
    """A board of a round, or a slot of a bracket with the sources that feed it (``source_a``, ``source_b``)."""

    bracket = serializers.ChoiceField(choices=Round.Bracket.choices, source="round.bracket", read_only=True)
    round = serializers.IntegerField(source="round.number", read_only=True)
    round_name = serializers.SerializerMethodField(
        help_text='the round as the pages, prints and calls name it: "Round 2", "Consolation round 1", "Knockout '
        'semi-final"'
    )
    table = serializers.IntegerField(
        source="table.number",
        read_only=True,
        allow_null=True,
        default=None,
        help_text="the venue's table it plays at, numbered for the whole event; null while it holds none (a bye, a "
        "slot waiting for its players, a match over, or a match waiting in the queue for a table)",
    )
    table_name = serializers.CharField(
        source="table.label", read_only=True, allow_null=True, default=None, help_text='"Table 7", "Feature table"'
    )
    called_at = serializers.DateTimeField(read_only=True, allow_null=True, help_text="when it was called to its table")
    a = serializers.SerializerMethodField()
    b = serializers.SerializerMethodField()
    status = _status_field(Pairing.Status)
    winner = serializers.IntegerField(source="winner_id", read_only=True, allow_null=True, help_text="an entry id")
    score = serializers.SerializerMethodField()
    match = serializers.IntegerField(source="match_id", read_only=True, allow_null=True, help_text="the match's id")
    confirmation = _status_field(Pairing.Confirmation, "who confirms a scoresheet result")
    decision = _status_field(Pairing.Decision)

    class Meta:
        model = Pairing
        fields = (
            "id",
            "key",
            "bracket",
            "round",
            "round_name",
            "board",
            "table",
            "table_name",
            "called_at",
            "a",
            "b",
            "source_a",
            "source_b",
            "reason",
            "status",
            "winner",
            "score",
            "length",
            "match",
            "confirmation",
            "confirmation_side",
            "decision",
            "decision_reason",
            "swapped_reason",
            "conditional",
        )
        read_only_fields = fields

    @extend_schema_field(PairingSideDoc(allow_null=True))
    def get_a(self, pairing: Pairing) -> dict[str, Any] | None:
        return _side(pairing.entry_a)

    @extend_schema_field(PairingSideDoc(allow_null=True))
    def get_b(self, pairing: Pairing) -> dict[str, Any] | None:
        return _side(pairing.entry_b)

    @_pair_field("points of side a and side b")
    def get_score(self, pairing: Pairing) -> list[int]:
        return [pairing.score_a, pairing.score_b]

    def get_round_name(self, pairing: Pairing) -> str:
        return round_words(pairing.round, pairing.division)


class RoundPairingsDoc(serializers.Serializer):
    round = RoundSerializer()
    pairings = PairingSerializer(many=True)


class QueueItemSerializer(serializers.Serializer):
    """A result waiting for a confirmation, or disputed."""

    division = serializers.CharField(source="division.slug")
    pairing = PairingSerializer(source="*")
    dispute = serializers.CharField(help_text="what the player says is wrong")
    updated_at = serializers.DateTimeField()


# -- the venue's tables ----------------------------------------------------------------------------------------------


class VenueTableSerializer(serializers.Serializer):
    """A table of the venue (a :class:`~tournaments.selectors.venue.Seat`) and the match it holds."""

    number = serializers.IntegerField(source="table.number", help_text="numbered from 1 for the whole event")
    name = serializers.CharField(source="table.name", help_text='its name ("Feature table"), or "" for its number')
    label = serializers.CharField(source="table.label", help_text='how people name it: "Table 7", "Feature table"')
    held = strict.BooleanField(source="table.held", help_text="held back: a match goes to it only by hand")
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

    tables_given = strict.BooleanField(
        help_text="the director gave the tables (a count or named tables); false: as many as there are matches"
    )
    tables = VenueTableSerializer(source="seats", many=True)
    queue = VenueQueueItemSerializer(many=True)


class TablesInput(serializers.Serializer):
    """The venue's tables: exactly one of ``count``, ``names`` or ``as_needed``."""

    count = strict.IntegerField(
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
    as_needed = strict.BooleanField(
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
    table = strict.IntegerField(
        min_value=1,
        max_value=32767,
        help_text="the table's number; without tables given by the director, a number past the last adds a table",
    )


class PairingFilter(strict.QueryParams):
    bracket = serializers.ChoiceField(choices=Round.Bracket.choices, required=False)
    round = strict.QueryIntegerField(min_value=1, max_value=32767, required=False, help_text="the round's number")


class DisputeInput(serializers.Serializer):
    reason = serializers.CharField(max_length=MAX_REASON, help_text="read by the directors")


class PairingForfeitInput(serializers.Serializer):
    loser = strict.IntegerField(min_value=1, help_text="the entry id of the player who forfeits")
    kind = serializers.ChoiceField(choices=list(FORFEIT_KINDS))
    reason = serializers.CharField(max_length=MAX_REASON, help_text="shown on the pairing")


class PairingPenaltyInput(serializers.Serializer):
    against = strict.IntegerField(min_value=1, help_text="the entry id of the penalised player")
    points = strict.IntegerField(min_value=1, max_value=99, help_text="awarded to the opponent")
    reason = serializers.CharField(max_length=MAX_REASON, help_text="kept in the match log")


class StandingRowSerializer(serializers.ModelSerializer):
    entry = serializers.IntegerField(source="entry_id", read_only=True)
    player = serializers.IntegerField(source="entry.player_id", read_only=True)
    name = serializers.CharField(source="entry.player.display_name", read_only=True)
    tiebreaks = serializers.DictField(
        child=serializers.IntegerField(), read_only=True, help_text="value per tie-break code"
    )
    places = serializers.DictField(
        child=serializers.CharField(),
        read_only=True,
        help_text='elimination: the place in each flight ("main", "consolation", "last-chance"), "5-8" when shared',
    )
    prizes = serializers.SerializerMethodField(
        help_text='the prize in each paid flight, as "123.45" (the payout table\'s, once the director publishes it; '
        "directors always); empty when the player earns nothing"
    )

    @extend_schema_field(serializers.DictField(child=serializers.CharField()))
    def get_prizes(self, row: Standing) -> dict[str, str]:
        payouts = self.context.get("payouts")
        if payouts is None:
            return {}
        return {flight: cents_text(cents) for flight, cents in payouts.paid.get(row.entry_id, {}).items()}

    class Meta:
        model = Standing
        fields = (
            "rank",
            "entry",
            "player",
            "name",
            "wins",
            "losses",
            "byes",
            "points_for",
            "points_against",
            "tiebreaks",
            "places",
            "prizes",
        )
        read_only_fields = fields


class StandingsDoc(serializers.Serializer):
    division = serializers.CharField()
    after_round = serializers.IntegerField(help_text="0: an elimination division's single table, or none yet")
    standings_status = serializers.ChoiceField(
        choices=Division.Work.choices, help_text="pending: a result arrived, show 'standings pending'"
    )
    results_version = serializers.IntegerField()
    standings_version = serializers.IntegerField(help_text="the results_version the rows reflect")
    rows = StandingRowSerializer(many=True)


class StandingsFilter(strict.QueryParams):
    after_round = strict.QueryIntegerField(
        min_value=0, max_value=32767, required=False, help_text="the table after this round (default: the latest)"
    )


# -- payouts ---------------------------------------------------------------------------------------------------------

PAYOUT_MODES = [("percent", "percentages of the prize pool"), ("amount", "fixed amounts")]
PAYOUT_TIES = [
    ("split", "a shared place splits the prizes of the places it spans evenly"),
    ("best", "a shared place pays each of its players the prize of its best place"),
]
MAX_PAID_PLACES = 4096


_PRIZES_TEXT = (
    'the prizes of each flight ("main", "consolation", "last-chance"), place 1 first: percentages of the pool or '
    "amounts, by `mode`; a flight left out pays nothing"
)


class PayoutsInput(serializers.Serializer):
    """The whole payout table (it replaces the stored one); whether it adds up is the service's call, with the
    messages of the director's page."""

    mode = serializers.ChoiceField(choices=PAYOUT_MODES)
    pool = strict.DecimalField(
        min_value=0,
        max_digits=12,
        decimal_places=2,
        required=False,
        allow_null=True,
        default=None,
        help_text="the prize pool (needed for percentages)",
    )
    ties = serializers.ChoiceField(choices=PAYOUT_TIES, default="split")
    published = strict.BooleanField(default=False, help_text="show the payouts on the public standings")
    one_prize = strict.BooleanField(
        default=False,
        help_text="one prize per player: a player placed in the prizes of several flights is paid only the largest",
    )
    flights = serializers.DictField(
        child=serializers.ListField(child=strict.DecimalField(), max_length=MAX_PAID_PLACES),
        default=dict,
        help_text=_PRIZES_TEXT,
    )


class FlightSizeDoc(serializers.Serializer):
    players = serializers.IntegerField(help_text="the most players the flight can have")
    known = strict.BooleanField(
        help_text="false while who enters it is not yet known (`players` is then the most it can have)"
    )
    why = serializers.CharField(help_text="while not known: what it waits for")


class PayoutsSerializer(serializers.Serializer):
    """A division's payout table, as stored (the defaults when it has none), with the flights it can pay and their
    sizes."""

    division = serializers.CharField(read_only=True, help_text="the division's slug")
    mode = serializers.ChoiceField(choices=PAYOUT_MODES, read_only=True)
    pool = serializers.DecimalField(
        max_digits=None,
        decimal_places=None,
        coerce_to_string=False,
        read_only=True,
        allow_null=True,
        help_text="the prize pool (null: none)",
    )
    ties = serializers.ChoiceField(choices=PAYOUT_TIES, read_only=True)
    published = strict.BooleanField(read_only=True)
    one_prize = strict.BooleanField(
        read_only=True, help_text="a player placed in the prizes of several flights is paid only the largest"
    )
    flights = serializers.DictField(
        child=serializers.ListField(
            child=serializers.DecimalField(max_digits=None, decimal_places=None, coerce_to_string=False)
        ),
        read_only=True,
        help_text=_PRIZES_TEXT,
    )
    sizes = serializers.DictField(
        child=FlightSizeDoc(), read_only=True, help_text="each flight the division can pay, with its size"
    )


# -- rating lists ----------------------------------------------------------------------------------------------------


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


# -- next match ------------------------------------------------------------------------------------------------------


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


class PrRowSerializer(serializers.Serializer):
    player = serializers.IntegerField(source="player_id")
    name = serializers.CharField()
    plies = serializers.IntegerField(
        help_text="the depth of the analyses these figures come from (0; 2 is gnubg's world class): rows of "
        "different depths do not compare"
    )
    matches = serializers.IntegerField()
    decisions = serializers.IntegerField(help_text="unforced moves + close cube decisions")
    error = serializers.FloatField(help_text="chequer error + cube error (gnubg's, normalised)")
    luck = serializers.FloatField()
    pr = serializers.FloatField(help_text="500 x error / decisions")


class PrTableDoc(serializers.Serializer):
    min_decisions = serializers.IntegerField()
    rows = PrRowSerializer(many=True, help_text="by depth (plies), shallowest first, then best PR first")


# -- master points -------------------------------------------------------------------------------------------------


class MasterPointsDivisionSerializer(serializers.Serializer):
    name = serializers.CharField()
    slug = serializers.CharField()
    players = serializers.IntegerField(help_text="the field: the log2 of it sizes the placement points")
    weight = serializers.FloatField(help_text="the division's weight (1 unless set)")
    places_paid = serializers.IntegerField(help_text="how many places earn placement points")
    finished = strict.BooleanField(help_text="false: the places are those so far")
    standings_current = strict.BooleanField(help_text="false: the standings are being computed")


class MasterPointsPlayerSerializer(serializers.Serializer):
    name = serializers.CharField()
    division = serializers.CharField(help_text="the division's name")
    place = serializers.IntegerField(allow_null=True, help_text='the best place of a shared one (3 for "3-4")')
    places = serializers.CharField(allow_null=True, help_text='the place as shown, "3-4" when shared')
    match_wins = serializers.IntegerField(help_text="matches won over the board (no byes, no forfeits)")
    match_win_points = serializers.FloatField()
    placement_points = serializers.FloatField()
    total = serializers.FloatField()


class MasterPointsSerializer(serializers.Serializer):
    """An event's master points (the same object as ``manage.py master_points SLUG --json``)."""

    event = serializers.CharField()
    system = serializers.CharField()
    event_weight = serializers.FloatField()
    divisions = MasterPointsDivisionSerializer(many=True)
    players = MasterPointsPlayerSerializer(many=True)


class DivisionPointsInput(serializers.Serializer):
    weight = strict.FloatField(min_value=0.01, max_value=10, help_text="USBGF: 1 open, 0.7 intermediate, 0.5 novice")
    places_paid = strict.IntegerField(min_value=1, max_value=1024, default=4)


class MasterPointsInput(serializers.Serializer):
    event_weight = strict.FloatField(
        min_value=0.01, max_value=10, required=False, allow_null=True, default=None, help_text="unchanged if null"
    )
    divisions = serializers.DictField(
        child=DivisionPointsInput(), required=False, default=dict, help_text="by division slug"
    )


# -- clubs ---------------------------------------------------------------------------------------------------------


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
    slug = strict.SlugField(
        max_length=100, required=False, allow_blank=True, default="", help_text="made from the name if empty"
    )
    public = strict.BooleanField(default=True, help_text="its page is public")


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
    event = serializers.CharField(source="event.slug")
    division = serializers.CharField(source="division.slug")
    division_name = serializers.CharField(source="division.name")
    player = serializers.IntegerField(source="player.pk")
    name = serializers.CharField(source="player.display_name")


class ClubPageSerializer(serializers.Serializer):
    """A club with its events to come and played, the top of its rating list and its recent champions."""

    club = ClubSerializer()
    upcoming = ClubEventSerializer(many=True)
    recent = ClubEventSerializer(many=True)
    ratings = ClubRatingSerializer(many=True)
    champions = ClubChampionSerializer(many=True)


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
    slug = strict.SlugField(max_length=100, required=False, allow_blank=True, default="")
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
    qualify = strict.IntegerField(min_value=0, max_value=1000, default=0, help_text="the top N qualify (0: no line)")


class SeasonChangeInput(serializers.Serializer):
    """What a change of a season may give (each optional: what is not given stays)."""

    starts_on = serializers.DateField(required=False)
    ends_on = serializers.DateField(required=False)
    system = serializers.ChoiceField(choices=Season.System.choices, required=False)
    table = serializers.DictField(required=False, help_text="the club's own table, whole (as for a new season)")
    qualify = strict.IntegerField(min_value=0, max_value=1000, required=False, help_text="the top N qualify")


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
    keep = strict.IntegerField(min_value=1, help_text="the roster's player to keep")
    fold = strict.IntegerField(min_value=1, help_text="the record of the same person folded into it")


# -- playoffs for ties ---------------------------------------------------------------------------------------------


class PlayoffMatchSerializer(serializers.Serializer):
    match = serializers.IntegerField(source="match_id", help_text="the match (GET /api/matches/{id}/)")
    players = serializers.ListField(child=serializers.CharField(), source="names", help_text="player 1, player 2")
    score = serializers.ListField(child=serializers.IntegerField(), help_text="player 1's points, player 2's")
    winner = serializers.CharField(allow_null=True, help_text="the winner's name; null while it is played")
    words = serializers.CharField(help_text='"Pia Ruud beat Lars Nes 1-0", or "Pia Ruud v Lars Nes"')


class PlayoffSerializer(serializers.Serializer):
    id = serializers.IntegerField(source="pk")
    kind = serializers.ChoiceField(choices=Playoff.Kind.choices, help_text="the tie it settles")
    place = serializers.IntegerField(help_text="the first place the tie spans")
    length = serializers.IntegerField(help_text="its matches' length")
    status = serializers.ChoiceField(choices=Playoff.Status.choices)
    entries = serializers.ListField(child=serializers.IntegerField(), help_text="the tied entries, in the tie's order")
    names = serializers.ListField(child=serializers.CharField(), help_text="their players' names, in that order")
    order = serializers.ListField(
        child=serializers.IntegerField(), help_text="once finished: the entries in the order it placed them"
    )
    matches = PlayoffMatchSerializer(many=True, help_text="a three-player stepladder's first match, then its final")
    words = serializers.CharField(help_text='"Tie at 3rd settled by a playoff: Pia Ruud beat Lars Nes 1-0."')


class TieSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=Playoff.Kind.choices, source="tie.kind")
    place = serializers.IntegerField(source="tie.place", help_text="the first place the tie spans")
    last = serializers.IntegerField(source="tie.last", help_text="the last place it spans")
    entries = serializers.ListField(child=serializers.IntegerField(), source="tie.players")
    names = serializers.ListField(child=serializers.CharField())
    orderable = serializers.BooleanField(source="tie.orderable", help_text="two or three players: a playoff may")
    playoff = serializers.IntegerField(
        source="playoff.pk", allow_null=True, default=None, help_text="the playoff ordered for it (null: none)"
    )


class PlayoffsDoc(serializers.Serializer):
    division = serializers.CharField()
    rule = serializers.CharField(help_text="how a three-player playoff is played")
    ties = TieSerializer(many=True, help_text="the ties that matter now (a playoff may settle them)")
    playoffs = PlayoffSerializer(many=True)


class PlayoffInput(serializers.Serializer):
    entries = serializers.ListField(
        child=strict.IntegerField(min_value=1),
        min_length=2,
        max_length=3,
        help_text="every entry of one tie that matters (GET this list's ties)",
    )
    length = strict.IntegerField(min_value=1, max_value=25, default=1, help_text="its matches' length (points)")
