"""The money of the directors' pages: a division's fees and who paid them, its payout table (set on the division's
page, downloaded as CSV) and the event's printable cash sheet.
"""

from __future__ import annotations

import csv
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from tournaments import selectors
from tournaments.director import forms
from tournaments.director.views.base import Action, Page, directed_division, directed_event, director_page
from tournaments.models import Division, Entry
from tournaments.pages import place_columns, prize_cells, prize_columns, remainder_notes
from tournaments.selectors.money import event_cash
from tournaments.services.money import FeeSettings, mark_paid, set_fees
from tournaments.services.payouts import payout_flights, set_payouts, stored_table
from tournaments.views import csv_cell

_PAID_WORDS = {"cash": _("in cash"), "transfer": _("by transfer")}


def pay(page: Page, entry: Entry, data: dict[str, Any]) -> str:
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


def money_initial(division: Division) -> dict[str, Any]:
    return {
        "entry_fee": division.entry_fee,
        "side_pool_fee": division.side_pool_fee,
        "house_share": division.house_share,
        "added_money": division.added_money,
        "side_pool_prizes": ", ".join(division.side_pool_prizes),
    }


def _payouts(page: Page, target: Any, data: dict[str, Any]) -> str:
    flights = {flight: data[name] for flight, name in forms.PAYOUT_FLIGHT_FIELDS.items() if name in data}
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


def payouts_initial(division: Division) -> dict[str, Any]:
    table = stored_table(division)
    initial: dict[str, Any] = {name: table[name] for name in ("mode", "pool", "ties", "published", "one_prize")}
    for flight, values in table["flights"].items():
        initial[forms.PAYOUT_FLIGHT_FIELDS[flight]] = ", ".join(values)
    return initial


#: The division page's forms of its money (a player's payment is a row of the players' list: views/players.py).
MONEY_ACTIONS = {
    "money": Action(forms.MoneyForm, _money),
    "payouts": Action(
        forms.PayoutsForm, _payouts, options=lambda page, target: {"flights": payout_flights(page.division_)}
    ),
}


def payout_table(division: Division, *, always: bool = False) -> dict[str, Any]:
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


@director_page
@require_GET
def cash_sheet(request: HttpRequest, event: str) -> HttpResponse:
    """The night's cash sheet, printable: each division's fees in, refunds, house share, prizes out, what is left."""
    found = directed_event(request, event)
    return render(request, "director/cash_sheet.html", {"event": found, "cash": event_cash(found)})


@director_page
@require_GET
def payouts_csv(request: HttpRequest, event: str, division: str) -> HttpResponse:
    """``/manage/<event>/<division>/payouts.csv``: one line per player of the latest standings: rank, player, the
    place in each flight, the prize in each paid flight (and the total when more than one pays)."""
    found = directed_division(request, event, division)
    shown = payout_table(found, always=True)
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
