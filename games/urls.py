"""Routes of the games app's pages (the API's are in games/api/urls.py), included by config/urls.py at the root."""

from django.urls import path

from games import views

app_name = "games"

urlpatterns = [
    path("matches/<int:match_id>/", views.match_page, name="match"),
    path("matches/<int:match_id>/board/", views.match_board, name="match-board"),
    path("matches/<int:match_id>/live/", views.match_live, name="match-live"),
    path("matches/<int:match_id>/match.mat", views.match_mat_download, name="match-mat"),
]
