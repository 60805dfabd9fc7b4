"""Routes a player reaches from his entry page for a tournament pairing (confirm or dispute a result, the next
match), under /play/pairings/."""

from django.urls import path

from tournaments import entry_views

app_name = "pairing_entry"

urlpatterns = [
    path("next/", entry_views.next_match, name="next"),
    path("<int:pairing_id>/confirm/", entry_views.confirm, name="confirm"),
    path("<int:pairing_id>/dispute/", entry_views.dispute, name="dispute"),
]
