"""The director's events, ``/manage/``, and an event's dashboard, ``/manage/<event>/``: its divisions and their
current rounds, the results queue (rounds' pairings and playoffs' matches, each confirmed from here), the venue's
tables and calls (a live part the page polls), its directors.
"""

from __future__ import annotations

import hashlib
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Q
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from common.errors import ApplicationError, ErrorCode
from common.live import not_modified
from tournaments import selectors, services
from tournaments.director import forms
from tournaments.director.views.base import (
    Failed,
    FormAction,
    Page,
    answer,
    directed_event,
    director_page,
    form_for,
    perform,
)
from tournaments.director.views.divisions import confirm_playoff
from tournaments.director.views.matches import confirm, pairing_names
from tournaments.models import Event, Pairing, Playoff
from tournaments.selectors import clubs as club_reads
from tournaments.selectors import director as reads
from tournaments.selectors.common import QueueItem
from tournaments.selectors.director import DirectorBoard
from tournaments.selectors.playoffs import unsettled_playoffs
from tournaments.selectors.venue import Venue, venue_of
from tournaments.services.clubs import create_club

# -- /manage/ --------------------------------------------------------------------------------------------------------


def _create_event(page: Page, target: Any, data: dict[str, Any]) -> tuple[str, str]:
    event = services.create_event(actor=page.actor, **data)
    message = _("Event “%(name)s” created: add its divisions.") % {"name": event.name}
    return message, reverse("director:event", args=[event.slug])


def _create_club(page: Page, target: Any, data: dict[str, Any]) -> tuple[str, str]:
    club = create_club(actor=page.actor, name=data["name"], public=data["public"])
    said = _("Club “%(name)s” created: its events, roster, rating list and season are yours to run.") % {
        "name": club.name
    }
    return said, reverse("tournaments:club-manage", args=[club.slug])


HOME_ACTIONS = {
    "create-event": FormAction(
        forms.EventForm, _create_event, options=lambda page, target: {"clubs": reads.directed_clubs(page.request.user)}
    ),
    "create-club": FormAction(forms.ClubForm, _create_club),
}


@director_page
@require_http_methods(["GET", "POST"])
def home(request: HttpRequest) -> HttpResponse:
    """``/manage/``: the events the user directs, and a form to create one."""
    page = Page(request)
    failed = None
    if request.method == "POST":
        outcome = perform(page, HOME_ACTIONS, reverse("director:home"))
        if not isinstance(outcome, Failed):
            return outcome
        failed = outcome
    context = {
        "events": reads.directed_events(request.user),
        "event_form": form_for(page, failed, HOME_ACTIONS, "create-event"),
        "clubs": reads.directed_clubs(request.user),
        "club_form": form_for(page, failed, HOME_ACTIONS, "create-club"),
    }
    return answer(request, "director/home.html", context, failed)


# -- /manage/<event>/ ------------------------------------------------------------------------------------------------


def _create_division(page: Page, target: Any, data: dict[str, Any]) -> tuple[str, str]:
    settings = services.DivisionSettings(**{**data, "tiebreaks": data["tiebreaks"] or None})
    division = services.create_division(page.event_, actor=page.actor, settings=settings)
    message = _("Division “%(name)s” created: register its players.") % {"name": division.name}
    return message, reverse("director:division", args=[page.event_.slug, division.slug])


def _add_director(page: Page, target: Any, data: dict[str, Any]) -> str:
    user = get_user_model().objects.filter(username=data["username"]).first()
    if user is None:
        raise ApplicationError(ErrorCode.INVALID_INPUT, _("There is no user “%(name)s”.") % {"name": data["username"]})
    services.add_director(page.event_, actor=page.actor, user=user)
    return _("%(name)s now directs this event.") % {"name": user.get_username()}


def _remove_director(page: Page, user: Any, data: dict[str, Any]) -> str:
    services.remove_director(page.event_, actor=page.actor, user=user)
    return _("%(name)s no longer directs this event.") % {"name": user.get_username()}


def _event_pairing(page: Page, key: str) -> Pairing | None:
    if not key.isdigit():
        return None
    pairing = (
        Pairing.objects.filter(pk=int(key), division__event=page.event_)
        .select_related("division", "entry_a__player", "entry_b__player")
        .first()
    )
    return pairing


def _event_playoff_match(page: Page, key: str) -> str | None:
    """``key`` when it is the id of a match of a playoff of the event's divisions, else None (an unknown target)."""
    if not key.isdigit():
        return None
    mine = Playoff.objects.filter(Q(first_match_id=int(key)) | Q(final_match_id=int(key)), division__event=page.event_)
    return key if mine.exists() else None


def _event_director(page: Page, key: str) -> Any:
    return page.event_.directors.filter(pk=int(key)).first() if key.isdigit() else None


def _close_event(page: Page, target: Any, data: dict[str, Any]) -> str:
    services.close_event(page.event_, actor=page.actor)
    return _("The event is closed.")


def _set_tables(page: Page, target: Any, data: dict[str, Any]) -> str:
    tables = services.set_tables(page.event_, actor=page.actor, names=data["names"])
    if data["names"] is None:
        return _("The venue has as many tables as there are matches to play.")
    return _("The venue has %(count)s tables.") % {"count": len(tables)}


def _event_table(page: Page, key: str) -> int | None:
    return int(key) if key.isdigit() else None


def _hold_table(page: Page, number: int, data: dict[str, Any]) -> str:
    table = services.hold_table(page.event_, number, actor=page.actor)
    return _("%(table)s is held back: a match goes to it only when you send one.") % {"table": table.label}


def _release_table(page: Page, number: int, data: dict[str, Any]) -> str:
    table = services.hold_table(page.event_, number, actor=page.actor, held=False)
    return _("%(table)s takes the next match again.") % {"table": table.label}


def _seat_match(page: Page, pairing: Pairing, data: dict[str, Any]) -> str:
    seated = services.seat_match(pairing, data["table"], actor=page.actor)
    return _("%(a)s v %(b)s: now at %(table)s.") % {**pairing_names(pairing), "table": seated.table_label}


EVENT_ACTIONS = {
    "close-event": FormAction(forms.EmptyForm, _close_event),
    "set-tables": FormAction(forms.TablesForm, _set_tables),
    "hold-table": FormAction(forms.EmptyForm, _hold_table, target=_event_table),
    "release-table": FormAction(forms.EmptyForm, _release_table, target=_event_table),
    "seat-match": FormAction(forms.TableNumberForm, _seat_match, target=_event_pairing),
    "create-division": FormAction(
        forms.DivisionForm,
        _create_division,
        options=lambda page, target: {"seasons": club_reads.seasons_of(page.event_.club) if page.event_.club else []},
    ),
    "add-director": FormAction(forms.DirectorForm, _add_director),
    "remove-director": FormAction(forms.EmptyForm, _remove_director, target=_event_director),
    "confirm": FormAction(forms.EmptyForm, confirm, target=_event_pairing),
    "confirm-playoff": FormAction(forms.EmptyForm, confirm_playoff, target=_event_playoff_match),
}


@director_page
@require_http_methods(["GET", "POST"])
def event_page(request: HttpRequest, event: str) -> HttpResponse:
    """``/manage/<event>/``: divisions and their current rounds, the results queue, directors, new divisions."""
    found = directed_event(request, event)
    page = Page(request, found)
    failed = None
    if request.method == "POST":
        outcome = perform(page, EVENT_ACTIONS, reverse("director:event", args=[found.slug]))
        if not isinstance(outcome, Failed):
            return outcome
        failed = outcome
    divisions = reads.event_divisions(found)
    boards = reads.current_boards(found)
    unsettled = unsettled_playoffs(divisions)  # rounds over, a playoff to play: not over (one query, if any)
    for division in divisions:
        division.current_rounds = boards.get(division.pk, [])  # type: ignore[attr-defined]
        division.playoff_to_play = division.pk in unsettled  # type: ignore[attr-defined]
    found.playoff_to_play = bool(unsettled)  # type: ignore[attr-defined]
    venue = venue_of(found)
    context = {
        **_venue_context(found, venue),
        "divisions": divisions,
        "tables_form": form_for(page, failed, EVENT_ACTIONS, "set-tables", initial={"tables": _tables_text(venue)}),
        **_results_context(found),
        "directors": reads.event_directors(found),
        "division_form": form_for(page, failed, EVENT_ACTIONS, "create-division"),
        "director_form": form_for(page, failed, EVENT_ACTIONS, "add-director"),
    }
    return answer(request, "director/event.html", context, failed)


#: How often the dashboard's calls, queue and tables refresh themselves (seconds).
VENUE_POLL_SECONDS = 5
#: The matches of the queue the dashboard lists, each with its Seat form (a round robin's made ahead of play can
#: be a thousand): the others are counted.
QUEUE_SHOWN = 30


def _venue_context(event: Event, venue: Venue) -> dict[str, Any]:
    return {
        "event": event,
        "venue": venue,
        "venue_etag": _venue_etag(venue),
        "poll_trigger": f"every {VENUE_POLL_SECONDS}s",
        "queue_shown": QUEUE_SHOWN,
        "queue_minus": -QUEUE_SHOWN,
    }


def _venue_etag(venue: Venue) -> str:
    """The ETag of the dashboard's live part: a digest of everything it shows (its forms' CSRF tokens aside)."""

    def shown(p: Pairing | None) -> tuple[object, ...]:
        if p is None:
            return ()
        names = tuple(e.player.display_name if e else "" for e in (p.entry_a, p.entry_b))
        return (p.pk, p.division.name, p.round.bracket, p.round.number, *names, p.called_at, p.table_label)

    def state(board: DirectorBoard | None) -> tuple[object, ...]:
        return () if board is None else (board.state, board.score, board.pairing.confirmation_side)

    seats = [
        (s.table.number, s.table.label, s.table.held, s.called, *shown(s.pairing), *state(s.board)) for s in venue.seats
    ]
    queue = [shown(p) for p in venue.queue[:QUEUE_SHOWN]], len(venue.queue)
    digest = hashlib.sha256(repr((seats, queue)).encode()).hexdigest()
    return f'"{digest[:24]}"'


@director_page
@require_GET
def event_venue_live(request: HttpRequest, event: str) -> HttpResponse:
    """``/manage/<event>/live/venue/``: the dashboard's calls, queue and tables alone, which its page polls; 304
    when the director's copy is current (two queries)."""
    found = directed_event(request, event)
    context = _venue_context(found, venue_of(found))
    return _live_part(request, "director/_venue_live.html", context, context["venue_etag"])


def _live_part(request: HttpRequest, template: str, context: dict[str, Any], etag: str) -> HttpResponse:
    """A part of the dashboard its page polls: 304 when the director's copy (``etag``) is current, else the part."""
    if not_modified(request, etag):
        response: HttpResponse = HttpResponseNotModified()
    else:
        response = render(request, template, context)
    response["ETag"] = etag
    return response


def _results_context(event: Event) -> dict[str, Any]:
    queue = selectors.director_queue(event)
    return {"queue": queue, "results_etag": _results_etag(queue)}


def _results_etag(queue: list[QueueItem]) -> str:
    """The ETag of the dashboard's results queue: a digest of what each item shows (its forms' CSRF tokens aside):
    a pairing's row changes its ``updated_at`` with every result written, a playoff's match its own fields."""

    def shown(item: QueueItem) -> tuple[object, ...]:
        said = (item.division.name, item.confirmation, item.dispute, item.since)
        if item.pairing is not None:
            p = item.pairing
            names = tuple(e.player.display_name if e else "" for e in (p.entry_a, p.entry_b))
            return (*said, p.pk, p.updated_at, p.score_a, p.score_b, p.confirmation_side, p.table_label, *names)
        assert item.playoff is not None
        return (*said, repr(item.playoff.match))

    digest = hashlib.sha256(repr([shown(item) for item in queue]).encode()).hexdigest()
    return f'"{digest[:24]}"'


@director_page
@require_GET
def event_results_live(request: HttpRequest, event: str) -> HttpResponse:
    """``/manage/<event>/live/results/``: the dashboard's results waiting for a confirmation or disputed, alone,
    which its page polls as it polls the tables; 304 when the director's copy is current."""
    found = directed_event(request, event)
    context = {"event": found, "poll_trigger": f"every {VENUE_POLL_SECONDS}s", **_results_context(found)}
    return _live_part(request, "director/_results_queue.html", context, context["results_etag"])


def _tables_text(venue: Venue) -> str:
    """The venue's tables as the form takes them: empty (as many as needed), a count, or one table a line."""
    if not venue.tables_given:
        return ""
    if not any(seat.table.name for seat in venue.seats):
        return str(len(venue.seats))
    return "\n".join(seat.table.name or str(seat.table.number) for seat in venue.seats)
