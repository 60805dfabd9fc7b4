"""A match's page for its directors, ``/manage/<event>/<division>/match/<key>/``: its games, the decisions on its
result (confirm, forfeit, penalty points; the confirmation and the forfeit are also taken from the event's queue
and the division's page) and its corrections (a game's result replaced, the match reopened, the last action
undone), its analysis, a new entry link, and the making of a round robin's match not due yet.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from common.errors import ApplicationError, ErrorCode
from games.access import token_text
from games.analysis.selectors import match_analysis_of
from games.analysis.service import AnalysisRefusedError, request_analysis
from games.models import Match
from games.selectors import entry_words, open_correction_request
from games.services import reopen_match, replace_game_result, undo_last_action
from tournaments import services
from tournaments.core import round_robin_lead
from tournaments.director import forms
from tournaments.director.views.base import (
    Failed,
    FormAction,
    Page,
    answer,
    directed_division,
    director_page,
    form_for,
    not_found,
    perform,
    replaced_words,
)
from tournaments.models import Division, Pairing
from tournaments.selectors import director as reads
from tournaments.selectors.venue import venue_of


def confirm(page: Page, pairing: Pairing, data: dict[str, Any]) -> str:
    services.confirm_result(pairing, actor=page.actor)
    return _("Result confirmed: %(a)s v %(b)s.") % pairing_names(pairing)


def pairing_names(pairing: Pairing) -> dict[str, str]:
    a, b = pairing.entry_a, pairing.entry_b
    return {"a": a.player.display_name if a else "—", "b": b.player.display_name if b else "—"}


def forfeit(page: Page, pairing: Pairing, data: dict[str, Any]) -> str:
    loser = pairing.entry_a if str(pairing.entry_a_id) == data["loser"] else pairing.entry_b
    assert loser is not None
    services.award_forfeit(pairing, actor=page.actor, loser=loser, kind=data["kind"], reason=data["reason"])
    return _("%(name)s forfeits the match (%(kind)s).") % {"name": loser.player.display_name, "kind": data["kind"]}


def _penalty(page: Page, target: Any, data: dict[str, Any]) -> str:
    pairing = page.pairing_
    against = pairing.entry_a if str(pairing.entry_a_id) == data["against"] else pairing.entry_b
    assert against is not None
    services.give_penalty(pairing, actor=page.actor, against=against, points=data["points"], reason=data["reason"])
    return _("%(points)s penalty points against %(name)s.") % {
        "points": data["points"],
        "name": against.player.display_name,
    }


# -- /manage/<event>/<division>/match/<key>/ -------------------------------------------------------------------------


def _match_id(page: Page) -> int:
    """The board's match, made now if it is a round-robin match not due yet (the director acts on it)."""
    if page.pairing_.match_id is not None:
        return page.pairing_.match_id
    return services.pairing_match(page.pairing_, actor=page.actor)


def _replace_result(page: Page, target: Any, data: dict[str, Any]) -> str:
    recorded = replace_game_result(
        _match_id(page),
        actor=page.actor,
        game_number=data["game_number"],
        winner=data["winner"],
        kind=data["kind"],
        cube_value=data["cube_value"],
        reason=data["reason"],
        expected_seq=data["expected_seq"],
        override=data["override"],
    )
    return replaced_words(recorded, data["game_number"])


def _reopen(page: Page, target: Any, data: dict[str, Any]) -> str:
    reopen_match(
        _match_id(page),
        actor=page.actor,
        reason=data["reason"],
        expected_seq=data["expected_seq"],
        override=data["override"],
    )
    return f"{_('The match is reopened.')} {_where_it_stands(page)}".strip()


def _undo(page: Page, target: Any, data: dict[str, Any]) -> str:
    undo_last_action(
        _match_id(page),
        actor=page.actor,
        reason=data["reason"],
        expected_seq=data["expected_seq"],
        override=data["override"],
    )
    return f"{_('The last action is undone.')} {_where_it_stands(page)}".strip()


def _where_it_stands(page: Page) -> str:
    """After a correction that undid a result (a forfeit undone, a match reopened): the division is brought in step
    at once (as a forfeit's award is), and the director is told where the match is now: at its table, or waiting
    for one, and its place in the queue. "" when the match is still over."""
    services.sync_division(page.division_.pk)
    pairing = Pairing.objects.select_related("table").get(pk=page.pairing_.pk)
    if pairing.status not in (Pairing.Status.READY, Pairing.Status.PLAYING):
        return ""
    if pairing.table_id is not None:
        return _("It is at %(table)s.") % {"table": pairing.table_label}
    queue = [p.pk for p in venue_of(page.event_).queue]
    place = queue.index(pairing.pk) + 1 if pairing.pk in queue else None
    if place == 1:
        return _("It waits for a table, first in the queue: the next table that frees is its own, and it is called.")
    if place is not None:
        return _("It waits for a table, number %(place)s in the queue: it is called when a table frees.") % {
            "place": place
        }
    return _("It waits for a table: it is called when one frees.")


def _analyse(page: Page, target: Any, data: dict[str, Any]) -> str:
    try:
        request_analysis(_match_id(page))
    except AnalysisRefusedError as exc:
        raise ApplicationError(ErrorCode.CONFLICT, str(exc)) from exc
    return _("GNU Backgammon's analysis is asked for: it shows on the match page when it is done.")


def _ahead(division: Division) -> int:
    """How many of each player's next matches the round robin has made (tournaments/core.py)."""
    return round_robin_lead(division.rounds.count(), double=division.double_round_robin)


def _make_match(page: Page, target: Any, data: dict[str, Any]) -> str:
    if page.pairing_.match_id is not None:
        raise ApplicationError(ErrorCode.CONFLICT, _("This pairing's match is already made."))
    _match_id(page)
    return _("The match is made: its players can enter it from their entry links.")


def _pairing_sides(page: Page, target: Any) -> dict[str, Any]:
    p = page.pairing_
    entries = [e for e in (p.entry_a, p.entry_b) if e is not None]
    return {"sides": forms.entry_choices(entries)}


def _replace_options(page: Page, target: Any) -> dict[str, Any]:
    p = page.pairing_
    games_ = page.once("games", lambda: reads.match_games(p.match) if p.match is not None else [])
    names = tuple(e.player.display_name if e else "—" for e in (p.entry_a, p.entry_b))
    played = [g for g in games_ if g.winner_side is not None]
    return {"games": played, "names": names, "casual": p.match is not None and p.match.casual}


def _side_names(page: Page) -> tuple[str, str]:
    p = page.pairing_
    return (
        p.entry_a.player.display_name if p.entry_a else "",
        p.entry_b.player.display_name if p.entry_b else "",
    )


def _new_link(page: Page, target: Any, data: dict[str, Any]) -> str:
    match = Match.objects.get(pk=_match_id(page))
    token = services.new_entry_link(match, data["side"], confirmation=page.pairing_.confirmation)
    words = _(
        "A new entry link for %(name)s: %(link)s (the old one no longer opens, and the phone that held it is signed "
        "out). Open it on his phone, or print his entry slip again: it carries the new link."
    )
    link = page.request.build_absolute_uri(f"/play/{token_text(token)}/")
    return words % {"name": _side_names(page)[data["side"]], "link": link}


MATCH_ACTIONS = {
    "confirm": FormAction(forms.EmptyForm, lambda page, target, data: confirm(page, page.pairing_, data)),
    "forfeit": FormAction(
        forms.ForfeitForm, lambda page, target, data: forfeit(page, page.pairing_, data), options=_pairing_sides
    ),
    "penalty": FormAction(forms.PenaltyForm, _penalty, options=_pairing_sides),
    "replace-result": FormAction(forms.ReplaceResultForm, _replace_result, options=_replace_options),
    "reopen": FormAction(forms.ReopenForm, _reopen),
    "undo": FormAction(forms.UndoForm, _undo),
    "analyse": FormAction(forms.EmptyForm, _analyse),
    "new-link": FormAction(forms.NewLinkForm, _new_link, options=lambda page, target: {"names": _side_names(page)}),
    "make-match": FormAction(forms.EmptyForm, _make_match),
}


@director_page
@require_http_methods(["GET", "POST"])
def match_page(request: HttpRequest, event: str, division: str, key: str) -> HttpResponse:
    """``/manage/<event>/<division>/match/<key>/``: one board: its games, confirmation, forfeit, corrections."""
    found = directed_division(request, event, division)
    pairing = reads.division_pairing(found, key)
    if pairing is None:
        raise not_found(request)
    page = Page(request, found.event, found, pairing)
    failed = None
    if request.method == "POST":
        outcome = perform(page, MATCH_ACTIONS, reverse("director:match", args=[event, division, key]))
        if not isinstance(outcome, Failed):
            return outcome
        failed = outcome
    match = pairing.match
    seq = {"expected_seq": match.seq} if match is not None else {}
    asked = open_correction_request(match) if match is not None else None
    all_games = page.once("games", lambda: reads.match_games(match) if match is not None else [])
    shown_games, forfeit = reads.match_results(match, all_games) if match is not None else ([], None)
    context = {
        "event": found.event,
        "division": found,
        "pairing": pairing,
        "board": reads.director_board(pairing),
        "match": match,
        "asked": asked,
        "asked_words": entry_words(asked.undoes) if asked is not None else "",
        "games": shown_games,
        "forfeit": forfeit,
        "analysis": match_analysis_of(match) if match is not None and match.seq else None,
        "ahead": _ahead(found) if match is None and pairing.status == Pairing.Status.READY else None,
        # A correction of this result changed the score groups the current Swiss round was paired on: where to go.
        "repair_offered": pairing.decision == Pairing.Decision.DIRECTOR and services.round_needs_repairing(found),
        "forms": {
            name.replace("-", "_"): form_for(page, failed, MATCH_ACTIONS, name, initial=seq)
            for name in ("confirm", "forfeit", "penalty", "replace-result", "reopen", "undo", "new-link", "make-match")
        },
    }
    return answer(request, "director/match.html", context, failed)
