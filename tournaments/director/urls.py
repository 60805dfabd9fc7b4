"""Routes of the directors' pages, under /manage/ (tournaments/director/views.py)."""

from django.urls import path

import common.converters  # noqa: F401  (registers <id:...>)
from tournaments.director import views

app_name = "director"

_ROUND = "<slug:event>/<slug:division>/round/<slug:bracket>/<id:number>/"

urlpatterns = [
    path("", views.home, name="home"),
    path("<slug:event>/", views.event_page, name="event"),
    path("<slug:event>/live/venue/", views.event_venue_live, name="event-venue-live"),
    path("<slug:event>/cash/", views.cash_sheet, name="cash-sheet"),
    path("<slug:event>/<slug:division>/", views.division_page, name="division"),
    path("<slug:event>/<slug:division>/match/<slug:key>/", views.match_page, name="match"),
    path("<slug:event>/<slug:division>/final-standings/", views.final_standings, name="final-standings"),
    path("<slug:event>/<slug:division>/payouts.csv", views.payouts_csv, name="payouts-csv"),
    path(_ROUND + "sheet/", views.pairing_sheet, name="sheet"),
    path(_ROUND + "slips/", views.entry_slips, name="slips"),
    path(_ROUND + "scorecards/", views.scorecards, name="scorecards"),
]
