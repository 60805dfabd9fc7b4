"""The tournaments block of a player's entry page (registered into ``games.hooks.PANELS`` from ``apps.ready``).

Once a match of a pairing is over it says what happens to the result: a scoresheet result entered by one player
waits for the other one's confirmation (``Pairing.confirmation_side``), who gets the confirm and dispute forms
(tournaments/entry_views.py); the player who entered it sees that it is waiting; a result a director corrected says
so, with his reason (``Pairing.Decision.DIRECTOR``, ``Playoff.*_correction``). It always links to "your next match"
("Division over: your results" once the match's division is over). Before the match starts it shows the call once
the match has a table ("Table 7: you play Pia Ruud, main round 2, 7 points"); once the match is over, the call of
the player's next match as soon as it is made. The block's version holds the calls, so the entry page's live part
(polled every few seconds) shows a call without a reload; a finished match's page keeps polling while one of its
players has a match to come, for its call. Nothing is shown while the match is being played (but the call to a new
table of a match a correction reopened, until an entry follows it), nor for a match that belongs to no pairing. A
playoff's match (it has no pairing) says what it is before it starts ("Playoff for the tie at 1st place, final", the
event and division: the director seats its players), and gets the same confirm and dispute forms once over
(``Playoff.first_confirmation``/``final_confirmation``), under the same heading.
"""

from __future__ import annotations

from django.db.models import Q
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _

from games.entry import held_token_ids
from games.hooks import Panel
from games.models import Action, Match, Player
from tournaments.access import directs_event
from tournaments.core import PLAYABLE, PLAYOFF_SOURCE, PairingState, call_stands
from tournaments.models import Division, Pairing, Playoff, Table
from tournaments.pages import call_words, playoff_words
from tournaments.selectors import next_pairing_for

CLOSED = (Match.Status.FINISHED, Match.Status.FORFEITED, Match.Status.VOID)
#: A player's match still to come: its slot waits for the opponent, or it is ready, or being played.
TO_COME = (Pairing.Status.WAITING, *PLAYABLE)
Confirmation = Pairing.Confirmation


def playoff_of(match: Match | int) -> Playoff | None:
    """The playoff whose match ``match`` (or its id) is (None: it is no playoff's; a match whose source says it is
    no playoff's costs no query)."""
    if isinstance(match, Match) and PLAYOFF_SOURCE not in match.source:
        return None
    return Playoff.objects.of_match(match).select_related("division__event").first()


def pairing_of(match: Match) -> Pairing | None:
    return (
        Pairing.objects.of_match(match)
        .select_related("division__event", "round", "entry_a__player", "entry_b__player", "table")
        .first()
    )


def _not_started(match: Match) -> bool:
    return match.status not in CLOSED and match.status != Match.Status.IN_PROGRESS and not match.seq


def _called_anew(match: Match) -> bool:
    """A match being played called to a new table since its last entry (reopened by a correction, its table taken
    meanwhile): the call shows until the players enter something there (:func:`tournaments.core.call_stands`)."""
    called = Pairing.objects.of_match(match).values_list("called_at", flat=True).first()
    last = Action.objects.filter(match=match).order_by("-seq").values_list("created_at", flat=True).first()
    return call_stands(PairingState.PLAYING, called, last)


def render_panel(request: HttpRequest, match: Match, sides: frozenset[int]) -> str | None:
    if match.status not in CLOSED:
        return _render_call(request, match, sides) if _not_started(match) or _called_anew(match) else None
    pairing = pairing_of(match)
    if pairing is not None:
        confirmation, asked = pairing.confirmation, pairing.confirmation_side
        corrected = pairing.decision == Pairing.Decision.DIRECTOR
        reason = pairing.decision_reason if corrected else ""
        division = pairing.division
        manage = reverse("director:match", args=[division.event.slug, division.slug, pairing.key])
        where = {
            "panel_id": f"pairing-panel-{pairing.pk}",
            "reason_id": f"dispute-reason-{pairing.pk}",
            "confirm_url": reverse("pairing_entry:confirm", args=[pairing.pk]),
            "dispute_url": reverse("pairing_entry:dispute", args=[pairing.pk]),
        }
    else:
        playoff = playoff_of(match)
        if playoff is None:
            return None
        confirmation, asked = playoff.confirmation_of(match.pk)
        reason = playoff.correction_of(match.pk)
        corrected = bool(reason)
        division = playoff.division
        manage = reverse("director:playoff-match", args=[division.event.slug, division.slug, match.pk])
        where = {
            "heading": playoff_words(playoff, match.pk),
            "panel_id": f"playoff-panel-{match.pk}",
            "reason_id": f"dispute-reason-playoff-{match.pk}",
            "confirm_url": reverse("pairing_entry:playoff-confirm", args=[match.pk]),
            "dispute_url": reverse("pairing_entry:playoff-dispute", args=[match.pk]),
        }
    names = (match.player1.display_name, match.player2.display_name)
    context = {
        **where,
        "title": f"{division.event.name} · {division.name}",
        "match": match,
        "names": names,
        "awaiting": confirmation == Confirmation.AWAITING,
        "disputed": confirmation == Confirmation.DISPUTED,
        "confirmed": confirmation == Confirmation.CONFIRMED,
        # A result the director corrected stands by his decision, with his reason (the division page lists it too).
        "corrected": corrected,
        "correction_reason": reason,
        "may_answer": confirmation == Confirmation.AWAITING and asked is not None and asked in sides,
        "asked_name": names[asked] if asked is not None else "",
        "entered_name": names[1 - asked] if asked is not None else "",
        # The score as the page's result line says it, the winner's first: "Eva won the match 3-2", not "2-3".
        "winner_name": names[0] if match.winner_id == match.player1_id else names[1],
        "won": max(match.score1, match.score2),
        "lost": min(match.score1, match.score2),
        "next_calls": _next_calls(match, sides),
        # "Your next match" is the page of the players this visitor is: not of a director entering for both.
        "next_link": bool(held_token_ids(request)) or _is_a_player(request),
        # Once the division is over the button says so: the page it opens gives the places and the event's pages.
        "division_over": division.status == Division.Status.FINISHED,
        # A director who entered the result here goes back to the match's page of the directors' pages.
        "manage_url": manage if directs_event(request.user, division.event) else "",
    }
    return render_to_string("entry/pairing_panel.html", context, request=request)


def _is_a_player(request: HttpRequest) -> bool:
    user = request.user
    return bool(user.is_authenticated and Player.objects.filter(user=user).exists())


def _render_call(request: HttpRequest, match: Match, sides: frozenset[int]) -> str | None:
    pairing = pairing_of(match)
    if pairing is None:
        return _render_playoff_heading(request, match)
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


def _render_playoff_heading(request: HttpRequest, match: Match) -> str | None:
    """A playoff's match before it starts: what it is ("Playoff for the tie at 1st place, final") and where (the
    event and division), in the block a round's match shows its call in; it has no table from the queue."""
    playoff = playoff_of(match)
    if playoff is None:
        return None
    context = {"match": match, "title": playoff_words(playoff, match.pk), "division": playoff.division}
    return render_to_string("entry/playoff_heading_panel.html", context, request=request)


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
        call = Pairing.objects.of_match(match).values_list("table_id", "called_at").first()
        return None if call is None else f"call|{call[0]}|{call[1]}"
    row = Pairing.objects.of_match(match).values_list("status", "confirmation", "updated_at").first()
    if row is None:
        playoff = playoff_of(match)
        if playoff is None:
            return None
        confirmation = playoff.confirmation_of(match.pk)[0]
        return None if confirmation in (Confirmation.CONFIRMED, Confirmation.NOT_NEEDED) else f"playoff|{confirmation}"
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
