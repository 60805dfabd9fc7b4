"""What the standings earn: payouts, playoffs for ties, master points, PR tables."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from django.conf import settings
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from common.api.auth import IsAuthenticatedOrEntryToken, actor_of
from common.errors import ApplicationError, ErrorCode
from tournaments import services
from tournaments.api.serializers.awards import (
    MasterPointsInput,
    MasterPointsSerializer,
    PayoutsInput,
    PayoutsSerializer,
    PlayoffInput,
    PlayoffsDoc,
    PlayoffSerializer,
    PrRowSerializer,
    PrTableDoc,
)
from tournaments.api.views.common import ReadOrActor, division_of, errors, event_of, valid
from tournaments.models import Division
from tournaments.selectors.playoffs import division_playoffs, playoffs_of
from tournaments.selectors.points import SYSTEMS, master_points, points_report
from tournaments.selectors.public import PrRow, pr_table
from tournaments.services import payouts as payout_tables


class PayoutsApi(APIView):
    permission_classes = (ReadOrActor,)

    @extend_schema(
        summary="A division's payout table (once published; its directors always), with its flights' sizes",
        responses={200: PayoutsSerializer, **errors(403, 404)},
    )
    def get(self, request: Request, event: str, division: str) -> Response:
        found = division_of(request, event, division)
        payout_tables.check_may_read(found, actor_of(request))
        return _payouts_answer(found)

    @extend_schema(
        summary="Set a division's payout table (it replaces the stored one; refused whole, with what to change, "
        "when it does not add up)",
        request=PayoutsInput,
        responses={200: PayoutsSerializer, **errors(400, 401, 403, 404)},
    )
    def post(self, request: Request, event: str, division: str) -> Response:
        found = division_of(request, event, division)
        data = valid(PayoutsInput, request.data)
        flights = {flight: ", ".join(str(v) for v in values) for flight, values in data["flights"].items()}
        stored = payout_tables.set_payouts(
            found,
            actor=actor_of(request),
            mode=data["mode"],
            pool=data["pool"],
            ties=data["ties"],
            published=data["published"],
            flights=flights,
            one_prize=data["one_prize"],
        )
        return _payouts_answer(stored)


class PlayoffListApi(APIView):
    """Playoffs for ties: the ties that matter in the standings now (places that pay differently, a Swiss into a
    knockout's cut, first place of a Swiss or round robin) and the playoffs ordered; a director orders one."""

    permission_classes = (ReadOrActor,)

    @extend_schema(
        summary="A division's ties that matter and its playoffs, with how each settled its tie",
        responses={200: PlayoffsDoc, **errors(404)},
    )
    def get(self, request: Request, event: str, division: str) -> Response:
        return Response(PlayoffsDoc(_playoffs_body(division_of(request, event, division))).data)

    @extend_schema(
        summary="Order a playoff for a tie (two players: one match; three: a stepladder); its first match is made",
        request=PlayoffInput,
        responses={201: PlayoffSerializer, **errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, event: str, division: str) -> Response:
        found = division_of(request, event, division)
        data = valid(PlayoffInput, request.data)
        playoff = services.order_playoff(found, actor=actor_of(request), entries=data["entries"], length=data["length"])
        (view,) = [v for v in playoffs_of(found) if v.pk == playoff.pk]
        return Response(PlayoffSerializer(view).data, status=201)


class PlayoffDetailApi(APIView):
    permission_classes = (ReadOrActor,)

    @extend_schema(
        summary="Cancel a playoff none of whose matches has started (it is deleted with its matches)",
        responses={204: None, **errors(401, 403, 404, 409)},
    )
    def delete(self, request: Request, event: str, division: str, playoff_id: int) -> Response:
        found = division_of(request, event, division)
        services.cancel_playoff(playoff_id, actor=actor_of(request), division=found)
        return Response(status=204)


class PlayoffConfirmApi(APIView):
    permission_classes = (IsAuthenticatedOrEntryToken,)

    @extend_schema(
        summary="Confirm a playoff match's result the opponent entered (directors; the player asked, by entry link or "
        "account): the playoff then settles",
        request=None,
        responses={200: PlayoffSerializer, **errors(401, 403, 404, 409)},
    )
    def post(self, request: Request, event: str, division: str, playoff_id: int, match_id: int) -> Response:
        found = division_of(request, event, division)
        views = [v for v in playoffs_of(found) if v.pk == playoff_id]
        if not views or match_id not in [m.match_id for m in views[0].matches]:
            raise ApplicationError(ErrorCode.NOT_FOUND, f"playoff {playoff_id} of {found.name} has no match {match_id}")
        services.confirm_playoff_result(match_id, actor=actor_of(request))
        services.sync_division(found.pk)  # the playoff settles at once in the answer
        (view,) = [v for v in playoffs_of(found) if v.pk == playoff_id]
        return Response(PlayoffSerializer(view).data)


def _playoffs_body(division: Division) -> dict[str, Any]:
    found = division_playoffs(division, links=False)
    return {"division": division.slug, "rule": found.rule, "ties": found.ties, "playoffs": found.playoffs}


def _payouts_answer(division: Division) -> Response:
    sizes = {flight: asdict(size) for flight, size in payout_tables.flight_sizes(division).items()}
    body = {"division": division.slug, **payout_tables.stored_table(division), "sizes": sizes}
    return Response(PayoutsSerializer(body).data)


class EventMasterPointsApi(APIView):
    permission_classes = (ReadOrActor,)

    @extend_schema(
        summary="The event's master points (USBGF 2019): per player of its divisions, match wins and place",
        parameters=[OpenApiParameter("system", str, enum=list(SYSTEMS), default=SYSTEMS[0])],
        responses={200: MasterPointsSerializer, **errors(400, 404)},
    )
    def get(self, request: Request, event: str) -> Response:
        found = event_of(request, event)
        system = request.query_params.get("system", SYSTEMS[0])
        if system not in SYSTEMS:
            raise ApplicationError(
                ErrorCode.INVALID_INPUT, f"unknown points system {system!r}: use {', '.join(SYSTEMS)}"
            )
        return Response(MasterPointsSerializer(points_report(master_points(found, system=system))).data)

    @extend_schema(
        summary="Set the weights of the event and of its divisions, and the places that earn placement points",
        request=MasterPointsInput,
        responses={200: MasterPointsSerializer, **errors(400, 401, 403, 404)},
    )
    def post(self, request: Request, event: str) -> Response:
        found = event_of(request, event)
        data = valid(MasterPointsInput, request.data)
        divisions = {slug: (d["weight"], d["places_paid"]) for slug, d in data["divisions"].items()}
        found = services.set_points_weights(
            found, actor=actor_of(request), weight=data["event_weight"], divisions=divisions
        )
        return Response(MasterPointsSerializer(points_report(master_points(found))).data)


def _pr_answer(rows: list[PrRow]) -> Response:
    minimum = settings.ANALYSIS_MIN_DECISIONS
    return Response({"min_decisions": minimum, "rows": PrRowSerializer(rows, many=True).data})


class EventPrTableApi(APIView):
    permission_classes = (permissions.AllowAny,)

    @extend_schema(
        summary="The event's PR table (GNU Backgammon's analysis), best first",
        responses={200: PrTableDoc, **errors(404)},
    )
    def get(self, request: Request, event: str) -> Response:
        found = event_of(request, event)
        return _pr_answer(pr_table(event=found, min_decisions=settings.ANALYSIS_MIN_DECISIONS))


class DivisionPrTableApi(APIView):
    permission_classes = (permissions.AllowAny,)

    @extend_schema(
        summary="The division's PR table (GNU Backgammon's analysis), best first",
        responses={200: PrTableDoc, **errors(404)},
    )
    def get(self, request: Request, event: str, division: str) -> Response:
        found = division_of(request, event, division)
        return _pr_answer(pr_table(division=found, min_decisions=settings.ANALYSIS_MIN_DECISIONS))
