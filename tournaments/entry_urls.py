"""Routes a player reaches from his entry page for a tournament pairing (confirm or dispute a result), under
/play/pairings/."""

from django.urls import path  # noqa: F401

app_name = "pairing_entry"

urlpatterns: list = []
