"""The tournaments API's views: parse the input with a serializer, call one service or selector, render the answer.

Reads are public (``AllowAny``) but a private event, its divisions, entries, pairings and standings are a 404 for
whoever may not see it (``tournaments.selectors.events_visible_to``). Writes need a user (session or DRF token) or
an entry link; who may do what (the event's directors and staff; the player asked to confirm a result) is decided
by the services, never here. A write answers with what it wrote, rendered as the matching read renders it.

The events list and a division's pairings (a 500-player round robin has 124,750) are paginated like the games API's
lists; the other lists inside a division (entries, rounds, standings) are not: they hold a row per player or round.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db.models import QuerySet
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema, extend_schema_view
from rest_framework import generics, permissions, serializers, status
from rest_framework.parsers import MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.access import sides_of
from games.api.auth import IsAuthenticatedOrEntryToken, ReadOpenWriteAuthenticated, actor_of, entry_token
from games.api.parsers import JSONParser
from games.api.schema import EntryTokenScheme  # noqa: F401  (registers the extension)
from games.api.serializers import ErrorDoc
from games.errors import ApplicationError, ErrorCode
from games.models import Player
from games.selectors import players_visible_to
from tournaments import selectors, services
from tournaments.access import check_directs, check_directs_club, directs_event
from tournaments.api import serializers as s
from tournaments.models import Club, Division, Entry, Event, Pairing, RatingList, Season
from tournaments.selectors import api as reads
from tournaments.selectors import clubs as club_reads
from tournaments.selectors.money import division_cash
from tournaments.selectors.playoffs import division_playoffs, playoffs_of
from tournaments.selectors.points import SYSTEMS, master_points, points_report
from tournaments.selectors.public import PrRow, pr_table
from tournaments.selectors.seasons import season_table
from tournaments.selectors.venue import venue_of
from tournaments.services import money
from tournaments.services import payouts as payout_tables


def _valid(serializer_class: type[serializers.Serializer], data: Any, **context: Any) -> dict[str, Any]:
    serializer = serializer_class(data=data, context=context)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


def _errors(*codes: int) -> dict[int, Any]:
    return {code: OpenApiResponse(ErrorDoc, description=_ERROR_TEXT[code]) for code in codes}


_ERROR_TEXT = {
    400: "invalid input (`fields`), or settings, entries or decisions the services refuse (`invalid_input`)",
    401: "not logged in (and no entry link where one is accepted)",
    403: "not allowed (not a director of this event, not the player asked, an entry link for a director's work)",
    404: "no such event, division, entry, pairing or player (or a private one)",
    409: "not now: the division has started, the round is not complete, the result is not awaiting an answer, ...",
}


class ReadOrActor(ReadOpenWriteAuthenticated):
    """Anyone reads; a user or an entry-link holder writes (what he may write is the services' decision)."""


class HasEntryToken(permissions.BasePermission):
    message = "send your entry link as the X-Entry-Token header"

    def has_permission(self, request: Request, view: Any) -> bool:
        return entry_token(request) is not None


# -- lookups: 404 for what does not exist or may not be seen ---------------------------------------------------------


def _event(request: Request, slug: str) -> Event:
    event = reads.visible_event(request.user, slug)
    if event is None:
        raise ApplicationError(ErrorCode.NOT_FOUND, f"there is no event {slug!r}")
    return event


def _division(request: Request, event: str, division: str) -> Division:
    found = reads.visible_division(request.user, event, division)
    if found is None:
        raise ApplicationError(ErrorCode.NOT_FOUND, f"there is no division {event}/{division}")
    return found


def _entry(division: Division, entry_id: int) -> Entry:
    entry = reads.entry_of(division, entry_id)
    if entry is None:
        raise ApplicationError(ErrorCode.NOT_FOUND, f"{division.name} has no entry {entry_id}")
    return entry


def _entry_field(division: Division, field: str, entry_id: int) -> Entry:
    """An entry named in the input: a field error when it is not one of the division's."""
    entry = reads.entry_of(division, entry_id)
    if entry is None:
        raise serializers.ValidationError({field: [f"{division.name} has no entry {entry_id}"]})
    return entry


def _pairing(request: Request, pairing_id: int) -> Pairing:
    """The pairing, if its event is visible to the caller or the caller plays its match (an entry link of a
    private event's match answers for its own result)."""
    pairing = reads.pairing_row(pairing_id)
    if pairing is not None:
        event = pairing.division.event
        if event.public or reads.can_see_event(request.user, event.pk):
            return pairing
        if pairing.match is not None and sides_of(actor_of(request), pairing.match):
            return pairing
    raise ApplicationError(ErrorCode.NOT_FOUND, f"there is no pairing {pairing_id}")


def _division_answer(division: Division, *, director: bool, code: int = status.HTTP_200_OK) -> Response:
    return Response(s.DivisionSerializer(division, context={"director": director}).data, status=code)


def _pairing_answer(pairing_id: int) -> Response:
    return Response(s.PairingSerializer(reads.pairing_row(pairing_id)).data)


# -- events ----------------------------------------------------------------------------------------------------------


@extend_schema_view(
    get=extend_schema(summary="List the events you may see (newest first)", responses={200: s.EventSerializer}),
    post=extend_schema(
        summary="Create an event (you become its first director)",
        request=s.EventInput,
        responses={201: s.EventDetailSerializer, **_errors(400, 401, 409)},
    ),
)
class EventListCreateApi(generics.ListAPIView):
    permission_classes = (ReadOrActor,)
    serializer_class = s.EventSerializer
    queryset = Event.objects.none()  # for the schema; get_queryset answers

    def get_queryset(self) -> QuerySet[Event]:
        return selectors.events_visible_to(self.request.user).select_related("rating_list", "club")

    def post(self, request: Request) -> Response:
        event = services.create_event(actor=actor_of(request), **_valid(s.EventInput, request.data))
        body = s.EventDetailSerializer(event, context={"divisions": []}).data
        return Response(body, status=status.HTTP_201_CREATED)


class EventDetailApi(APIView):
    permission_classes = (permissions.AllowAny,)

    @extend_schema(summary="An event with its divisions", responses={200: s.EventDetailSerializer, **_errors(404)})
    def get(self, request: Request, event: str) -> Response:
        found = _event(request, event)
        context = {"divisions": reads.division_summaries(found)}
        return Response(s.EventDetailSerializer(found, context=context).data)


class EventDirectorAddApi(APIView):
    permission_classes = (IsAuthenticatedOrEntryToken,)

    @extend_schema(
        summary="Make a user a director of the event",
        request=s.DirectorInput,
        responses={200: s.DirectorsDoc, **_errors(400, 401, 403, 404)},
    )
    def post(self, request: Request, event: str) -> Response:
        found = _event(request, event)
        actor = actor_of(request)
        user = _director_to_add(request, lambda: check_directs(actor, found))
        services.add_director(found, actor=actor, user=user)
        return Response({"event": found.slug, "directors": reads.event_directors(found)})


def _director_to_add(request: Request, check: Callable[[], None]) -> Any:
    """The user named by a DirectorInput; an unknown name is told only to those ``check`` lets through (only
    directors learn which usernames exist)."""
    username = _valid(s.DirectorInput, request.data)["username"]
    user = get_user_model().objects.filter(username=username).first()
    if user is None:
        check()
        raise serializers.ValidationError({"username": [f"there is no user {username!r}"]})
    return user


class EventQueueApi(APIView):
    """The directors' queue: results awaiting the opponent's confirmation, and disputed ones."""

    permission_classes = (IsAuthenticatedOrEntryToken,)

    @extend_schema(
        summary="Results awaiting confirmation and disputes (directors)",
        responses={200: s.QueueItemSerializer(many=True), **_errors(401, 403, 404)},
    )
    def get(self, request: Request, event: str) -> Response:
        found = _event(request, event)
        check_directs(actor_of(request), found)
        return Response(s.QueueItemSerializer(selectors.director_queue(found), many=True).data)


# -- divisions -------------------------------------------------------------------------------------------------------


class DivisionCreateApi(APIView):
    permission_classes = (IsAuthenticatedOrEntryToken,)

    @extend_schema(
        summary="Add a division (a flight or side event) to the event",
        request=s.DivisionInput,
        responses={201: s.DivisionSerializer, **_errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, event: str) -> Response:
        found = _event(request, event)
        data = _valid(s.DivisionInput, request.data)
        slug = data.pop("slug")
        division = services.create_division(
            found, actor=actor_of(request), settings=services.DivisionSettings(**data), slug=slug
        )
        return _division_answer(division, director=True, code=status.HTTP_201_CREATED)


class DivisionDetailApi(APIView):
    permission_classes = (permissions.AllowAny,)

    @extend_schema(
        summary="A division: settings, status, tie-break order, the seed of the draw",
        responses={200: s.DivisionSerializer, **_errors(404)},
    )
    def get(self, request: Request, event: str, division: str) -> Response:
        found = _division(request, event, division)
        return _division_answer(found, director=directs_event(request.user, found.event))


class DivisionStartApi(APIView):
    permission_classes = (IsAuthenticatedOrEntryToken,)

    @extend_schema(
        summary="Seed the field and draw (brackets, the first Swiss round, every round-robin round)",
        request=s.StartInput,
        responses={200: s.DivisionSerializer, **_errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, event: str, division: str) -> Response:
        found = _division(request, event, division)
        started = services.start_division(found, actor=actor_of(request), **_valid(s.StartInput, request.data))
        return _division_answer(started, director=True)


def _pair_answer(request: Request, event: str, division: str, pair: Any) -> Response:
    """Pair a round by ``pair`` (pair_next_round or repair_round), with the director's consent to rematches if given,
    and answer with the round and its boards."""
    found = _division(request, event, division)
    data = _valid(s.PairRoundInput, request.data)
    rnd = pair(found, actor=actor_of(request), allow_rematches=data["allow_rematches"])
    body = {
        "round": s.RoundSerializer(rnd).data,
        "pairings": s.PairingSerializer(reads.round_pairings(found, rnd), many=True).data,
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
        request=s.PairRoundInput,
        responses={201: s.RoundPairingsDoc, **_errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, event: str, division: str) -> Response:
        return _pair_answer(request, event, division, services.pair_next_round)


class SwissRoundsApi(APIView):
    permission_classes = (IsAuthenticatedOrEntryToken,)

    @extend_schema(
        summary="Change the number of rounds of a running Swiss (at least those paired)",
        request=s.SwissRoundsInput,
        responses={200: s.DivisionSerializer, **_errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, event: str, division: str) -> Response:
        found = _division(request, event, division)
        rounds = _valid(s.SwissRoundsInput, request.data)["rounds"]
        return _division_answer(services.set_swiss_rounds(found, actor=actor_of(request), rounds=rounds), director=True)


class SwissEndApi(APIView):
    permission_classes = (IsAuthenticatedOrEntryToken,)

    @extend_schema(
        summary="End a Swiss now: a current round nobody has started is taken back; it finishes once every "
        "result of the rounds paired counts",
        request=None,
        responses={200: s.DivisionSerializer, **_errors(401, 403, 404, 409)},
    )
    def post(self, request: Request, event: str, division: str) -> Response:
        found = _division(request, event, division)
        return _division_answer(services.end_swiss(found, actor=actor_of(request)), director=True)


class SwissUnpairApi(APIView):
    permission_classes = (IsAuthenticatedOrEntryToken,)

    @extend_schema(
        summary="Take back the current Swiss round while none of its matches has started",
        request=None,
        responses={200: s.UnpairedDoc, **_errors(401, 403, 404, 409)},
    )
    def post(self, request: Request, event: str, division: str) -> Response:
        found = _division(request, event, division)
        return Response({"round": services.unpair_round(found, actor=actor_of(request))})


class SwissRepairApi(APIView):
    permission_classes = (IsAuthenticatedOrEntryToken,)

    @extend_schema(
        summary="Take back the current Swiss round and pair it again from the results as they are now (after a "
        "correction, say); nothing changes if it cannot be paired",
        request=s.PairRoundInput,
        responses={201: s.RoundPairingsDoc, **_errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, event: str, division: str) -> Response:
        return _pair_answer(request, event, division, services.repair_round)


class DivisionLastChanceCloseApi(APIView):
    permission_classes = (IsAuthenticatedOrEntryToken,)

    @extend_schema(
        summary="Close the last-chance entries (free places become byes)",
        request=None,
        responses={200: s.DivisionSerializer, **_errors(401, 403, 404, 409)},
    )
    def post(self, request: Request, event: str, division: str) -> Response:
        found = _division(request, event, division)
        closed = services.close_last_chance_places(found, actor=actor_of(request))
        return _division_answer(closed, director=True)


class DivisionSwapApi(APIView):
    permission_classes = (IsAuthenticatedOrEntryToken,)

    @extend_schema(
        summary="Swap two players' places (seeds in a bracket, boards in a round) before their matches start",
        description="In a Swiss a swap that pairs two players who have met is refused (409, naming them) unless "
        "`allow_rematch` is given.",
        request=s.SwapInput,
        responses={200: s.PairingSerializer(many=True), **_errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, event: str, division: str) -> Response:
        found = _division(request, event, division)
        data = _valid(s.SwapInput, request.data)
        first, second = _entry_field(found, "first", data["first"]), _entry_field(found, "second", data["second"])
        services.swap_players(
            found,
            actor=actor_of(request),
            first=first,
            second=second,
            reason=data["reason"],
            allow_rematch=data["allow_rematch"],
        )
        return Response(s.PairingSerializer(selectors.pairings_of(found), many=True).data)


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
            202: s.QueuedDoc,
            200: OpenApiResponse(s.QueuedDoc, description="done in-process (no broker)"),
            503: OpenApiResponse(s.QueuedDoc, description="left to reconcile: the task queue is unreachable"),
            **_errors(401, 403, 404),
        },
    )
    def post(self, request: Request, event: str, division: str) -> Response:
        found = _division(request, event, division)
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


# -- entries ---------------------------------------------------------------------------------------------------------


class EntryListCreateApi(APIView):
    permission_classes = (ReadOrActor,)

    @extend_schema(summary="A division's entries", responses={200: s.EntrySerializer(many=True), **_errors(404)})
    def get(self, request: Request, event: str, division: str) -> Response:
        found = _division(request, event, division)
        return Response(s.EntrySerializer(reads.entries_of(found), many=True).data)

    @extend_schema(
        summary="Enter a player (an existing one by id, or a new one by name)",
        request=s.EntryInput,
        responses={201: s.EntrySerializer, **_errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, event: str, division: str) -> Response:
        found = _division(request, event, division)
        entry = services.register_player(
            found, actor=actor_of(request), **_valid(s.EntryInput, request.data, user=request.user)
        )
        return Response(s.EntrySerializer(entry, context={"director": True}).data, status=status.HTTP_201_CREATED)


class EntryImportApi(APIView):
    """Register a list of players from CSV: all or nothing."""

    permission_classes = (IsAuthenticatedOrEntryToken,)
    parser_classes = (JSONParser, MultiPartParser)

    @extend_schema(
        summary="Import entries from CSV (a `file` upload or `csv` text, at most 256 KB; all or nothing)",
        description='A multipart form with `file` or `csv` (a JSON body `{"csv": ...}` is read too).',
        request={"multipart/form-data": s.EntryImportInput},
        responses={201: s.ImportResultDoc, **_errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, event: str, division: str) -> Response:
        found = _division(request, event, division)
        text = _valid(s.EntryImportInput, request.data)["text"]
        report = services.import_entries_csv(found, actor=actor_of(request), text=text)
        body = {"created": len(report.created), "entries": s.EntrySerializer(report.created, many=True).data}
        return Response(body, status=status.HTTP_201_CREATED)


class _EntryActionApi(APIView):
    """A director's change to one entry: one input serializer, one service; answers the entry."""

    permission_classes = (IsAuthenticatedOrEntryToken,)
    input_class: type[serializers.Serializer]

    def perform(self, entry: Entry, request: Request, data: dict[str, Any]) -> Entry:
        raise NotImplementedError

    def post(self, request: Request, event: str, division: str, entry_id: int) -> Response:
        entry = _entry(_division(request, event, division), entry_id)
        done = self.perform(entry, request, _valid(self.input_class, request.data))
        return Response(s.EntrySerializer(done, context={"director": True}).data)


def _entry_schema(summary: str, request: type[serializers.Serializer]) -> Any:
    return extend_schema_view(
        post=extend_schema(
            summary=summary, request=request, responses={200: s.EntrySerializer, **_errors(400, 401, 403, 404, 409)}
        )
    )


@_entry_schema("Check a player in (or undo it)", s.CheckInInput)
class EntryCheckInApi(_EntryActionApi):
    input_class = s.CheckInInput

    def perform(self, entry: Entry, request: Request, data: dict[str, Any]) -> Entry:
        return services.check_in(entry, actor=actor_of(request), **data)


@_entry_schema("Set a manual seed before the start", s.SeedInput)
class EntrySeedApi(_EntryActionApi):
    input_class = s.SeedInput

    def perform(self, entry: Entry, request: Request, data: dict[str, Any]) -> Entry:
        return services.set_seed(entry, actor=actor_of(request), **data)


@_entry_schema("Withdraw a player (an unfinished match of his is forfeited)", s.WithdrawInput)
class EntryWithdrawApi(_EntryActionApi):
    input_class = s.WithdrawInput

    def perform(self, entry: Entry, request: Request, data: dict[str, Any]) -> Entry:
        return services.withdraw_entry(entry, actor=actor_of(request), **data)


class EntryPaymentApi(APIView):
    permission_classes = (permissions.IsAuthenticated,)

    @extend_schema(
        summary="Mark how a player paid his entry fee or his side pool fee (its directors)",
        request=s.PaymentInput,
        responses={200: s.PaymentSerializer, **_errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, event: str, division: str, entry_id: int) -> Response:
        entry = _entry(_division(request, event, division), entry_id)
        data = _valid(s.PaymentInput, request.data)
        done = money.mark_paid(entry, actor=actor_of(request), fee=data.get("fee"), side_pool=data.get("side_pool"))
        return Response(s.PaymentSerializer(done).data)


class DivisionMoneyApi(APIView):
    permission_classes = (permissions.IsAuthenticated,)

    @extend_schema(
        summary="A division's fees, its pools, its cash sheet and who paid (its directors)",
        responses={200: s.MoneySerializer, **_errors(401, 403, 404)},
    )
    def get(self, request: Request, event: str, division: str) -> Response:
        found = _division(request, event, division)
        check_directs(actor_of(request), found.event)
        return _money_answer(found)

    @extend_schema(
        summary="Set a division's fees (refused whole, with what to change)",
        request=s.MoneyInput,
        responses={200: s.MoneySerializer, **_errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, event: str, division: str) -> Response:
        found = _division(request, event, division)
        data = _valid(s.MoneyInput, request.data)
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
    return Response(s.MoneySerializer(body).data)


# -- rounds, pairings, standings -------------------------------------------------------------------------------------


class RoundListApi(APIView):
    permission_classes = (permissions.AllowAny,)

    @extend_schema(summary="A division's rounds", responses={200: s.RoundSerializer(many=True), **_errors(404)})
    def get(self, request: Request, event: str, division: str) -> Response:
        found = _division(request, event, division)
        return Response(s.RoundSerializer(selectors.rounds_of(found), many=True).data)


class PairingListApi(generics.ListAPIView):
    """The pairings of a division, a page at a time (50, ``?page_size=`` up to 200), in bracket, round and table
    order; ``?round=`` and ``?bracket=`` choose one round or one bracket. For an elimination division this is the
    bracket: every slot, with the explanation of each source that feeds it (a seed, the winner or loser of another
    slot, a place)."""

    permission_classes = (permissions.AllowAny,)
    serializer_class = s.PairingSerializer
    queryset = Pairing.objects.none()  # for the schema; get_queryset answers

    @extend_schema(
        summary="A division's pairings, or its bracket as slots with their feeds, a page at a time",
        parameters=[s.PairingFilter],
        responses={200: s.PairingSerializer(many=True), **_errors(400, 404)},
    )
    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().get(request, *args, **kwargs)

    def get_queryset(self) -> QuerySet[Pairing]:
        query = _valid(s.PairingFilter, self.request.query_params)
        found = _division(self.request, self.kwargs["event"], self.kwargs["division"])
        return reads.pairings_in(found, bracket=query.get("bracket"), number=query.get("round"))


class StandingListApi(APIView):
    permission_classes = (permissions.AllowAny,)

    @extend_schema(
        summary="A division's standings (the latest table, or the one after a round)",
        parameters=[s.StandingsFilter],
        responses={200: s.StandingsDoc, **_errors(400, 404)},
    )
    def get(self, request: Request, event: str, division: str) -> Response:
        query = _valid(s.StandingsFilter, request.query_params)
        found = _division(request, event, division)
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
            "rows": s.StandingRowSerializer(rows, many=True, context={"payouts": payouts}).data,
        }
        return Response(body)


class PayoutsApi(APIView):
    permission_classes = (ReadOrActor,)

    @extend_schema(
        summary="A division's payout table (once published; its directors always), with its flights' sizes",
        responses={200: s.PayoutsSerializer, **_errors(403, 404)},
    )
    def get(self, request: Request, event: str, division: str) -> Response:
        found = _division(request, event, division)
        payout_tables.check_may_read(found, actor_of(request))
        return _payouts_answer(found)

    @extend_schema(
        summary="Set a division's payout table (it replaces the stored one; refused whole, with what to change, "
        "when it does not add up)",
        request=s.PayoutsInput,
        responses={200: s.PayoutsSerializer, **_errors(400, 401, 403, 404)},
    )
    def post(self, request: Request, event: str, division: str) -> Response:
        found = _division(request, event, division)
        data = _valid(s.PayoutsInput, request.data)
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
        responses={200: s.PlayoffsDoc, **_errors(404)},
    )
    def get(self, request: Request, event: str, division: str) -> Response:
        return Response(s.PlayoffsDoc(_playoffs_body(_division(request, event, division))).data)

    @extend_schema(
        summary="Order a playoff for a tie (two players: one match; three: a stepladder); its first match is made",
        request=s.PlayoffInput,
        responses={201: s.PlayoffSerializer, **_errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, event: str, division: str) -> Response:
        found = _division(request, event, division)
        data = _valid(s.PlayoffInput, request.data)
        playoff = services.order_playoff(found, actor=actor_of(request), entries=data["entries"], length=data["length"])
        (view,) = [v for v in playoffs_of(found) if v.pk == playoff.pk]
        return Response(s.PlayoffSerializer(view).data, status=201)


class PlayoffDetailApi(APIView):
    permission_classes = (ReadOrActor,)

    @extend_schema(
        summary="Cancel a playoff none of whose matches has started (it is deleted with its matches)",
        responses={204: None, **_errors(401, 403, 404, 409)},
    )
    def delete(self, request: Request, event: str, division: str, playoff_id: int) -> Response:
        found = _division(request, event, division)
        services.cancel_playoff(playoff_id, actor=actor_of(request), division=found)
        return Response(status=204)


def _playoffs_body(division: Division) -> dict[str, Any]:
    found = division_playoffs(division, links=False)
    return {"division": division.slug, "rule": found.rule, "ties": found.ties, "playoffs": found.playoffs}


def _payouts_answer(division: Division) -> Response:
    sizes = {flight: asdict(size) for flight, size in payout_tables.flight_sizes(division).items()}
    body = {"division": division.slug, **payout_tables.stored_table(division), "sizes": sizes}
    return Response(s.PayoutsSerializer(body).data)


class EventMasterPointsApi(APIView):
    permission_classes = (ReadOrActor,)

    @extend_schema(
        summary="The event's master points (USBGF 2019): per player of its divisions, match wins and place",
        parameters=[OpenApiParameter("system", str, enum=list(SYSTEMS), default=SYSTEMS[0])],
        responses={200: s.MasterPointsSerializer, **_errors(400, 404)},
    )
    def get(self, request: Request, event: str) -> Response:
        found = _event(request, event)
        system = request.query_params.get("system", SYSTEMS[0])
        if system not in SYSTEMS:
            raise ApplicationError(
                ErrorCode.INVALID_INPUT, f"unknown points system {system!r}: use {', '.join(SYSTEMS)}"
            )
        return Response(s.MasterPointsSerializer(points_report(master_points(found, system=system))).data)

    @extend_schema(
        summary="Set the weights of the event and of its divisions, and the places that earn placement points",
        request=s.MasterPointsInput,
        responses={200: s.MasterPointsSerializer, **_errors(400, 401, 403, 404)},
    )
    def post(self, request: Request, event: str) -> Response:
        found = _event(request, event)
        data = _valid(s.MasterPointsInput, request.data)
        divisions = {slug: (d["weight"], d["places_paid"]) for slug, d in data["divisions"].items()}
        found = services.set_points_weights(
            found, actor=actor_of(request), weight=data["event_weight"], divisions=divisions
        )
        return Response(s.MasterPointsSerializer(points_report(master_points(found))).data)


# -- clubs ---------------------------------------------------------------------------------------------------------


def _club(request: Request, slug: str) -> Club:
    club = club_reads.visible_club(request.user, slug)
    if club is None:
        raise ApplicationError(ErrorCode.NOT_FOUND, f"there is no club {slug!r}")
    return club


class ClubListCreateApi(generics.ListAPIView):
    permission_classes = (ReadOrActor,)
    serializer_class = s.ClubSerializer
    queryset = Club.objects.none()  # for the schema; get_queryset answers

    def get_queryset(self) -> QuerySet[Club]:
        return club_reads.clubs_visible_to(self.request.user).select_related("rating_list").order_by("name", "id")

    @extend_schema(
        summary="Create a club (with its rating list); you become its first director",
        request=s.ClubInput,
        responses={201: s.ClubSerializer, **_errors(400, 401, 409)},
    )
    def post(self, request: Request) -> Response:
        club = services.create_club(actor=actor_of(request), **_valid(s.ClubInput, request.data))
        return Response(s.ClubSerializer(club).data, status=status.HTTP_201_CREATED)


class ClubDetailApi(APIView):
    permission_classes = (permissions.AllowAny,)

    @extend_schema(
        summary="A club: its events to come and played, the top of its rating list, its recent champions",
        responses={200: s.ClubPageSerializer, **_errors(404)},
    )
    def get(self, request: Request, club: str) -> Response:
        page = club_reads.club_page(_club(request, club), request.user)
        return Response(s.ClubPageSerializer(page).data)


class ClubDirectorAddApi(APIView):
    permission_classes = (IsAuthenticatedOrEntryToken,)

    @extend_schema(
        summary="Make a user a director of the club",
        request=s.DirectorInput,
        responses={204: None, **_errors(400, 401, 403, 404)},
    )
    def post(self, request: Request, club: str) -> Response:
        found = _club(request, club)
        actor = actor_of(request)
        user = _director_to_add(request, lambda: check_directs_club(actor, found))
        services.add_club_director(found, actor=actor, user=user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class ClubRosterApi(APIView):
    permission_classes = (ReadOrActor,)

    @extend_schema(
        summary="A club's roster: its players, each with the number of its events he entered",
        responses={200: s.RosterPlayerSerializer(many=True), **_errors(404)},
    )
    def get(self, request: Request, club: str) -> Response:
        return Response(s.RosterPlayerSerializer(club_reads.roster_of(_club(request, club)), many=True).data)

    @extend_schema(
        summary="Put a player on the roster (an existing one, the roster's player of that name, or a new one; a "
        "name close to the roster's is refused with player_to_choose and its candidates)",
        request=s.RosterInput,
        responses={201: s.RosterPlayerSerializer, **_errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, club: str) -> Response:
        found = _club(request, club)
        data = _valid(s.RosterInput, request.data)
        data["club_text"] = data.pop("club")
        player = services.add_to_roster(found, actor=actor_of(request), **data)
        return Response(s.RosterPlayerSerializer(player).data, status=status.HTTP_201_CREATED)


class ClubSeasonsApi(APIView):
    permission_classes = (ReadOrActor,)

    @extend_schema(summary="A club's seasons, the latest first", responses={200: s.SeasonSerializer(many=True)})
    def get(self, request: Request, club: str) -> Response:
        return Response(s.SeasonSerializer(club_reads.seasons_of(_club(request, club)), many=True).data)

    @extend_schema(
        summary="Add a season: its span, points system (usbgf, backgames or the club's own table), playoff line",
        request=s.SeasonInput,
        responses={201: s.SeasonSerializer, **_errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, club: str) -> Response:
        found = _club(request, club)
        season = services.create_season(found, actor=actor_of(request), **_valid(s.SeasonInput, request.data))
        return Response(s.SeasonSerializer(season).data, status=status.HTTP_201_CREATED)


def _merge_player(request: Request, club: Club, player_id: int) -> Player:
    player = club_reads.merge_candidate(club, request.user, player_id)
    if player is None:
        raise ApplicationError(ErrorCode.NOT_FOUND, f"there is no player #{player_id} on {club.name}'s roster")
    return player


class ClubMergesApi(APIView):
    permission_classes = (IsAuthenticatedOrEntryToken,)

    @extend_schema(
        summary="A club's merges of two records of one person, the latest first (its directors)",
        responses={200: s.MergeSerializer(many=True), **_errors(401, 403, 404)},
    )
    def get(self, request: Request, club: str) -> Response:
        found = _club(request, club)
        check_directs_club(actor_of(request), found)
        return Response(s.MergeSerializer(club_reads.merges_of(found), many=True).data)

    @extend_schema(
        summary="Merge two records of one person: every entry, match, analysis and rating of `fold` follows to "
        "`keep` (refused for one player, a player already merged, a player not on the roster, two players entered "
        "in one division or who played each other)",
        request=s.MergeInput,
        responses={201: s.MergeSerializer, **_errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, club: str) -> Response:
        found = _club(request, club)
        actor = actor_of(request)
        check_directs_club(actor, found)
        data = _valid(s.MergeInput, request.data)
        keep, fold = _merge_player(request, found, data["keep"]), _merge_player(request, found, data["fold"])
        merge = services.merge_players(found, actor=actor, keep=keep, fold=fold)
        return Response(s.MergeSerializer(merge).data, status=status.HTTP_201_CREATED)


class ClubMergeUndoApi(APIView):
    permission_classes = (IsAuthenticatedOrEntryToken,)

    @extend_schema(
        summary="Undo a merge (split the two records again): exactly the rows it moved go back (refused while a "
        "later merge of one of its players stands: undo that one first)",
        request=None,
        responses={200: s.MergeSerializer, **_errors(401, 403, 404, 409)},
    )
    def post(self, request: Request, club: str, merge_id: int) -> Response:
        found = _club(request, club)
        actor = actor_of(request)
        check_directs_club(actor, found)
        merge = club_reads.merge_of(found, merge_id)
        if merge is None:
            raise ApplicationError(ErrorCode.NOT_FOUND, f"{found.name} has no merge #{merge_id}")
        services.undo_merge(merge, actor=actor)
        return Response(s.MergeSerializer(club_reads.merge_of(found, merge_id)).data)


class SeasonTableApi(APIView):
    permission_classes = (ReadOrActor,)

    @extend_schema(
        summary="A season's table: points, events played, matches won, the playoff line (follows corrections)",
        responses={200: s.SeasonTableSerializer, **_errors(404)},
    )
    def get(self, request: Request, club: str, season: str) -> Response:
        return Response(s.SeasonTableSerializer(season_table(_visible_season(request, club, season))).data)

    @extend_schema(
        summary="Change a season's span, points system, table or playoff line (its points are computed again)",
        request=s.SeasonChangeInput,
        responses={200: s.SeasonSerializer, **_errors(400, 401, 403, 404)},
    )
    def patch(self, request: Request, club: str, season: str) -> Response:
        found = _visible_season(request, club, season)
        changed = services.change_season(found, actor=actor_of(request), **_valid(s.SeasonChangeInput, request.data))
        return Response(s.SeasonSerializer(changed).data)


def _visible_season(request: Request, club: str, season: str) -> Season:
    found = club_reads.visible_season(request.user, club, season)
    if found is None:
        raise ApplicationError(ErrorCode.NOT_FOUND, f"there is no season {club}/{season}")
    return found


# -- answering for a result, director decisions on a pairing ---------------------------------------------------------


class PairingConfirmApi(APIView):
    permission_classes = (IsAuthenticatedOrEntryToken,)

    @extend_schema(
        summary="Confirm the result the opponent entered (the player asked, by entry link or account; directors)",
        request=None,
        responses={200: s.PairingSerializer, **_errors(401, 403, 404, 409)},
    )
    def post(self, request: Request, pairing_id: int) -> Response:
        pairing = _pairing(request, pairing_id)
        services.confirm_result(pairing, actor=actor_of(request))
        return _pairing_answer(pairing.pk)


class PairingDisputeApi(APIView):
    permission_classes = (IsAuthenticatedOrEntryToken,)

    @extend_schema(
        summary="Dispute the result the opponent entered (the player asked): a director decides",
        request=s.DisputeInput,
        responses={200: s.PairingSerializer, **_errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, pairing_id: int) -> Response:
        pairing = _pairing(request, pairing_id)
        services.dispute_result(pairing, actor=actor_of(request), **_valid(s.DisputeInput, request.data))
        return _pairing_answer(pairing.pk)


class PairingForfeitApi(APIView):
    permission_classes = (IsAuthenticatedOrEntryToken,)

    @extend_schema(
        summary="Award the match to the opponent of `loser` (no-show, withdrawal, penalty)",
        request=s.PairingForfeitInput,
        responses={200: s.PairingSerializer, **_errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, pairing_id: int) -> Response:
        pairing = _pairing(request, pairing_id)
        data = _valid(s.PairingForfeitInput, request.data)
        loser = _entry_field(pairing.division, "loser", data["loser"])
        services.award_forfeit(pairing, actor=actor_of(request), loser=loser, kind=data["kind"], reason=data["reason"])
        return _pairing_answer(pairing.pk)


# -- the venue's tables ----------------------------------------------------------------------------------------------
#
# The same services as the director's dashboard (tournaments/services/tables.py); every answer is the venue, a
# table or a pairing as the reads here render it. Directors only: the list says which tables are held back.


def _venue_answer(event: Event) -> Response:
    return Response(s.VenueSerializer(venue_of(event)).data)


class EventTablesApi(APIView):
    permission_classes = (IsAuthenticatedOrEntryToken,)

    @extend_schema(
        summary="The venue's tables with the match each holds, and the queue of matches waiting for one (directors)",
        responses={200: s.VenueSerializer, **_errors(401, 403, 404)},
    )
    def get(self, request: Request, event: str) -> Response:
        found = _event(request, event)
        check_directs(actor_of(request), found)
        return _venue_answer(found)

    @extend_schema(
        summary="Give the venue's tables: a count, named tables, or as many as needed",
        description="The matches then waiting take the free tables. Tables that would go must hold no match "
        "(`table_occupied`: move it first); nothing is changed then.",
        request=s.TablesInput,
        responses={200: s.VenueSerializer, **_errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, event: str) -> Response:
        found = _event(request, event)
        services.set_tables(found, actor=actor_of(request), **_valid(s.TablesInput, request.data))
        found.refresh_from_db(fields=["tables_given"])
        return _venue_answer(found)


class _TableHoldApi(APIView):
    permission_classes = (IsAuthenticatedOrEntryToken,)
    held: bool

    def post(self, request: Request, event: str, number: int) -> Response:
        found = _event(request, event)
        services.hold_table(found, number, actor=actor_of(request), held=self.held)
        seat = next(seat for seat in venue_of(found).seats if seat.table.number == number)
        return Response(s.VenueTableSerializer(seat).data)


def _hold_schema(summary: str) -> Any:
    return extend_schema_view(
        post=extend_schema(
            summary=summary,
            request=None,
            responses={
                200: s.VenueTableSerializer,
                **_errors(401, 403),
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
        request=s.TableSeatInput,
        responses={
            200: s.PairingSerializer,
            **_errors(400, 401, 403),
            404: OpenApiResponse(ErrorDoc, description="no such pairing (`not_found`) or table (`unknown_table`)"),
            409: OpenApiResponse(
                ErrorDoc,
                description="the table holds another match (`table_occupied`), or the match is not ready or being "
                "played (`match_not_ready`: a bye, a slot waiting for its players, a match over)",
            ),
        },
    )
    def post(self, request: Request, pairing_id: int) -> Response:
        pairing = _pairing(request, pairing_id)
        data = _valid(s.TableSeatInput, request.data)
        services.seat_match(pairing, data["table"], actor=actor_of(request))
        return _pairing_answer(pairing.pk)


# -- rating lists ----------------------------------------------------------------------------------------------------


def _rating_list(slug: str) -> RatingList:
    found = RatingList.objects.filter(slug=slug).first()
    if found is None:
        raise ApplicationError(ErrorCode.NOT_FOUND, f"there is no rating list {slug!r}")
    return found


def _player(request: Request, player_id: int, *, rated: bool = False) -> Player:
    """The player, if the caller may see him: one entered only in private events is a 404 to others, unless asked
    for on a rating list (a list shows everyone rated on it, and hides the private matches)."""
    players = Player.objects.all() if rated else players_visible_to(request.user)
    player = players.filter(pk=player_id).first()
    if player is None:
        raise ApplicationError(ErrorCode.NOT_FOUND, f"there is no player {player_id}")
    return player


class RatingListDetailApi(APIView):
    permission_classes = (permissions.AllowAny,)

    @extend_schema(summary="A rating list with its ratings, best first", responses={200: s.RatingListSerializer})
    def get(self, request: Request, slug: str) -> Response:
        rating_list = _rating_list(slug)
        rows, ranks = reads.rating_table(rating_list)
        return Response(s.RatingListSerializer(rating_list, context={"ratings": rows, "ranks": ranks}).data)


class RatingHistoryApi(APIView):
    permission_classes = (permissions.AllowAny,)

    @extend_schema(
        summary="A player's rating changes on the list, in match order",
        responses={200: s.RatingChangeSerializer(many=True), **_errors(404)},
    )
    def get(self, request: Request, slug: str, player_id: int) -> Response:
        rating_list, player = _rating_list(slug), _player(request, player_id, rated=True)
        changes, visible = reads.rating_history(rating_list, player, request.user)
        return Response(s.RatingChangeSerializer(changes, many=True, context={"visible": visible}).data)


# -- your next match -------------------------------------------------------------------------------------------------


class PlayerNextMatchApi(APIView):
    permission_classes = (permissions.AllowAny,)

    @extend_schema(
        summary="A player's next match to play (null fields when there is none)",
        responses={200: s.NextMatchDoc, **_errors(404)},
    )
    def get(self, request: Request, player_id: int) -> Response:
        player = _player(request, player_id)
        pairing = selectors.next_pairing_for(player)
        if pairing is not None and not _may_see(request, pairing, player):
            pairing = None
        return Response(s.next_match(player, pairing))


def _may_see(request: Request, pairing: Pairing, player: Player) -> bool:
    """A pairing in an event the caller may see, or the caller's own."""
    user = request.user
    if user.is_authenticated and player.user_id == user.pk:
        return True
    event = pairing.division.event
    return event.public or reads.can_see_event(user, event.pk)


class EntryLinkNextMatchApi(APIView):
    """ "Your next match" for the holder of an entry link: the next match of the link's player."""

    permission_classes = (HasEntryToken,)

    @extend_schema(
        summary="The next match of the entry link's player (send X-Entry-Token)",
        responses={200: s.NextMatchDoc, **_errors(401, 403)},
    )
    def get(self, request: Request) -> Response:
        token = entry_token(request)
        assert token is not None  # HasEntryToken
        player = reads.token_player(token)
        return Response(s.next_match(player, selectors.next_pairing_for(player)))


class PairingPenaltyApi(APIView):
    permission_classes = (IsAuthenticatedOrEntryToken,)

    @extend_schema(
        summary="Penalty points against a player (between games); past half the match length, a forfeit",
        request=s.PairingPenaltyInput,
        responses={200: s.PairingSerializer, **_errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, pairing_id: int) -> Response:
        pairing = _pairing(request, pairing_id)
        data = _valid(s.PairingPenaltyInput, request.data)
        against = _entry_field(pairing.division, "against", data["against"])
        services.give_penalty(
            pairing, actor=actor_of(request), against=against, points=data["points"], reason=data["reason"]
        )
        return _pairing_answer(pairing.pk)


# -- PR tables ---------------------------------------------------------------------------------------------------------


def _pr_answer(rows: list[PrRow]) -> Response:
    minimum = settings.ANALYSIS_MIN_DECISIONS
    return Response({"min_decisions": minimum, "rows": s.PrRowSerializer(rows, many=True).data})


class EventPrTableApi(APIView):
    permission_classes = (permissions.AllowAny,)

    @extend_schema(
        summary="The event's PR table (GNU Backgammon's analysis), best first",
        responses={200: s.PrTableDoc, **_errors(404)},
    )
    def get(self, request: Request, event: str) -> Response:
        found = _event(request, event)
        return _pr_answer(pr_table(event=found, min_decisions=settings.ANALYSIS_MIN_DECISIONS))


class DivisionPrTableApi(APIView):
    permission_classes = (permissions.AllowAny,)

    @extend_schema(
        summary="The division's PR table (GNU Backgammon's analysis), best first",
        responses={200: s.PrTableDoc, **_errors(404)},
    )
    def get(self, request: Request, event: str, division: str) -> Response:
        found = _division(request, event, division)
        return _pr_answer(pr_table(division=found, min_decisions=settings.ANALYSIS_MIN_DECISIONS))
