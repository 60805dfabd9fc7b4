"""The tournaments block of a player's entry page (registered into ``games.hooks.PANELS`` from ``apps.ready``).

Once a match of a pairing is over it says what happens to the result: a scoresheet result entered by one player
waits for the other one's confirmation (``Pairing.confirmation_side``), who gets the confirm and dispute forms
(tournaments/entry_views.py); the player who entered it sees that it is waiting. It always links to "your next
match". Before the match starts it shows the call once the match has a table ("Table 7: you play Pia Ruud, main
round 2, 7 points"); once the match is over, the call of the player's next match as soon as it is made. The
block's version holds the calls, so the entry page's live part (polled every few seconds) shows a call without a
reload; a finished match's page keeps polling while one of its players has a match to come, for its call. Nothing
is shown while the match is being played (but the call to a new table of a match a correction reopened, until an
entry follows it), nor for a match that belongs to no pairing.
"""

from __future__ import annotations

from django.db.models import Q
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.utils.translation import gettext as _

from games.entry import held_token_ids
from games.hooks import Panel
from games.models import Action, Match, Player
from tournaments.core import PLAYABLE, PairingState, call_stands
from tournaments.models import Division, Pairing, Table
from tournaments.pages import call_words
from tournaments.selectors import next_pairing_for

CLOSED = (Match.Status.FINISHED, Match.Status.FORFEITED, Match.Status.VOID)
#: A player's match still to come: its slot waits for the opponent, or it is ready, or being played.
TO_COME = (Pairing.Status.WAITING, *PLAYABLE)
Confirmation = Pairing.Confirmation


def pairing_of(match: Match) -> Pairing | None:
    return (
        Pairing.objects.filter(match=match)
        .select_related("division__event", "round", "entry_a__player", "entry_b__player", "table")
        .first()
    )


def _not_started(match: Match) -> bool:
    return match.status not in CLOSED and match.status != Match.Status.IN_PROGRESS and not match.seq


def _called_anew(match: Match) -> bool:
    """A match being played called to a new table since its last entry (reopened by a correction, its table taken
    meanwhile): the call shows until the players enter something there (:func:`tournaments.core.call_stands`)."""
    called = Pairing.objects.filter(match=match).values_list("called_at", flat=True).first()
    last = Action.objects.filter(match=match).order_by("-seq").values_list("created_at", flat=True).first()
    return call_stands(PairingState.PLAYING, called, last)


def render_panel(request: HttpRequest, match: Match, sides: frozenset[int]) -> str | None:
    if match.status not in CLOSED:
        return _render_call(request, match, sides) if _not_started(match) or _called_anew(match) else None
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
        "next_calls": _next_calls(match, sides),
        # "Your next match" is the page of the players this visitor is: not of a director entering for both.
        "next_link": bool(held_token_ids(request)) or _is_a_player(request),
    }
    return render_to_string("entry/pairing_panel.html", context, request=request)


def _is_a_player(request: HttpRequest) -> bool:
    user = request.user
    return bool(user.is_authenticated and Player.objects.filter(user=user).exists())


def _render_call(request: HttpRequest, match: Match, sides: frozenset[int]) -> str | None:
    pairing = pairing_of(match)
    if pairing is None:
        return None
    if pairing.table_id is None:
        return _render_not_called(request, match, pairing)
    # One side held: the call as its player hears it; both (a shared board, the director): both names.
    player = match.player(min(sides)) if len(sides) == 1 else None
    context = {
        "pairing": pairing,
        "call": call_words(pairing, player.pk if player is not None else None),
        "both": player is None,
    }
    return render_to_string("entry/call_panel.html", context, request=request)


def _render_not_called(request: HttpRequest, match: Match, pairing: Pairing) -> str | None:
    """In a room with tables, a match not called yet says so before anything is entered, and names a player still
    playing another match (a tester entered a result while his opponent was still at another table)."""
    if not Table.objects.filter(event_id=pairing.division.event_id).exists():
        return None  # no tables: matches are played where the players sit
    players = (match.player1_id, match.player2_id)
    busy = (
        Pairing.objects.filter(Q(match__player1__in=players) | Q(match__player2__in=players))
        .filter(status=Pairing.Status.PLAYING)
        .exclude(match=match)
        .select_related("table", "match__player1", "match__player2")
        .order_by("pk")
    )
    playing = []
    for other in busy:
        held = other.match
        assert held is not None  # the filter: a match made
        name = held.player1 if held.player1_id in players else held.player2
        where = other.table.label if other.table is not None else ""
        playing.append((name.display_name, where))
    context = {"pairing": pairing, "playing": playing}
    return render_to_string("entry/not_called_panel.html", context, request=request)


def _next_calls(match: Match, sides: frozenset[int]) -> list[tuple[str, str]]:
    """The call of each held side's player's next match, once it has a table, with what it is: one side held, "Your
    next match" as its player hears it; both (a shared board, a director entering for them), each player's by name
    with both names."""
    calls = []
    for side in sorted(sides):
        player = match.player(side)
        following = next_pairing_for(player)
        if following is not None and following.table_id is not None and following.match_id != match.pk:
            if len(sides) == 1:
                calls.append((_("Your next match:"), call_words(following, player.pk)))
            else:
                label = _("%(name)s's next match:") % {"name": player.display_name}
                calls.append((label, call_words(following)))
    return calls


def panel_version(match: Match) -> str | None:
    """What the block shows beyond the match: before it starts, its table; once over, the pairing's confirmation
    until it is settled and, while a player of the match has a match to come, its table (None after)."""
    if match.status not in CLOSED:
        call = Pairing.objects.filter(match=match).values_list("table_id", "called_at").first()
        return None if call is None else f"call|{call[0]}|{call[1]}"
    row = Pairing.objects.filter(match=match).values_list("status", "confirmation", "updated_at").first()
    if row is None:
        return None
    status, confirmation, updated_at = row
    settled = status == Pairing.Status.FINISHED and confirmation in (Confirmation.CONFIRMED, Confirmation.NOT_NEEDED)
    version = "settled" if settled else f"{status}|{confirmation}|{updated_at.isoformat()}"
    players = (match.player1_id, match.player2_id)
    following = list(
        Pairing.objects.filter(Q(entry_a__player__in=players) | Q(entry_b__player__in=players), status__in=TO_COME)
        .filter(division__status=Division.Status.RUNNING)
        .exclude(match=match)
        .order_by("pk")
        .values_list("pk", "table_id")
    )
    if not following:
        return None if settled else version  # neither player has a match to come: nothing more to show
    return f"{version}|next|{following}"


#: The block, registered into games/ by ``TournamentsConfig.ready``.
PANEL = Panel(render=render_panel, version=panel_version)
