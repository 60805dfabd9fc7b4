"""Routes of the players' entry pages (per-side entry links), under /play/. The token route comes last: any other
single segment is read as a token (and refused when it is not one)."""

from django.urls import path

import common.converters  # noqa: F401  (registers <id:...>)
from games import entry

app_name = "entry"

urlpatterns = [
    path("match/<id:match_id>/", entry.entry_page, name="match"),
    path("match/<id:match_id>/live/", entry.entry_live, name="live"),
    path("refused/", entry.refused, name="refused"),
    path("<str:token>/", entry.exchange, name="exchange"),
]
