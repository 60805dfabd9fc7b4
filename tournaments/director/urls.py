"""Routes of the directors' pages, under /manage/ (the modules of tournaments/director/views/)."""

from django.urls import path

import common.converters  # noqa: F401  (registers <id:...>)
from tournaments.director.views import divisions, events, matches, money, playoffs, prints

app_name = "director"

_ROUND = "<slug:event>/<slug:division>/round/<slug:bracket>/<id:number>/"

urlpatterns = [
    path("", events.home, name="home"),
    path("<slug:event>/", events.event_page, name="event"),
    path("<slug:event>/live/venue/", events.event_venue_live, name="event-venue-live"),
    path("<slug:event>/live/results/", events.event_results_live, name="event-results-live"),
    path("<slug:event>/cash/", money.cash_sheet, name="cash-sheet"),
    path("<slug:event>/<slug:division>/", divisions.division_page, name="division"),
    path("<slug:event>/<slug:division>/match/<slug:key>/", matches.match_page, name="match"),
    path("<slug:event>/<slug:division>/playoff/<id:match_id>/", playoffs.playoff_match_page, name="playoff-match"),
    path("<slug:event>/<slug:division>/playoff/<id:match_id>/slips/", playoffs.playoff_slips, name="playoff-slips"),
    path("<slug:event>/<slug:division>/final-standings/", prints.final_standings, name="final-standings"),
    path("<slug:event>/<slug:division>/payouts.csv", money.payouts_csv, name="payouts-csv"),
    path(_ROUND + "sheet/", prints.pairing_sheet, name="sheet"),
    path(_ROUND + "slips/", prints.entry_slips, name="slips"),
    path(_ROUND + "scorecards/", prints.scorecards, name="scorecards"),
]
