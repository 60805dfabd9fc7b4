"""The payout table of a division: the director sets it (validated in full, nothing stored on an error), from
the director's page or the API.

A table may not pay more places than its flight can have players. The main flight's size is the field: the
players entered so far until the division starts (more may still enter), the seeded field after. A consolation's
or last chance's is known once every player who can drop into it (or take one of its entry places) is known; until
then the table is checked against the most players it can have, and a place the flight does not reach in the end
pays nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from django.db import transaction

from common.actor import Actor
from common.errors import ApplicationError, ErrorCode
from tournaments.access import check_directs, directs_event
from tournaments.core import has_fees, lock_division, plan_of, resolve_division
from tournaments.models import Division, Entry, Pairing, Round
from tournaments.pairing import brackets
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


@dataclass(frozen=True)
class FlightSize:
    """The most players a flight can have, and whether that is its size (its field is complete)."""

    players: int
    known: bool
    why: str = ""  # when not known: what it waits for

    def words(self, what: str) -> str:
        """``the consolation has 4 players``, or ``can have at most 7 players (...)``."""
        if self.known:
            return f"{what} has {self.players} player{'s' if self.players != 1 else ''}"
        return f"{what} can have at most {self.players} player{'s' if self.players != 1 else ''} ({self.why})"


def flight_sizes(division: Division) -> dict[str, FlightSize]:
    """The size of each flight the division's payout table can pay (:func:`payout_flights`)."""
    flights = payout_flights(division)
    if division.status == Division.Status.REGISTRATION:
        entered = division.entries.exclude(status=Entry.Status.WITHDRAWN).count()
        sizes = {
            str(Round.Bracket.MAIN): FlightSize(
                entered, False, "the players entered so far; more may enter until the division starts"
            )
        }
        plan = _plan_or_none(division, entered)
        for flight in flights[1:]:
            most = plan.most_players(flight) if plan else None
            sources = _external_sources(plan, flight) if plan and most is None else []
            why = "who enters it is known only as the main draw is played"
            sizes[flight] = FlightSize(len(sources) if most is None else most, False, why)
        return sizes
    if not division.is_elimination:
        return {str(Round.Bracket.MAIN): FlightSize(division.entries.filter(seed__isnull=False).count(), True)}
    plan = plan_of(division)
    sizes = {str(Round.Bracket.MAIN): FlightSize(plan.entrants, True)}
    if len(flights) == 1:
        return sizes
    nodes = {node.key: node for node in plan.nodes}
    slots = division.pairings.filter(round__bracket__in=flights[1:]).values_list(
        "key", "round__bracket", "entry_a", "entry_b", "status"
    )
    players: dict[str, set[int]] = {flight: set() for flight in flights[1:]}
    unknown = dict.fromkeys(flights[1:], 0)
    for key, flight, a, b, status in slots:
        players[flight].update(x for x in (a, b) if x is not None)
        node = nodes.get(key)
        if node is None or status != Pairing.Status.WAITING:
            continue
        unknown[flight] += sum(
            1 for source, held in ((node.a, a), (node.b, b)) if held is None and _comes_in(source, flight)
        )
    drawn = resolve_division(division, plan=plan) if plan.drawn else None
    for flight in flights[1:]:
        why = (
            "players may still take its entry places"
            if flight == Round.Bracket.LAST_CHANCE
            else "who enters it is known only once the main rounds that drop into it are over"
        )
        if isinstance(drawn, brackets.Resolution) and flight in plan.drawn:
            players[flight], unknown[flight] = drawn.arrived[flight], drawn.unknown[flight]
        complete = unknown[flight] == 0
        sizes[flight] = FlightSize(len(players[flight]) + unknown[flight], complete, "" if complete else why)
    return sizes


def _plan_or_none(division: Division, entrants: int) -> brackets.Plan | None:
    if not division.is_elimination or entrants < 2:
        return None
    try:
        return plan_of(division, entrants)
    except ApplicationError:
        return None


def _comes_in(source: brackets.Source, flight: str) -> bool:
    """Whether a side's player comes into ``flight`` from outside it (dropped from another bracket, or an entry
    place)."""
    if isinstance(source, brackets.Place):
        return True
    return isinstance(source, brackets.Loser) and not source.key.startswith(f"{flight}-")


def _external_sources(plan: brackets.Plan, flight: str) -> list[brackets.Source]:
    return [s for node in plan.nodes if node.bracket == flight for s in (node.a, node.b) if _comes_in(s, flight)]


def stored_table(division: Division) -> dict:
    """The division's payout table as stored, with the defaults of a division that has none: percentages, no pool,
    shared places split, not published, a player paid in every flight he places in, no flight paid."""
    table = division.payouts or {}
    return {
        "mode": table.get("mode", pay.PERCENT),
        "pool": table.get("pool"),
        "ties": table.get("ties", pay.SPLIT),
        "published": bool(table.get("published", False)),
        "one_prize": bool(table.get("one_prize", False)),
        "flights": dict(table.get("flights") or {}),
    }


def check_may_read(division: Division, actor: Actor) -> None:
    """Anyone who sees the division reads a published table; its directors (and staff) always."""
    if stored_table(division)["published"] or directs_event(actor.user, division.event):
        return
    raise ApplicationError(
        ErrorCode.NOT_PUBLISHED,
        f"the payout table of {division.name} is not published: its directors see it, and everyone once they "
        "publish it",
    )


def set_payouts(
    division: Division,
    *,
    actor: Actor,
    mode: str,
    pool: str | Decimal | None,
    ties: str,
    published: bool,
    flights: Mapping[str, str],
    one_prize: bool = False,
) -> Division:
    """Store the division's payout table: ``flights`` maps a flight to its prizes, comma-separated, place 1 first
    (percentages of ``pool`` or fixed amounts, by ``mode``); ``ties`` is how a shared place is paid; ``one_prize``:
    a player placed in the prizes of several flights is paid only the largest of them."""
    check_directs(actor, division.event)
    try:
        table = _checked(division, mode=mode, pool=pool, ties=ties, flights=flights)
    except pay.PayoutError as exc:
        raise ApplicationError(ErrorCode.INVALID_INPUT, f"The payout table is not stored: {exc}.") from None
    table["published"] = bool(published)
    table["one_prize"] = bool(one_prize)
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
        if amount > pay.MAX_AMOUNT:
            raise pay.PayoutError(f"the prize pool is {pool}, more than a pool can be: give at most {pay.MAX_AMOUNT}")
    known = payout_flights(division)
    unknown = sorted(set(flights) - set(known))
    if unknown:
        raise pay.PayoutError(f"{division.name} has no flight {', '.join(unknown)}: its flights are {', '.join(known)}")
    sizes = flight_sizes(division)
    stored: dict[str, list[str]] = {}
    for flight in known:
        what = _WORDS[flight]
        values = pay.parse_values(flights.get(flight, ""), what=what)
        pay.check_places(len(values), sizes[flight].players, what=what, size=sizes[flight].words(what))
        if values:
            # A pool from the entry fees may still be empty (nobody has paid yet): the percentages are checked alone.
            from_fees = mode == pay.PERCENT and amount is None and has_fees(division)
            pay.flight_prizes(values, mode=mode, pool=Decimal(100) if from_fees else amount, what=what)
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
