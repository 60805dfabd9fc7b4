"""A playoff match's page for its directors, ``/manage/<event>/<division>/playoff/<match id>/``: a playoff's match
has no pairing, so the board's page (tournaments/director/views/matches.py) is not its own. It shows the match's
games and its result's confirmation, and takes what applies to the match itself: confirm its result (as director),
award a forfeit (no-show, withdrawal: the playoff then settles), give a player a new entry link, and the corrections
(a game's result replaced, the match reopened, the last action undone). The division's page links it from its
playoffs. Its players' entry slips (:func:`playoff_slips`) carry a QR code of each one's entry link, as a round's
slips do; the director's pages show a link as text, never as a hyperlink (tournaments/templatetags/entry_links.py).
"""

from __future__ import annotations

from typing import Any, NoReturn

from django.db.models import Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_http_methods

from games.access import token_text
from games.models import Match
from games.services import reopen_match, replace_game_result, undo_last_action
from tournaments import services
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
from tournaments.director.views.prints import qr_code
from tournaments.models import Division, Pairing, Playoff
from tournaments.pages import playoff_words
from tournaments.selectors import director as reads
from tournaments.selectors.playoffs import PlayoffMatch, PlayoffView, playoffs_of


def _match(page: Page) -> Match:
    """The page's match (the view loads it first)."""
    found: Match = page.once("match", _unloaded)
    return found


def _unloaded() -> NoReturn:
    raise LookupError("the playoff match's page loads its match and its confirmation first")


def _names(page: Page) -> tuple[str, str]:
    match = _match(page)
    return match.player1.display_name, match.player2.display_name


def _confirm(page: Page, target: Any, data: dict[str, Any]) -> str:
    services.confirm_playoff_result(_match(page).pk, actor=page.actor)
    return _("Result confirmed: %(a)s v %(b)s.") % dict(zip("ab", _names(page), strict=True))


def _forfeit(page: Page, target: Any, data: dict[str, Any]) -> str:
    side = int(data["loser"])
    services.award_playoff_forfeit(
        _match(page).pk, actor=page.actor, loser_side=side, kind=data["kind"], reason=data["reason"]
    )
    return _("%(name)s forfeits the match (%(kind)s).") % {"name": _names(page)[side], "kind": data["kind"]}


def _new_link(page: Page, target: Any, data: dict[str, Any]) -> str:
    confirmation: str = page.once("confirmation", _unloaded)
    token = services.new_entry_link(_match(page), data["side"], confirmation=confirmation)
    words = _(
        "A new entry link for %(name)s: %(link)s (the old one no longer opens, and the phone that held it is signed "
        "out). Print his entry slip again (its QR code carries the new link), or open the link on his phone."
    )
    link = page.request.build_absolute_uri(f"/play/{token_text(token)}/")
    return words % {"name": _names(page)[data["side"]], "link": link}


def _replace_result(page: Page, target: Any, data: dict[str, Any]) -> str:
    recorded = replace_game_result(
        _match(page).pk, actor=page.actor, game_number=data["game_number"], winner=data["winner"], kind=data["kind"],
        cube_value=data["cube_value"], reason=data["reason"], expected_seq=data["expected_seq"],
        override=data["override"],
    )  # fmt: skip
    services.sync_division(page.division_.pk)  # the playoff settles again at once
    return replaced_words(recorded, data["game_number"])


def _reopen(page: Page, target: Any, data: dict[str, Any]) -> str:
    reopen_match(_match(page).pk, actor=page.actor, reason=data["reason"], expected_seq=data["expected_seq"],
                 override=data["override"])  # fmt: skip
    services.sync_division(page.division_.pk)
    return _("The match is reopened: the playoff waits for its new result.")


def _undo(page: Page, target: Any, data: dict[str, Any]) -> str:
    undo_last_action(_match(page).pk, actor=page.actor, reason=data["reason"], expected_seq=data["expected_seq"],
                     override=data["override"])  # fmt: skip
    services.sync_division(page.division_.pk)
    return _("The last action is undone.")


def _sides(page: Page, target: Any) -> dict[str, Any]:
    return {"sides": [(str(side), name) for side, name in enumerate(_names(page))]}


def _replace_options(page: Page, target: Any) -> dict[str, Any]:
    match = _match(page)
    games_ = page.once("games", lambda: reads.match_games(match))
    played = [g for g in games_ if g.winner_side is not None]
    return {"games": played, "names": _names(page), "casual": match.casual}


PLAYOFF_MATCH_ACTIONS = {
    "confirm": FormAction(forms.EmptyForm, _confirm),
    "forfeit": FormAction(forms.PlayoffForfeitForm, _forfeit, options=_sides),
    "new-link": FormAction(forms.NewLinkForm, _new_link, options=lambda page, target: {"names": _names(page)}),
    "replace-result": FormAction(forms.ReplaceResultForm, _replace_result, options=_replace_options),
    "reopen": FormAction(forms.ReopenForm, _reopen),
    "undo": FormAction(forms.UndoForm, _undo),
}


def _shown(request: HttpRequest, found: Division, match_id: int) -> tuple[PlayoffView, PlayoffMatch, Match]:
    """The division's playoff whose match ``match_id`` is, that match as the pages show it (with its entry links),
    and the match (404 when it is no playoff match of the division)."""
    views = [(view, m) for view in playoffs_of(found, links=True) for m in view.matches if m.match_id == match_id]
    match = Match.objects.select_related("player1", "player2").filter(pk=match_id).first()
    if not views or match is None:
        raise not_found(request)
    return views[0][0], views[0][1], match


@director_page
@require_GET
def playoff_slips(request: HttpRequest, event: str, division: str, match_id: int) -> HttpResponse:
    """``/manage/<event>/<division>/playoff/<match id>/slips/``: a slip per player of a playoff's match, as a
    round's (tournaments/director/views/prints.py): what the match is, the event and division, the opponent, and a
    QR code of the player's own live entry link (never cached)."""
    found = directed_division(request, event, division)
    _view, shown, match = _shown(request, found, match_id)
    playoff = Playoff.objects.get(Q(first_match_id=match_id) | Q(final_match_id=match_id))
    points = ngettext("%(n)s point", "%(n)s points", match.length) % {"n": match.length}
    slips = []
    for name, link in shown.links:
        against = shown.names[1] if name == shown.names[0] else shown.names[0]
        words = {"event": found.event.name, "division": found.name, "name": against, "points": points}
        url = request.build_absolute_uri(link)
        where = _("%(event)s · %(division)s: against %(name)s, %(points)s") % words
        slips.append({"name": name, "where": where, "link": url, "qr": qr_code(url)})
    context = {
        "event": found.event,
        "division": found,
        "match": match,
        "heading": playoff_words(playoff, match_id),
        "slips": slips,
    }
    return render(request, "director/playoff_slips.html", context)


@director_page
@require_http_methods(["GET", "POST"])
def playoff_match_page(request: HttpRequest, event: str, division: str, match_id: int) -> HttpResponse:
    """``/manage/<event>/<division>/playoff/<match id>/``: a playoff's match: its games, confirmation, forfeit,
    entry links (as text, and printable slips), corrections."""
    found = directed_division(request, event, division)
    playoff_view, shown, match = _shown(request, found, match_id)
    page = Page(request, found.event, found)
    page.once("match", lambda: match)
    page.once("confirmation", lambda: shown.confirmation)
    failed: Failed | None = None
    if request.method == "POST":
        done = reverse("director:playoff-match", args=[event, division, match_id])
        outcome = perform(page, PLAYOFF_MATCH_ACTIONS, done)
        if not isinstance(outcome, Failed):
            return outcome
        failed = outcome
    all_games = page.once("games", lambda: reads.match_games(match))
    shown_games, forfeit = reads.match_results(match, all_games)
    open_ = match.status in (Match.Status.SCHEDULED, Match.Status.IN_PROGRESS)
    seq = {"expected_seq": match.seq}
    context = {
        "event": found.event,
        "division": found,
        "playoff": playoff_view,
        "shown": shown,
        "match": match,
        "open": open_,
        "answerable": shown.confirmation in (Pairing.Confirmation.AWAITING, Pairing.Confirmation.DISPUTED),
        "games": shown_games,
        "forfeit": forfeit,
        "forms": {
            name.replace("-", "_"): form_for(page, failed, PLAYOFF_MATCH_ACTIONS, name, initial=seq)
            for name in ("confirm", "forfeit", "new-link", "replace-result", "reopen", "undo")
        },
    }
    return answer(request, "director/playoff_match.html", context, failed)
