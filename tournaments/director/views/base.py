"""What every directors' page shares: who may open it, and how a page takes one action.

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

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import wraps
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.cache import patch_cache_control
from django.utils.translation import gettext as _

from common.actor import Actor
from common.errors import ApplicationError
from games.services import Recorded
from tournaments.access import directs_event
from tournaments.director.forms import EmptyForm
from tournaments.models import Division, Event, Pairing

# -- access ----------------------------------------------------------------------------------------------------------


class RefusedError(Exception):
    """Raised while looking up a page's event or division: the response that says why (403 or 404)."""

    def __init__(self, response: HttpResponse) -> None:
        super().__init__(response.status_code)
        self.response = response


def not_found(request: HttpRequest) -> RefusedError:
    return RefusedError(render(request, "director/not_found.html", status=404))


def _check_directs(request: HttpRequest, event: Event) -> None:
    if directs_event(request.user, event):
        return
    if not event.public:
        raise not_found(request)  # a private event's existence is not told
    raise RefusedError(render(request, "director/forbidden.html", {"event": event}, status=403))


def directed_event(request: HttpRequest, slug: str) -> Event:
    event = Event.objects.filter(slug=slug).select_related("club").first()
    if event is None:
        raise not_found(request)
    _check_directs(request, event)
    return event


def directed_division(request: HttpRequest, event: str, division: str) -> Division:
    found = Division.objects.select_related("event").filter(event__slug=event, slug=division).first()
    if found is None:
        directed_event(request, event)  # someone else's event: 403 before "no such division"
        raise not_found(request)
    _check_directs(request, found.event)
    return found


def director_page(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Login required; a refused lookup answers its 403/404 page; nothing is cached outside the browser."""

    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        try:
            response = view(request, *args, **kwargs)
        except RefusedError as refused:
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
class FormAction:
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


def perform(page: Page, actions: dict[str, FormAction], done: str) -> HttpResponse | Failed:
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
    form = EmptyForm({}, prefix="unknown")
    form.is_valid()
    form.add_error(None, message)
    return form


def form_for(
    page: Page, failed: Failed | None, actions: dict[str, FormAction], name: str, target: Any = None, **kw: Any
) -> forms.Form:
    """The form to show: the bound one that failed, or a fresh one."""
    key = "" if target is None else str(target.pk if hasattr(target, "pk") else target)
    if failed is not None and (failed.action, failed.target) == (name, key):
        return failed.form
    action = actions[name]
    return action.form(prefix=_prefix(name, key), **action.options(page, target), **kw)


def answer(request: HttpRequest, template: str, context: dict[str, Any], failed: Failed | None) -> HttpResponse:
    return render(request, template, {**context, "failed": failed}, status=failed.status if failed else 200)


def replaced_words(recorded: Recorded, game_number: int) -> str:
    """What a director reads once he replaced a game's result (a round's match, a playoff's): the match as it now
    stands, which "The result of game N is replaced." alone did not say: won (by whom), or open again with a game to
    enter (a finished division or event runs again until it is)."""
    match, state = recorded.match, recorded.state
    score = f"{state.score[0]}-{state.score[1]}"
    done = _("The result of game %(n)s is replaced") % {"n": game_number}
    if state.is_over and match.winner is not None:
        return _("%(done)s: %(name)s wins the match, %(score)s; what follows from it follows the new result.") % {
            "done": done,
            "name": match.winner.display_name,
            "score": score,
        }
    return _(
        "%(done)s: the match is open again at %(score)s, its next game to be entered (on the players' phones or "
        "here) before what follows from it goes on."
    ) % {"done": done, "score": score}
