"""Public pages of events: events list, a club, event, the venue display, division (standings, pairings, bracket),
a round, live parts, downloads."""

from django.urls import path

from tournaments import views
from tournaments.director import clubs as club_pages

app_name = "tournaments"

_DIVISION = "events/<slug:event>/<slug:division>/"
_ROUND = _DIVISION + "rounds/<slug:bracket>/<int:number>/"

urlpatterns = [
    path("events/", views.event_list, name="event-list"),
    path("clubs/<slug:club>/", views.club_detail, name="club-detail"),
    path("clubs/<slug:club>/manage/", club_pages.club_manage, name="club-manage"),
    path("clubs/<slug:club>/seasons/<slug:season>/", views.season_detail, name="season-detail"),
    path("clubs/<slug:club>/seasons/<slug:season>/table.csv", views.season_csv, name="season-csv"),
    path("events/<slug:event>/", views.event_detail, name="event-detail"),
    path("events/<slug:event>/pr/", views.event_pr, name="event-pr"),
    path("display/<slug:event>/", views.event_display, name="event-display"),
    path("display/<slug:event>/live/", views.event_display_live, name="event-display-live"),
    path(_DIVISION, views.division_detail, name="division-detail"),
    path(_DIVISION + "pr/", views.division_pr, name="division-pr"),
    path(_DIVISION + "live/<slug:part>/", views.division_live, name="division-live"),
    path(_ROUND, views.division_round, name="division-round"),
    path(_ROUND + "live/", views.division_round_live, name="division-round-live"),
    path(_DIVISION + "results.csv", views.division_results_csv, name="division-results-csv"),
]
