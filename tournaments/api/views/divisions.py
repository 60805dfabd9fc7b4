"""Divisions: creating one, its settings, and the director's steps that run it (start, pair, swap, recompute)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import permissions, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from common.api.auth import IsAuthenticatedOrEntryToken, actor_of
from common.errors import ErrorCode
from tournaments import selectors, services
from tournaments.access import check_directs, directs_event
from tournaments.api.serializers.events import DivisionInput, DivisionSerializer
from tournaments.api.serializers.rounds import (
    PairingSerializer,
    PairRoundInput,
    QueuedDoc,
    RoundPairingsDoc,
    RoundSerializer,
    StartInput,
    SwapInput,
    SwissRoundsInput,
    UnpairedDoc,
)
from tournaments.api.views.common import division_answer, division_of, entry_field_of, errors, event_of, valid
from tournaments.selectors import api as reads


class DivisionCreateApi(APIView):
    permission_classes = (IsAuthenticatedOrEntryToken,)

    @extend_schema(
        summary="Add a division (a flight or side event) to the event",
        request=DivisionInput,
        responses={201: DivisionSerializer, **errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, event: str) -> Response:
        found = event_of(request, event)
        data = valid(DivisionInput, request.data)
        slug = data.pop("slug")
        division = services.create_division(
            found, actor=actor_of(request), settings=services.DivisionSettings(**data), slug=slug
        )
        return division_answer(division, director=True, code=status.HTTP_201_CREATED)


class DivisionDetailApi(APIView):
    permission_classes = (permissions.AllowAny,)

    @extend_schema(
        summary="A division: settings, status, tie-break order, the seed of the draw",
        responses={200: DivisionSerializer, **errors(404)},
    )
    def get(self, request: Request, event: str, division: str) -> Response:
        found = division_of(request, event, division)
        return division_answer(found, director=directs_event(request.user, found.event))


class DivisionStartApi(APIView):
    permission_classes = (IsAuthenticatedOrEntryToken,)

    @extend_schema(
        summary="Seed the field and draw (brackets, the first Swiss round, every round-robin round)",
        request=StartInput,
        responses={200: DivisionSerializer, **errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, event: str, division: str) -> Response:
        found = division_of(request, event, division)
        started = services.start_division(found, actor=actor_of(request), **valid(StartInput, request.data))
        return division_answer(started, director=True)


def _pair_answer(request: Request, event: str, division: str, pair: Any) -> Response:
    """Pair a round by ``pair`` (pair_next_round or repair_round), with the director's consent to rematches if given,
    and answer with the round and its boards."""
    found = division_of(request, event, division)
    data = valid(PairRoundInput, request.data)
    rnd = pair(found, actor=actor_of(request), allow_rematches=data["allow_rematches"])
    body = {
        "round": RoundSerializer(rnd).data,
        "pairings": PairingSerializer(reads.round_pairings(found, rnd), many=True).data,
    }
    return Response(body, status=status.HTTP_201_CREATED)


class DivisionRoundPairApi(APIView):
    permission_classes = (IsAuthenticatedOrEntryToken,)

    @extend_schema(
        summary="Pair the next Swiss round (every result of the current round must count)",
        description="When no rematch-free pairing exists the answer is a 409 that says so and names the fewest "
        "rematches a pairing needs; `allow_rematches` is the director's consent to that pairing. A Swiss into a "
        "knockout whose Swiss rounds are all played draws its knockout instead (the top `knockout_size` of the Swiss "
        "standings, seeded by them): the answer is the knockout's first round.",
        request=PairRoundInput,
        responses={201: RoundPairingsDoc, **errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, event: str, division: str) -> Response:
        return _pair_answer(request, event, division, services.pair_next_round)


class SwissRoundsApi(APIView):
    permission_classes = (IsAuthenticatedOrEntryToken,)

    @extend_schema(
        summary="Change the number of rounds of a running Swiss (at least those paired)",
        request=SwissRoundsInput,
        responses={200: DivisionSerializer, **errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, event: str, division: str) -> Response:
        found = division_of(request, event, division)
        rounds = valid(SwissRoundsInput, request.data)["rounds"]
        return division_answer(services.set_swiss_rounds(found, actor=actor_of(request), rounds=rounds), director=True)


class SwissEndApi(APIView):
    permission_classes = (IsAuthenticatedOrEntryToken,)

    @extend_schema(
        summary="End a Swiss now: a current round nobody has started is taken back; it finishes once every "
        "result of the rounds paired counts",
        request=None,
        responses={200: DivisionSerializer, **errors(401, 403, 404, 409)},
    )
    def post(self, request: Request, event: str, division: str) -> Response:
        found = division_of(request, event, division)
        return division_answer(services.end_swiss(found, actor=actor_of(request)), director=True)


class SwissUnpairApi(APIView):
    permission_classes = (IsAuthenticatedOrEntryToken,)

    @extend_schema(
        summary="Take back the current Swiss round while none of its matches has started",
        request=None,
        responses={200: UnpairedDoc, **errors(401, 403, 404, 409)},
    )
    def post(self, request: Request, event: str, division: str) -> Response:
        found = division_of(request, event, division)
        return Response({"round": services.unpair_round(found, actor=actor_of(request))})


class SwissRepairApi(APIView):
    permission_classes = (IsAuthenticatedOrEntryToken,)

    @extend_schema(
        summary="Take back the current Swiss round and pair it again from the results as they are now (after a "
        "correction, say); nothing changes if it cannot be paired",
        request=PairRoundInput,
        responses={201: RoundPairingsDoc, **errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, event: str, division: str) -> Response:
        return _pair_answer(request, event, division, services.repair_round)


class DivisionLastChanceCloseApi(APIView):
    permission_classes = (IsAuthenticatedOrEntryToken,)

    @extend_schema(
        summary="Close the last-chance entries (free places become byes)",
        request=None,
        responses={200: DivisionSerializer, **errors(401, 403, 404, 409)},
    )
    def post(self, request: Request, event: str, division: str) -> Response:
        found = division_of(request, event, division)
        closed = services.close_last_chance_places(found, actor=actor_of(request))
        return division_answer(closed, director=True)


class DivisionSwapApi(APIView):
    permission_classes = (IsAuthenticatedOrEntryToken,)

    @extend_schema(
        summary="Swap two players' places (seeds in a bracket, boards in a round) before their matches start",
        description="In a Swiss a swap that pairs two players who have met is refused (409, naming them) unless "
        "`allow_rematch` is given.",
        request=SwapInput,
        responses={200: PairingSerializer(many=True), **errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, event: str, division: str) -> Response:
        found = division_of(request, event, division)
        data = valid(SwapInput, request.data)
        first, second = entry_field_of(found, "first", data["first"]), entry_field_of(found, "second", data["second"])
        services.swap_players(
            found,
            actor=actor_of(request),
            first=first,
            second=second,
            reason=data["reason"],
            allow_rematch=data["allow_rematch"],
        )
        return Response(PairingSerializer(selectors.pairings_of(found), many=True).data)


class DivisionRecomputeApi(APIView):
    permission_classes = (IsAuthenticatedOrEntryToken,)

    @extend_schema(
        summary="Recompute the division: sync its pairings, then its standings and ratings",
        description=(
            "`status` says what became of the work: `queued` (202: a worker will do it), `done` (200: tasks run "
            "in-process, it is done) or `left_to_reconcile` (503 with Retry-After: the task queue is unreachable; "
            "the standings stay pending and the periodic reconcile does the work once the queue is back)."
        ),
        request=None,
        responses={
            202: QueuedDoc,
            200: OpenApiResponse(QueuedDoc, description="done in-process (no broker)"),
            503: OpenApiResponse(QueuedDoc, description="left to reconcile: the task queue is unreachable"),
            **errors(401, 403, 404),
        },
    )
    def post(self, request: Request, event: str, division: str) -> Response:
        found = division_of(request, event, division)
        check_directs(actor_of(request), found.event)
        sent = services.request_followup(found.pk)
        body = {"division": found.slug, "task": "tournaments.tasks.advance_division", "status": sent.value}
        if sent is services.Sent.LEFT_TO_RECONCILE:
            body |= {
                "code": str(ErrorCode.QUEUE_UNAVAILABLE),
                "message": "the task queue is unreachable: the standings stay pending, and reconcile recomputes "
                "them within a minute of the queue being back",
            }
            return Response(body, status=status.HTTP_503_SERVICE_UNAVAILABLE, headers={"Retry-After": "60"})
        code = status.HTTP_202_ACCEPTED if sent is services.Sent.QUEUED else status.HTTP_200_OK
        return Response(body, status=code)
