"""Routes a player reaches from his entry page for a tournament pairing (confirm or dispute a result, the next
match) or a playoff's match (confirm or dispute its result), under /play/pairings/."""

from django.urls import path

import common.converters  # noqa: F401  (registers <id:...>)
from tournaments import entry_views

app_name = "pairing_entry"

urlpatterns = [
    path("next/", entry_views.next_match, name="next"),
    path("<id:pairing_id>/enter/", entry_views.enter, name="enter"),
    path("<id:pairing_id>/confirm/", entry_views.confirm, name="confirm"),
    path("<id:pairing_id>/dispute/", entry_views.dispute, name="dispute"),
    path("playoff/<id:match_id>/enter/", entry_views.playoff_enter, name="playoff-enter"),
    path("playoff/<id:match_id>/confirm/", entry_views.playoff_confirm, name="playoff-confirm"),
    path("playoff/<id:match_id>/dispute/", entry_views.playoff_dispute, name="playoff-dispute"),
]
