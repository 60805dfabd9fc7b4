"""Running a division (start, pair, swap), its rounds and pairings (bracket slots included), the results people
answer for and the directors decide, and the standings."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from common.api import fields
from tournaments.api.serializers.common import MAX_REASON, status_field
from tournaments.core import Outcome, outcome_of, round_words
from tournaments.models import Division, Entry, Pairing, Round, Standing
from tournaments.services.followup import Sent
from tournaments.standings.payouts import cents_text

#: Forfeit kinds (tournaments.services.results.FORFEIT_KINDS).
FORFEIT_KINDS = ("no-show", "withdrawal", "penalty")


def _pair_field(help_text: str) -> Any:
    return extend_schema_field(
        serializers.ListField(child=serializers.IntegerField(), min_length=2, max_length=2, help_text=help_text)
    )


class StartInput(serializers.Serializer):
    only_checked_in = fields.BooleanField(
        required=False,
        allow_null=True,
        default=None,
        help_text="play only the checked-in players; null: them if anyone has checked in, else everyone",
    )


class SwapInput(serializers.Serializer):
    first = fields.IntegerField(min_value=1, help_text="an entry id")
    second = fields.IntegerField(min_value=1, help_text="an entry id")
    reason = serializers.CharField(max_length=MAX_REASON, help_text="shown on the pairing")
    allow_rematch = fields.BooleanField(
        required=False, default=False, help_text="Swiss: swap even though it pairs two players who have met"
    )


class PairRoundInput(serializers.Serializer):
    allow_rematches = fields.BooleanField(
        required=False,
        default=False,
        help_text="when no rematch-free pairing exists, pair the fewest rematches (each board says so)",
    )


class SwissRoundsInput(serializers.Serializer):
    rounds = fields.IntegerField(min_value=1, max_value=99, help_text="the rounds to play, at least those paired")


class UnpairedDoc(serializers.Serializer):
    round = serializers.IntegerField(help_text="the round taken back")


class QueuedDoc(serializers.Serializer):
    division = serializers.CharField()
    task = serializers.CharField(help_text="the task asked for")
    status = serializers.ChoiceField(
        choices=[str(sent) for sent in Sent],
        help_text="queued (a worker will run it), done (ran in-process) or left_to_reconcile (the queue is down)",
    )


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


def _shown(pairing: Pairing) -> Outcome:
    """The result a pairing shows: its match's (:func:`tournaments.core.outcome_of`, as on the pages and the
    director's boards), not the copy on its row, which lags while a sync holds that row (``pairing.match`` loaded)."""
    return outcome_of(pairing, pairing.match)


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
    status = serializers.SerializerMethodField()
    winner = serializers.SerializerMethodField()
    score = serializers.SerializerMethodField()
    match = serializers.IntegerField(source="match_id", read_only=True, allow_null=True, help_text="the match's id")
    confirmation = status_field(Pairing.Confirmation, "who confirms a scoresheet result")
    decision = status_field(Pairing.Decision)

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

    @extend_schema_field(status_field(Pairing.Status))
    def get_status(self, pairing: Pairing) -> str:
        return _shown(pairing).status

    @extend_schema_field(serializers.IntegerField(read_only=True, allow_null=True, help_text="an entry id"))
    def get_winner(self, pairing: Pairing) -> int | None:
        return _shown(pairing).winner_id

    @_pair_field("points of side a and side b")
    def get_score(self, pairing: Pairing) -> list[int]:
        shown = _shown(pairing)
        return [shown.score_a, shown.score_b]

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


class PairingFilter(fields.QueryParams):
    bracket = serializers.ChoiceField(choices=Round.Bracket.choices, required=False)
    round = fields.QueryIntegerField(min_value=1, max_value=32767, required=False, help_text="the round's number")


class DisputeInput(serializers.Serializer):
    reason = serializers.CharField(max_length=MAX_REASON, help_text="read by the directors")


class PairingForfeitInput(serializers.Serializer):
    loser = fields.IntegerField(min_value=1, help_text="the entry id of the player who forfeits")
    kind = serializers.ChoiceField(choices=list(FORFEIT_KINDS))
    reason = serializers.CharField(max_length=MAX_REASON, help_text="shown on the pairing")


class PairingPenaltyInput(serializers.Serializer):
    against = fields.IntegerField(min_value=1, help_text="the entry id of the penalised player")
    points = fields.IntegerField(min_value=1, max_value=99, help_text="awarded to the opponent")
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


class StandingsFilter(fields.QueryParams):
    after_round = fields.QueryIntegerField(
        min_value=0, max_value=32767, required=False, help_text="the table after this round (default: the latest)"
    )
