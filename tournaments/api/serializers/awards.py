"""What the standings earn: payouts, master points, PR tables, and the playoffs that settle ties."""

from __future__ import annotations

from rest_framework import serializers

from common.api import fields
from tournaments.models import Pairing, Playoff

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
    pool = fields.DecimalField(
        min_value=0,
        max_digits=12,
        decimal_places=2,
        required=False,
        allow_null=True,
        default=None,
        help_text="the prize pool (needed for percentages)",
    )
    ties = serializers.ChoiceField(choices=PAYOUT_TIES, default="split")
    published = fields.BooleanField(default=False, help_text="show the payouts on the public standings")
    one_prize = fields.BooleanField(
        default=False,
        help_text="one prize per player: a player placed in the prizes of several flights is paid only the largest",
    )
    flights = serializers.DictField(
        child=serializers.ListField(child=fields.DecimalField(), max_length=MAX_PAID_PLACES),
        default=dict,
        help_text=_PRIZES_TEXT,
    )


class FlightSizeDoc(serializers.Serializer):
    players = serializers.IntegerField(help_text="the most players the flight can have")
    known = fields.BooleanField(
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
    published = fields.BooleanField(read_only=True)
    one_prize = fields.BooleanField(
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


class MasterPointsDivisionSerializer(serializers.Serializer):
    name = serializers.CharField()
    slug = serializers.CharField()
    players = serializers.IntegerField(help_text="the field: the log2 of it sizes the placement points")
    weight = serializers.FloatField(help_text="the division's weight (1 unless set)")
    places_paid = serializers.IntegerField(help_text="how many places earn placement points")
    finished = fields.BooleanField(help_text="false: the places are those so far")
    standings_current = fields.BooleanField(help_text="false: the standings are being computed")


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
    weight = fields.FloatField(min_value=0.01, max_value=10, help_text="USBGF: 1 open, 0.7 intermediate, 0.5 novice")
    places_paid = fields.IntegerField(min_value=1, max_value=1024, default=4)


class MasterPointsInput(serializers.Serializer):
    event_weight = fields.FloatField(
        min_value=0.01, max_value=10, required=False, allow_null=True, default=None, help_text="unchanged if null"
    )
    divisions = serializers.DictField(
        child=DivisionPointsInput(), required=False, default=dict, help_text="by division slug"
    )


class PlayoffMatchSerializer(serializers.Serializer):
    match = serializers.IntegerField(source="match_id", help_text="the match (GET /api/matches/{id}/)")
    players = serializers.ListField(child=serializers.CharField(), source="names", help_text="player 1, player 2")
    score = serializers.ListField(child=serializers.IntegerField(), help_text="player 1's points, player 2's")
    winner = serializers.CharField(allow_null=True, help_text="the winner's name; null while it is played")
    words = serializers.CharField(
        help_text='"Pia Ruud beat Lars Nes 1-0", "..., waiting for Lars Nes\'s confirmation", "... (decided by the '
        'director: REASON)", or "Pia Ruud v Lars Nes"'
    )
    confirmation = serializers.ChoiceField(
        choices=Pairing.Confirmation.choices,
        help_text="its result's confirmation: a scoresheet result one player entered waits for the other's (or a "
        "director's), and counts for the playoff only once confirmed",
    )
    waiting_for = serializers.CharField(
        source="waiting", help_text="the name of the player whose confirmation the result waits for; empty if none"
    )
    dispute = serializers.CharField(help_text="what the player asked said is wrong, while disputed; empty else")
    corrected = serializers.CharField(
        help_text="the director's reason, once he corrected its result (it stands by his decision); empty else"
    )


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
        child=fields.IntegerField(min_value=1),
        min_length=2,
        max_length=3,
        help_text="every entry of one tie that matters (GET this list's ties)",
    )
    length = fields.IntegerField(min_value=1, max_value=25, default=1, help_text="its matches' length (points)")
