"""The games API's views: parse the input with a serializer, call one service or selector, render the answer.

Reads are public (``AllowAny``) but a private match is a 404 for whoever may not read it. Writes need a user
(session or DRF token) or an entry link; what each caller may do (their own side, directors only) is decided by the
services and :mod:`games.access`, never here. Every log-appending write answers ``{"action": <row>, "state": <live
state>}``: 201 when written, 200 when a retry with the same idempotency key is answered from the log, with the
first answer's body.
"""

from __future__ import annotations

import os
from typing import Any

from django.conf import settings
from django.db.models import Prefetch, Q, QuerySet
from django.http import HttpResponse
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    PolymorphicProxySerializer,
    extend_schema,
    extend_schema_view,
)
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView
from rest_framework import generics, permissions, renderers, serializers, status
from rest_framework.parsers import MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from common.actor import Actor
from common.api.auth import IsAuthenticatedOrEntryToken, ReadOpenWriteAuthenticated, actor_of
from common.api.errors import ERROR_RESPONSES, ErrorDoc
from common.errors import ApplicationError, ErrorCode
from engine.errors import EngineError, FormatError
from engine.formats.mat import read_mat
from engine.formats.matlog import replay_record
from games import selectors, services
from games.access import directs_beyond_creation, is_director, new_entry_token, revoke_entry_token
from games.analysis.selectors import player_pr_history
from games.analysis.service import AnalysisRefusedError, request_analysis
from games.api.auth import CanAddPlayersOrReadOnly, may_read
from games.api.exceptions import ApiError, JsonErrors
from games.api.history import answer_state
from games.api.schema import EntryTokenScheme  # noqa: F401  (registers the extension)
from games.api.serializers import (
    ACTION_INPUTS,
    TEXT,
    ActionKindInput,
    ActionResultDoc,
    ActionRowSerializer,
    AnalysisRequestInput,
    CorrectionInput,
    CubeEventSerializer,
    EntryLinkInput,
    EntryLinkSerializer,
    FinishInput,
    ForfeitInput,
    GameSerializer,
    ImportInput,
    InvalidLogDoc,
    LogFilter,
    MatchAnalysisSerializer,
    MatchDetailSerializer,
    MatchFilter,
    MatchInput,
    MatchSerializer,
    PlayerFilter,
    PlayerInput,
    PlayerPrSerializer,
    PlayerSerializer,
    PlayerStaffSerializer,
    PlayerWithStaffFieldsDoc,
    ReasonInput,
    ReplaceResultInput,
)
from games.api.throttles import AnalysisRequestThrottle
from games.export import match_file
from games.hooks import import_target
from games.models import Action, EntryToken, Game, Match, MatchAnalysis, Player, PlayerAnalysis

MAX_IMPORT_BYTES = 1024 * 1024


def _valid(serializer_class: type[serializers.Serializer], data: Any, **context: Any) -> dict[str, Any]:
    serializer = serializer_class(data=data, context=context)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


def _readable_match(request: Request, match_id: int) -> Match:
    """The match, if this caller may read it; otherwise 404 (a private match does not exist for spectators)."""
    match = Match.objects.select_related("player1", "player2").filter(pk=match_id).first()
    if match is None or not may_read(request, match):
        raise ApplicationError(ErrorCode.NOT_FOUND, f"there is no match {match_id}")
    return match


def _directed_match(request: Request, match_id: int) -> Match:
    """The match, if this caller directs it (403 otherwise; 404 if they may not even read it)."""
    match = _readable_match(request, match_id)
    if actor_of(request).token is not None or not is_director(request.user, match):
        raise ApplicationError(ErrorCode.FORBIDDEN, "only a director of this match can do that")
    return match


def _answer(recorded: services.Recorded) -> Response:
    """``{"action", "state"}`` for a write: 201, or 200 with the first answer's body for a retry."""
    match, state = recorded.match, recorded.state
    if recorded.retried:
        match, state = answer_state(match, recorded.action, state)
    body = {"action": ActionRowSerializer(recorded.action).data, "state": selectors.live_state(match, state)}
    return Response(body, status=status.HTTP_200_OK if recorded.retried else status.HTTP_201_CREATED)


def _errors(*codes: int) -> dict[int, Any]:
    return {code: OpenApiResponse(ErrorDoc, description=_ERROR_TEXT[code]) for code in codes}


_ERROR_TEXT = {
    400: "invalid input (`fields`) or an action the rules refuse (`illegal_action`, the engine's message)",
    401: "not logged in and no entry link",
    403: "not allowed (wrong side, not a director, an invalid or revoked entry link)",
    404: "no such match (or a private one)",
    409: "stale expected_seq (`seq` is the current one), the match is closed, or the action conflicts",
    422: "`idempotency_key_reused`: the key was used on this match by another sender or for another request",
}


# -- players ---------------------------------------------------------------------------------------------------------


@extend_schema_view(
    get=extend_schema(summary="List players", parameters=[PlayerFilter], responses={200: PlayerWithStaffFieldsDoc}),
    post=extend_schema(
        summary="Register a player (staff, or users allowed to add players)",
        request=PlayerInput,
        responses={201: PlayerStaffSerializer, **_errors(400, 401, 403)},
    ),
)
class PlayerListCreateApi(generics.ListAPIView):
    permission_classes = (CanAddPlayersOrReadOnly,)

    def get_serializer_class(self) -> type[PlayerSerializer]:
        staff = self.request is not None and self.request.user.is_staff
        return PlayerStaffSerializer if staff else PlayerSerializer

    def get_queryset(self) -> QuerySet[Player]:
        query = _valid(PlayerFilter, self.request.query_params)
        players = selectors.players_visible_to(self.request.user)
        if query.get("q"):
            players = players.filter(display_name__icontains=query["q"])
        if query.get("club"):
            players = players.filter(club__iexact=query["club"])
        if query.get("country"):
            players = players.filter(country__iexact=query["country"])
        return players

    def post(self, request: Request) -> Response:
        player = services.create_player(**_valid(PlayerInput, request.data))
        return Response(PlayerStaffSerializer(player).data, status=status.HTTP_201_CREATED)


@extend_schema_view(get=extend_schema(summary="A player", responses={200: PlayerWithStaffFieldsDoc, **_errors(404)}))
class PlayerDetailApi(generics.RetrieveAPIView):
    permission_classes = (permissions.AllowAny,)
    queryset = Player.objects.none()  # for the schema; get_queryset answers

    def get_queryset(self) -> QuerySet[Player]:
        return selectors.players_visible_to(self.request.user)

    def get_serializer_class(self) -> type[PlayerSerializer]:
        staff = self.request is not None and self.request.user.is_staff
        return PlayerStaffSerializer if staff else PlayerSerializer


# -- matches ---------------------------------------------------------------------------------------------------------


@extend_schema_view(
    get=extend_schema(summary="List the matches you may see", parameters=[MatchFilter]),
    post=extend_schema(
        summary="Start a match (you direct the matches you start)",
        request=MatchInput,
        responses={201: MatchSerializer, **_errors(400, 401)},
    ),
)
class MatchListCreateApi(generics.ListAPIView):
    permission_classes = (permissions.IsAuthenticatedOrReadOnly,)
    serializer_class = MatchSerializer

    def get_queryset(self) -> QuerySet[Match]:
        query = _valid(MatchFilter, self.request.query_params)
        matches = selectors.matches_visible_to(self.request.user)
        if query.get("status"):
            matches = matches.filter(status=query["status"])
        if query.get("player"):
            matches = matches.filter(Q(player1_id=query["player"]) | Q(player2_id=query["player"]))
        return matches

    def post(self, request: Request) -> Response:
        match = services.start_match(**_valid(MatchInput, request.data, user=request.user), created_by=request.user)
        return Response(MatchSerializer(match).data, status=status.HTTP_201_CREATED)


class MatchDetailApi(APIView):
    permission_classes = (permissions.AllowAny,)

    @extend_schema(summary="A match with its live state", responses={200: MatchDetailSerializer, **_errors(404)})
    def get(self, request: Request, match_id: int) -> Response:
        match = _readable_match(request, match_id)
        context = {"state": selectors.live_state(match)}
        return Response(MatchDetailSerializer(match, context=context).data)


@extend_schema_view(get=extend_schema(summary="A match's games", responses={200: GameSerializer, **_errors(404)}))
class MatchGameListApi(generics.ListAPIView):
    permission_classes = (permissions.AllowAny,)
    serializer_class = GameSerializer
    queryset = Game.objects.none()  # for the schema; get_queryset answers

    def get_queryset(self) -> QuerySet[Game]:
        return selectors.match_games(_readable_match(self.request, self.kwargs["match_id"]))


@extend_schema_view(
    get=extend_schema(
        summary="A match's action log (corrections included, in order)",
        parameters=[LogFilter],
        responses={200: ActionRowSerializer, **_errors(404)},
    )
)
class MatchLogApi(generics.ListAPIView):
    permission_classes = (permissions.AllowAny,)
    serializer_class = ActionRowSerializer
    queryset = Action.objects.none()

    def get_queryset(self) -> QuerySet[Action]:
        query = _valid(LogFilter, self.request.query_params)
        rows = selectors.match_log(_readable_match(self.request, self.kwargs["match_id"]))
        if query.get("game"):
            rows = rows.filter(game_number=query["game"])
        return rows.select_related("entered_by_token")


class MatchCubeHistoryApi(APIView):
    permission_classes = (permissions.AllowAny,)

    @extend_schema(summary="Every double of the match and its answer", responses={200: CubeEventSerializer(many=True)})
    def get(self, request: Request, match_id: int) -> Response:
        events = selectors.cube_history(_readable_match(request, match_id))
        return Response(CubeEventSerializer(events, many=True).data)


# -- recording actions -----------------------------------------------------------------------------------------------

#: An action's fields in the API, as its service's keyword arguments (services.RECORDERS names the service).
_ARGUMENTS = {
    "side": "side",
    "dice": "dice",
    "play": "play",
    "die": "die",
    "result": "kind",
    "winner": "winner",
    "cube_value": "cube_value",
}


def _recorder_arguments(data: dict[str, Any]) -> dict[str, Any]:
    arguments = {name: data[field] for field, name in _ARGUMENTS.items() if field in data}
    if "dice" in arguments:
        arguments["dice"] = (data["dice"][0], data["dice"][1])
    return arguments


_ACTION_REQUEST = PolymorphicProxySerializer(
    component_name="Action",
    serializers={str(kind): cls for kind, cls in ACTION_INPUTS.items() if kind != "move"},
    resource_type_field_name="kind",
)


def _idempotency_key(request: Request, data: dict[str, Any]) -> str | None:
    header = request.headers.get("Idempotency-Key")
    body = data.get("idempotency_key")
    if header is not None and body is not None and header != body:
        raise serializers.ValidationError({"idempotency_key": ["differs from the Idempotency-Key header"]})
    return body if body is not None else header


class MatchActionRecordApi(APIView):
    """Record one action of a match: a roll, a play, a cube action, a resignation or a scoresheet result."""

    permission_classes = (IsAuthenticatedOrEntryToken,)

    @extend_schema(
        summary="Record an action",
        description=(
            "`kind` chooses the action and its fields. `expected_seq` is the seq of the last action you saw; "
            "a stale one is refused with 409 and the current `seq`. A retry with the same `idempotency_key` (or "
            "`Idempotency-Key` header) writes nothing and answers 200 with the first answer's body. "
            '"move" is accepted for "play".'
        ),
        request=_ACTION_REQUEST,
        responses={
            201: ActionResultDoc,
            200: OpenApiResponse(ActionResultDoc, description="a retry, answered from the log"),
            **_errors(400, 401, 403, 404, 409, 422),
        },
    )
    def post(self, request: Request, match_id: int) -> Response:
        kind = _valid(ActionKindInput, request.data)["kind"]
        data = _valid(ACTION_INPUTS[kind], request.data)
        recorded = services.RECORDERS[Action.Kind.PLAY if kind == "move" else kind](
            match_id,
            actor=actor_of(request),
            expected_seq=data["expected_seq"],
            idempotency_key=_idempotency_key(request, data),
            **_recorder_arguments(data),
        )
        return _answer(recorded)


# -- director actions ------------------------------------------------------------------------------------------------


class _DirectorActionApi(APIView):
    """A director's correction or decision: one input serializer, one service."""

    permission_classes = (IsAuthenticatedOrEntryToken,)
    input_class: type[ReasonInput] = ReasonInput

    def perform(self, match_id: int, actor: Actor, data: dict[str, Any]) -> services.Recorded:
        raise NotImplementedError

    def post(self, request: Request, match_id: int) -> Response:
        header = request.headers.get("Idempotency-Key")
        data = _valid(self.input_class, request.data, idempotency_key_header=header)
        key = _idempotency_key(request, data)
        if key is not None:
            data["idempotency_key"] = key
        return _answer(self.perform(match_id, actor_of(request), data))


def _director_schema(summary: str, request: type[serializers.Serializer]) -> Any:
    return extend_schema_view(
        post=extend_schema(
            summary=summary,
            description=(
                "Send `expected_seq` (a stale one is refused with 409), an `idempotency_key` (or `Idempotency-Key` "
                "header: a retry answers 200 with the first answer's body), or both; neither is a 400."
            ),
            request=request,
            responses={
                201: ActionResultDoc,
                200: OpenApiResponse(ActionResultDoc, description="a retry, answered from the log"),
                **_errors(400, 401, 403, 404, 409, 422),
            },
        )
    )


@_director_schema("Undo the last action in force (a correction row says what and why)", CorrectionInput)
class MatchUndoApi(_DirectorActionApi):
    input_class = CorrectionInput

    def perform(self, match_id: int, actor: Actor, data: dict[str, Any]) -> services.Recorded:
        return services.undo_last_action(match_id, actor=actor, **data)


@_director_schema("Reopen a finished, forfeited or void match", CorrectionInput)
class MatchReopenApi(_DirectorActionApi):
    input_class = CorrectionInput

    def perform(self, match_id: int, actor: Actor, data: dict[str, Any]) -> services.Recorded:
        return services.reopen_match(match_id, actor=actor, **data)


@_director_schema("Award the match to the other side (no-show, withdrawal, penalty)", ForfeitInput)
class MatchForfeitApi(_DirectorActionApi):
    input_class = ForfeitInput

    def perform(self, match_id: int, actor: Actor, data: dict[str, Any]) -> services.Recorded:
        return services.forfeit_match(match_id, actor=actor, **data)


@_director_schema("Void the match (no winner; reopen brings it back)", ReasonInput)
class MatchVoidApi(_DirectorActionApi):
    def perform(self, match_id: int, actor: Actor, data: dict[str, Any]) -> services.Recorded:
        return services.void_match(match_id, actor=actor, **data)


@_director_schema("End a money session", FinishInput)
class MatchFinishApi(_DirectorActionApi):
    input_class = FinishInput

    def perform(self, match_id: int, actor: Actor, data: dict[str, Any]) -> services.Recorded:
        return services.finish_match(match_id, actor=actor, **data)


@_director_schema("Replace the result of a game entered from a scoresheet", ReplaceResultInput)
class MatchResultReplaceApi(_DirectorActionApi):
    input_class = ReplaceResultInput

    def perform(self, match_id: int, actor: Actor, data: dict[str, Any]) -> services.Recorded:
        return services.replace_game_result(
            match_id,
            actor=actor,
            game_number=data["game"],
            winner=data["winner"],
            kind=data["result"],
            cube_value=data["cube_value"],
            reason=data["reason"],
            expected_seq=data.get("expected_seq"),
            override=data["override"],
            idempotency_key=data.get("idempotency_key"),
        )


# -- entry links -----------------------------------------------------------------------------------------------------


class EntryLinkListCreateApi(APIView):
    """A match's per-side entry links (directors only: the answers hold the secret texts)."""

    permission_classes = (IsAuthenticatedOrEntryToken,)

    @extend_schema(summary="List the match's entry links", responses={200: EntryLinkSerializer(many=True)})
    def get(self, request: Request, match_id: int) -> Response:
        match = _directed_match(request, match_id)
        links = EntryToken.objects.filter(match=match).order_by("id")
        return Response(EntryLinkSerializer(links, many=True).data)

    @extend_schema(
        summary="Create an entry link for one side",
        request=EntryLinkInput,
        responses={201: EntryLinkSerializer, **_errors(400, 401, 403, 404)},
    )
    def post(self, request: Request, match_id: int) -> Response:
        match = _directed_match(request, match_id)
        token = new_entry_token(match, _valid(EntryLinkInput, request.data)["side"])
        return Response(EntryLinkSerializer(token).data, status=status.HTTP_201_CREATED)


class EntryLinkRevokeApi(APIView):
    permission_classes = (IsAuthenticatedOrEntryToken,)

    @extend_schema(
        summary="Revoke an entry link", request=None, responses={200: EntryLinkSerializer, **_errors(401, 403, 404)}
    )
    def post(self, request: Request, match_id: int, token_id: int) -> Response:
        match = _directed_match(request, match_id)
        token = EntryToken.objects.filter(pk=token_id, match=match).first()
        if token is None:
            raise ApplicationError(ErrorCode.NOT_FOUND, f"match {match_id} has no entry link {token_id}")
        revoke_entry_token(token)
        return Response(EntryLinkSerializer(token).data)


# -- .mat files ------------------------------------------------------------------------------------------------------


class MatTextRenderer(renderers.BaseRenderer):
    """text/plain: a .mat file as it is (errors are JSON: :class:`~games.api.exceptions.JsonErrors`)."""

    media_type = "text/plain"
    format = "mat"
    charset = "utf-8"

    def render(self, data: Any, accepted_media_type: str | None = None, renderer_context: Any = None) -> bytes:
        if isinstance(data, str):
            return data.encode(self.charset)
        return renderers.JSONRenderer().render(data)


class SgfTextRenderer(MatTextRenderer):
    """text/plain: an SGF file as it is (errors are JSON)."""

    format = "sgf"


class MatchExportApi(JsonErrors, APIView):
    permission_classes = (permissions.AllowAny,)
    renderer_classes = (
        renderers.JSONRenderer,
        MatTextRenderer,
    )
    #: The file format written (games.export.EXPORTS).
    file_format = "mat"

    @extend_schema(
        summary="The match as a .mat match log (GNU Backgammon / Jellyfish format; it carries no analysis)",
        parameters=[OpenApiParameter("format", exclude=True)],  # the file is the same whatever ?format= says
        responses={
            (200, "text/plain"): OpenApiResponse(TEXT, description="the .mat file (an attachment)"),
            **_errors(404),
            409: OpenApiResponse(ErrorDoc, description="the match cannot be written as .mat (Acey-Deucey)"),
        },
    )
    def get(self, request: Request, match_id: int) -> HttpResponse:
        match = _readable_match(request, match_id)
        try:
            text = match_file(match, self.file_format)
        except EngineError as exc:
            raise ApplicationError(ErrorCode.CONFLICT, str(exc)) from exc
        response = HttpResponse(text, content_type="text/plain; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="match-{match.pk}.{self.file_format}"'
        return response


class MatchSgfExportApi(MatchExportApi):
    renderer_classes = (
        renderers.JSONRenderer,
        SgfTextRenderer,
    )
    file_format = "sgf"

    @extend_schema(
        summary="The match as GNU Backgammon's SGF, with gnubg's analysis of it when it has one",
        parameters=[OpenApiParameter("format", exclude=True)],
        responses={
            (200, "text/plain"): OpenApiResponse(TEXT, description="the SGF file (an attachment)"),
            **_errors(404),
            409: OpenApiResponse(
                ErrorDoc, description="the match cannot be written as SGF (Acey-Deucey, penalty points)"
            ),
        },
    )
    def get(self, request: Request, match_id: int) -> HttpResponse:
        return super().get(request, match_id)


class MatchImportApi(APIView):
    """Store a whole match from a .mat file, checked exactly as ``python -m engine check`` does."""

    permission_classes = (permissions.IsAuthenticated,)
    parser_classes = (MultiPartParser,)

    @extend_schema(
        summary="Import a .mat match log (one file, at most 1 MiB)",
        request={"multipart/form-data": ImportInput},
        responses={
            201: MatchSerializer,
            400: OpenApiResponse(
                InvalidLogDoc,
                description=(
                    "`invalid_log` (nothing stored), `match_too_long` (more games or actions than a match holds) "
                    "or `invalid_input` (also: no such event)"
                ),
            ),
            **_errors(401, 403),
        },
    )
    def post(self, request: Request) -> Response:
        if sum(len(files) for _field, files in request.FILES.lists()) > 1:
            raise serializers.ValidationError({"file": ["send one .mat file per request"]})
        data = _valid(ImportInput, request.data)
        upload, attach = data["file"], None
        if "event" in data:
            attach = import_target(data["event"], actor_of(request))
            if attach is None:
                raise serializers.ValidationError(
                    {"event": [f"there is no event {data['event']!r}: give the address (slug) of an event you direct"]}
                )
        if upload.size > MAX_IMPORT_BYTES:
            raise serializers.ValidationError({"file": ["a match log has at most 1 MiB"]})
        try:
            record = read_mat(upload.read())
        except FormatError as exc:
            message = f"cannot read the match log: {exc}"
            raise _invalid_log(message, {"game": None, "move": None, "message": message}) from exc
        services.check_match_size(games=len(record.games))  # before the replay: a huge log costs nothing
        replay = replay_record(record)
        if replay.fault is not None:
            raise _invalid_log(replay.fault.message, replay.fault.as_dict())
        source = os.path.basename(upload.name or "")[:200]
        # A .mat can name anyone: only staff's imports take the existing player of a name (services.import_matches).
        by_name = bool(request.user.is_staff)
        match = services.import_log(replay, source=source, created_by=request.user, attach=attach, by_name=by_name)
        return Response(MatchSerializer(match).data, status=status.HTTP_201_CREATED)


def _invalid_log(message: str, error: dict[str, object]) -> ApiError:
    return ApiError(status_code=400, code="invalid_log", message=message, error=error)


# -- anything else under /api/ ---------------------------------------------------------------------------------------


@extend_schema(exclude=True)
class ApiNotFound(APIView):
    """A JSON 404 for unknown URLs under /api/ (instead of Django's HTML page)."""

    permission_classes = (permissions.AllowAny,)

    def missing(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        raise ApplicationError(ErrorCode.NOT_FOUND, f"there is no API endpoint {request.path}")

    get = post = put = patch = delete = options = missing


# -- analysis by GNU Backgammon --------------------------------------------------------------------------------------


class MatchAnalysisApi(APIView):
    """A match's analysis by GNU Backgammon: read it (anyone who may read the match), or ask for it (a director)."""

    permission_classes = (ReadOpenWriteAuthenticated,)

    @extend_schema(
        summary="GNU Backgammon's analysis of the match: per player and per decision",
        responses={200: MatchAnalysisSerializer, **ERROR_RESPONSES},
    )
    def get(self, request: Request, match_id: int) -> Response:
        match = _readable_match(request, match_id)
        analysis = MatchAnalysis.objects.filter(match=match).select_related("match").first()
        if analysis is None:
            raise ApplicationError(ErrorCode.NOT_FOUND, f"match {match_id} has not been analysed: a director can ask")
        return Response(MatchAnalysisSerializer(_analysis_with_figures(analysis.pk)).data)

    def get_throttles(self) -> list[Any]:
        return [*super().get_throttles(), AnalysisRequestThrottle()]

    @extend_schema(
        summary="Ask for the match to be analysed (again, if its log changed or at another depth)",
        description=(
            "One request per match is pending at a time: asking again while it waits replaces its depth. A depth "
            "above the site's (`ANALYSIS_PLIES`) is for staff and the directors of an event the match belongs to. "
            "The 202 answer is the request (`status` pending, `requested_plies`, `current` false) without the "
            "figures of an earlier analysis; a 200 says the analysis asked for is done already (with its figures)."
        ),
        request=AnalysisRequestInput,
        responses={
            202: MatchAnalysisSerializer,
            200: OpenApiResponse(MatchAnalysisSerializer, description="already done, of the log as it stands"),
            **ERROR_RESPONSES,
        },
    )
    def post(self, request: Request, match_id: int) -> Response:
        match = _directed_match(request, match_id)
        plies = _valid(AnalysisRequestInput, request.data).get("plies")
        if plies is not None and plies > settings.ANALYSIS_PLIES and not directs_beyond_creation(request.user, match):
            raise ApplicationError(
                ErrorCode.FORBIDDEN,
                f"an analysis deeper than {settings.ANALYSIS_PLIES} plies (this site's depth) is for staff and the "
                "directors of an event this match belongs to: leave out plies to have it analysed at the site's depth",
            )
        try:
            analysis = request_analysis(match.pk, plies=plies)
        except AnalysisRefusedError as exc:
            raise ApplicationError(ErrorCode.CONFLICT, str(exc)) from exc
        analysis.refresh_from_db()
        if analysis.status != MatchAnalysis.Status.PENDING:  # done already at that depth: nothing was queued
            analysis = _analysis_with_figures(analysis.pk)
            return Response(MatchAnalysisSerializer(analysis).data)
        answer = MatchAnalysisSerializer(analysis, context={"request_only": True}).data
        return Response(answer, status=status.HTTP_202_ACCEPTED)


def _analysis_with_figures(pk: int) -> MatchAnalysis:
    return (
        MatchAnalysis.objects.select_related("match")
        .prefetch_related("decisions", Prefetch("players", PlayerAnalysis.objects.select_related("player")))
        .get(pk=pk)
    )


class PlayerAnalysisListApi(generics.ListAPIView):
    """A player's PR match by match, newest first."""

    permission_classes = (permissions.AllowAny,)
    serializer_class = PlayerPrSerializer

    def get_queryset(self) -> QuerySet[PlayerAnalysis]:
        user = self.request.user
        player = selectors.players_visible_to(user).filter(pk=self.kwargs["pk"]).first()
        if player is None:
            raise ApplicationError(ErrorCode.NOT_FOUND, f"there is no player {self.kwargs['pk']}")
        return player_pr_history(player.pk).filter(analysis__match__in=selectors.matches_visible_to(user))


class SchemaApi(JsonErrors, SpectacularAPIView):
    """``/api/schema/``: the OpenAPI document (YAML, or JSON with ``?format=json``); its errors are JSON."""


class DocsPage(JsonErrors, SpectacularSwaggerView):
    """``/api/docs/``: Swagger UI over the schema (from local files); its errors are JSON like the rest of /api/."""
