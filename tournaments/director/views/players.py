"""The players' list of a division's page: registration (one by one or from a list), check-in (one, or all those
listed), seeds, withdrawals and payments at the door. The list's actions sent by htmx are answered without a
reload: the rows changed, the count and the message.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.db.models import Count, Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.html import escape
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

from common.errors import ApplicationError, ErrorCode
from tournaments import services
from tournaments.core import has_fees
from tournaments.director import forms
from tournaments.director.views.base import Failed, FormAction, Page, directed_division, form_for
from tournaments.director.views.money import pay
from tournaments.entry_caps import is_capped
from tournaments.models import Division, Entry
from tournaments.pages import final_titles
from tournaments.selectors import director as reads


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


def _withdraw(page: Page, entry: Entry, data: dict[str, Any]) -> str:
    refund = data.get("refund", False)
    services.withdraw_entry(entry, actor=page.actor, reason=data["reason"], refund=refund)
    if refund:
        return _("%(name)s has withdrawn, and his fees are refunded.") % {"name": entry.player.display_name}
    return _("%(name)s has withdrawn.") % {"name": entry.player.display_name}


def _correct(page: Page, entry: Entry, data: dict[str, Any]) -> str:
    """What was corrected, said whole: the name as it was and as it is, with the club and country now shown."""
    before = entry.player
    was = (before.display_name, before.club, before.country)
    player = services.correct_player_details(
        entry, actor=page.actor, name=data["name"], club=data["club"], country=data["country"]
    )
    if (player.display_name, player.club, player.country) == was:
        return _("Nothing to correct: %(name)s's details are as they were.") % {"name": player.display_name}
    name, where = player.name_and_where
    if player.display_name != was[0]:
        return _("%(was)s is now %(now)s.") % {"was": was[0], "now": f"{name} ({where})" if where else name}
    if where:
        return _("%(name)s's club and country are now: %(where)s.") % {"name": name, "where": where}
    return _("%(name)s now has no club or country.") % {"name": name}


def _seed(page: Page, entry: Entry, data: dict[str, Any]) -> str:
    services.set_seed(entry, actor=page.actor, seed=data["seed"])
    if data["seed"] is None:
        return _("%(name)s has no seed.") % {"name": entry.player.display_name}
    return _("%(name)s is seed %(seed)s.") % {"name": entry.player.display_name, "seed": data["seed"]}


def entries_of(page: Page) -> list[Entry]:
    return page.once("entries", lambda: reads.division_entries(page.division_))


def _entry_target(page: Page, key: str) -> Entry | None:
    return reads.division_entry(page.division_, key)


def active(entries: list[Entry]) -> list[Entry]:
    return [e for e in entries if e.status != Entry.Status.WITHDRAWN]


PLAYER_ACTIONS = {
    "register": FormAction(
        forms.RegisterForm,
        _register,
        options=lambda page, target: {
            "last_chance": page.division_.format == Division.Format.LAST_CHANCE,
            "capped": is_capped(page.division_),
            "roster": page.once("roster_names", lambda: reads.roster_names(page.division_.event)),
            "listed": page.division_.event.club_id is not None and page.division_.event.rating_list_id is not None,
        },
    ),
    "import": FormAction(forms.ImportForm, _import),
    "check-in": FormAction(forms.CheckInForm, _check_in, target=_entry_target),
    "check-in-all": FormAction(
        forms.CheckInAllForm, _check_in_all, options=lambda page, target: {"entries": entries_of(page)}
    ),
    "withdraw": FormAction(
        forms.WithdrawForm,
        _withdraw,
        target=_entry_target,
        options=lambda page, target: {
            "refundable": page.division_.status == Division.Status.REGISTRATION and has_fees(page.division_)
        },
    ),
    "pay": FormAction(forms.PayForm, pay, target=_entry_target),
    "seed": FormAction(forms.SeedForm, _seed, target=_entry_target),
    "correct": FormAction(forms.PlayerDetailsForm, _correct, target=_entry_target),
}

#: The actions of the players' list that a page using htmx sends without a reload: the answer is the rows changed,
#: the count and the message (a refusal: the whole list, with what was refused).
_IN_PLACE = ("check-in", "check-in-all", "pay")
#: Of those, the ones about one row, answered with that row.
_ONE_ROW = ("check-in", "pay")


def in_place(request: HttpRequest) -> bool:
    """Whether the request is one of the list's actions sent by htmx, answered by :func:`list_answer`."""
    return request.headers.get("HX-Request") == "true" and request.POST.get("action") in _IN_PLACE


def list_answer(request: HttpRequest, event: str, division: str, failed: Failed | None) -> HttpResponse:
    """What was done said inside the list (the message is not kept for the next page): a check-in or its undo
    answers its row, the count and the message; check-in-all the rows it sent, each swapped out of band; a
    refusal, the whole list."""
    said = [str(m) for m in messages.get_messages(request)]
    found = directed_division(request, event, division)
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
    context = {**players_context(page, failed), "event": found.event, "division": found, "said": said}
    # 200 also for a refusal, so that htmx shows it in the list.
    response = render(request, "director/_players.html", {**context, "failed": failed})
    if one:  # the row's form targets its row: the list replaces the list
        response["HX-Retarget"], response["HX-Reswap"] = "#players-list", "outerHTML"
    return response


def players_context(page: Page, failed: Failed | None) -> dict[str, Any]:
    """The players' list of the division page (also answered alone to a check-in sent without a reload)."""
    found = page.division_
    titles = final_titles(found)  # once the division is over: each player's title or place, not "eliminated"
    rows = [_player_row(page, failed, entry) for entry in entries_of(page)]
    for row in rows:
        withdrawn = row["entry"].status == Entry.Status.WITHDRAWN
        row["title"] = "" if withdrawn else titles.get(row["entry"].pk, "")
    return {
        "rows": rows,
        "registering": found.status == Division.Status.REGISTRATION,
        "finished": found.status == Division.Status.FINISHED,
        "checked_in": sum(e.status == Entry.Status.CHECKED_IN for e in entries_of(page)),
        "playing": len(active(entries_of(page))),
    }


def _player_row(page: Page, failed: Failed | None, entry: Entry) -> dict[str, Any]:
    """A row of the players' list: the entry and the forms it offers, as HTML (see :func:`_row_form`)."""
    registering = page.division_.status == Division.Status.REGISTRATION
    row: dict[str, Any] = {"entry": entry}
    ratings = page.once(
        "list_ratings", lambda: reads.list_ratings(page.division_, [e.player_id for e in entries_of(page)])
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
    if page.division_.status != Division.Status.FINISHED:  # a name typed wrong at the door, a country missing
        player = entry.player  # an empty value is given as None: left out of the input, as the form renders it
        row["correct"], row["correct_failed"] = _row_form(
            page, failed, "correct", entry, _("Correct"), name=player.display_name, club=player.club or None,
            country=player.country or None,
        )  # fmt: skip
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
    page: Page, failed: Failed | None, action: str, entry: Entry, submit: str, *, danger: bool = False, **values: Any
) -> tuple[str, bool]:
    """A row's form of ``action`` as HTML, and whether it is the one that failed: that one with what was sent, any other
    rendered once for the list (once for each set of its ``values`` given or left empty) and given the row's id and
    values. What it costs grows with the rows only by a string replacement."""
    key = str(entry.pk)
    context = {"action": action, "submit": submit, "danger": danger}
    if failed is not None and (failed.action, failed.target) == (action, key):
        return render_to_string(
            "director/_form.html", {**context, "form": failed.form, "target": key}, page.request
        ), True
    given = tuple(name_ for name_, value in values.items() if value is not None)
    initial = {name_: f"__{name_}__" for name_ in given}

    def once() -> str:
        form = form_for(page, None, PLAYER_ACTIONS, action, _ROW, initial=initial)
        return render_to_string("director/_form.html", {**context, "form": form, "target": _ROW}, page.request)

    html = page.once(f"row-form {action} {given}", once).replace(_ROW, key)
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
