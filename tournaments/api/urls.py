"""Routes of the tournaments API, included by config/urls.py under ``/api/`` (after the games API)."""

from django.urls import path

import common.converters  # noqa: F401  (registers <id:...>)
from tournaments.api import views

app_name = "tournaments_api"

_DIVISION = "events/<slug:event>/divisions/<slug:division>/"
_ENTRY = _DIVISION + "entries/<id:entry_id>/"

urlpatterns = [
    path("events/", views.EventListCreateApi.as_view(), name="event-list"),
    path("events/<slug:event>/", views.EventDetailApi.as_view(), name="event-detail"),
    path("events/<slug:event>/directors/", views.EventDirectorAddApi.as_view(), name="event-directors"),
    path("events/<slug:event>/queue/", views.EventQueueApi.as_view(), name="event-queue"),
    path("events/<slug:event>/tables/", views.EventTablesApi.as_view(), name="event-tables"),
    path("events/<slug:event>/tables/<id:number>/hold/", views.TableHoldApi.as_view(), name="event-table-hold"),
    path(
        "events/<slug:event>/tables/<id:number>/release/", views.TableReleaseApi.as_view(), name="event-table-release"
    ),
    path("events/<slug:event>/divisions/", views.DivisionCreateApi.as_view(), name="division-create"),
    path(_DIVISION, views.DivisionDetailApi.as_view(), name="division-detail"),
    path(_DIVISION + "entries/", views.EntryListCreateApi.as_view(), name="entry-list"),
    path(_DIVISION + "entries/import/", views.EntryImportApi.as_view(), name="entry-import"),
    path(_ENTRY + "check-in/", views.EntryCheckInApi.as_view(), name="entry-check-in"),
    path(_ENTRY + "seed/", views.EntrySeedApi.as_view(), name="entry-seed"),
    path(_ENTRY + "withdraw/", views.EntryWithdrawApi.as_view(), name="entry-withdraw"),
    path(_ENTRY + "payment/", views.EntryPaymentApi.as_view(), name="entry-payment"),
    path(_DIVISION + "money/", views.DivisionMoneyApi.as_view(), name="division-money"),
    path(_DIVISION + "rounds/", views.RoundListApi.as_view(), name="round-list"),
    path(_DIVISION + "pairings/", views.PairingListApi.as_view(), name="pairing-list"),
    path(_DIVISION + "standings/", views.StandingListApi.as_view(), name="standings"),
    path(_DIVISION + "payouts/", views.PayoutsApi.as_view(), name="division-payouts"),
    path(_DIVISION + "playoffs/", views.PlayoffListApi.as_view(), name="division-playoffs"),
    path(_DIVISION + "playoffs/<id:playoff_id>/", views.PlayoffDetailApi.as_view(), name="division-playoff"),
    path(_DIVISION + "pr/", views.DivisionPrTableApi.as_view(), name="division-pr"),
    path("events/<slug:event>/master-points/", views.EventMasterPointsApi.as_view(), name="event-master-points"),
    path("events/<slug:event>/pr/", views.EventPrTableApi.as_view(), name="event-pr"),
    path(_DIVISION + "start/", views.DivisionStartApi.as_view(), name="division-start"),
    path(_DIVISION + "pair-next-round/", views.DivisionRoundPairApi.as_view(), name="division-pair-next-round"),
    path(_DIVISION + "swiss/rounds/", views.SwissRoundsApi.as_view(), name="swiss-rounds"),
    path(_DIVISION + "swiss/end/", views.SwissEndApi.as_view(), name="swiss-end"),
    path(_DIVISION + "swiss/unpair/", views.SwissUnpairApi.as_view(), name="swiss-unpair"),
    path(_DIVISION + "swiss/repair/", views.SwissRepairApi.as_view(), name="swiss-repair"),
    path(_DIVISION + "close-last-chance/", views.DivisionLastChanceCloseApi.as_view(), name="division-close-lc"),
    path(_DIVISION + "swap/", views.DivisionSwapApi.as_view(), name="division-swap"),
    path(_DIVISION + "recompute/", views.DivisionRecomputeApi.as_view(), name="division-recompute"),
    path("pairings/<id:pairing_id>/confirm/", views.PairingConfirmApi.as_view(), name="pairing-confirm"),
    path("pairings/<id:pairing_id>/dispute/", views.PairingDisputeApi.as_view(), name="pairing-dispute"),
    path("pairings/<id:pairing_id>/forfeit/", views.PairingForfeitApi.as_view(), name="pairing-forfeit"),
    path("pairings/<id:pairing_id>/penalty/", views.PairingPenaltyApi.as_view(), name="pairing-penalty"),
    path("pairings/<id:pairing_id>/table/", views.PairingTableApi.as_view(), name="pairing-table"),
    path("clubs/", views.ClubListCreateApi.as_view(), name="club-list"),
    path("clubs/<slug:club>/", views.ClubDetailApi.as_view(), name="club-detail"),
    path("clubs/<slug:club>/directors/", views.ClubDirectorAddApi.as_view(), name="club-directors"),
    path("clubs/<slug:club>/players/", views.ClubRosterApi.as_view(), name="club-roster"),
    path("clubs/<slug:club>/merges/", views.ClubMergesApi.as_view(), name="club-merges"),
    path("clubs/<slug:club>/merges/<id:merge_id>/undo/", views.ClubMergeUndoApi.as_view(), name="club-merge-undo"),
    path("clubs/<slug:club>/seasons/", views.ClubSeasonsApi.as_view(), name="club-seasons"),
    path("clubs/<slug:club>/seasons/<slug:season>/", views.SeasonTableApi.as_view(), name="season-table"),
    path("rating-lists/<slug:slug>/", views.RatingListDetailApi.as_view(), name="rating-list-detail"),
    path(
        "rating-lists/<slug:slug>/players/<id:player_id>/history/",
        views.RatingHistoryApi.as_view(),
        name="rating-history",
    ),
    path("players/<id:player_id>/next-match/", views.PlayerNextMatchApi.as_view(), name="player-next-match"),
    path("entry-links/next-match/", views.EntryLinkNextMatchApi.as_view(), name="entry-link-next-match"),
]
