"""A division's rounds, pairings and standings, and answering for a result: confirm, dispute, forfeit, penalty."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from drf_spectacular.utils import extend_schema
from rest_framework import generics, permissions
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from common.api.auth import IsAuthenticatedOrEntryToken, actor_of
from tournaments import selectors, services
from tournaments.access import directs_event
from tournaments.api.serializers.rounds import (
    DisputeInput,
    PairingFilter,
    PairingForfeitInput,
    PairingPenaltyInput,
    PairingSerializer,
    RoundSerializer,
    StandingRowSerializer,
    StandingsDoc,
    StandingsFilter,
)
from tournaments.api.views.common import division_of, entry_field_of, errors, pairing_answer, pairing_of, valid
from tournaments.models import Pairing
from tournaments.selectors import api as reads


class RoundListApi(APIView):
    permission_classes = (permissions.AllowAny,)

    @extend_schema(summary="A division's rounds", responses={200: RoundSerializer(many=True), **errors(404)})
    def get(self, request: Request, event: str, division: str) -> Response:
        found = division_of(request, event, division)
        return Response(RoundSerializer(selectors.rounds_of(found), many=True).data)


class PairingListApi(generics.ListAPIView):
    """The pairings of a division, a page at a time (50, ``?page_size=`` up to 200), in bracket, round and table
    order; ``?round=`` and ``?bracket=`` choose one round or one bracket. For an elimination division this is the
    bracket: every slot, with the explanation of each source that feeds it (a seed, the winner or loser of another
    slot, a place)."""

    permission_classes = (permissions.AllowAny,)
    serializer_class = PairingSerializer
    queryset = Pairing.objects.none()  # for the schema; get_queryset answers

    @extend_schema(
        summary="A division's pairings, or its bracket as slots with their feeds, a page at a time",
        parameters=[PairingFilter],
        responses={200: PairingSerializer(many=True), **errors(400, 404)},
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)

    def get_queryset(self) -> QuerySet[Pairing]:
        query = valid(PairingFilter, self.request.query_params)
        found = division_of(self.request, self.kwargs["event"], self.kwargs["division"])
        return reads.pairings_in(found, bracket=query.get("bracket"), number=query.get("round"))


class StandingListApi(APIView):
    permission_classes = (permissions.AllowAny,)

    @extend_schema(
        summary="A division's standings (the latest table, or the one after a round)",
        parameters=[StandingsFilter],
        responses={200: StandingsDoc, **errors(400, 404)},
    )
    def get(self, request: Request, event: str, division: str) -> Response:
        query = valid(StandingsFilter, request.query_params)
        found = division_of(request, event, division)
        rows = selectors.standings_table(found, after_round=query.get("after_round"))
        payouts = selectors.payouts_of(found, rows) if query.get("after_round") is None else None
        if payouts is not None and not payouts.published and not directs_event(request.user, found.event):
            payouts = None
        body = {
            "division": found.slug,
            "after_round": rows[0].after_round if rows else query.get("after_round", 0),
            "standings_status": found.standings_state,
            "results_version": found.results_version,
            "standings_version": found.standings_version,
            "rows": StandingRowSerializer(rows, many=True, context={"payouts": payouts}).data,
        }
        return Response(body)


class PairingConfirmApi(APIView):
    permission_classes = (IsAuthenticatedOrEntryToken,)

    @extend_schema(
        summary="Confirm the result the opponent entered (the player asked, by entry link or account; directors)",
        request=None,
        responses={200: PairingSerializer, **errors(401, 403, 404, 409)},
    )
    def post(self, request: Request, pairing_id: int) -> Response:
        pairing = pairing_of(request, pairing_id)
        services.confirm_result(pairing, actor=actor_of(request))
        return pairing_answer(pairing.pk)


class PairingDisputeApi(APIView):
    permission_classes = (IsAuthenticatedOrEntryToken,)

    @extend_schema(
        summary="Dispute the result the opponent entered (the player asked): a director decides",
        request=DisputeInput,
        responses={200: PairingSerializer, **errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, pairing_id: int) -> Response:
        pairing = pairing_of(request, pairing_id)
        services.dispute_result(pairing, actor=actor_of(request), **valid(DisputeInput, request.data))
        return pairing_answer(pairing.pk)


class PairingForfeitApi(APIView):
    permission_classes = (IsAuthenticatedOrEntryToken,)

    @extend_schema(
        summary="Award the match to the opponent of `loser` (no-show, withdrawal, penalty)",
        request=PairingForfeitInput,
        responses={200: PairingSerializer, **errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, pairing_id: int) -> Response:
        pairing = pairing_of(request, pairing_id)
        data = valid(PairingForfeitInput, request.data)
        loser = entry_field_of(pairing.division, "loser", data["loser"])
        services.award_forfeit(pairing, actor=actor_of(request), loser=loser, kind=data["kind"], reason=data["reason"])
        return pairing_answer(pairing.pk)


class PairingPenaltyApi(APIView):
    permission_classes = (IsAuthenticatedOrEntryToken,)

    @extend_schema(
        summary="Penalty points against a player (between games); past half the match length, a forfeit",
        request=PairingPenaltyInput,
        responses={200: PairingSerializer, **errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, pairing_id: int) -> Response:
        pairing = pairing_of(request, pairing_id)
        data = valid(PairingPenaltyInput, request.data)
        against = entry_field_of(pairing.division, "against", data["against"])
        services.give_penalty(
            pairing, actor=actor_of(request), against=against, points=data["points"], reason=data["reason"]
        )
        return pairing_answer(pairing.pk)
