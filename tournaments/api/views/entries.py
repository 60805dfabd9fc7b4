"""A division's entries: registering (one, or an imported file), check-in, seed, withdrawal, payment, the money."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import permissions, serializers, status
from rest_framework.parsers import MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from common.api.auth import IsAuthenticatedOrEntryToken, actor_of
from common.api.parsers import JSONParser
from tournaments import services
from tournaments.access import check_directs
from tournaments.api.serializers.entries import (
    CheckInInput,
    EntryImportInput,
    EntryInput,
    EntrySerializer,
    ImportResultDoc,
    MoneyInput,
    MoneySerializer,
    PaymentInput,
    PaymentSerializer,
    PlayerDetailsInput,
    SeedInput,
    WithdrawInput,
)
from tournaments.api.views.common import ReadOrActor, division_of, entry_of, errors, valid
from tournaments.models import Division, Entry
from tournaments.selectors import api as reads
from tournaments.selectors.money import division_cash
from tournaments.services import money


class EntryListCreateApi(APIView):
    permission_classes = (ReadOrActor,)

    @extend_schema(summary="A division's entries", responses={200: EntrySerializer(many=True), **errors(404)})
    def get(self, request: Request, event: str, division: str) -> Response:
        found = division_of(request, event, division)
        return Response(EntrySerializer(reads.entries_of(found), many=True).data)

    @extend_schema(
        summary="Enter a player (an existing one by id, or a new one by name)",
        request=EntryInput,
        responses={201: EntrySerializer, **errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, event: str, division: str) -> Response:
        found = division_of(request, event, division)
        entry = services.register_player(
            found, actor=actor_of(request), **valid(EntryInput, request.data, user=request.user)
        )
        return Response(EntrySerializer(entry, context={"director": True}).data, status=status.HTTP_201_CREATED)


class EntryImportApi(APIView):
    """Register a list of players from CSV: all or nothing."""

    permission_classes = (IsAuthenticatedOrEntryToken,)
    parser_classes = (JSONParser, MultiPartParser)

    @extend_schema(
        summary="Import entries from CSV (a `file` upload or `csv` text, at most 256 KB; all or nothing)",
        description='A multipart form with `file` or `csv` (a JSON body `{"csv": ...}` is read too).',
        request={"multipart/form-data": EntryImportInput},
        responses={201: ImportResultDoc, **errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, event: str, division: str) -> Response:
        found = division_of(request, event, division)
        text = valid(EntryImportInput, request.data)["text"]
        report = services.import_entries_csv(found, actor=actor_of(request), text=text)
        body = {"created": len(report.created), "entries": EntrySerializer(report.created, many=True).data}
        return Response(body, status=status.HTTP_201_CREATED)


class _EntryActionApi(APIView):
    """A director's change to one entry: one input serializer, one service; answers the entry."""

    permission_classes = (IsAuthenticatedOrEntryToken,)
    input_class: type[serializers.Serializer]

    def perform(self, entry: Entry, request: Request, data: dict[str, Any]) -> Entry:
        raise NotImplementedError

    def post(self, request: Request, event: str, division: str, entry_id: int) -> Response:
        entry = entry_of(division_of(request, event, division), entry_id)
        done = self.perform(entry, request, valid(self.input_class, request.data))
        return Response(EntrySerializer(done, context={"director": True}).data)


def _entry_schema(summary: str, request: type[serializers.Serializer]) -> Any:
    return extend_schema_view(
        post=extend_schema(
            summary=summary, request=request, responses={200: EntrySerializer, **errors(400, 401, 403, 404, 409)}
        )
    )


@_entry_schema("Check a player in (or undo it)", CheckInInput)
class EntryCheckInApi(_EntryActionApi):
    input_class = CheckInInput

    def perform(self, entry: Entry, request: Request, data: dict[str, Any]) -> Entry:
        return services.check_in(entry, actor=actor_of(request), **data)


@_entry_schema("Set a manual seed before the start", SeedInput)
class EntrySeedApi(_EntryActionApi):
    input_class = SeedInput

    def perform(self, entry: Entry, request: Request, data: dict[str, Any]) -> Entry:
        return services.set_seed(entry, actor=actor_of(request), **data)


@_entry_schema(
    "Correct a registered player's name, club or country (his record: every event he entered shows it)",
    PlayerDetailsInput,
)
class EntryPlayerApi(_EntryActionApi):
    input_class = PlayerDetailsInput

    def perform(self, entry: Entry, request: Request, data: dict[str, Any]) -> Entry:
        player = entry.player
        given = {"name": player.display_name, "club": player.club, "country": player.country, **data}
        entry.player = services.correct_player_details(entry, actor=actor_of(request), **given)
        return entry


@_entry_schema("Withdraw a player (an unfinished match of his is forfeited)", WithdrawInput)
class EntryWithdrawApi(_EntryActionApi):
    input_class = WithdrawInput

    def perform(self, entry: Entry, request: Request, data: dict[str, Any]) -> Entry:
        return services.withdraw_entry(entry, actor=actor_of(request), **data)


class EntryPaymentApi(APIView):
    permission_classes = (permissions.IsAuthenticated,)

    @extend_schema(
        summary="Mark how a player paid his entry fee or his side pool fee (its directors)",
        request=PaymentInput,
        responses={200: PaymentSerializer, **errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, event: str, division: str, entry_id: int) -> Response:
        entry = entry_of(division_of(request, event, division), entry_id)
        data = valid(PaymentInput, request.data)
        done = money.mark_paid(entry, actor=actor_of(request), fee=data.get("fee"), side_pool=data.get("side_pool"))
        return Response(PaymentSerializer(done).data)


class DivisionMoneyApi(APIView):
    permission_classes = (permissions.IsAuthenticated,)

    @extend_schema(
        summary="A division's fees, its pools, its cash sheet and who paid (its directors)",
        responses={200: MoneySerializer, **errors(401, 403, 404)},
    )
    def get(self, request: Request, event: str, division: str) -> Response:
        found = division_of(request, event, division)
        check_directs(actor_of(request), found.event)
        return _money_answer(found)

    @extend_schema(
        summary="Set a division's fees (refused whole, with what to change)",
        request=MoneyInput,
        responses={200: MoneySerializer, **errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, event: str, division: str) -> Response:
        found = division_of(request, event, division)
        data = valid(MoneyInput, request.data)
        stored = money.set_fees(found, actor=actor_of(request), settings=money.FeeSettings(**data))
        return _money_answer(stored)


def _money_answer(division: Division) -> Response:
    sheet = division_cash(division)
    pool = sheet.sheet.pool
    body = {
        "division": division.slug,
        **{name: getattr(division, name) for name in ("entry_fee", "side_pool_fee", "house_share", "added_money")},
        "side_pool_prizes": division.side_pool_prizes,
        "prize_pool": pool.prize_pool,
        "side_pool": pool.side_pool,
        "house": pool.house,
        "paid_in": sheet.sheet.paid_in,
        "refunded": sheet.sheet.refunded,
        "paid_out": sheet.sheet.paid_out,
        "left_over": sheet.sheet.left_over,
        "payments": division.entries.select_related("player").order_by("player__display_name"),
    }
    return Response(MoneySerializer(body).data)
