"""Routes of the directors' pages, under /manage/."""

from django.urls import path  # noqa: F401

app_name = "director"

urlpatterns: list = []
