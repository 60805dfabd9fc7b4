"""The payout table of a division: the director sets it (validated in full, nothing stored on an error)."""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal, InvalidOperation

from django.db import transaction

from games.access import Actor
from games.errors import ApplicationError, ErrorCode
from tournaments.access import check_directs
from tournaments.core import lock_division
from tournaments.models import Division, Round
from tournaments.standings import payouts as pay

#: The flights a format places, in order (Swiss and round robin: one table, paid by its ranks as the main flight).
_CONSOLATION = {Division.Format.MAIN_CONSOLATION, Division.Format.PROGRESSIVE, Division.Format.LAST_CHANCE}


def payout_flights(division: Division) -> list[str]:
    flights = [str(Round.Bracket.MAIN)]
    if division.format in _CONSOLATION:
        flights.append(str(Round.Bracket.CONSOLATION))
    if division.format == Division.Format.LAST_CHANCE:
        flights.append(str(Round.Bracket.LAST_CHANCE))
    return flights


_WORDS = {"main": "the main flight", "consolation": "the consolation", "last-chance": "the last chance"}


def set_payouts(
    division: Division,
    *,
    actor: Actor,
    mode: str,
    pool: str | Decimal | None,
    ties: str,
    published: bool,
    flights: Mapping[str, str],
) -> Division:
    """Store the division's payout table: ``flights`` maps a flight to its prizes, comma-separated, place 1 first
    (percentages of ``pool`` or fixed amounts, by ``mode``); ``ties`` is how a shared place is paid."""
    check_directs(actor, division.event)
    try:
        table = _checked(division, mode=mode, pool=pool, ties=ties, flights=flights)
    except pay.PayoutError as exc:
        raise ApplicationError(ErrorCode.INVALID_INPUT, f"The payout table is not stored: {exc}.") from None
    table["published"] = bool(published)
    with transaction.atomic():
        division = lock_division(division.pk)
        division.payouts = table
        division.save(update_fields=["payouts"])
    return division


def _checked(
    division: Division, *, mode: str, pool: str | Decimal | None, ties: str, flights: Mapping[str, str]
) -> dict:
    if mode not in pay.MODES:
        raise pay.PayoutError(f"unknown kind of table {mode!r}: use {pay.PERCENT!r} or {pay.AMOUNT!r}")
    if ties not in pay.TIE_RULES:
        raise pay.PayoutError(f"unknown tie rule {ties!r}: use {pay.SPLIT!r} or {pay.BEST!r}")
    amount: Decimal | None = None
    if pool not in (None, ""):
        try:
            amount = Decimal(str(pool))
        except InvalidOperation:
            raise pay.PayoutError(f"the prize pool {pool!r} is not a number: give it as 1000 or 1000.50") from None
        if not amount.is_finite() or amount < 0:
            raise pay.PayoutError(f"the prize pool is {pool}: give 0 or more")
    known = payout_flights(division)
    unknown = sorted(set(flights) - set(known))
    if unknown:
        raise pay.PayoutError(f"{division.name} has no flight {', '.join(unknown)}: its flights are {', '.join(known)}")
    players = division.entries.count()
    stored: dict[str, list[str]] = {}
    for flight in known:
        what = _WORDS[flight]
        values = pay.parse_values(flights.get(flight, ""), what=what)
        pay.check_places(len(values), players, what=what)
        if values:
            pay.flight_prizes(values, mode=mode, pool=amount, what=what)
            stored[flight] = [str(v) for v in values]
    if mode == pay.PERCENT:
        total = sum((Decimal(v) for values in stored.values() for v in values), Decimal(0))
        if total > 100:
            raise pay.PayoutError(
                f"the percentages of all flights add up to {total}, more than 100 of the pool: "
                f"lower them by {total - 100}"
            )
    return {
        "mode": mode,
        "pool": None if amount is None else str(amount),
        "ties": ties,
        "flights": stored,
    }
