"""A division's money: its fees, who paid them, and what the prize pool and the side pool hold.

The director sets the fees (``set_fees``), marks at the door who paid and how (``mark_paid``), and a withdrawal
before the start may refund them (``withdraw_entry(..., refund=True)``, tournaments/services/results.py). What the
pools hold is computed from those marks each time it is read (:func:`pool_of`): nothing typed by hand can drift from
them. The payout table's percentages are of the prize pool computed here unless the director types another pool.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from django.db import transaction
from django.utils import timezone

from common.actor import Actor
from common.errors import ApplicationError, ErrorCode
from tournaments.access import check_directs
from tournaments.core import lock_division
from tournaments.models import Division, Entry
from tournaments.standings import cash

#: The largest fee or added money a division takes (the columns hold nine digits, two of them cents).
MAX_AMOUNT = Decimal("9999999.99")


@dataclass(frozen=True)
class FeeSettings:
    """The money settings of a division, as text or numbers from a form or the API."""

    entry_fee: str | Decimal = "0"
    side_pool_fee: str | Decimal = "0"
    house_share: str | Decimal = "0"
    added_money: str | Decimal = "0"
    side_pool_prizes: Sequence[str | Decimal] = ()


def _amount(value: str | Decimal, what: str, *, most: Decimal = MAX_AMOUNT) -> Decimal:
    text = str(value).strip() or "0"
    try:
        amount = Decimal(text)
    except InvalidOperation:
        raise ApplicationError(
            ErrorCode.INVALID_INPUT, f"{what} {text!r} is not a number: give it as 10 or 10.50"
        ) from None
    if not amount.is_finite() or amount < 0:
        raise ApplicationError(ErrorCode.INVALID_INPUT, f"{what} is {text}: give 0 or more")
    if amount > most:
        raise ApplicationError(ErrorCode.INVALID_INPUT, f"{what} is {text}: it can be at most {most}")
    if amount.as_tuple().exponent < -2:  # type: ignore[operator]
        raise ApplicationError(ErrorCode.INVALID_INPUT, f"{what} is {text}: give at most two decimals")
    return amount


def set_fees(division: Division, *, actor: Actor, settings: FeeSettings) -> Division:
    """Store the division's entry fee, side pool fee and its table, house share and added money (all checked first;
    nothing is stored on an error). A side pool table without a side pool fee is refused."""
    check_directs(actor, division.event)
    entry_fee = _amount(settings.entry_fee, "The entry fee")
    side_pool_fee = _amount(settings.side_pool_fee, "The side pool fee")
    house_share = _amount(settings.house_share, "The house share", most=Decimal(100))
    added_money = _amount(settings.added_money, "The added money")
    prizes = [_amount(v, "A side pool percentage", most=Decimal(100)) for v in settings.side_pool_prizes]
    try:
        cash.check_side_percentages(prizes)
    except ValueError as exc:
        raise ApplicationError(ErrorCode.INVALID_INPUT, f"{str(exc)[0].upper()}{str(exc)[1:]}.") from None
    if prizes and not side_pool_fee:
        raise ApplicationError(
            ErrorCode.INVALID_INPUT,
            "The side pool's percentages need a side pool: give its fee, or leave the percentages empty.",
        )
    with transaction.atomic():
        division = lock_division(division.pk)
        if not side_pool_fee and division.entries.exclude(side_pool="").exists():
            raise ApplicationError(
                ErrorCode.CONFLICT,
                "Players have paid into the side pool: it cannot be removed. Mark them out of it first, or keep its "
                "fee.",
            )
        division.entry_fee, division.side_pool_fee = entry_fee, side_pool_fee
        division.house_share, division.added_money = house_share, added_money
        division.side_pool_prizes = [format(v.normalize(), "f") for v in prizes]  # "60", not "60.00"
        division.save(update_fields=["entry_fee", "side_pool_fee", "house_share", "added_money", "side_pool_prizes"])
    return division


def mark_paid(entry: Entry, *, actor: Actor, fee: str | None = None, side_pool: str | None = None) -> Entry:
    """Mark how the player paid his entry fee (``cash``, ``transfer``, or ``""``: not paid) and his side pool fee
    (the same; ``""``: not in the side pool). ``None`` leaves that mark as it is."""
    methods = ("", *cash.METHODS)
    for value, what in ((fee, "entry fee"), (side_pool, "side pool")):
        if value is not None and value not in methods:
            raise ApplicationError(
                ErrorCode.INVALID_INPUT,
                f"Unknown way of paying the {what} {value!r}: use cash, transfer, or nothing for not paid.",
            )
    with transaction.atomic():
        division = lock_division(entry.division_id)
        check_directs(actor, division.event)
        entry = Entry.objects.select_related("player").get(pk=entry.pk)
        name = entry.player.display_name
        if entry.refunded:
            raise ApplicationError(
                ErrorCode.CONFLICT, f"{name} withdrew and was refunded: enter him again before marking a payment."
            )
        if side_pool and not division.side_pool_fee:
            raise ApplicationError(
                ErrorCode.CONFLICT, f"{division.name} has no side pool: set its fee first (the division's Money)."
            )
        if fee is not None:
            entry.paid = fee
        if side_pool is not None:
            entry.side_pool = side_pool
        entry.paid_at = timezone.now() if (entry.paid or entry.side_pool) else None
        entry.save(update_fields=["paid", "side_pool", "paid_at"])
    return entry


def check_refund(division: Division, entry: Entry) -> None:
    """A refund is made only before the division starts, and only of fees paid."""
    if division.status != Division.Status.REGISTRATION:
        raise ApplicationError(
            ErrorCode.CONFLICT,
            f"{division.name} has started: fees are refunded only to a player who withdraws before the start. "
            "Withdraw him without a refund.",
        )
    if not (entry.paid or entry.side_pool):
        raise ApplicationError(
            ErrorCode.CONFLICT,
            f"{entry.player.display_name} has paid nothing: there is nothing to refund. Withdraw him without a refund.",
        )
