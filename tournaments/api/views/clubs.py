"""Clubs: their directors, rosters, seasons and players' merges."""

from __future__ import annotations

from django.db.models import QuerySet
from drf_spectacular.utils import extend_schema
from rest_framework import generics, permissions, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from common.api.auth import IsAuthenticatedOrEntryToken, actor_of
from common.errors import ApplicationError, ErrorCode
from games.models import Player
from tournaments import services
from tournaments.access import check_directs_club
from tournaments.api.serializers.clubs import (
    ClubInput,
    ClubPageSerializer,
    ClubSerializer,
    MergeInput,
    MergeSerializer,
    RosterInput,
    RosterPlayerSerializer,
    SeasonChangeInput,
    SeasonInput,
    SeasonSerializer,
    SeasonTableSerializer,
)
from tournaments.api.serializers.events import DirectorInput
from tournaments.api.views.common import ReadOrActor, director_to_add, errors, valid
from tournaments.models import Club, Season
from tournaments.selectors import clubs as club_reads
from tournaments.selectors.seasons import season_table


def _club(request: Request, slug: str) -> Club:
    club = club_reads.visible_club(request.user, slug)
    if club is None:
        raise ApplicationError(ErrorCode.NOT_FOUND, f"there is no club {slug!r}")
    return club


class ClubListCreateApi(generics.ListAPIView):
    permission_classes = (ReadOrActor,)
    serializer_class = ClubSerializer
    queryset = Club.objects.none()  # for the schema; get_queryset answers

    def get_queryset(self) -> QuerySet[Club]:
        return club_reads.clubs_visible_to(self.request.user).select_related("rating_list").order_by("name", "id")

    @extend_schema(
        summary="Create a club (with its rating list); you become its first director",
        request=ClubInput,
        responses={201: ClubSerializer, **errors(400, 401, 409)},
    )
    def post(self, request: Request) -> Response:
        club = services.create_club(actor=actor_of(request), **valid(ClubInput, request.data))
        return Response(ClubSerializer(club).data, status=status.HTTP_201_CREATED)


class ClubDetailApi(APIView):
    permission_classes = (permissions.AllowAny,)

    @extend_schema(
        summary="A club: its events to come and played, the top of its rating list, its recent champions",
        responses={200: ClubPageSerializer, **errors(404)},
    )
    def get(self, request: Request, club: str) -> Response:
        page = club_reads.club_page(_club(request, club), request.user)
        return Response(ClubPageSerializer(page).data)


class ClubDirectorAddApi(APIView):
    permission_classes = (IsAuthenticatedOrEntryToken,)

    @extend_schema(
        summary="Make a user a director of the club",
        request=DirectorInput,
        responses={204: None, **errors(400, 401, 403, 404)},
    )
    def post(self, request: Request, club: str) -> Response:
        found = _club(request, club)
        actor = actor_of(request)
        user = director_to_add(request, lambda: check_directs_club(actor, found))
        services.add_club_director(found, actor=actor, user=user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class ClubRosterApi(APIView):
    permission_classes = (ReadOrActor,)

    @extend_schema(
        summary="A club's roster: its players, each with the number of its events he entered",
        responses={200: RosterPlayerSerializer(many=True), **errors(404)},
    )
    def get(self, request: Request, club: str) -> Response:
        return Response(RosterPlayerSerializer(club_reads.roster_of(_club(request, club)), many=True).data)

    @extend_schema(
        summary="Put a player on the roster (an existing one, the roster's player of that name, or a new one; a "
        "name close to the roster's is refused with player_to_choose and its candidates)",
        request=RosterInput,
        responses={201: RosterPlayerSerializer, **errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, club: str) -> Response:
        found = _club(request, club)
        data = valid(RosterInput, request.data)
        data["club_text"] = data.pop("club")
        player = services.add_to_roster(found, actor=actor_of(request), **data)
        return Response(RosterPlayerSerializer(player).data, status=status.HTTP_201_CREATED)


class ClubSeasonsApi(APIView):
    permission_classes = (ReadOrActor,)

    @extend_schema(summary="A club's seasons, the latest first", responses={200: SeasonSerializer(many=True)})
    def get(self, request: Request, club: str) -> Response:
        return Response(SeasonSerializer(club_reads.seasons_of(_club(request, club)), many=True).data)

    @extend_schema(
        summary="Add a season: its span, points system (usbgf, backgames or the club's own table), playoff line",
        request=SeasonInput,
        responses={201: SeasonSerializer, **errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, club: str) -> Response:
        found = _club(request, club)
        season = services.create_season(found, actor=actor_of(request), **valid(SeasonInput, request.data))
        return Response(SeasonSerializer(season).data, status=status.HTTP_201_CREATED)


def _merge_player(request: Request, club: Club, player_id: int) -> Player:
    player = club_reads.merge_candidate(club, request.user, player_id)
    if player is None:
        raise ApplicationError(ErrorCode.NOT_FOUND, f"there is no player #{player_id} on {club.name}'s roster")
    return player


class ClubMergesApi(APIView):
    permission_classes = (IsAuthenticatedOrEntryToken,)

    @extend_schema(
        summary="A club's merges of two records of one person, the latest first (its directors)",
        responses={200: MergeSerializer(many=True), **errors(401, 403, 404)},
    )
    def get(self, request: Request, club: str) -> Response:
        found = _club(request, club)
        check_directs_club(actor_of(request), found)
        return Response(MergeSerializer(club_reads.merges_of(found), many=True).data)

    @extend_schema(
        summary="Merge two records of one person: every entry, match, analysis and rating of `fold` follows to "
        "`keep` (refused for one player, a player already merged, a player not on the roster, two players entered "
        "in one division or who played each other)",
        request=MergeInput,
        responses={201: MergeSerializer, **errors(400, 401, 403, 404, 409)},
    )
    def post(self, request: Request, club: str) -> Response:
        found = _club(request, club)
        actor = actor_of(request)
        check_directs_club(actor, found)
        data = valid(MergeInput, request.data)
        keep, fold = _merge_player(request, found, data["keep"]), _merge_player(request, found, data["fold"])
        merge = services.merge_players(found, actor=actor, keep=keep, fold=fold)
        return Response(MergeSerializer(merge).data, status=status.HTTP_201_CREATED)


class ClubMergeUndoApi(APIView):
    permission_classes = (IsAuthenticatedOrEntryToken,)

    @extend_schema(
        summary="Undo a merge (split the two records again): exactly the rows it moved go back (refused while a "
        "later merge of one of its players stands: undo that one first)",
        request=None,
        responses={200: MergeSerializer, **errors(401, 403, 404, 409)},
    )
    def post(self, request: Request, club: str, merge_id: int) -> Response:
        found = _club(request, club)
        actor = actor_of(request)
        check_directs_club(actor, found)
        merge = club_reads.merge_of(found, merge_id)
        if merge is None:
            raise ApplicationError(ErrorCode.NOT_FOUND, f"{found.name} has no merge #{merge_id}")
        services.undo_merge(merge, actor=actor)
        return Response(MergeSerializer(club_reads.merge_of(found, merge_id)).data)


class SeasonTableApi(APIView):
    permission_classes = (ReadOrActor,)

    @extend_schema(
        summary="A season's table: points, events played, matches won, the playoff line (follows corrections)",
        responses={200: SeasonTableSerializer, **errors(404)},
    )
    def get(self, request: Request, club: str, season: str) -> Response:
        return Response(SeasonTableSerializer(season_table(_visible_season(request, club, season))).data)

    @extend_schema(
        summary="Change a season's span, points system, table or playoff line (its points are computed again)",
        request=SeasonChangeInput,
        responses={200: SeasonSerializer, **errors(400, 401, 403, 404)},
    )
    def patch(self, request: Request, club: str, season: str) -> Response:
        found = _visible_season(request, club, season)
        changed = services.change_season(found, actor=actor_of(request), **valid(SeasonChangeInput, request.data))
        return Response(SeasonSerializer(changed).data)


def _visible_season(request: Request, club: str, season: str) -> Season:
    found = club_reads.visible_season(request.user, club, season)
    if found is None:
        raise ApplicationError(ErrorCode.NOT_FOUND, f"there is no season {club}/{season}")
    return found
