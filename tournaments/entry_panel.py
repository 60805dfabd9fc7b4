"""The tournaments block of a player's entry page (registered into ``games.hooks.PANELS`` from ``apps.ready``).

Once a match of a pairing is over it says what happens to the result: a scoresheet result entered by one player
waits for the other one's confirmation (``Pairing.confirmation_side``), who gets the confirm and dispute forms
(tournaments/entry_views.py); the player who entered it sees that it is waiting. It always links to "your next
match". Nothing is shown while the match is being played, nor for a match that belongs to no pairing.
"""

from __future__ import annotations

from django.http import HttpRequest
from django.template.loader import render_to_string

from games.hooks import Panel
from games.models import Match
from tournaments.models import Pairing

CLOSED = (Match.Status.FINISHED, Match.Status.FORFEITED, Match.Status.VOID)
Confirmation = Pairing.Confirmation


def pairing_of(match: Match) -> Pairing | None:
    return (
        Pairing.objects.filter(match=match)
        .select_related("division__event", "round", "entry_a__player", "entry_b__player")
        .first()
    )


def render_panel(request: HttpRequest, match: Match, sides: frozenset[int]) -> str | None:
    if match.status not in CLOSED:
        return None
    pairing = pairing_of(match)
    if pairing is None:
        return None
    names = (match.player1.display_name, match.player2.display_name)
    asked = pairing.confirmation_side
    context = {
        "pairing": pairing,
        "match": match,
        "names": names,
        "awaiting": pairing.confirmation == Confirmation.AWAITING,
        "disputed": pairing.confirmation == Confirmation.DISPUTED,
        "confirmed": pairing.confirmation == Confirmation.CONFIRMED,
        "may_answer": pairing.confirmation == Confirmation.AWAITING and asked is not None and asked in sides,
        "asked_name": names[asked] if asked is not None else "",
        "entered_name": names[1 - asked] if asked is not None else "",
        "score": (match.score1, match.score2),
    }
    return render_to_string("entry/pairing_panel.html", context, request=request)


def panel_version(match: Match) -> str | None:
    """What the block shows beyond the match: the pairing's confirmation, until it is settled (None after)."""
    if match.status not in CLOSED:
        return None
    row = Pairing.objects.filter(match=match).values_list("status", "confirmation", "updated_at").first()
    if row is None:
        return None
    status, confirmation, updated_at = row
    settled = status == Pairing.Status.FINISHED and confirmation in (Confirmation.CONFIRMED, Confirmation.NOT_NEEDED)
    return None if settled else f"{status}|{confirmation}|{updated_at.isoformat()}"


#: The block, registered into games/ by ``TournamentsConfig.ready``.
PANEL = Panel(render=render_panel, version=panel_version)
