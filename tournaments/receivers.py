"""How tournaments/ hears from games/: a match of a pairing (or of a playoff) finished or had its result changed.

The result is on the pairing already: it was written in the match's own transaction
(tournaments.services.sync.show_match_result), its follow-up marked due. games/ sends its signals after that
transaction commits; the receiver then marks the division's standings pending and enqueues the follow-up
(tournaments.services.followup.schedule_followup), except for a result a sync made itself (a withdrawn player's
forfeit, a match voided in a bracket), which that sync took: it queues nothing. If anything here fails, the result
is stored and shown, and the periodic reconcile task finds the follow-up due.
"""

from __future__ import annotations

import logging
from typing import Any

from django.db import DatabaseError, transaction
from django.db.models import Q

from games.models import Match
from tournaments.models import Division, Event, Pairing, Playoff
from tournaments.services.followup import schedule_followup
from tournaments.services.sync import taken_by_its_sync

log = logging.getLogger(__name__)


def on_match_changed(sender: Any, match_id: int, imported: bool = False, **kwargs: Any) -> None:
    """Move the division of the match's pairing on, unless a sync made the result itself
    (:func:`tournaments.services.sync.taken_by_its_sync`). A match imported from a log (``imported``) has no pairing:
    a pairing makes its own match, and an import into an event is recorded beside the divisions (ImportedMatch), so
    it costs no query."""
    if imported or taken_by_its_sync(match_id):
        return
    try:
        with transaction.atomic():
            division_id = Pairing.objects.filter(match_id=match_id).values_list("division_id", flat=True).first()
            if division_id is None:  # a playoff's match moves its division on too (its order settles a tie)
                playoffs = Playoff.objects.filter(Q(first_match_id=match_id) | Q(final_match_id=match_id))
                division_id = playoffs.values_list("division_id", flat=True).first()
            if division_id is not None:
                schedule_followup(division_id)
    except DatabaseError:
        log.exception("could not schedule the follow-up of match %s; reconcile will", match_id)


def analyses_each_game(match: Match) -> bool:
    """Whether the division of the match's pairing analyses each game as it ends (games.hooks.GAME_ANALYSIS_CHECKS)."""
    return Division.objects.filter(pairings__match=match, analyse_each_game=True).exists()


def analyses_imported(match: Match) -> bool:
    """Whether the event the match was imported into analyses imported matches (games.hooks.IMPORT_ANALYSIS_CHECKS)."""
    return Event.objects.filter(imported_matches__match=match, analyse_imported=True).exists()
