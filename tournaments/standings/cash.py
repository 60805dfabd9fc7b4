"""The money of a division: entry fees, a side pool, the house's share and added money (pure: amounts in cents).

Terms
- The **entry fee** is paid by every player, at the door (cash) or beforehand (a transfer). The director marks who
  paid; only what was paid counts.
- The **house share** is a percentage of the entry fees paid that the club keeps (0 by default: everything is
  returned). **Added money** is given by the club or a sponsor on top.
- The **prize pool** is the entry fees paid, less the house share (rounded down to cents), plus the added money: the
  payout table's percentages are of this pool unless the director types another.
- A **side pool** is an optional second fee that only some players pay; it is returned whole to those in it, by
  their place in the division, as its own table of percentages says (all of it to the best placed by default).
- A player who withdraws before the division starts is **refunded** (his fees go back to him and count nowhere) or
  not, as the director says; a refund is never made after the start.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_DOWN, Decimal

from tournaments.standings.payouts import to_cents as to_cents  # amounts in whole cents, as the payouts

CASH = "cash"
TRANSFER = "transfer"
METHODS = (CASH, TRANSFER)


@dataclass(frozen=True)
class Payment:
    """One entry's money: how its entry fee and its side pool fee were paid ("" for not paid, or not in the side
    pool), and whether they were refunded."""

    fee: str = ""
    side: str = ""
    refunded: bool = False


@dataclass(frozen=True)
class Fees:
    """A division's money settings, in cents (the house share in hundredths of a percent)."""

    entry_fee: int = 0
    side_pool_fee: int = 0
    house_share: Decimal = Decimal(0)
    added_money: int = 0


@dataclass(frozen=True)
class Counted:
    """What came in for one kind of fee: how many paid by each method, their total, and the refunds made."""

    by_method: dict[str, int] = field(default_factory=dict)  # method -> payers (refunded ones included)
    received: int = 0  # cents received, refunded ones included
    refunds: int = 0  # payers refunded
    refunded: int = 0  # cents given back

    @property
    def payers(self) -> int:
        return sum(self.by_method.values())

    @property
    def kept(self) -> int:
        """Cents received and not given back."""
        return self.received - self.refunded


@dataclass(frozen=True)
class Pool:
    """The prize pool of a division and its side pool, and how each was made (cents)."""

    fees: Counted
    side: Counted
    house: int
    added: int

    @property
    def prize_pool(self) -> int:
        return self.fees.kept - self.house + self.added

    @property
    def side_pool(self) -> int:
        return self.side.kept


def _count(payments: Sequence[Payment], method_of: str, fee: int) -> Counted:
    by_method: dict[str, int] = {}
    refunds = 0
    for payment in payments:
        method = getattr(payment, method_of)
        if not method:
            continue
        by_method[method] = by_method.get(method, 0) + 1
        refunds += payment.refunded
    payers = sum(by_method.values())
    return Counted(by_method, payers * fee, refunds, refunds * fee)


def pool_of(fees: Fees, payments: Sequence[Payment]) -> Pool:
    """The division's pools from what its players paid.

    >>> paid = [Payment("cash"), Payment("transfer", "cash"), Payment("cash", refunded=True), Payment()]
    >>> pool = pool_of(Fees(entry_fee=500, side_pool_fee=1000, house_share=Decimal(10), added_money=2000), paid)
    >>> pool.fees.received, pool.fees.refunded, pool.house, pool.prize_pool, pool.side_pool
    (1500, 500, 100, 2900, 1000)
    """
    counted = _count(payments, "fee", fees.entry_fee)
    side = _count(payments, "side", fees.side_pool_fee)
    house = int((Decimal(counted.kept) * fees.house_share / 100).to_integral_value(rounding=ROUND_DOWN))
    return Pool(counted, side, house, fees.added_money)


def side_pool_payouts(
    side_pool: int, percentages: Sequence[Decimal], ranked: Sequence[Sequence[int]]
) -> tuple[dict[int, int], int]:
    """What each player of the side pool is paid: ``percentages`` of ``side_pool`` (cents) by rank among its players,
    ``ranked`` best first, players who share a rank in one group (they split the percentages of the ranks they
    span evenly). Returns the payouts (player -> cents) and the cents left over (rounding, ranks nobody reached).

    >>> side_pool_payouts(3000, [Decimal(70), Decimal(30)], [[7], [3, 4]])
    ({7: 2100, 3: 450, 4: 450}, 0)
    >>> side_pool_payouts(1000, [Decimal(100)], [])
    ({}, 1000)
    """
    paid: dict[int, int] = {}
    rank = 0
    for group in ranked:
        spanned = percentages[rank : rank + len(group)]
        share = Decimal(side_pool) * sum(spanned, Decimal(0)) / 100 / len(group)
        cents = int(share.to_integral_value(rounding=ROUND_DOWN))
        for player in group:
            if cents:
                paid[player] = cents
        rank += len(group)
    return paid, side_pool - sum(paid.values())


def check_side_percentages(values: Sequence[Decimal]) -> None:
    """A side pool's table: percentages from 0 to 100 adding up to at most 100 (the rest is left over, stated).

    :raises ValueError: saying what to change."""
    if any(v < 0 for v in values):
        raise ValueError("the side pool's percentages cannot be negative")
    total = sum(values, Decimal(0))
    if total > 100:
        raise ValueError(f"the side pool's percentages add up to {total}, more than 100: lower them by {total - 100}")


@dataclass(frozen=True)
class Sheet:
    """A division's cash sheet: what came in, what the house kept, what the prizes paid, and what is left."""

    pool: Pool
    prizes: int  # cents the payout table pays out now
    side_prizes: int  # cents the side pool pays out now

    @property
    def paid_in(self) -> int:
        return self.pool.fees.received + self.pool.side.received

    @property
    def refunded(self) -> int:
        return self.pool.fees.refunded + self.pool.side.refunded

    @property
    def paid_out(self) -> int:
        return self.prizes + self.side_prizes

    @property
    def left_over(self) -> int:
        """What stays in the cash box once the added money is put in and the refunds and prizes are paid: the house's
        share, and what the prizes do not pay (rounding, places nobody reached, a table paying less than 100%)."""
        return self.paid_in + self.pool.added - self.refunded - self.paid_out


def method_counts(counted: Counted) -> Mapping[str, int]:
    """The payers of a fee by method, cash first."""
    return {method: counted.by_method.get(method, 0) for method in METHODS}
