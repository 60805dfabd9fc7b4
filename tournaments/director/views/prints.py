"""The printable pages of a round and a division: the pairing sheet for the wall, a slip per player with his
entry link's QR code, score cards, and the final standings.
"""

from __future__ import annotations

import segno
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_GET

from tournaments import selectors
from tournaments.director.views.base import directed_division, director_page, not_found
from tournaments.models import Round
from tournaments.pages import (
    TIEBREAK_COLUMNS,
    place_columns,
    prize_cells,
    prize_columns,
    remainder_notes,
    tiebreak_name,
)
from tournaments.selectors import director as reads


def _printed_round(request: HttpRequest, event: str, division: str, bracket: str, number: int) -> Round:
    found = directed_division(request, event, division)
    rnd = reads.division_round(found, bracket, number)
    if rnd is None:
        raise not_found(request)
    return rnd


def qr_code(url: str | None) -> str | None:
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
    items = [{"line": line, "qr": tuple(qr_code(url) for url in line.links)} for line in lines]
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
def final_standings(request: HttpRequest, event: str, division: str) -> HttpResponse:
    """The division's standings, printable (with a note while they are not final)."""
    found = directed_division(request, event, division)
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
