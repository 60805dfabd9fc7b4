"""Routes of the tournaments API, included by config/urls.py under ``/api/`` (after the games API)."""

from django.urls import path

import common.converters  # noqa: F401  (registers <id:...>)
from tournaments.api.views import awards, clubs, divisions, entries, events, players, rounds, venue

app_name = "tournaments_api"

_DIVISION = "events/<slug:event>/divisions/<slug:division>/"
_ENTRY = _DIVISION + "entries/<id:entry_id>/"

urlpatterns = [
    path("events/", events.EventListCreateApi.as_view(), name="event-list"),
    path("events/<slug:event>/", events.EventDetailApi.as_view(), name="event-detail"),
    path("events/<slug:event>/directors/", events.EventDirectorAddApi.as_view(), name="event-directors"),
    path("events/<slug:event>/queue/", events.EventQueueApi.as_view(), name="event-queue"),
    path("events/<slug:event>/tables/", venue.EventTablesApi.as_view(), name="event-tables"),
    path("events/<slug:event>/tables/<id:number>/hold/", venue.TableHoldApi.as_view(), name="event-table-hold"),
    path(
        "events/<slug:event>/tables/<id:number>/release/", venue.TableReleaseApi.as_view(), name="event-table-release"
    ),
    path("events/<slug:event>/divisions/", divisions.DivisionCreateApi.as_view(), name="division-create"),
    path(_DIVISION, divisions.DivisionDetailApi.as_view(), name="division-detail"),
    path(_DIVISION + "entries/", entries.EntryListCreateApi.as_view(), name="entry-list"),
    path(_DIVISION + "entries/import/", entries.EntryImportApi.as_view(), name="entry-import"),
    path(_ENTRY + "check-in/", entries.EntryCheckInApi.as_view(), name="entry-check-in"),
    path(_ENTRY + "seed/", entries.EntrySeedApi.as_view(), name="entry-seed"),
    path(_ENTRY + "player/", entries.EntryPlayerApi.as_view(), name="entry-player"),
    path(_ENTRY + "withdraw/", entries.EntryWithdrawApi.as_view(), name="entry-withdraw"),
    path(_ENTRY + "payment/", entries.EntryPaymentApi.as_view(), name="entry-payment"),
    path(_DIVISION + "money/", entries.DivisionMoneyApi.as_view(), name="division-money"),
    path(_DIVISION + "rounds/", rounds.RoundListApi.as_view(), name="round-list"),
    path(_DIVISION + "pairings/", rounds.PairingListApi.as_view(), name="pairing-list"),
    path(_DIVISION + "standings/", rounds.StandingListApi.as_view(), name="standings"),
    path(_DIVISION + "payouts/", awards.PayoutsApi.as_view(), name="division-payouts"),
    path(_DIVISION + "playoffs/", awards.PlayoffListApi.as_view(), name="division-playoffs"),
    path(_DIVISION + "playoffs/<id:playoff_id>/", awards.PlayoffDetailApi.as_view(), name="division-playoff"),
    path(
        _DIVISION + "playoffs/<id:playoff_id>/matches/<id:match_id>/confirm/",
        awards.PlayoffConfirmApi.as_view(),
        name="division-playoff-confirm",
    ),
    path(_DIVISION + "pr/", awards.DivisionPrTableApi.as_view(), name="division-pr"),
    path("events/<slug:event>/master-points/", awards.EventMasterPointsApi.as_view(), name="event-master-points"),
    path("events/<slug:event>/pr/", awards.EventPrTableApi.as_view(), name="event-pr"),
    path(_DIVISION + "start/", divisions.DivisionStartApi.as_view(), name="division-start"),
    path(_DIVISION + "pair-next-round/", divisions.DivisionRoundPairApi.as_view(), name="division-pair-next-round"),
    path(_DIVISION + "swiss/rounds/", divisions.SwissRoundsApi.as_view(), name="swiss-rounds"),
    path(_DIVISION + "swiss/end/", divisions.SwissEndApi.as_view(), name="swiss-end"),
    path(_DIVISION + "swiss/unpair/", divisions.SwissUnpairApi.as_view(), name="swiss-unpair"),
    path(_DIVISION + "swiss/repair/", divisions.SwissRepairApi.as_view(), name="swiss-repair"),
    path(_DIVISION + "close-last-chance/", divisions.DivisionLastChanceCloseApi.as_view(), name="division-close-lc"),
    path(_DIVISION + "swap/", divisions.DivisionSwapApi.as_view(), name="division-swap"),
    path(_DIVISION + "recompute/", divisions.DivisionRecomputeApi.as_view(), name="division-recompute"),
    path("pairings/<id:pairing_id>/confirm/", rounds.PairingConfirmApi.as_view(), name="pairing-confirm"),
    path("pairings/<id:pairing_id>/dispute/", rounds.PairingDisputeApi.as_view(), name="pairing-dispute"),
    path("pairings/<id:pairing_id>/forfeit/", rounds.PairingForfeitApi.as_view(), name="pairing-forfeit"),
    path("pairings/<id:pairing_id>/penalty/", rounds.PairingPenaltyApi.as_view(), name="pairing-penalty"),
    path("pairings/<id:pairing_id>/table/", venue.PairingTableApi.as_view(), name="pairing-table"),
    path("clubs/", clubs.ClubListCreateApi.as_view(), name="club-list"),
    path("clubs/<slug:club>/", clubs.ClubDetailApi.as_view(), name="club-detail"),
    path("clubs/<slug:club>/directors/", clubs.ClubDirectorAddApi.as_view(), name="club-directors"),
    path("clubs/<slug:club>/players/", clubs.ClubRosterApi.as_view(), name="club-roster"),
    path("clubs/<slug:club>/merges/", clubs.ClubMergesApi.as_view(), name="club-merges"),
    path("clubs/<slug:club>/merges/<id:merge_id>/undo/", clubs.ClubMergeUndoApi.as_view(), name="club-merge-undo"),
    path("clubs/<slug:club>/seasons/", clubs.ClubSeasonsApi.as_view(), name="club-seasons"),
    path("clubs/<slug:club>/seasons/<slug:season>/", clubs.SeasonTableApi.as_view(), name="season-table"),
    path("rating-lists/<slug:slug>/", players.RatingListDetailApi.as_view(), name="rating-list-detail"),
    path(
        "rating-lists/<slug:slug>/players/<id:player_id>/history/",
        players.RatingHistoryApi.as_view(),
        name="rating-history",
    ),
    path("players/<id:player_id>/next-match/", players.PlayerNextMatchApi.as_view(), name="player-next-match"),
    path("entry-links/next-match/", players.EntryLinkNextMatchApi.as_view(), name="entry-link-next-match"),
]
