"""Payouts: the prizes a flight's places earn, from a payout table (pure: amounts are whole cents).

Terms
- A **payout table** gives each flight (main, consolation, last chance) its prizes by place: either percentages of
  the division's prize pool or fixed amounts. Place 1 is the first prize; places beyond the table pay nothing.
- A **shared place** (``5-8``: four players out at the same stage) is paid by the tie rule:
  ``split`` adds up the prizes of the places it spans and splits the sum evenly, ``best`` pays each of them the
  prize of the best place of the group (so the table may pay out more than its sum).
- Amounts are rounded down to whole cents; what rounding leaves over is the **remainder**, stated, never lost
  silently.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from decimal import ROUND_DOWN, Decimal, InvalidOperation
from typing import TypeVar

from tournaments.standings.places import Place

P = TypeVar("P", bound=Hashable)

SPLIT = "split"
BEST = "best"
TIE_RULES = (SPLIT, BEST)
PERCENT = "percent"
AMOUNT = "amount"
MODES = (PERCENT, AMOUNT)


class PayoutError(ValueError):
    """A payout table that cannot be used: the message says what is wrong and how to fix it."""


@dataclass(frozen=True)
class Prizes:
    """A flight's prizes by place in cents, and the cents that rounding the percentages to cents left over."""

    cents: tuple[int, ...]
    remainder: int = 0


@dataclass(frozen=True)
class FlightPayouts:
    """What each placed player of a flight is paid (cents), the cents left over by splitting shared places, the
    cents paid beyond the table (a shared place paid by ``best``), and, once the flight is over, the cents of the
    places nobody reached (``unreached``: a flight with fewer players than its table, or one that was not played)."""

    paid: dict
    remainder: int = 0
    over: int = 0
    unreached: int = 0


def to_cents(amount: Decimal) -> int:
    """Whole cents of an amount, rounded down."""
    return int((amount * 100).to_integral_value(rounding=ROUND_DOWN))


#: The largest prize pool or prize (12 digits, two of them decimals: the pool's bound on the page and in the API).
MAX_AMOUNT = Decimal("9999999999.99")


def parse_values(text: str, *, what: str) -> list[Decimal]:
    """The numbers of a comma-separated list (``"50, 30, 20"``), place 1 first; an empty text is no places.

    >>> parse_values("50, 30.5,20", what="main")
    [Decimal('50'), Decimal('30.5'), Decimal('20')]
    """
    values = []
    for n, part in enumerate(p.strip() for p in text.replace(";", ",").split(",") if p.strip()):
        try:
            value = Decimal(part.replace("%", "").strip())
        except InvalidOperation:
            raise PayoutError(
                f"{what}: place {n + 1} is {part!r}, not a number: write the prizes as numbers separated by commas, "
                "place 1 first, such as 50, 30, 20"
            ) from None
        if not value.is_finite():
            raise PayoutError(f"{what}: place {n + 1} is {part!r}, not a number")
        if value < 0:
            raise PayoutError(f"{what}: place {n + 1} is {part}, a negative prize: give 0 or more")
        if value > MAX_AMOUNT:
            raise PayoutError(f"{what}: place {n + 1} is {part}, more than a prize can be: give at most {MAX_AMOUNT}")
        if value.as_tuple().exponent < -2:  # type: ignore[operator]
            raise PayoutError(f"{what}: place {n + 1} is {part}: give at most two decimals")
        values.append(value)
    return values


def flight_prizes(values: Sequence[Decimal], *, mode: str, pool: Decimal | None, what: str) -> Prizes:
    """A flight's prizes in cents: ``values`` are percentages of ``pool`` (at most 100 in all) or fixed amounts.

    >>> flight_prizes([Decimal(50), Decimal(30), Decimal(20)], mode=PERCENT, pool=Decimal("100.01"), what="main")
    Prizes(cents=(5000, 3000, 2000), remainder=1)
    """
    if mode == AMOUNT:
        return Prizes(tuple(to_cents(v) for v in values))
    if mode != PERCENT:
        raise PayoutError(f"unknown kind of payout table {mode!r}: use {PERCENT!r} or {AMOUNT!r}")
    if pool is None or pool <= 0:
        raise PayoutError("percentages need a prize pool: give the pool (more than 0) or give fixed amounts instead")
    total = sum(values, Decimal(0))
    if total > 100:
        raise PayoutError(
            f"{what}: the percentages add up to {total}, more than 100 of the pool: lower them by {total - 100}"
        )
    pool_cents = to_cents(pool)
    cents = tuple(int(pool_cents * v / 100) for v in values)  # rounded down to a cent
    return Prizes(cents, to_cents(pool * total / 100) - sum(cents))


def check_places(count: int, players: int, *, what: str, size: str = "") -> None:
    """A table may not pay more places than the flight can have players (``size`` says so in words: ``the
    consolation has 4 players``, or ``can have at most 7 players (...)`` while its field is not complete)."""
    if count > players:
        size = size or f"{what} has {players} players"
        raise PayoutError(f"{what}: the table pays {count} places but {size}: remove the last {count - players}")


def flight_payouts(
    places: Mapping[P, Place], prizes: Sequence[int], tie_rule: str, *, settled: bool = False
) -> FlightPayouts:
    """What each placed player earns (cents): ``places`` from :func:`flight_places`, ``prizes`` by place (place 1
    first), shared places paid by ``tie_rule``. Players who earn nothing are left out. ``settled``: the flight is
    over, so a place nobody holds will never be reached and its prize is ``unreached`` (while it is played, such a
    place is still to be taken).

    >>> flight_payouts({"a": Place(1, 1)}, [500, 300], SPLIT, settled=True).unreached
    300

    >>> places = {"a": Place(1, 1), "b": Place(2, 3), "c": Place(2, 3)}
    >>> sorted(flight_payouts(places, [500, 300, 101], SPLIT).paid.items())
    [('a', 500), ('b', 200), ('c', 200)]
    >>> flight_payouts(places, [500, 300, 101], BEST).over
    199
    """
    if tie_rule not in TIE_RULES:
        raise PayoutError(f"unknown tie rule {tie_rule!r}: use {SPLIT!r} or {BEST!r}")
    groups: dict[Place, list[P]] = {}
    for player, place in places.items():
        groups.setdefault(place, []).append(player)

    def prize(n: int) -> int:
        return prizes[n - 1] if 0 < n <= len(prizes) else 0

    paid: dict[P, int] = {}
    remainder = over = 0
    for place, players in groups.items():
        total = sum(prize(n) for n in range(place.first, place.last + 1))
        # A place spans as many players as will share it (5-8: four), even while some of them still play.
        span = max(place.last - place.first + 1, len(players))
        if tie_rule == BEST:
            each, left = prize(place.first), 0
            over += max(0, each * len(players) - total * len(players) // span)
        else:
            each, left = divmod(total, span)
        remainder += left
        if each:
            paid.update(dict.fromkeys(players, each))
    held = {n for place in groups for n in range(place.first, place.last + 1)}
    unreached = sum(prize(n) for n in range(1, len(prizes) + 1) if n not in held) if settled else 0
    return FlightPayouts(paid, remainder, over, unreached)


def cents_text(cents: int) -> str:
    """``12345`` as ``123.45``."""
    return f"{cents // 100}.{cents % 100:02d}"
