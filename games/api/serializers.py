"""Input and output shapes of the games API.

Input serializers check shape, types and ranges only (STYLE.md 4.5: dice 1..6, sides 0/1); whether an action is
legal is the engine's call, made in the services. Output serializers render models and selector results; the
``*Doc`` serializers only describe, for the OpenAPI schema, dictionaries the selectors build (``live_state``).
"""

from __future__ import annotations

from typing import Any, ClassVar

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field, extend_schema_serializer
from rest_framework import serializers

from common.api import fields
from common.api.errors import ERROR_CODES
from engine.game import Phase
from engine.types import ResultKind
from engine.variants import VARIANTS
from games.access import token_text
from games.api.fields import VisiblePlayerField
from games.models import Action, Decision, EntryToken, Game, Match, MatchAnalysis, Player, PlayerAnalysis

MAX_IDEMPOTENCY_KEY = 64
MAX_REASON = 2000
MAX_CUBE = 2**20
#: The kinds a player (or a scoresheet) records through ``POST .../actions/``; "move" is accepted for "play".
RECORDABLE_KINDS = [
    Action.Kind.OPENING_ROLL.value,
    Action.Kind.ROLL.value,
    Action.Kind.PLAY.value,
    "move",
    Action.Kind.CHOOSE_DOUBLE.value,
    Action.Kind.DOUBLE.value,
    Action.Kind.TAKE.value,
    Action.Kind.DROP.value,
    Action.Kind.RESIGN.value,
    Action.Kind.ACCEPT_RESIGNATION.value,
    Action.Kind.REJECT_RESIGNATION.value,
    Action.Kind.GAME_RESULT.value,
]

# -- shared fields ---------------------------------------------------------------------------------------------------


def side_field(**kwargs: Any) -> serializers.IntegerField:
    """A side of the match: 0 is player1 (the left column of a .mat file), 1 is player2."""
    return fields.IntegerField(min_value=0, max_value=1, **kwargs)


def dice_field(**kwargs: Any) -> serializers.ListField:
    return serializers.ListField(
        child=fields.IntegerField(min_value=1, max_value=6), min_length=2, max_length=2, **kwargs
    )


@extend_schema_field(
    {
        "oneOf": [
            {"type": "string", "enum": [k.label for k in ResultKind]},
            {"type": "integer", "minimum": 1, "maximum": 3},
        ],
        "description": "single, gammon or backgammon (or 1, 2, 3)",
    }
)
class ResultKindField(serializers.Field):
    """How much a game is worth before the cube: ``single|gammon|backgammon`` or ``1..3``; internally 1..3."""

    default_error_messages = {"invalid": "expected single, gammon or backgammon (or 1, 2, 3)"}  # noqa: RUF012

    def to_internal_value(self, data: Any) -> int:
        if isinstance(data, str):
            text = data.strip().lower()
            for kind in ResultKind:
                if text in (kind.label, str(int(kind))):
                    return int(kind)
        elif isinstance(data, int) and not isinstance(data, bool) and data in ResultKind._value2member_map_:
            return data
        self.fail("invalid")
        raise AssertionError  # fail() always raises

    def to_representation(self, value: int) -> str:
        return ResultKind(value).label


# -- players ---------------------------------------------------------------------------------------------------------


class PlayerSerializer(serializers.ModelSerializer):
    """A player as everyone sees them (never the contact details)."""

    class Meta:
        model = Player
        fields: tuple[str, ...] = ("id", "display_name", "club", "country", "label")
        read_only_fields: tuple[str, ...] = fields


class PlayerStaffSerializer(PlayerSerializer):
    """A player as staff see them: with the contact details and the linked user account."""

    class Meta(PlayerSerializer.Meta):
        fields = (*PlayerSerializer.Meta.fields, "contact", "user")
        read_only_fields = fields


@extend_schema_serializer(component_name="PlayerWithStaffFields")
class PlayerWithStaffFieldsDoc(PlayerSerializer):
    """A player as the players endpoints answer: ``contact`` and ``user`` are there for staff only."""

    contact = serializers.CharField(required=False, help_text="e-mail or phone (staff only)")
    user = serializers.IntegerField(required=False, allow_null=True, help_text="the linked account's id (staff only)")

    class Meta(PlayerSerializer.Meta):
        fields = (*PlayerSerializer.Meta.fields, "contact", "user")


class PlayerInput(serializers.Serializer):
    display_name = serializers.CharField(max_length=100)
    club = serializers.CharField(max_length=100, required=False, allow_blank=True, default="")
    country = fields.CountryField()
    contact = serializers.CharField(
        max_length=200, required=False, allow_blank=True, default="", help_text="e-mail or phone; shown to staff only"
    )


class PlayerFilter(fields.QueryParams):
    q = serializers.CharField(required=False, help_text="part of the name")
    club = serializers.CharField(required=False)
    country = serializers.CharField(required=False, max_length=2)


# -- matches ---------------------------------------------------------------------------------------------------------


class LiveStatePlayerDoc(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()


class CubeDoc(serializers.Serializer):
    value = serializers.IntegerField()
    owner = serializers.IntegerField(allow_null=True, help_text="side owning the cube; null when centred")
    usable = fields.BooleanField(help_text="false in the Crawford game")


class ResignationDoc(serializers.Serializer):
    side = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=[k.label for k in ResultKind])


class LiveStateDoc(serializers.Serializer):
    """What ``games.selectors.live_state`` returns: all a client needs to show the match and offer the next action."""

    match = serializers.IntegerField()
    seq = serializers.IntegerField(help_text="the last action's sequence number: send it as expected_seq")
    status = serializers.ChoiceField(choices=Match.Status.choices)
    length = serializers.IntegerField()
    variant = serializers.ChoiceField(choices=list(VARIANTS))
    entry_mode = serializers.ChoiceField(choices=Match.EntryMode.choices)
    players = LiveStatePlayerDoc(many=True)
    score = serializers.ListField(child=serializers.IntegerField())
    winner = serializers.IntegerField(allow_null=True, help_text="side that won the match")
    game_number = serializers.IntegerField()
    crawford = fields.BooleanField(help_text="this game is the Crawford game")
    post_crawford = fields.BooleanField()
    phase = serializers.ChoiceField(choices=[p.value for p in Phase])
    on_roll = serializers.IntegerField(allow_null=True)
    to_act = serializers.IntegerField(allow_null=True, help_text="side that decides next")
    dice = serializers.ListField(child=serializers.IntegerField(), allow_null=True)
    cube = CubeDoc()
    resignation = ResignationDoc(allow_null=True)
    position_id = serializers.CharField()
    match_id = serializers.CharField(help_text="GNU Backgammon Match ID")
    pips = serializers.ListField(child=serializers.IntegerField(), help_text="pip counts of side 0 and side 1")
    legal_actions = serializers.ListField(child=serializers.ChoiceField(choices=RECORDABLE_KINDS))
    legal_plays = serializers.ListField(child=serializers.CharField(), help_text="canonical notation")


class MatchSerializer(serializers.ModelSerializer):
    """A match's summary."""

    player1 = PlayerSerializer()
    player2 = PlayerSerializer()
    score = serializers.SerializerMethodField()
    winner = serializers.PrimaryKeyRelatedField(
        read_only=True, allow_null=True, help_text="the winning player's id (null until won)"
    )

    class Meta:
        model = Match
        fields: tuple[str, ...] = (
            "id",
            "player1",
            "player2",
            "length",
            "variant",
            "crawford",
            "casual",
            "entry_mode",
            "private",
            "status",
            "score",
            "winner",
            "seq",
            "source",
            "created_at",
            "started_at",
            "finished_at",
        )
        read_only_fields: tuple[str, ...] = fields

    @extend_schema_field(serializers.ListField(child=serializers.IntegerField(), min_length=2, max_length=2))
    def get_score(self, match: Match) -> list[int]:
        return [match.score1, match.score2]


class MatchDetailSerializer(MatchSerializer):
    """A match's summary with its live state."""

    state = serializers.SerializerMethodField()

    class Meta(MatchSerializer.Meta):
        fields = (*MatchSerializer.Meta.fields, "state")
        read_only_fields = fields

    @extend_schema_field(LiveStateDoc)
    def get_state(self, match: Match) -> dict[str, Any]:
        return self.context["state"]


class MatchInput(serializers.Serializer):
    player1 = VisiblePlayerField(help_text="side 0")
    player2 = VisiblePlayerField(help_text="side 1")
    length = fields.IntegerField(min_value=0, max_value=99, help_text="points to win; 0 for money play")
    variant = serializers.ChoiceField(choices=list(VARIANTS), default="standard")
    crawford = fields.BooleanField(default=True)
    entry_mode = serializers.ChoiceField(choices=Match.EntryMode.choices, default=Match.EntryMode.MOVES)
    private = fields.BooleanField(default=False, help_text="hidden from spectators")


class MatchFilter(fields.QueryParams):
    status = serializers.ChoiceField(choices=Match.Status.choices, required=False)
    player = fields.QueryIntegerField(
        required=False, min_value=1, max_value=2**63 - 1, help_text="a player's id (either side)"
    )


class GameSerializer(serializers.ModelSerializer):
    start_score = serializers.SerializerMethodField()
    result = serializers.SerializerMethodField()

    class Meta:
        model = Game
        fields = (
            "number",
            "start_score",
            "crawford",
            "opening_winner",
            "winner_side",
            "result",
            "ended_by",
            "cube_value",
            "cube_owner",
            "points",
        )
        read_only_fields = fields

    @extend_schema_field(serializers.ListField(child=serializers.IntegerField(), min_length=2, max_length=2))
    def get_start_score(self, game: Game) -> list[int]:
        return [game.start_score1, game.start_score2]

    @extend_schema_field(serializers.ChoiceField(choices=[k.label for k in ResultKind], allow_null=True))
    def get_result(self, game: Game) -> str | None:
        return None if game.result_kind is None else ResultKind(game.result_kind).label


class ReplacementDoc(serializers.Serializer):
    """The result a director's correction puts in place of a game's."""

    winner = serializers.IntegerField(help_text="the side that wins the game")
    kind = serializers.IntegerField(min_value=1, max_value=3, help_text="1 single, 2 gammon, 3 backgammon")
    cube = serializers.IntegerField(help_text="the cube's value")
    ended_by = serializers.CharField()


class ActionDataDoc(serializers.Serializer):
    """What else a row says, by kind: a game result's ``cube`` and ``ended_by``, a correction's ``replacement``
    (other keys may appear; a client keeps what it does not know)."""

    cube = serializers.IntegerField(required=False, help_text="game-result: the cube's value")
    ended_by = serializers.CharField(required=False, help_text="game-result: how the game ended")
    replacement = ReplacementDoc(required=False, help_text="correction: the result put in place")


class ActionRowSerializer(serializers.ModelSerializer):
    """One row of the log. Who entered it is a user name or "entry link side N", never the link itself."""

    game = serializers.IntegerField(source="game_number")
    data = serializers.SerializerMethodField()
    dice = serializers.SerializerMethodField()
    undoes = serializers.SerializerMethodField()
    entered_by = serializers.SerializerMethodField()

    class Meta:
        model = Action
        fields = (
            "seq",
            "game",
            "kind",
            "side",
            "dice",
            "play",
            "value",
            "data",
            "position_id",
            "match_id_after",
            "undoes",
            "reason",
            "entered_by",
            "created_at",
        )
        read_only_fields = fields

    @extend_schema_field(ActionDataDoc)
    def get_data(self, row: Action) -> dict[str, Any]:
        return row.data

    @extend_schema_field(serializers.ListField(child=serializers.IntegerField(), allow_null=True))
    def get_dice(self, row: Action) -> list[int] | None:
        return None if row.die1 is None or row.die2 is None else [row.die1, row.die2]

    @extend_schema_field(serializers.IntegerField(allow_null=True, help_text="seq of the row this one undoes"))
    def get_undoes(self, row: Action) -> int | None:
        return None if row.undoes is None else row.undoes.seq

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_entered_by(self, row: Action) -> str | None:
        if row.entered_by_token_id is not None and row.entered_by_token is not None:
            return f"entry link side {row.entered_by_token.side}"
        if row.entered_by_user is not None:
            return str(row.entered_by_user.get_username())
        return None


class LogFilter(fields.QueryParams):
    game = fields.QueryIntegerField(required=False, min_value=1, max_value=32767, help_text="only this game's rows")


class CubeEventSerializer(serializers.Serializer):
    game = serializers.IntegerField()
    seq = serializers.IntegerField(help_text="seq of the double")
    doubler = serializers.IntegerField()
    value = serializers.IntegerField(help_text="the cube's value once taken")
    response = serializers.ChoiceField(choices=["take", "drop"], allow_null=True, help_text="null while pending")
    responder = serializers.IntegerField()


class ActionResultDoc(serializers.Serializer):
    action = ActionRowSerializer()
    state = LiveStateDoc()


# -- recording actions -----------------------------------------------------------------------------------------------


class ActionInput(serializers.Serializer):
    """Fields every action carries."""

    kind = serializers.ChoiceField(choices=RECORDABLE_KINDS, help_text="the action; it decides the other fields")
    expected_seq = fields.IntegerField(
        min_value=0, help_text="the seq of the last action you saw (a stale one is refused with 409)"
    )
    idempotency_key = serializers.CharField(
        min_length=1,
        max_length=MAX_IDEMPOTENCY_KEY,
        required=False,
        help_text="retrying with the same key returns the first answer; the Idempotency-Key header works too",
    )


class OpeningRollInput(ActionInput):
    dice = dice_field(help_text="side 0's die first; the higher die moves first with both numbers")


class RollInput(ActionInput):
    side = side_field()
    dice = dice_field()


class PlayInput(ActionInput):
    side = side_field()
    play = serializers.CharField(
        max_length=100, allow_blank=True, help_text='e.g. "24/18 13/11", "bar/22*", "6/off(2)"; "" when none is legal'
    )


class ChooseDoubleInput(ActionInput):
    side = side_field()
    die = fields.IntegerField(min_value=1, max_value=6)


class SideInput(ActionInput):
    """double, take, drop, accept-resignation, reject-resignation."""

    side = side_field()


class ResignInput(ActionInput):
    side = side_field()
    result = ResultKindField(help_text="what is resigned, before the cube")


class GameResultInput(ActionInput):
    winner = side_field()
    result = ResultKindField()
    cube_value = fields.IntegerField(min_value=1, max_value=MAX_CUBE, default=1)


#: Input serializer for each ``kind`` ("move" is accepted for "play": live_state's legal_actions says "move").
ACTION_INPUTS: dict[str, type[ActionInput]] = {
    Action.Kind.OPENING_ROLL: OpeningRollInput,
    Action.Kind.ROLL: RollInput,
    Action.Kind.PLAY: PlayInput,
    "move": PlayInput,
    Action.Kind.CHOOSE_DOUBLE: ChooseDoubleInput,
    Action.Kind.DOUBLE: SideInput,
    Action.Kind.TAKE: SideInput,
    Action.Kind.DROP: SideInput,
    Action.Kind.RESIGN: ResignInput,
    Action.Kind.ACCEPT_RESIGNATION: SideInput,
    Action.Kind.REJECT_RESIGNATION: SideInput,
    Action.Kind.GAME_RESULT: GameResultInput,
}


class ActionKindInput(serializers.Serializer):
    kind = serializers.ChoiceField(choices=[str(k) for k in ACTION_INPUTS])


# -- director actions ------------------------------------------------------------------------------------------------


class ReasonInput(serializers.Serializer):
    """A director's correction or decision: safe to retry as an action is, so it names the seq it was decided on,
    or an idempotency key, or both (a blind retry of "undo" must not undo twice)."""

    reason = serializers.CharField(max_length=MAX_REASON, help_text="kept in the match log")
    expected_seq = fields.IntegerField(
        min_value=0,
        required=False,
        help_text="the seq of the last action you saw (a stale one is refused with 409); this or idempotency_key",
    )
    idempotency_key = serializers.CharField(
        min_length=1,
        max_length=MAX_IDEMPOTENCY_KEY,
        required=False,
        help_text="retrying with the same key returns the first answer; the Idempotency-Key header works too",
    )

    def validate(self, data: dict[str, Any]) -> dict[str, Any]:
        header = self.context.get("idempotency_key_header")
        if "expected_seq" not in data and "idempotency_key" not in data and not header:
            raise serializers.ValidationError(
                {
                    "expected_seq": [
                        "send expected_seq (the seq of the last action you saw) or an idempotency key, so that a "
                        "retry cannot apply the correction twice"
                    ]
                }
            )
        return data


class FinishInput(ReasonInput):
    reason = serializers.CharField(max_length=MAX_REASON, default="session ended")


class ForfeitInput(ReasonInput):
    loser_side = side_field()


class CorrectionInput(ReasonInput):
    override = fields.BooleanField(
        default=False,
        help_text="correct a final result even though a later tournament match that depends on it has started",
    )


class ReplaceResultInput(CorrectionInput):
    game = fields.IntegerField(min_value=1, max_value=999)
    winner = side_field()
    result = ResultKindField()
    cube_value = fields.IntegerField(min_value=1, max_value=MAX_CUBE, default=1)


# -- entry links, files, errors --------------------------------------------------------------------------------------


class EntryLinkSerializer(serializers.ModelSerializer):
    """An entry link as its match's directors see it: the secret text while it is valid."""

    token = serializers.SerializerMethodField()

    class Meta:
        model = EntryToken
        fields = ("id", "side", "created_at", "revoked_at", "token")
        read_only_fields = fields

    @extend_schema_field(serializers.CharField(allow_null=True, help_text="send as X-Entry-Token; null once revoked"))
    def get_token(self, token: EntryToken) -> str | None:
        return None if token.revoked_at is not None else token_text(token)


class EntryLinkInput(serializers.Serializer):
    side = side_field()


class ImportInput(serializers.Serializer):
    file = serializers.FileField(help_text="one .mat match log, at most 1 MiB")
    event = serializers.SlugField(
        required=False,
        max_length=100,
        help_text=(
            "the address (slug) of an event you direct: the match is imported into it (outside its divisions' "
            "pairings) and analysed as it is imported when the event's analyse_imported says so"
        ),
    )


class LogFaultDoc(serializers.Serializer):
    game = serializers.IntegerField(allow_null=True)
    move = serializers.IntegerField(allow_null=True)
    message = serializers.CharField()


class InvalidLogDoc(serializers.Serializer):
    code = serializers.ChoiceField(choices=ERROR_CODES)
    message = serializers.CharField()
    error = LogFaultDoc(required=False, help_text="where the log went wrong (`invalid_log` only)")


TEXT = OpenApiTypes.STR


# -- analysis by GNU Backgammon --------------------------------------------------------------------------------------


class PlayerAnalysisSerializer(serializers.ModelSerializer):
    name = serializers.CharField(source="player.display_name", read_only=True)

    class Meta:
        model = PlayerAnalysis
        fields = (
            "side",
            "player",
            "name",
            "unforced_moves",
            "chequer_error",
            "close_cube_decisions",
            "cube_error",
            "luck",
            "pr",
        )


class DecisionSerializer(serializers.ModelSerializer):
    class Meta:
        model = Decision
        fields = (
            "game_number",
            "turn",
            "move_number",
            "side",
            "kind",
            "die1",
            "die2",
            "played",
            "best",
            "played_equity",
            "best_equity",
            "equity_lost",
            "mark",
            "cube_mark",
            "cube_equity_lost",
            "cube_best",
            "luck",
            "luck_mark",
            "evaluation",
        )
        extra_kwargs: ClassVar[dict[str, dict[str, str]]] = {
            "evaluation": {
                "help_text": (
                    "gnubg's evaluation as the SGF export carries it: for a play, candidates (the two best plays "
                    "and the one played, each {move: [[from, to], ...], probs: [win, win gammon, win backgammon, "
                    "lose gammon, lose backgammon], equity}) and played (its index); for a play or a cube action, "
                    "cube {probs, cubeless, no_double, double_take} (cubeful equities as gnubg keeps them: match "
                    "winning chances in match play); {} when gnubg gave none"
                )
            },
            "kind": {"help_text": "a chequer play (move) or a cube action (double, take, drop)"},
            "played": {"help_text": "the play made (24/18 13/11), or the cube action taken (double, take, drop)"},
            "best": {
                "help_text": (
                    "gnubg's best play; for a cube action the right cube action: no double, double, take, "
                    "double, pass, too good to double, take or too good to double, pass"
                )
            },
            "played_equity": {"help_text": "the equity of what was played (normalised, from the decider's side)"},
            "best_equity": {"help_text": "the equity of gnubg's best play or cube action (normalised)"},
            "equity_lost": {"help_text": "what this play or cube action gave away (normalised equity, 0 when right)"},
            "mark": {"help_text": "gnubg's mark of the play or cube action: doubtful, bad, very bad (empty: none)"},
            "cube_mark": {
                "help_text": "a play's cube decision before it (not doubling): gnubg's mark (doubtful, bad, very bad)"
            },
            "cube_equity_lost": {
                "help_text": (
                    "a play's cube decision before it: what not doubling gave away (normalised equity, 0 when "
                    "right; the cube action's own is its equity_lost)"
                )
            },
            "cube_best": {
                "help_text": (
                    "a play's cube decision before it: the right cube action as gnubg finds it (no double, double, "
                    "take, double, pass, too good to double, take or too good to double, pass); empty without one "
                    "(the cube was not available) and for a cube action (see best)"
                )
            },
        }


class MatchAnalysisSerializer(serializers.ModelSerializer):
    current = serializers.SerializerMethodField(
        help_text=(
            "the figures are done, of the log as it stands and in the current format (format_version): when false "
            "(pending, failed, out of date), they are an earlier analysis's, or none"
        )
    )
    players = serializers.SerializerMethodField()
    decisions = serializers.SerializerMethodField()

    class Meta:
        model = MatchAnalysis
        fields = (
            "match",
            "status",
            "error",
            "plies",
            "engine",
            "match_seq",
            "format_version",
            "current",
            "requested_plies",
            "attempts",
            "finished_at",
            "players",
            "decisions",
        )

    def get_current(self, analysis: MatchAnalysis) -> bool:
        return bool(
            analysis.status == MatchAnalysis.Status.DONE
            and analysis.match_seq == analysis.match.seq
            and analysis.format_version == MatchAnalysis.FORMAT_VERSION
        )

    @extend_schema_field(PlayerAnalysisSerializer(many=True))
    def get_players(self, analysis: MatchAnalysis) -> list[dict[str, Any]]:
        """Per player (none in the answer to a request: an earlier analysis's figures are not the one asked for)."""
        if self.context.get("request_only"):
            return []
        return PlayerAnalysisSerializer(analysis.players.all(), many=True).data

    @extend_schema_field(DecisionSerializer(many=True))
    def get_decisions(self, analysis: MatchAnalysis) -> list[dict[str, Any]]:
        if self.context.get("request_only"):
            return []
        return DecisionSerializer(analysis.decisions.all(), many=True).data


class AnalysisRequestInput(serializers.Serializer):
    plies = fields.IntegerField(
        required=False, min_value=0, max_value=4, help_text="gnubg's depth (ANALYSIS_PLIES by default)"
    )


class PlayerPrSerializer(serializers.ModelSerializer):
    match = serializers.IntegerField(source="analysis.match_id", read_only=True)
    finished_at = serializers.DateTimeField(source="analysis.match.finished_at", read_only=True)
    plies = serializers.IntegerField(source="analysis.plies", read_only=True)

    class Meta:
        model = PlayerAnalysis
        fields = ("match", "finished_at", "plies", "side", "unforced_moves", "close_cube_decisions", "luck", "pr")
