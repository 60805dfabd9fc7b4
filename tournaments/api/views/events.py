"""Events: the list, one event, its directors, and the results waiting for a director."""

from __future__ import annotations

from django.db.models import QuerySet
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import generics, permissions, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from common.api.auth import IsAuthenticatedOrEntryToken, actor_of
from tournaments import selectors, services
from tournaments.access import check_directs
from tournaments.api.serializers.events import (
    DirectorInput,
    DirectorsDoc,
    EventDetailSerializer,
    EventInput,
    EventSerializer,
)
from tournaments.api.serializers.rounds import QueueItemSerializer
from tournaments.api.views.common import ReadOrActor, director_to_add, errors, event_of, valid
from tournaments.models import Event
from tournaments.selectors import api as reads


@extend_schema_view(
    get=extend_schema(summary="List the events you may see (newest first)", responses={200: EventSerializer}),
    post=extend_schema(
        summary="Create an event (you become its first director)",
        request=EventInput,
        responses={201: EventDetailSerializer, **errors(400, 401, 409)},
    ),
)
class EventListCreateApi(generics.ListAPIView):
    permission_classes = (ReadOrActor,)
    serializer_class = EventSerializer
    queryset = Event.objects.none()  # for the schema; get_queryset answers

    def get_queryset(self) -> QuerySet[Event]:
        return reads.events_of(self.request.user).select_related("rating_list", "club")

    def post(self, request: Request) -> Response:
        event = services.create_event(actor=actor_of(request), **valid(EventInput, request.data))
        body = EventDetailSerializer(event, context={"divisions": []}).data
        return Response(body, status=status.HTTP_201_CREATED)


class EventDetailApi(APIView):
    permission_classes = (permissions.AllowAny,)

    @extend_schema(summary="An event with its divisions", responses={200: EventDetailSerializer, **errors(404)})
    def get(self, request: Request, event: str) -> Response:
        found = event_of(request, event)
        divisions = reads.division_summaries(found)
        found.playoff_to_play = any(d.playoff_to_play for d in divisions)  # type: ignore[attr-defined]
        return Response(EventDetailSerializer(found, context={"divisions": divisions}).data)


class EventDirectorAddApi(APIView):
    permission_classes = (IsAuthenticatedOrEntryToken,)

    @extend_schema(
        summary="Make a user a director of the event",
        request=DirectorInput,
        responses={200: DirectorsDoc, **errors(400, 401, 403, 404)},
    )
    def post(self, request: Request, event: str) -> Response:
        found = event_of(request, event)
        actor = actor_of(request)
        user = director_to_add(request, lambda: check_directs(actor, found))
        services.add_director(found, actor=actor, user=user)
        return Response({"event": found.slug, "directors": reads.event_directors(found)})


class EventQueueApi(APIView):
    """The directors' queue: results awaiting the opponent's confirmation, and disputed ones."""

    permission_classes = (IsAuthenticatedOrEntryToken,)

    @extend_schema(
        summary="Results awaiting confirmation and disputes (directors)",
        responses={200: QueueItemSerializer(many=True), **errors(401, 403, 404)},
    )
    def get(self, request: Request, event: str) -> Response:
        found = event_of(request, event)
        check_directs(actor_of(request), found)
        return Response(QueueItemSerializer(selectors.director_queue(found), many=True).data)
