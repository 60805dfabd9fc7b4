"""A division's entries (one, or a list imported from a file), their check-in, seed, withdrawal and payment, and
the division's money."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.core.validators import ProhibitNullCharactersValidator
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from common.api import fields
from games.api.fields import VisiblePlayerField
from tournaments.api.serializers.common import MAX_REASON, override, status_field
from tournaments.models import Entry

MAX_IMPORT_BYTES = 256 * 1024


MAX_SEED = 100_000


class EntrySerializer(serializers.ModelSerializer):
    player = serializers.IntegerField(source="player_id", read_only=True, help_text="the player's id")
    name = serializers.CharField(source="player.display_name", read_only=True)
    status = status_field(Entry.Status)
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

    body_required = True  # one of the two (common.api.schema.AutoSchema)

    player = VisiblePlayerField(required=False, allow_null=True, default=None, help_text="an existing player")
    name = serializers.CharField(max_length=100, required=False, allow_blank=True, default="", help_text="a new player")
    club = serializers.CharField(max_length=100, required=False, allow_blank=True, default="", help_text="as text")
    country = fields.CountryField()
    new_player = fields.BooleanField(
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

    rating = fields.FloatField(
        required=False, allow_null=True, default=None, help_text="declared rating, used for seeding"
    )
    seed = fields.IntegerField(min_value=1, max_value=MAX_SEED, required=False, allow_null=True, default=None)
    place = serializers.CharField(
        max_length=40, required=False, allow_blank=True, default="", help_text="a last-chance place (late entry)"
    )
    cap_override = override(
        "a division open by rating or points: your reason to enter a player outside its cap (refused with "
        "outside_cap and the reason without one)"
    )


class EntryImportInput(serializers.Serializer):
    """The list as JSON text (``csv``) or as an uploaded file (``file``), UTF-8, at most 256 KB."""

    body_required = True  # one of the two (common.api.schema.AutoSchema)

    csv = fields.CharField(
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
    present = fields.BooleanField(default=True, help_text="false undoes a check-in")
    cap_override = override("a division open by rating or points: your reason to check in a player now outside its cap")


class PlayerDetailsInput(serializers.Serializer):
    """A registered player's details corrected: each field given replaces his, each left out stays as it is."""

    body_required = True

    name = serializers.CharField(max_length=100, required=False, help_text="his name as the pages show it")
    club = serializers.CharField(max_length=100, required=False, allow_blank=True, help_text="as text")
    country = fields.CountryField(default=serializers.empty)

    def validate(self, data: dict[str, Any]) -> dict[str, Any]:
        if not data:
            raise serializers.ValidationError("give the name, the club or the country to correct")
        return data


class SeedInput(serializers.Serializer):
    seed = fields.IntegerField(min_value=1, max_value=MAX_SEED, allow_null=True, help_text="null clears it")


class WithdrawInput(serializers.Serializer):
    reason = serializers.CharField(max_length=MAX_REASON, required=False, allow_blank=True, default="")
    refund = fields.BooleanField(
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
    refunded = fields.BooleanField(help_text="withdrawn before the start and given the fees back")


def _amount_field(help_text: str, *, most: str = "9999999.99") -> Any:
    return fields.DecimalField(
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
        child=fields.DecimalField(min_value=Decimal(0), max_value=Decimal(100), max_digits=5, decimal_places=2),
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
