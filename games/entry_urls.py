"""Routes of the players' entry pages (per-side entry links), under /play/. The token route comes last: any other
single segment is read as a token (and refused when it is not one)."""

from django.urls import path

from games import entry

app_name = "entry"

urlpatterns = [
    path("match/<int:match_id>/", entry.entry_page, name="match"),
    path("match/<int:match_id>/live/", entry.entry_live, name="live"),
    path("<str:token>/", entry.exchange, name="exchange"),
]
