"""Routes of the players' entry pages (per-side entry links), under /play/."""

from django.urls import path  # noqa: F401

app_name = "entry"

urlpatterns: list = []
