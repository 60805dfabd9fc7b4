"""A division's page for its directors, ``/manage/<event>/<division>/``: its players (views/players.py), fees and
payouts (views/money.py), the start, its rounds and how they are steered (pair the next, take one back, pair it
again, the Swiss's length, last-chance places), swaps, forfeits, and playoffs for ties.
"""

from __future__ import annotations

from typing import Any

from django.contrib.humanize.templatetags.humanize import ordinal
from django.db.models import Q
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from tournaments import services
from tournaments.core import has_fees, pool_of, round_words
from tournaments.director import forms
from tournaments.director.views.base import (
    Failed,
    FormAction,
    Page,
    answer,
    directed_division,
    director_page,
    form_for,
    perform,
)
from tournaments.director.views.matches import forfeit
from tournaments.director.views.money import MONEY_ACTIONS, money_initial, payout_table, payouts_initial
from tournaments.director.views.players import (
    PLAYER_ACTIONS,
    active,
    entries_of,
    in_place,
    list_answer,
    players_context,
)
from tournaments.models import Division, Round
from tournaments.pages import correction_notes
from tournaments.selectors import director as reads
from tournaments.selectors.playoffs import division_playoffs


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


def _rounds(page: Page) -> list[reads.RoundBoards]:
    return page.once("rounds", lambda: reads.division_rounds(page.division_))


def _swap(page: Page, target: Any, data: dict[str, Any]) -> str:
    entries = {str(e.pk): e for e in entries_of(page)}
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
    return forfeit(page, pairing, {**data, "loser": entry_id})


def _order_playoff(page: Page, target: str, data: dict[str, Any]) -> str:
    entries = [int(pk) for pk in target.split("-")]
    playoff = services.order_playoff(page.division_, actor=page.actor, entries=entries, length=data["length"])
    if len(entries) == 2:  # a two-player playoff is a single match: it has no "first" one
        said = _(
            "The playoff for the tie at %(place)s place is ordered: its match is made, with entry links for both "
            "players (below)."
        )
    else:
        said = _(
            "The playoff for the tie at %(place)s place is ordered: its first match is made, with entry links for "
            "both players (below)."
        )
    return said % {"place": ordinal(playoff.place)}


def _cancel_playoff(page: Page, target: str, data: dict[str, Any]) -> str:
    services.cancel_playoff(int(target), actor=page.actor, division=page.division_)
    return _("The playoff is cancelled: the tie stands as the tie-breaks and seeds leave it.")


def confirm_playoff(page: Page, target: str, data: dict[str, Any]) -> str:
    """Confirm the result of the playoff match ``target`` (its id; the division's page and the event's queue)."""
    playoff = services.confirm_playoff_result(int(target), actor=page.actor)
    services.sync_division(playoff.division_id)  # the playoff settles at once on the page
    return _("The playoff match's result is confirmed: the tie at %(place)s place moves on.") % {
        "place": ordinal(playoff.place)
    }


def _playoff_match(page: Page, key: str) -> str | None:
    """``key`` when it is the id of a match of one of the division's playoffs, else None (an unknown target)."""
    if not key.isdigit():
        return None
    mine = page.division_.playoffs.filter(Q(first_match_id=int(key)) | Q(final_match_id=int(key)))
    return key if mine.exists() else None


def _playoffs_context(page: Page, failed: Failed | None, table: list[Any] | None) -> dict[str, Any]:
    """The ties that matter, each with its form to order a playoff, and the playoffs ordered (no query at all for a
    division whose standings cannot hold one; never one per player)."""
    found = division_playoffs(page.division_, table=table)
    ties = [
        (tie, form_for(page, failed, DIVISION_ACTIONS, "order-playoff", target=tie.entries_value))
        if tie.tie.orderable and tie.playoff is None
        else (tie, None)
        for tie in found.ties
    ]
    return {"playoffs": found, "playoff_ties": ties}


DIVISION_ACTIONS = {
    **PLAYER_ACTIONS,
    **MONEY_ACTIONS,
    "start": FormAction(forms.StartForm, _start),
    "pair-next": FormAction(forms.PairRoundForm, _pair_next),
    "swiss-rounds": FormAction(forms.SwissRoundsForm, _swiss_rounds),
    "end-swiss": FormAction(forms.EmptyForm, _end_swiss),
    "unpair": FormAction(forms.EmptyForm, _unpair),
    "repair": FormAction(forms.PairRoundForm, _repair),
    "close-last-chance": FormAction(forms.EmptyForm, _close_last_chance),
    "swap": FormAction(forms.SwapForm, _swap, options=lambda page, target: {"entries": active(entries_of(page))}),
    "forfeit": FormAction(
        forms.ForfeitForm, _forfeit_anywhere, options=lambda page, target: {"sides": _open_sides(page)}
    ),
    "order-playoff": FormAction(forms.PlayoffForm, _order_playoff, target=lambda page, key: _digits(key, "-")),
    "cancel-playoff": FormAction(forms.EmptyForm, _cancel_playoff, target=lambda page, key: _digits(key, "")),
    "confirm-playoff": FormAction(forms.EmptyForm, confirm_playoff, target=lambda page, key: _playoff_match(page, key)),
}


def _digits(key: str, sep: str) -> str | None:
    """``key`` when it is ids (``12`` or, with ``sep``, ``12-13``), else None (an unknown target)."""
    parts = key.split(sep) if sep else [key]
    return key if key and all(part.isdigit() for part in parts) else None


@director_page
@require_http_methods(["GET", "POST"])
def division_page(request: HttpRequest, event: str, division: str) -> HttpResponse:
    """``/manage/<event>/<division>/``: registration, check-in, seeds, the start, rounds and decisions."""
    found = directed_division(request, event, division)
    page = Page(request, found.event, found)
    failed = None
    in_list = in_place(request)
    if request.method == "POST":
        outcome = perform(page, DIVISION_ACTIONS, reverse("director:division", args=[event, division]))
        if not isinstance(outcome, Failed) and not in_list:
            return outcome
        failed = outcome if isinstance(outcome, Failed) else None
    if in_list:
        return list_answer(request, event, division, failed)
    forms_shown = {
        name.replace("-", "_"): form_for(page, failed, DIVISION_ACTIONS, name)
        for name in ("register", "import", "start", "pair-next", "close-last-chance", "swap", "forfeit")
    }
    context = {
        **players_context(page, failed),
        "event": found.event,
        "division": found,
        "rounds": _rounds(page),
        "running": found.status == Division.Status.RUNNING,
        "forms": {
            **forms_shown,
            "payouts": form_for(page, failed, DIVISION_ACTIONS, "payouts", initial=payouts_initial(found)),
            "money": form_for(page, failed, DIVISION_ACTIONS, "money", initial=money_initial(found)),
        },
        "payouts": payout_table(found),
        "money": pool_of(found) if has_fees(found) else None,
    }
    read = [item["row"] for item in context["payouts"]["table"]] or None
    context.update(_playoffs_context(page, failed, read))
    # its rounds over, a playoff for a tie to play: the badge says so (status_words), not "finished"
    unsettled = any(not p.finished for p in context["playoffs"].playoffs)
    found.playoff_to_play = found.status == Division.Status.FINISHED and unsettled  # type: ignore[attr-defined]
    if found.in_swiss_phase and found.status == Division.Status.RUNNING:
        steering = {
            "swiss_rounds": form_for(
                page, failed, DIVISION_ACTIONS, "swiss-rounds", initial={"rounds": found.rounds_planned}
            ),
            "repair": form_for(page, failed, DIVISION_ACTIONS, "repair"),
        }
        context["forms"] = {**context["forms"], **steering}
        current = max((group.round for group in _rounds(page)), key=lambda rnd: rnd.number, default=None)
        offered = current is not None and current.number > 1 and services.round_needs_repairing(found, current)
        context["repair_offered"] = offered
    context["corrections"] = correction_notes(
        found, [board.pairing for group in _rounds(page) for board in group.boards]
    )
    return answer(request, "director/division.html", context, failed)
