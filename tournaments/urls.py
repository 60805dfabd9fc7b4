"""Public pages of events: events list, event, division (standings, pairings, bracket), downloads."""

from django.urls import path  # noqa: F401

app_name = "tournaments"

urlpatterns: list = []
