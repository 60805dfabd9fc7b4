"""The directors' pages: their events, an event's dashboard, a division's registration and rounds, a match's
corrections, and the printable pairing sheet, score cards and final standings.

Who: a logged-in user sees the events he directs (staff: all). Another event is a 403 page when it is public (the
event exists, he is not one of its directors) and a 404 page when it is private; anonymous visitors are sent to
the login page. Every response is ``Cache-Control: private, no-store`` (the pairing sheet carries the players'
entry links).

How: thin views (docs/ARCHITECTURE.md, "Where logic lives"). A page answers GET with its forms and POST with one action
named by the form's ``action`` field (and, for a row of a table, its ``target``): the form checks the shape, one
service does the work with ``actor=Actor(user=request.user)``. Success redirects back with a message
(Post/Redirect/Get); a refusal (a form error or the service's ``ApplicationError``) renders the page again with the
message on the form that was sent and what the director typed, and the service has written nothing.
"""

from __future__ import annotations

import csv
import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import wraps
from typing import Any

import segno
from django import forms
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.db.models import Count, Q
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.utils.html import escape
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from common.actor import Actor
from common.errors import ApplicationError, ErrorCode
from common.live import not_modified
from games import services as games
from games.access import reissue_entry_token, token_text
from games.analysis.selectors import match_analysis_of
from games.analysis.service import AnalysisRefusedError, request_analysis
from games.models import Match
from games.selectors import entry_words, open_correction_request
from tournaments import selectors, services
from tournaments.access import directs_event
from tournaments.core import has_fees, pool_of, round_robin_lead, round_words
from tournaments.director import forms as f
from tournaments.entry_caps import is_capped
from tournaments.models import Division, Entry, Event, Pairing, Round
from tournaments.pages import (
    TIEBREAK_COLUMNS,
    correction_notes,
    final_titles,
    place_columns,
    prize_cells,
    prize_columns,
    remainder_notes,
    tiebreak_name,
)
from tournaments.selectors import clubs as club_reads
from tournaments.selectors import director as reads
from tournaments.selectors.money import event_cash
from tournaments.selectors.playoffs import division_playoffs
from tournaments.selectors.venue import Venue, venue_of
from tournaments.services.clubs import create_club
from tournaments.services.money import FeeSettings, mark_paid, set_fees
from tournaments.services.payouts import payout_flights, set_payouts, stored_table
from tournaments.views import csv_cell

# -- access ----------------------------------------------------------------------------------------------------------


class _RefusedError(Exception):
    """Raised while looking up a page's event or division: the response that says why (403 or 404)."""

    def __init__(self, response: HttpResponse) -> None:
        super().__init__(response.status_code)
        self.response = response


def _not_found(request: HttpRequest) -> _RefusedError:
    return _RefusedError(render(request, "director/not_found.html", status=404))


def _check_directs(request: HttpRequest, event: Event) -> None:
    if directs_event(request.user, event):
        return
    if not event.public:
        raise _not_found(request)  # a private event's existence is not told
    raise _RefusedError(render(request, "director/forbidden.html", {"event": event}, status=403))


def _event(request: HttpRequest, slug: str) -> Event:
    event = Event.objects.filter(slug=slug).select_related("club").first()
    if event is None:
        raise _not_found(request)
    _check_directs(request, event)
    return event


def _division(request: HttpRequest, event: str, division: str) -> Division:
    found = Division.objects.select_related("event").filter(event__slug=event, slug=division).first()
    if found is None:
        _event(request, event)  # someone else's event: 403 before "no such division"
        raise _not_found(request)
    _check_directs(request, found.event)
    return found


def director_page(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Login required; a refused lookup answers its 403/404 page; nothing is cached outside the browser."""

    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        try:
            response = view(request, *args, **kwargs)
        except _RefusedError as refused:
            response = refused.response
        patch_cache_control(response, private=True, no_store=True)
        return response

    return login_required(wrapped)


# -- actions ---------------------------------------------------------------------------------------------------------


@dataclass
class Page:
    """What a page is about, and the rows a form's choices need (loaded once, on demand)."""

    request: HttpRequest
    event: Event | None = None
    division: Division | None = None
    pairing: Pairing | None = None
    _cache: dict[str, Any] = field(default_factory=dict)

    @property
    def actor(self) -> Actor:
        return Actor(user=self.request.user)

    def once(self, name: str, load: Callable[[], Any]) -> Any:
        if name not in self._cache:
            self._cache[name] = load()
        return self._cache[name]

    @property
    def event_(self) -> Event:
        assert self.event is not None
        return self.event

    @property
    def division_(self) -> Division:
        assert self.division is not None
        return self.division

    @property
    def pairing_(self) -> Pairing:
        assert self.pairing is not None
        return self.pairing


@dataclass(frozen=True)
class Action:
    """A form a page accepts: its class, extra arguments from the page and target, the target's lookup (None: the
    action has no target) and the service call, which returns the message shown after the redirect (and, if it
    is not the page itself, where to go)."""

    form: type[forms.Form]
    run: Callable[[Page, Any, dict[str, Any]], str | tuple[str, str]]
    target: Callable[[Page, str], Any] | None = None
    options: Callable[[Page, Any], dict[str, Any]] = lambda page, target: {}


@dataclass
class Failed:
    """A submission that was refused: which form, its bound copy (with the errors), the status to answer."""

    action: str
    target: str
    form: forms.Form
    status: int


def _prefix(action: str, target: Any = "") -> str:
    return f"{action}-{target}" if target != "" else action


def _perform(page: Page, actions: dict[str, Action], done: str) -> HttpResponse | Failed:
    request = page.request
    name = request.POST.get("action", "")
    action = actions.get(name)
    if action is None:
        return Failed(name, "", _unknown(_("This form is not known here: reload the page and try again.")), 400)
    key, target = "", None
    if action.target is not None:
        key = request.POST.get("target", "")
        target = action.target(page, key)
        if target is None:
            return Failed(name, key, _unknown(_("What this form was about no longer exists: reload the page.")), 404)
    form = action.form(request.POST, request.FILES, prefix=_prefix(name, key), **action.options(page, target))
    if not form.is_valid():
        return Failed(name, key, form, 400)
    try:
        outcome = action.run(page, target, form.cleaned_data)
    except ApplicationError as exc:
        form.add_error(None, _refusal(exc.message))
        if hasattr(form, "refused"):  # a form that offers a way out of the refusal (a player to choose)
            form.refused(str(exc.code), exc.extra)
        return Failed(name, key, form, exc.status if 400 <= exc.status < 500 else 400)
    message, done = outcome if isinstance(outcome, tuple) else (outcome, done)
    messages.success(request, message)
    return redirect(done)


#: What the page's refusal says first (director/layout.html): a service's message that ends with it says it once.
_NOTHING_CHANGED = " Nothing was changed."


def _refusal(message: str) -> str:
    return message.removesuffix(_NOTHING_CHANGED)


def _unknown(message: str) -> forms.Form:
    form = f.EmptyForm({}, prefix="unknown")
    form.is_valid()
    form.add_error(None, message)
    return form


def _form(
    page: Page, failed: Failed | None, actions: dict[str, Action], name: str, target: Any = None, **kw: Any
) -> forms.Form:
    """The form to show: the bound one that failed, or a fresh one."""
    key = "" if target is None else str(target.pk if hasattr(target, "pk") else target)
    if failed is not None and (failed.action, failed.target) == (name, key):
        return failed.form
    action = actions[name]
    return action.form(prefix=_prefix(name, key), **action.options(page, target), **kw)


def _answer(request: HttpRequest, template: str, context: dict[str, Any], failed: Failed | None) -> HttpResponse:
    return render(request, template, {**context, "failed": failed}, status=failed.status if failed else 200)


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
    "create-event": Action(
        f.EventForm, _create_event, options=lambda page, target: {"clubs": reads.directed_clubs(page.request.user)}
    ),
    "create-club": Action(f.ClubForm, _create_club),
}


@director_page
@require_http_methods(["GET", "POST"])
def home(request: HttpRequest) -> HttpResponse:
    """``/manage/``: the events the user directs, and a form to create one."""
    page = Page(request)
    failed = None
    if request.method == "POST":
        outcome = _perform(page, HOME_ACTIONS, reverse("director:home"))
        if not isinstance(outcome, Failed):
            return outcome
        failed = outcome
    context = {
        "events": reads.directed_events(request.user),
        "event_form": _form(page, failed, HOME_ACTIONS, "create-event"),
        "clubs": reads.directed_clubs(request.user),
        "club_form": _form(page, failed, HOME_ACTIONS, "create-club"),
    }
    return _answer(request, "director/home.html", context, failed)


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


def _confirm(page: Page, pairing: Pairing, data: dict[str, Any]) -> str:
    services.confirm_result(pairing, actor=page.actor)
    return _("Result confirmed: %(a)s v %(b)s.") % _names(pairing)


def _names(pairing: Pairing) -> dict[str, str]:
    a, b = pairing.entry_a, pairing.entry_b
    return {"a": a.player.display_name if a else "—", "b": b.player.display_name if b else "—"}


def _event_pairing(page: Page, key: str) -> Pairing | None:
    if not key.isdigit():
        return None
    pairing = (
        Pairing.objects.filter(pk=int(key), division__event=page.event_)
        .select_related("division", "entry_a__player", "entry_b__player")
        .first()
    )
    return pairing


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
    return _("%(a)s v %(b)s: now at %(table)s.") % {**_names(pairing), "table": seated.table_label}


EVENT_ACTIONS = {
    "close-event": Action(f.EmptyForm, _close_event),
    "set-tables": Action(f.TablesForm, _set_tables),
    "hold-table": Action(f.EmptyForm, _hold_table, target=_event_table),
    "release-table": Action(f.EmptyForm, _release_table, target=_event_table),
    "seat-match": Action(f.TableNumberForm, _seat_match, target=_event_pairing),
    "create-division": Action(
        f.DivisionForm,
        _create_division,
        options=lambda page, target: {"seasons": club_reads.seasons_of(page.event_.club) if page.event_.club else []},
    ),
    "add-director": Action(f.DirectorForm, _add_director),
    "remove-director": Action(f.EmptyForm, _remove_director, target=_event_director),
    "confirm": Action(f.EmptyForm, _confirm, target=_event_pairing),
}


@director_page
@require_http_methods(["GET", "POST"])
def event_page(request: HttpRequest, event: str) -> HttpResponse:
    """``/manage/<event>/``: divisions and their current rounds, the results queue, directors, new divisions."""
    found = _event(request, event)
    page = Page(request, found)
    failed = None
    if request.method == "POST":
        outcome = _perform(page, EVENT_ACTIONS, reverse("director:event", args=[found.slug]))
        if not isinstance(outcome, Failed):
            return outcome
        failed = outcome
    divisions = reads.event_divisions(found)
    boards = reads.current_boards(found)
    for division in divisions:
        division.current_rounds = boards.get(division.pk, [])  # type: ignore[attr-defined]
    venue = venue_of(found)
    context = {
        **_venue_context(found, venue),
        "divisions": divisions,
        "tables_form": _form(page, failed, EVENT_ACTIONS, "set-tables", initial={"tables": _tables_text(venue)}),
        "queue": selectors.director_queue(found),
        "directors": reads.event_directors(found),
        "division_form": _form(page, failed, EVENT_ACTIONS, "create-division"),
        "director_form": _form(page, failed, EVENT_ACTIONS, "add-director"),
    }
    return _answer(request, "director/event.html", context, failed)


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

    seats = [(s.table.number, s.table.label, s.table.held, s.called, *shown(s.pairing)) for s in venue.seats]
    queue = [shown(p) for p in venue.queue[:QUEUE_SHOWN]], len(venue.queue)
    digest = hashlib.sha256(repr((seats, queue)).encode()).hexdigest()
    return f'"{digest[:24]}"'


@director_page
@require_GET
def event_venue_live(request: HttpRequest, event: str) -> HttpResponse:
    """``/manage/<event>/live/venue/``: the dashboard's calls, queue and tables alone, which its page polls; 304
    when the director's copy is current (two queries)."""
    found = _event(request, event)
    context = _venue_context(found, venue_of(found))
    if not_modified(request, context["venue_etag"]):
        response: HttpResponse = HttpResponseNotModified()
    else:
        response = render(request, "director/_venue_live.html", context)
    response["ETag"] = context["venue_etag"]
    return response


def _tables_text(venue: Venue) -> str:
    """The venue's tables as the form takes them: empty (as many as needed), a count, or one table a line."""
    if not venue.tables_given:
        return ""
    if not any(seat.table.name for seat in venue.seats):
        return str(len(venue.seats))
    return "\n".join(seat.table.name or str(seat.table.number) for seat in venue.seats)


# -- /manage/<event>/<division>/ -------------------------------------------------------------------------------------


def _register(page: Page, target: Any, data: dict[str, Any]) -> str:
    choice = data.pop("choice", "")
    if choice == "new":
        data["new_player"] = True
    elif choice:
        data["player"] = reads.roster_choice(page.division_.event, int(choice))
        if data["player"] is None:
            raise ApplicationError(ErrorCode.INVALID_INPUT, _("That player is not on the club's roster: choose again."))
    entry = services.register_player(page.division_, actor=page.actor, **data)
    return _("%(name)s is registered.") % {"name": entry.player.display_name}


def _import(page: Page, target: Any, data: dict[str, Any]) -> str:
    report = services.import_entries_csv(
        page.division_, actor=page.actor, text=data["text"], choices=data.get("choices") or {}
    )
    return _("%(count)s players registered from the list.") % {"count": len(report.created)}


def _check_in(page: Page, entry: Entry, data: dict[str, Any]) -> str:
    services.check_in(entry, actor=page.actor, present=data["present"], cap_override=data.get("cap_override", ""))
    if data["present"]:
        return _("%(name)s is checked in.") % {"name": entry.player.display_name}
    return _("%(name)s is no longer checked in.") % {"name": entry.player.display_name}


def _check_in_all(page: Page, target: Any, data: dict[str, Any]) -> str:
    count = services.check_in_all(page.division_, actor=page.actor, entries=data["entries"])
    return _("%(count)s players checked in.") % {"count": count}


#: The actions of the players' list that a page using htmx sends without a reload: the answer is the rows changed,
#: the count and the message (a refusal: the whole list, with what was refused).
_IN_PLACE = ("check-in", "check-in-all", "pay")
#: Of those, the ones about one row, answered with that row.
_ONE_ROW = ("check-in", "pay")


def _withdraw(page: Page, entry: Entry, data: dict[str, Any]) -> str:
    refund = data.get("refund", False)
    services.withdraw_entry(entry, actor=page.actor, reason=data["reason"], refund=refund)
    if refund:
        return _("%(name)s has withdrawn, and his fees are refunded.") % {"name": entry.player.display_name}
    return _("%(name)s has withdrawn.") % {"name": entry.player.display_name}


_PAID_WORDS = {"cash": _("in cash"), "transfer": _("by transfer")}


def _pay(page: Page, entry: Entry, data: dict[str, Any]) -> str:
    sent = page.request.POST
    fee = data["fee"] if f"pay-{entry.pk}-fee" in sent else None
    side = data["side"] if f"pay-{entry.pk}-side" in sent else None
    entry = mark_paid(entry, actor=page.actor, fee=fee, side_pool=side)
    name = entry.player.display_name
    if side is not None:
        if not side:
            return _("%(name)s is out of the side pool.") % {"name": name}
        return _("%(name)s paid the side pool %(how)s.") % {"name": name, "how": _PAID_WORDS[side]}
    if not fee:
        return _("%(name)s has not paid: the mark is taken back.") % {"name": name}
    return _("%(name)s paid %(how)s.") % {"name": name, "how": _PAID_WORDS[fee]}


def _money(page: Page, target: Any, data: dict[str, Any]) -> str:
    settings = FeeSettings(
        entry_fee=data["entry_fee"],
        side_pool_fee=data["side_pool_fee"],
        house_share=data["house_share"],
        added_money=data["added_money"],
        side_pool_prizes=data["side_pool_prizes"],
    )
    division = set_fees(page.division_, actor=page.actor, settings=settings)
    if not (division.entry_fee or division.side_pool_fee or division.added_money):
        return _("%(name)s is free to enter.") % {"name": division.name}
    return _("The fees of %(name)s are stored: mark who paid in the players' list.") % {"name": division.name}


def _money_initial(division: Division) -> dict[str, Any]:
    return {
        "entry_fee": division.entry_fee,
        "side_pool_fee": division.side_pool_fee,
        "house_share": division.house_share,
        "added_money": division.added_money,
        "side_pool_prizes": ", ".join(division.side_pool_prizes),
    }


def _seed(page: Page, entry: Entry, data: dict[str, Any]) -> str:
    services.set_seed(entry, actor=page.actor, seed=data["seed"])
    if data["seed"] is None:
        return _("%(name)s has no seed.") % {"name": entry.player.display_name}
    return _("%(name)s is seed %(seed)s.") % {"name": entry.player.display_name, "seed": data["seed"]}


def _start(page: Page, target: Any, data: dict[str, Any]) -> str:
    services.start_division(page.division_, actor=page.actor, only_checked_in=data["only_checked_in"])
    return _("%(name)s has started: the first round is drawn.") % {"name": page.division_.name}


def _pair_next(page: Page, target: Any, data: dict[str, Any]) -> str:
    rnd = services.pair_next_round(page.division_, actor=page.actor, allow_rematches=data["allow_rematches"])
    if rnd.bracket == Round.Bracket.MAIN:  # a Swiss into a knockout's knockout
        return _("The knockout is drawn from the Swiss standings: its first round is ready to play.")
    return _("Round %(number)s is paired.") % {"number": rnd.number}


def _swiss_rounds(page: Page, target: Any, data: dict[str, Any]) -> str:
    division = services.set_swiss_rounds(page.division_, actor=page.actor, rounds=data["rounds"])
    if division.knockout_drawn:
        return _knockout_drawn(division)
    if division.status == Division.Status.FINISHED:
        return _("%(name)s is over after %(rounds)s rounds.") % {"name": division.name, "rounds": data["rounds"]}
    return _("%(name)s now plays %(rounds)s rounds.") % {"name": division.name, "rounds": data["rounds"]}


def _knockout_drawn(division: Division) -> str:
    return _("The Swiss of %(name)s is over after %(rounds)s rounds: the knockout is drawn from its standings.") % {
        "name": division.name,
        "rounds": division.rounds_planned,
    }


def _end_swiss(page: Page, target: Any, data: dict[str, Any]) -> str:
    division = services.end_swiss(page.division_, actor=page.actor)
    if division.knockout_drawn:
        return _knockout_drawn(division)
    if division.is_swiss_knockout:
        return _(
            "The Swiss of %(name)s ends after round %(rounds)s: the knockout is drawn once its results are in."
        ) % {
            "name": division.name,
            "rounds": division.rounds_planned,
        }
    if division.status == Division.Status.FINISHED:
        return _("%(name)s is over after %(rounds)s rounds.") % {
            "name": division.name,
            "rounds": division.rounds_planned,
        }
    return _("%(name)s ends after round %(rounds)s: it is over once that round's results are in.") % {
        "name": division.name,
        "rounds": division.rounds_planned,
    }


def _unpair(page: Page, target: Any, data: dict[str, Any]) -> str:
    number = services.unpair_round(page.division_, actor=page.actor)
    return _("Round %(number)s is taken back: pair it again when ready.") % {"number": number}


def _repair(page: Page, target: Any, data: dict[str, Any]) -> str:
    rnd = services.repair_round(page.division_, actor=page.actor, allow_rematches=data["allow_rematches"])
    return _("Round %(number)s is paired again from the results as they are now.") % {"number": rnd.number}


def _close_last_chance(page: Page, target: Any, data: dict[str, Any]) -> str:
    services.close_last_chance_places(page.division_, actor=page.actor)
    return _("The last-chance places are closed.")


def _payouts(page: Page, target: Any, data: dict[str, Any]) -> str:
    flights = {flight: data[name] for flight, name in f.PAYOUT_FLIGHT_FIELDS.items() if name in data}
    division = set_payouts(
        page.division_,
        actor=page.actor,
        mode=data["mode"],
        pool=data["pool"],
        ties=data["ties"],
        published=data["published"],
        flights=flights,
        one_prize=data.get("one_prize", False),
    )
    if not division.payouts["flights"]:
        return _("The payout table is empty: nobody is paid.")
    if division.payouts["published"]:
        return _("The payout table is stored, and shown on the public standings.")
    return _("The payout table is stored (not published).")


def _payouts_initial(division: Division) -> dict[str, Any]:
    table = stored_table(division)
    initial: dict[str, Any] = {name: table[name] for name in ("mode", "pool", "ties", "published", "one_prize")}
    for flight, values in table["flights"].items():
        initial[f.PAYOUT_FLIGHT_FIELDS[flight]] = ", ".join(values)
    return initial


def _payout_table(division: Division, *, always: bool = False) -> dict[str, Any]:
    """The latest standings with each row's places and prizes, the columns, and what rounding left over (without
    a payout table no rows, and no query, unless ``always``)."""
    wanted = always or bool((division.payouts or {}).get("flights")) or bool(division.side_pool_fee)
    rows = selectors.standings_table(division) if wanted else []
    payouts = selectors.payouts_of(division, rows)
    flights = place_columns(rows)
    table = [
        {
            "row": row,
            "places": [row.places.get(flight, "") for flight, _ in flights],
            "prizes": prize_cells(payouts, row.entry_id),
        }
        for row in rows
    ]
    return {
        "table": table,
        "flights": flights,
        "prize_columns": prize_columns(payouts),
        "remainders": remainder_notes(payouts),
        "published": payouts.published,
    }


def _entries(page: Page) -> list[Entry]:
    return page.once("entries", lambda: reads.division_entries(page.division_))


def _rounds(page: Page) -> list[reads.RoundBoards]:
    return page.once("rounds", lambda: reads.division_rounds(page.division_))


def _swap(page: Page, target: Any, data: dict[str, Any]) -> str:
    entries = {str(e.pk): e for e in _entries(page)}
    first, second = entries[data["first"]], entries[data["second"]]
    services.swap_players(
        page.division_,
        actor=page.actor,
        first=first,
        second=second,
        reason=data["reason"],
        allow_rematch=data["allow_rematch"],
    )
    return _("%(a)s and %(b)s swapped places.") % {"a": first.player.display_name, "b": second.player.display_name}


def _open_sides(page: Page) -> list[tuple[str, str]]:
    """Every player of an open match of the division, as "pairing key:entry id"."""
    sides = []
    for group in _rounds(page):
        for board in group.open_boards:
            p = board.pairing
            for entry, other in ((p.entry_a, p.entry_b), (p.entry_b, p.entry_a)):
                if entry is None or other is None:
                    continue
                label = _("%(round)s, %(place)s: %(name)s (against %(other)s)") % {
                    "round": round_words(p.round, page.division_),
                    "place": p.place_label,
                    "name": entry.player.display_name,
                    "other": other.player.display_name,
                }
                sides.append((f"{p.key}:{entry.pk}", label))
    return sides


def _forfeit_anywhere(page: Page, target: Any, data: dict[str, Any]) -> str:
    key, _sep, entry_id = data["loser"].partition(":")
    pairing = reads.division_pairing(page.division_, key)
    assert pairing is not None  # the choice was one of the division's open matches
    return _forfeit(page, pairing, {**data, "loser": entry_id})


def _forfeit(page: Page, pairing: Pairing, data: dict[str, Any]) -> str:
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


def _order_playoff(page: Page, target: str, data: dict[str, Any]) -> str:
    entries = [int(pk) for pk in target.split("-")]
    playoff = services.order_playoff(page.division_, actor=page.actor, entries=entries, length=data["length"])
    return _(
        "The playoff for the tie at place %(place)s is ordered: its first match is made, with entry links for both "
        "players (below)."
    ) % {"place": playoff.place}


def _cancel_playoff(page: Page, target: str, data: dict[str, Any]) -> str:
    services.cancel_playoff(int(target), actor=page.actor, division=page.division_)
    return _("The playoff is cancelled: the tie stands as the tie-breaks and seeds leave it.")


def _playoffs_context(page: Page, failed: Failed | None, table: list[Any] | None) -> dict[str, Any]:
    """The ties that matter, each with its form to order a playoff, and the playoffs ordered (no query at all for a
    division whose standings cannot hold one; never one per player)."""
    found = division_playoffs(page.division_, table=table)
    ties = [
        (tie, _form(page, failed, DIVISION_ACTIONS, "order-playoff", target=tie.entries_value))
        if tie.tie.orderable and tie.playoff is None
        else (tie, None)
        for tie in found.ties
    ]
    return {"playoffs": found, "playoff_ties": ties}


def _entry_target(page: Page, key: str) -> Entry | None:
    return reads.division_entry(page.division_, key)


DIVISION_ACTIONS = {
    "register": Action(
        f.RegisterForm,
        _register,
        options=lambda page, target: {
            "last_chance": page.division_.format == Division.Format.LAST_CHANCE,
            "capped": is_capped(page.division_),
        },
    ),
    "import": Action(f.ImportForm, _import),
    "check-in": Action(f.CheckInForm, _check_in, target=_entry_target),
    "check-in-all": Action(f.CheckInAllForm, _check_in_all, options=lambda page, target: {"entries": _entries(page)}),
    "withdraw": Action(
        f.WithdrawForm,
        _withdraw,
        target=_entry_target,
        options=lambda page, target: {
            "refundable": page.division_.status == Division.Status.REGISTRATION and has_fees(page.division_)
        },
    ),
    "pay": Action(f.PayForm, _pay, target=_entry_target),
    "money": Action(f.MoneyForm, _money),
    "seed": Action(f.SeedForm, _seed, target=_entry_target),
    "start": Action(f.StartForm, _start),
    "pair-next": Action(f.PairRoundForm, _pair_next),
    "swiss-rounds": Action(f.SwissRoundsForm, _swiss_rounds),
    "end-swiss": Action(f.EmptyForm, _end_swiss),
    "unpair": Action(f.EmptyForm, _unpair),
    "repair": Action(f.PairRoundForm, _repair),
    "close-last-chance": Action(f.EmptyForm, _close_last_chance),
    "swap": Action(f.SwapForm, _swap, options=lambda page, target: {"entries": _active(_entries(page))}),
    "forfeit": Action(f.ForfeitForm, _forfeit_anywhere, options=lambda page, target: {"sides": _open_sides(page)}),
    "payouts": Action(
        f.PayoutsForm, _payouts, options=lambda page, target: {"flights": payout_flights(page.division_)}
    ),
    "order-playoff": Action(f.PlayoffForm, _order_playoff, target=lambda page, key: _digits(key, "-")),
    "cancel-playoff": Action(f.EmptyForm, _cancel_playoff, target=lambda page, key: _digits(key, "")),
}


def _digits(key: str, sep: str) -> str | None:
    """``key`` when it is ids (``12`` or, with ``sep``, ``12-13``), else None (an unknown target)."""
    parts = key.split(sep) if sep else [key]
    return key if key and all(part.isdigit() for part in parts) else None


def _active(entries: list[Entry]) -> list[Entry]:
    return [e for e in entries if e.status != Entry.Status.WITHDRAWN]


@director_page
@require_http_methods(["GET", "POST"])
def division_page(request: HttpRequest, event: str, division: str) -> HttpResponse:
    """``/manage/<event>/<division>/``: registration, check-in, seeds, the start, rounds and decisions."""
    found = _division(request, event, division)
    page = Page(request, found.event, found)
    failed = None
    in_place = request.headers.get("HX-Request") == "true" and request.POST.get("action") in _IN_PLACE
    if request.method == "POST":
        outcome = _perform(page, DIVISION_ACTIONS, reverse("director:division", args=[event, division]))
        if not isinstance(outcome, Failed) and not in_place:
            return outcome
        failed = outcome if isinstance(outcome, Failed) else None
    if in_place:
        # What was done said inside the list (the message is not kept for the next page): a check-in or its undo
        # answers its row, the count and the message; check-in-all the rows it sent, each swapped out of band; a
        # refusal, the whole list.
        said = [str(m) for m in messages.get_messages(request)]
        found = _division(request, event, division)
        page = Page(request, found.event, found)
        one = request.POST.get("action") in _ONE_ROW
        entry = reads.division_entry(found, request.POST.get("target", "")) if one and failed is None else None
        if entry is not None:
            context = {**_row_context(page, entry), "event": found.event, "division": found, "said": said}
            return render(request, "director/_player_row_answer.html", context)
        if request.POST.get("action") == "check-in-all" and failed is None:
            sent = [pk for pk in request.POST.getlist("check-in-all-entries") if pk.isdigit()]
            changed = reads.division_entries_among(found, sent)
            context = {**_counts(found), "event": found.event, "division": found, "said": said}
            context["rows"] = [_player_row(page, None, e) for e in changed]
            context["registering"] = found.status == Division.Status.REGISTRATION
            response = render(request, "director/_players_checked_in.html", context)
            response["HX-Reswap"] = "none"  # the list stays: its changed rows, the count and the message are swapped
            return response
        context = {**_players_context(page, failed), "event": found.event, "division": found, "said": said}
        # 200 also for a refusal, so that htmx shows it in the list.
        response = render(request, "director/_players.html", {**context, "failed": failed})
        if one:  # the row's form targets its row: the list replaces the list
            response["HX-Retarget"], response["HX-Reswap"] = "#players-list", "outerHTML"
        return response
    forms_shown = {
        name.replace("-", "_"): _form(page, failed, DIVISION_ACTIONS, name)
        for name in ("register", "import", "start", "pair-next", "close-last-chance", "swap", "forfeit")
    }
    context = {
        **_players_context(page, failed),
        "event": found.event,
        "division": found,
        "rounds": _rounds(page),
        "running": found.status == Division.Status.RUNNING,
        "forms": {
            **forms_shown,
            "payouts": _form(page, failed, DIVISION_ACTIONS, "payouts", initial=_payouts_initial(found)),
            "money": _form(page, failed, DIVISION_ACTIONS, "money", initial=_money_initial(found)),
        },
        "payouts": _payout_table(found),
        "money": pool_of(found) if has_fees(found) else None,
    }
    read = [item["row"] for item in context["payouts"]["table"]] or None
    context.update(_playoffs_context(page, failed, read))
    if found.in_swiss_phase and found.status == Division.Status.RUNNING:
        steering = {
            "swiss_rounds": _form(
                page, failed, DIVISION_ACTIONS, "swiss-rounds", initial={"rounds": found.rounds_planned}
            ),
            "repair": _form(page, failed, DIVISION_ACTIONS, "repair"),
        }
        context["forms"] = {**context["forms"], **steering}
        current = max((group.round for group in _rounds(page)), key=lambda rnd: rnd.number, default=None)
        offered = current is not None and current.number > 1 and services.round_needs_repairing(found, current)
        context["repair_offered"] = offered
    context["corrections"] = correction_notes(
        found, [board.pairing for group in _rounds(page) for board in group.boards]
    )
    return _answer(request, "director/division.html", context, failed)


def _players_context(page: Page, failed: Failed | None) -> dict[str, Any]:
    """The players' list of the division page (also answered alone to a check-in sent without a reload)."""
    found = page.division_
    titles = final_titles(found)  # once the division is over: each player's title or place, not "eliminated"
    rows = [_player_row(page, failed, entry) for entry in _entries(page)]
    for row in rows:
        withdrawn = row["entry"].status == Entry.Status.WITHDRAWN
        row["title"] = "" if withdrawn else titles.get(row["entry"].pk, "")
    return {
        "rows": rows,
        "registering": found.status == Division.Status.REGISTRATION,
        "finished": found.status == Division.Status.FINISHED,
        "checked_in": sum(e.status == Entry.Status.CHECKED_IN for e in _entries(page)),
        "playing": len(_active(_entries(page))),
    }


def _player_row(page: Page, failed: Failed | None, entry: Entry) -> dict[str, Any]:
    """A row of the players' list: the entry and the forms it offers, as HTML (see :func:`_row_form`)."""
    registering = page.division_.status == Division.Status.REGISTRATION
    row: dict[str, Any] = {"entry": entry}
    ratings = page.once(
        "list_ratings", lambda: reads.list_ratings(page.division_, [e.player_id for e in _entries(page)])
    )
    if ratings is not None:
        row["list_rating"] = ratings.get(entry.player_id, "—")
    withdrawn = entry.status == Entry.Status.WITHDRAWN
    if not withdrawn and page.division_.status != Division.Status.FINISHED:  # a finished field is what it played
        row["withdraw"], row["withdraw_failed"] = _row_form(
            page, failed, "withdraw", entry, _("Withdraw the player"), danger=True
        )
    if registering and (not withdrawn or entry.seed is not None):  # a withdrawn player's seed can be cleared
        row["seed"], row["seed_failed"] = _row_form(
            page, failed, "seed", entry, _("Set the seed"), seed=None if entry.seed is None else str(entry.seed)
        )
    key = str(entry.pk)
    if registering and not withdrawn:
        # The button and its hidden field are written by the row's template; the form is only wanted for its error.
        is_failed = failed is not None and (failed.action, failed.target) == ("check-in", key)
        row["check_in"] = failed.form if failed is not None and is_failed else True
    division = page.division_
    if (division.entry_fee or division.side_pool_fee) and not entry.refunded:
        # Payments at the door: buttons written by the row's template; the form is only wanted for its error.
        is_failed = failed is not None and (failed.action, failed.target) == ("pay", key)
        row["pay"] = failed.form if failed is not None and is_failed else True
    return row


#: What stands for the row's id, and for a field's value, in a form rendered once for every row of the list (as
#: the empty form of a Django formset stands for its forms).
_ROW = "__row__"


def _row_form(
    page: Page, failed: Failed | None, name: str, entry: Entry, submit: str, *, danger: bool = False, **values: Any
) -> tuple[str, bool]:
    """A row's form ``name`` as HTML, and whether it is the one that failed: that one with what was sent, any other
    rendered once for the list (once for each set of its ``values`` given or left empty) and given the row's id and
    values. What it costs grows with the rows only by a string replacement."""
    key = str(entry.pk)
    context = {"action": name, "submit": submit, "danger": danger}
    if failed is not None and (failed.action, failed.target) == (name, key):
        return render_to_string(
            "director/_form.html", {**context, "form": failed.form, "target": key}, page.request
        ), True
    given = tuple(name_ for name_, value in values.items() if value is not None)
    initial = {name_: f"__{name_}__" for name_ in given}

    def once() -> str:
        form = _form(page, None, DIVISION_ACTIONS, name, _ROW, initial=initial)
        return render_to_string("director/_form.html", {**context, "form": form, "target": _ROW}, page.request)

    html = page.once(f"row-form {name} {given}", once).replace(_ROW, key)
    for name_ in given:
        html = html.replace(initial[name_], escape(values[name_]))
    return mark_safe(html), False  # rendered by the template, the values escaped


def _row_context(page: Page, entry: Entry) -> dict[str, Any]:
    """One row of the players' list with the list's count (one query for the count, whatever the list's size)."""
    return {
        "row": _player_row(page, None, entry),
        "entry": entry,
        "registering": page.division_.status == Division.Status.REGISTRATION,
        **_counts(page.division_),
    }


def _counts(division: Division) -> dict[str, int]:
    """The list's count: players checked in and players playing (one query)."""
    return division.entries.aggregate(
        checked_in=Count("pk", filter=Q(status=Entry.Status.CHECKED_IN)),
        playing=Count("pk", filter=~Q(status=Entry.Status.WITHDRAWN)),
    )


# -- /manage/<event>/<division>/match/<key>/ -------------------------------------------------------------------------


def _match_id(page: Page) -> int:
    """The board's match, made now if it is a round-robin match not due yet (the director acts on it)."""
    if page.pairing_.match_id is not None:
        return page.pairing_.match_id
    return services.pairing_match(page.pairing_, actor=page.actor)


def _replace_result(page: Page, target: Any, data: dict[str, Any]) -> str:
    games.replace_game_result(
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
    return _("The result of game %(n)s is replaced.") % {"n": data["game_number"]}


def _reopen(page: Page, target: Any, data: dict[str, Any]) -> str:
    games.reopen_match(
        _match_id(page),
        actor=page.actor,
        reason=data["reason"],
        expected_seq=data["expected_seq"],
        override=data["override"],
    )
    return f"{_('The match is reopened.')} {_where_it_stands(page)}".strip()


def _undo(page: Page, target: Any, data: dict[str, Any]) -> str:
    games.undo_last_action(
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
    return {"sides": f.entry_choices(entries)}


def _replace_options(page: Page, target: Any) -> dict[str, Any]:
    p = page.pairing_
    games_ = page.once("games", lambda: reads.match_games(p.match) if p.match is not None else [])
    names = tuple(e.player.display_name if e else "—" for e in (p.entry_a, p.entry_b))
    played = [g.number for g in games_ if g.winner_side is not None]
    return {"games": played, "names": names, "casual": p.match is not None and p.match.casual}


def _side_names(page: Page) -> tuple[str, str]:
    p = page.pairing_
    return (
        p.entry_a.player.display_name if p.entry_a else "",
        p.entry_b.player.display_name if p.entry_b else "",
    )


def _new_link(page: Page, target: Any, data: dict[str, Any]) -> str:
    match = Match.objects.get(pk=_match_id(page))
    token = reissue_entry_token(match, data["side"])
    words = _(
        "A new entry link for %(name)s: %(link)s (the old one no longer opens, and the phone that held it is signed "
        "out). Open it on his phone, or print his entry slip again: it carries the new link."
    )
    link = page.request.build_absolute_uri(f"/play/{token_text(token)}/")
    return words % {"name": _side_names(page)[data["side"]], "link": link}


MATCH_ACTIONS = {
    "confirm": Action(f.EmptyForm, lambda page, target, data: _confirm(page, page.pairing_, data)),
    "forfeit": Action(
        f.ForfeitForm, lambda page, target, data: _forfeit(page, page.pairing_, data), options=_pairing_sides
    ),
    "penalty": Action(f.PenaltyForm, _penalty, options=_pairing_sides),
    "replace-result": Action(f.ReplaceResultForm, _replace_result, options=_replace_options),
    "reopen": Action(f.ReopenForm, _reopen),
    "undo": Action(f.UndoForm, _undo),
    "analyse": Action(f.EmptyForm, _analyse),
    "new-link": Action(f.NewLinkForm, _new_link, options=lambda page, target: {"names": _side_names(page)}),
    "make-match": Action(f.EmptyForm, _make_match),
}


@director_page
@require_http_methods(["GET", "POST"])
def match_page(request: HttpRequest, event: str, division: str, key: str) -> HttpResponse:
    """``/manage/<event>/<division>/match/<key>/``: one board: its games, confirmation, forfeit, corrections."""
    found = _division(request, event, division)
    pairing = reads.division_pairing(found, key)
    if pairing is None:
        raise _not_found(request)
    page = Page(request, found.event, found, pairing)
    failed = None
    if request.method == "POST":
        outcome = _perform(page, MATCH_ACTIONS, reverse("director:match", args=[event, division, key]))
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
        "board": reads.board_of(pairing),
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
            name.replace("-", "_"): _form(page, failed, MATCH_ACTIONS, name, initial=seq)
            for name in ("confirm", "forfeit", "penalty", "replace-result", "reopen", "undo", "new-link", "make-match")
        },
    }
    return _answer(request, "director/match.html", context, failed)


# -- printable pages -------------------------------------------------------------------------------------------------


def _printed_round(request: HttpRequest, event: str, division: str, bracket: str, number: int) -> Round:
    found = _division(request, event, division)
    rnd = reads.division_round(found, bracket, number)
    if rnd is None:
        raise _not_found(request)
    return rnd


def _qr(url: str | None) -> str | None:
    """An entry link as an inline SVG QR code (segno's output has no style attribute: the CSP allows it)."""
    if url is None:
        return None
    return mark_safe(segno.make_qr(url).svg_inline(scale=3))  # segno's own markup: no user text in it


@director_page
@require_GET
def pairing_sheet(request: HttpRequest, event: str, division: str, bracket: str, number: int) -> HttpResponse:
    """The pairing sheet of a round, for the wall: tables and players, no entry link (anyone could scan an
    opponent's code off a wall). Each player's link is on his own slip (:func:`entry_slips`)."""
    rnd = _printed_round(request, event, division, bracket, number)
    context = {"event": rnd.division.event, "division": rnd.division, "round": rnd, "boards": reads.round_boards(rnd)}
    return render(request, "director/sheet.html", context)


@director_page
@require_GET
def entry_slips(request: HttpRequest, event: str, division: str, bracket: str, number: int) -> HttpResponse:
    """A slip per player of the round, to cut and hand out: his table, his opponent and a QR code of his own entry
    link (never cached)."""
    rnd = _printed_round(request, event, division, bracket, number)
    lines = reads.sheet_lines(reads.round_boards(rnd), request.build_absolute_uri)
    items = [{"line": line, "qr": tuple(_qr(url) for url in line.links)} for line in lines]
    context = {"event": rnd.division.event, "division": rnd.division, "round": rnd, "items": items}
    return render(request, "director/slips.html", context)


@director_page
@require_GET
def scorecards(request: HttpRequest, event: str, division: str, bracket: str, number: int) -> HttpResponse:
    """One score card per match of the round: the players, the length, a line per game and the signatures."""
    rnd = _printed_round(request, event, division, bracket, number)
    boards = [b for b in reads.round_boards(rnd) if b.pairing.entry_a_id and b.pairing.entry_b_id]
    lines = min(2 * rnd.length - 1, 15) if rnd.length else 15
    context = {
        "event": rnd.division.event,
        "division": rnd.division,
        "round": rnd,
        "boards": boards,
        "lines": range(1, lines + 1),
    }
    return render(request, "director/scorecards.html", context)


@director_page
@require_GET
def cash_sheet(request: HttpRequest, event: str) -> HttpResponse:
    """The night's cash sheet, printable: each division's fees in, refunds, house share, prizes out, what is left."""
    found = _event(request, event)
    return render(request, "director/cash_sheet.html", {"event": found, "cash": event_cash(found)})


@director_page
@require_GET
def final_standings(request: HttpRequest, event: str, division: str) -> HttpResponse:
    """The division's standings, printable (with a note while they are not final)."""
    found = _division(request, event, division)
    rows = selectors.standings_table(found)
    codes = list(found.tiebreaks) if not found.is_elimination else []
    flights = place_columns(rows)
    payouts = selectors.payouts_of(found, rows)
    table = [
        {
            "row": row,
            "tiebreaks": [row.tiebreaks.get(code, "") for code in codes],
            "places": [row.places.get(flight, "") for flight, _ in flights],
            "prizes": prize_cells(payouts, row.entry_id),
        }
        for row in rows
    ]
    context = {
        "event": found.event,
        "division": found,
        "table": table,
        "codes": codes,
        "tiebreak_names": [tiebreak_name(code) for code in codes],
        "flights": flights,
        "prize_columns": prize_columns(payouts),
        "remainders": remainder_notes(payouts),
        "legend": [TIEBREAK_COLUMNS[code] for code in codes if code in TIEBREAK_COLUMNS],
        "after_round": rows[0].after_round if rows else None,
    }
    return render(request, "director/final_standings.html", context)


@director_page
@require_GET
def payouts_csv(request: HttpRequest, event: str, division: str) -> HttpResponse:
    """``/manage/<event>/<division>/payouts.csv``: one line per player of the latest standings: rank, player, the
    place in each flight, the prize in each paid flight (and the total when more than one pays)."""
    found = _division(request, event, division)
    shown = _payout_table(found, always=True)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{found.event.slug}-{found.slug}-payouts.csv"'
    writer = csv.writer(response)
    # One style with the results CSV: lower-case column names ("rank,player,place,prize").
    header = ["rank", "player", *(str(words).lower() for _, words in shown["flights"])]
    header += [str(words).lower() for words in shown["prize_columns"]]
    writer.writerow([csv_cell(cell) for cell in header])
    for item in shown["table"]:
        row = item["row"]
        line = [row.rank, row.entry.player.display_name, *item["places"], *item["prizes"]]
        writer.writerow([csv_cell(cell) for cell in line])
    for note in shown["remainders"]:
        writer.writerow([csv_cell(note)])
    return response
