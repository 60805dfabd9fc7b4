"""Routes of the games API, included by config/urls.py under ``/api/``."""

from django.urls import path

import common.converters  # noqa: F401  (registers <id:...>)
from games.api import views

app_name = "games_api"

urlpatterns = [
    path("players/", views.PlayerListCreateApi.as_view(), name="player-list"),
    path("players/<id:pk>/", views.PlayerDetailApi.as_view(), name="player-detail"),
    path("matches/", views.MatchListCreateApi.as_view(), name="match-list"),
    path("matches/import/", views.MatchImportApi.as_view(), name="match-import"),
    path("matches/<id:match_id>/", views.MatchDetailApi.as_view(), name="match-detail"),
    path("matches/<id:match_id>/games/", views.MatchGameListApi.as_view(), name="match-games"),
    path("matches/<id:match_id>/log/", views.MatchLogApi.as_view(), name="match-log"),
    path("matches/<id:match_id>/analysis/", views.MatchAnalysisApi.as_view(), name="match-analysis"),
    path("players/<id:pk>/analysis/", views.PlayerAnalysisListApi.as_view(), name="player-analysis"),
    path("matches/<id:match_id>/cube-history/", views.MatchCubeHistoryApi.as_view(), name="match-cube-history"),
    path("matches/<id:match_id>/actions/", views.MatchActionRecordApi.as_view(), name="match-actions"),
    path("matches/<id:match_id>/undo/", views.MatchUndoApi.as_view(), name="match-undo"),
    path("matches/<id:match_id>/reopen/", views.MatchReopenApi.as_view(), name="match-reopen"),
    path("matches/<id:match_id>/forfeit/", views.MatchForfeitApi.as_view(), name="match-forfeit"),
    path("matches/<id:match_id>/void/", views.MatchVoidApi.as_view(), name="match-void"),
    path("matches/<id:match_id>/finish/", views.MatchFinishApi.as_view(), name="match-finish"),
    path("matches/<id:match_id>/replace-result/", views.MatchResultReplaceApi.as_view(), name="match-replace-result"),
    path("matches/<id:match_id>/entry-links/", views.EntryLinkListCreateApi.as_view(), name="entry-links"),
    path(
        "matches/<id:match_id>/entry-links/<id:token_id>/revoke/",
        views.EntryLinkRevokeApi.as_view(),
        name="entry-link-revoke",
    ),
    path("matches/<id:match_id>/export.mat", views.MatchExportApi.as_view(), name="match-export"),
    path("matches/<id:match_id>/export.sgf", views.MatchSgfExportApi.as_view(), name="match-export-sgf"),
]
