"""The venue's tables: giving them, holding one back, seating a match."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_view
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from common.api.auth import IsAuthenticatedOrEntryToken, actor_of
from common.api.errors import ErrorDoc
from tournaments import services
from tournaments.access import check_directs
from tournaments.api.serializers.rounds import PairingSerializer
from tournaments.api.serializers.venue import TableSeatInput, TablesInput, VenueSerializer, VenueTableSerializer
from tournaments.api.views.common import errors, event_of, pairing_answer, pairing_of, valid
from tournaments.models import Event
from tournaments.selectors.venue import venue_of

#
# The same services as the director's dashboard (tournaments/services/tables.py); every answer is the venue, a
# table or a pairing as the reads here render it. Directors only: the list says which tables are held back.


def _venue_answer(event: Event) -> Response:
    return Response(VenueSerializer(venue_of(event)).data)


class EventTablesApi(APIView):
    permission_classes = (IsAuthenticatedOrEntryToken,)

    @extend_schema(
        summary="The venue's tables with the match each holds, and the queue of matches waiting for one (directors)",
        responses={200: VenueSerializer, **errors(401, 403, 404)},
    )
    def get(self, request: Request, event: str) -> Response:
        found = event_of(request, event)
        check_directs(actor_of(request), found)
        return _venue_answer(found)

    @extend_schema(
        summary="Give the venue's tables: a count, named tables, or as many as needed",
        description="The matches then waiting take the free tables. Tables that would go must hold no match "
        "(`table_occupied`: move it first); nothing is changed then.",
        request=TablesInput,
        responses={200: VenueSerializer, **errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, event: str) -> Response:
        found = event_of(request, event)
        services.set_tables(found, actor=actor_of(request), **valid(TablesInput, request.data))
        found.refresh_from_db(fields=["tables_given"])
        return _venue_answer(found)


class _TableHoldApi(APIView):
    permission_classes = (IsAuthenticatedOrEntryToken,)
    held: bool

    def post(self, request: Request, event: str, number: int) -> Response:
        found = event_of(request, event)
        services.hold_table(found, number, actor=actor_of(request), held=self.held)
        seat = next(seat for seat in venue_of(found).seats if seat.table.number == number)
        return Response(VenueTableSerializer(seat).data)


def _hold_schema(summary: str) -> Any:
    return extend_schema_view(
        post=extend_schema(
            summary=summary,
            request=None,
            responses={
                200: VenueTableSerializer,
                **errors(401, 403),
                404: OpenApiResponse(ErrorDoc, description="no such event (`not_found`) or table (`unknown_table`)"),
                409: OpenApiResponse(ErrorDoc, description="the table is already so (`conflict`)"),
            },
        )
    )


@_hold_schema("Hold a table back: no match is sent to it but by hand (a match playing there goes on)")
class TableHoldApi(_TableHoldApi):
    held = True


@_hold_schema("Release a held table: it takes the next match waiting")
class TableReleaseApi(_TableHoldApi):
    held = False


class PairingTableApi(APIView):
    permission_classes = (IsAuthenticatedOrEntryToken,)

    @extend_schema(
        summary="Send a match to a table: move it, or seat by hand a match waiting in the queue (directors)",
        description="A table held back takes it too. Its former table goes to the next match waiting.",
        request=TableSeatInput,
        responses={
            200: PairingSerializer,
            **errors(400, 401, 403),
            404: OpenApiResponse(ErrorDoc, description="no such pairing (`not_found`) or table (`unknown_table`)"),
            409: OpenApiResponse(
                ErrorDoc,
                description="the table holds another match (`table_occupied`), or the match is not ready or being "
                "played (`match_not_ready`: a bye, a slot waiting for its players, a match over)",
            ),
        },
    )
    def post(self, request: Request, pairing_id: int) -> Response:
        pairing = pairing_of(request, pairing_id)
        data = valid(TableSeatInput, request.data)
        services.seat_match(pairing, data["table"], actor=actor_of(request))
        return pairing_answer(pairing.pk)
