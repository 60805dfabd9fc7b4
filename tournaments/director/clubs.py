"""A club's page for its directors, ``/clubs/<club>/manage/``: its seasons (add one, with its points system and
the club's own table), its directors (add one by the name he logs in with, remove one but the last) and its
roster with each player's rating on the club's list (a page of it at a time, ``?roster-find=`` a name,
``?roster-page=`` N), where a director adds one player or pastes a list (a name close to a roster player's asks
"Who is it?", as a registration does).

Same rules as the other directors' pages (tournaments/director/views/base.py): login required, a club the user does
not direct is a 403 page when it is public and a 404 page when it is private, thin actions calling one service
each, Post/Redirect/Get, and a refusal shown on the form that was sent with nothing written.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods

from common.audience import private
from common.errors import ApplicationError, ErrorCode
from games.models import Player
from tournaments.access import directs_club
from tournaments.director import forms
from tournaments.director.views.base import Failed, FormAction, Page, RefusedError, director_page, form_for, perform
from tournaments.models import Club
from tournaments.selectors import clubs as club_reads
from tournaments.services.clubs import add_club_director, create_season, remove_club_director
from tournaments.services.merges import link_player, merge_players, undo_merge
from tournaments.services.rosters import add_roster_player, import_roster


def _club(request: HttpRequest, slug: str) -> Club:
    club = Club.objects.filter(slug=slug).select_related("rating_list").first()
    directs = club is not None and directs_club(request.user, club)
    if club is None or (not club.public and not directs):
        raise RefusedError(render(request, "director/not_found.html", status=404))
    if not directs:
        raise RefusedError(render(request, "director/club_forbidden.html", {"club": club}, status=403))
    return club


def _add_season(page: Page, target: Any, data: dict[str, Any]) -> str:
    season = create_season(
        _club_of(page),
        actor=page.actor,
        name=data["name"],
        starts_on=data["starts_on"],
        ends_on=data["ends_on"],
        system=data["system"],
        table=forms.SeasonForm.table_of(data),
        qualify=data["qualify"] or 0,
    )
    return _("Season “%(name)s” added: the club's events from %(start)s to %(end)s count in it.") % {
        "name": season.name,
        "start": season.starts_on.isoformat(),
        "end": season.ends_on.isoformat(),
    }


def _add_director(page: Page, target: Any, data: dict[str, Any]) -> str:
    user = get_user_model().objects.filter(username__iexact=data["username"].strip()).first()
    if user is None:
        raise ApplicationError(
            ErrorCode.NOT_FOUND,
            _("Nobody logs in as “%(name)s”: check the spelling, or ask him to make an account first.")
            % {"name": data["username"].strip()},
        )
    club = _club_of(page)
    if club.directors.filter(pk=user.pk).exists():
        return _("%(name)s is already a director of %(club)s.") % {"name": user.get_username(), "club": club.name}
    add_club_director(club, actor=page.actor, user=user)
    return _("%(name)s is now a director of %(club)s.") % {"name": user.get_username(), "club": club.name}


def _remove_director(page: Page, user: Any, data: dict[str, Any]) -> str:
    club = _club_of(page)
    remove_club_director(club, actor=page.actor, user=user)
    return _("%(name)s is no longer a director of %(club)s.") % {"name": user.get_username(), "club": club.name}


def _roster_add(page: Page, target: Any, data: dict[str, Any]) -> str:
    club = _club_of(page)
    report = add_roster_player(
        club, actor=page.actor, name=data["name"], club_text=data["club"], country=data["country"],
        choice=data["choice"],
    )  # fmt: skip
    if report.added:
        return _("%(name)s joins the roster.") % {"name": report.added[0].display_name}
    on = report.already[0]
    if on.chosen:
        words = _("“%(name)s” is %(player)s, already on the roster: nothing was added.")  # as typed
        return words % {"name": on.name, "player": on.player.label}
    return _("%(player)s is already on the roster: nothing was added.") % {"player": on.player.label}


def _roster_import(page: Page, target: Any, data: dict[str, Any]) -> str:
    report = import_roster(_club_of(page), actor=page.actor, text=data["text"], choices=data.get("choices") or {})
    added = ngettext("%(count)s player joins the roster.", "%(count)s players join the roster.", len(report.added))
    added = added % {"count": len(report.added)}
    if not report.already:
        return added
    players = {on.player.pk: on.player for on in report.already}  # two lines may be one player: named once
    names = ", ".join(player.display_name for player in players.values())
    return added.removesuffix(".") + _("; already on it: %(names)s.") % {"names": names}


def _club_director(page: Page, key: str) -> Any:
    return _club_of(page).directors.filter(pk=int(key)).first() if key.isdigit() else None


def _merge(page: Page, target: Any, data: dict[str, Any]) -> str:
    club = _club_of(page)
    keep, fold = (_roster_player(page, data[key]) for key in ("keep", "fold"))
    merge_players(club, actor=page.actor, keep=keep, fold=fold)
    return _("%(fold)s is now %(keep)s: his rows moved and the ratings were counted again (Undo puts them back).") % {
        "fold": fold.label,
        "keep": keep.label,
    }


def _undo_merge(page: Page, target: Any, data: dict[str, Any]) -> str:
    undo_merge(target, actor=page.actor)
    words = _("%(fold)s is a record of his own again, with what he had before the merge.")
    return words % {"fold": target.folded.label}


def _link(page: Page, target: Any, data: dict[str, Any]) -> str:
    keep = _roster_player(page, data["keep"])
    link_player(_club_of(page), actor=page.actor, keep=keep, player=target)
    return _("%(player)s is linked to %(keep)s of the roster: his matches and entries are %(keep)s's now.") % {
        "player": target.label,
        "keep": keep.label,
    }


def _roster_player(page: Page, pk: int) -> Player:
    player = club_reads.merge_candidate(_club_of(page), page.request.user, pk)
    if player is None:
        raise ApplicationError(ErrorCode.NOT_FOUND, _("That player is no longer on the roster: reload the page."))
    return player


def _roster_options(page: Page, target: Any) -> dict[str, Any]:
    return {"roster": page.once("roster", lambda: club_reads.roster_of(_club_of(page)))}


class ClubPage(Page):
    """A page about a club rather than an event."""

    club: Club

    def __init__(self, request: HttpRequest, club: Club) -> None:
        super().__init__(request)
        self.club = club


def _club_of(page: Page) -> Club:
    assert isinstance(page, ClubPage)
    return page.club


CLUB_ACTIONS = {
    "add-season": FormAction(forms.SeasonForm, _add_season),
    "roster-add": FormAction(forms.RosterAddForm, _roster_add),
    "roster-import": FormAction(forms.RosterImportForm, _roster_import),
    "add-director": FormAction(forms.ClubDirectorForm, _add_director),
    "remove-director": FormAction(forms.EmptyForm, _remove_director, target=_club_director),
    "merge": FormAction(forms.MergeForm, _merge, options=_roster_options),
    "link": FormAction(
        forms.LinkForm, _link, target=lambda page, key: _club_of(page).players_apart().filter(pk=_int(key)).first()
    ),
    "undo-merge": FormAction(
        forms.EmptyForm, _undo_merge, target=lambda page, key: club_reads.merge_of(_club_of(page), _int(key))
    ),
}


def _int(key: str) -> int:
    return int(key) if key.isdigit() else 0


def _merge_preview(page: ClubPage) -> tuple[Any, Any] | None:
    """A "Same person" form sent without its confirmation: the bound form and what the merge would move."""
    request = page.request
    if request.method != "POST" or request.POST.get("action") != "merge" or request.POST.get("merge-confirm"):
        return None
    form = forms.MergeForm(request.POST, prefix="merge", **_roster_options(page, None))
    if not form.is_valid():
        return None  # answered by the action, with its errors
    keep, fold = (club_reads.merge_candidate(page.club, request.user, form.cleaned_data[k]) for k in ("keep", "fold"))
    if keep is None or fold is None or keep.pk == fold.pk:
        return None  # refused by the action, with its reason
    confirm = forms.MergeForm(
        initial={"keep": keep.pk, "fold": fold.pk, "confirm": True}, prefix="merge", **_roster_options(page, None)
    )
    return confirm, club_reads.merge_preview(keep, fold)


@private
@director_page
@require_http_methods(["GET", "POST"])
def club_manage(request: HttpRequest, club: str) -> HttpResponse:
    """``/clubs/<club>/manage/``: the club's seasons, directors and roster, with the forms to add to them."""
    found = _club(request, club)
    page = ClubPage(request, found)
    failed = None
    preview = _merge_preview(page)
    if request.method == "POST" and preview is None:
        outcome = perform(page, CLUB_ACTIONS, reverse("tournaments:club-manage", args=[found.slug]))
        if not isinstance(outcome, Failed):
            return outcome
        failed = outcome
    context = {
        "club": found,
        "seasons": club_reads.seasons_of(found),
        "directors": found.directors.order_by("username"),
        "roster": club_reads.roster_page(
            found, find=request.GET.get("roster-find", ""), page=request.GET.get("roster-page")
        ),
        "roster_add_form": form_for(page, failed, CLUB_ACTIONS, "roster-add"),
        "roster_import_form": form_for(page, failed, CLUB_ACTIONS, "roster-import"),
        "season_form": form_for(page, failed, CLUB_ACTIONS, "add-season"),
        "director_form": form_for(page, failed, CLUB_ACTIONS, "add-director"),
        "merge_form": preview[0] if preview else form_for(page, failed, CLUB_ACTIONS, "merge"),
        "merge_preview": preview[1] if preview else None,
        "merges": club_reads.merges_of(found),
        "zone": club_reads.club_zone(found),
        "link_offers": club_reads.link_offers(found),
        "failed": failed,
    }
    return render(request, "director/club.html", context, status=failed.status if failed else 200)
