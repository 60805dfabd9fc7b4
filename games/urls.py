"""Routes of the games app's pages (the API's are in games/api/urls.py), included by config/urls.py at the root."""

from django.urls import path

import common.converters  # noqa: F401  (registers <id:...>)
from games import views

app_name = "games"

urlpatterns = [
    path("matches/<id:match_id>/", views.match_page, name="match"),
    path("players/<id:player_id>/", views.player_page, name="player"),
    path("matches/<id:match_id>/board/", views.match_board, name="match-board"),
    path("matches/<id:match_id>/live/", views.match_live, name="match-live"),
    path("matches/<id:match_id>/match.mat", views.match_mat_download, name="match-mat"),
    path("matches/<id:match_id>/match.sgf", views.match_sgf_download, name="match-sgf"),
]
