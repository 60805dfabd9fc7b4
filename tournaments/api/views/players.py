"""Rating lists, a player's rating history, and a player's (or an entry link's) next match."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import permissions
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from common.api.auth import entry_token
from common.errors import ApplicationError, ErrorCode
from games.models import Player
from games.selectors import players_visible_to
from tournaments import selectors
from tournaments.api.serializers.players import NextMatchDoc, RatingChangeSerializer, RatingListSerializer, next_match
from tournaments.api.views.common import HasEntryToken, errors
from tournaments.entry_views import next_words
from tournaments.models import Division, RatingList
from tournaments.selectors import NextFor
from tournaments.selectors import api as reads


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

    @extend_schema(summary="A rating list with its ratings, best first", responses={200: RatingListSerializer})
    def get(self, request: Request, slug: str) -> Response:
        rating_list = _rating_list(slug)
        rows, ranks = reads.rating_table(rating_list)
        return Response(RatingListSerializer(rating_list, context={"ratings": rows, "ranks": ranks}).data)


class RatingHistoryApi(APIView):
    permission_classes = (permissions.AllowAny,)

    @extend_schema(
        summary="A player's rating changes on the list, in match order",
        responses={200: RatingChangeSerializer(many=True), **errors(404)},
    )
    def get(self, request: Request, slug: str, player_id: int) -> Response:
        rating_list, player = _rating_list(slug), _player(request, player_id, rated=True)
        changes, visible = reads.rating_history(rating_list, player, request.user)
        return Response(RatingChangeSerializer(changes, many=True, context={"visible": visible}).data)


class PlayerNextMatchApi(APIView):
    permission_classes = (permissions.AllowAny,)

    @extend_schema(
        summary="A player's next match to play, or his playoff match (null fields when there is none)",
        responses={200: NextMatchDoc, **errors(404)},
    )
    def get(self, request: Request, player_id: int) -> Response:
        player = _player(request, player_id)
        found = selectors.next_for(player)
        if found.division is not None and not _may_see(request, found.division, player):
            found = NextFor()
        return Response(next_match(player, found, next_words(player, found)))


def _may_see(request: Request, division: Division, player: Player) -> bool:
    """A division in an event the caller may see, or the caller's own."""
    user = request.user
    if user.is_authenticated and player.user_id == user.pk:
        return True
    event = division.event
    return event.public or reads.can_see_event(user, event.pk)


class EntryLinkNextMatchApi(APIView):
    """ "Your next match" for the holder of an entry link: the next match of the link's player."""

    permission_classes = (HasEntryToken,)

    @extend_schema(
        summary="The next match (or playoff match) of the entry link's player (send X-Entry-Token)",
        responses={200: NextMatchDoc, **errors(401, 403)},
    )
    def get(self, request: Request) -> Response:
        token = entry_token(request)
        assert token is not None  # HasEntryToken
        player = reads.token_player(token)
        found = selectors.next_for(player)
        return Response(next_match(player, found, next_words(player, found)))
