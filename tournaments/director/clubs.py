"""A club's page for its directors, ``/clubs/<club>/manage/``: its seasons (add one, with its points system and
the club's own table), its directors (add one by the name he logs in with, remove one but the last) and its
roster with each player's rating on the club's list.

Same rules as the other directors' pages (tournaments/director/views.py): login required, a club the user does
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
from django.views.decorators.http import require_http_methods

from config.audience import private
from games.errors import ApplicationError, ErrorCode
from tournaments.access import directs_club
from tournaments.director import forms as f
from tournaments.director.views import Action, Failed, Page, _form, _perform, _RefusedError, director_page
from tournaments.models import Club
from tournaments.selectors import clubs as club_reads
from tournaments.services.clubs import add_club_director, create_season, remove_club_director


def _club(request: HttpRequest, slug: str) -> Club:
    club = Club.objects.filter(slug=slug).select_related("rating_list").first()
    directs = club is not None and directs_club(request.user, club)
    if club is None or (not club.public and not directs):
        raise _RefusedError(render(request, "director/not_found.html", status=404))
    if not directs:
        raise _RefusedError(render(request, "director/club_forbidden.html", {"club": club}, status=403))
    return club


def _add_season(page: Page, target: Any, data: dict[str, Any]) -> str:
    season = create_season(
        _club_of(page),
        actor=page.actor,
        name=data["name"],
        starts_on=data["starts_on"],
        ends_on=data["ends_on"],
        system=data["system"],
        table=f.SeasonForm.table_of(data),
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


def _club_director(page: Page, key: str) -> Any:
    return _club_of(page).directors.filter(pk=int(key)).first() if key.isdigit() else None


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
    "add-season": Action(f.SeasonForm, _add_season),
    "add-director": Action(f.ClubDirectorForm, _add_director),
    "remove-director": Action(f.EmptyForm, _remove_director, target=_club_director),
}


@private
@director_page
@require_http_methods(["GET", "POST"])
def club_manage(request: HttpRequest, club: str) -> HttpResponse:
    """``/clubs/<club>/manage/``: the club's seasons, directors and roster, with the forms to add to them."""
    found = _club(request, club)
    page = ClubPage(request, found)
    failed = None
    if request.method == "POST":
        outcome = _perform(page, CLUB_ACTIONS, reverse("tournaments:club-manage", args=[found.slug]))
        if not isinstance(outcome, Failed):
            return outcome
        failed = outcome
    context = {
        "club": found,
        "seasons": club_reads.seasons_of(found),
        "directors": found.directors.order_by("username"),
        "roster": club_reads.rated_roster_of(found),
        "season_form": _form(page, failed, CLUB_ACTIONS, "add-season"),
        "director_form": _form(page, failed, CLUB_ACTIONS, "add-director"),
        "failed": failed,
    }
    return render(request, "director/club.html", context, status=failed.status if failed else 200)
