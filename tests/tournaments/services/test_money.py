"""A division's money (tournaments/services/money.py): fees, who paid, refunds, the prize pool and the side pool they
make, the payout table drawing on it, and the cash sheet adding up."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal

import pytest

from common.actor import Actor
from common.errors import ApplicationError
from tests.tournaments.services.support import named, played_main_consolation, snapshot
from tournaments import selectors, services
from tournaments.core import pool_of
from tournaments.models import Division, Entry
from tournaments.pages import remainder_notes
from tournaments.selectors.money import division_cash, event_cash
from tournaments.services.money import FeeSettings, mark_paid, set_fees
from tournaments.services.payouts import set_payouts
from tournaments.standings import cash

pytestmark = pytest.mark.django_db


def fees(division: Division, director: Actor, **settings: object) -> Division:
    return set_fees(division, actor=director, settings=FeeSettings(**settings))  # type: ignore[arg-type]


def player(division: Division, number: int) -> Entry:
    """The entry of player P01, P02, ... (the seeds are drawn at the start)."""
    return named(division, f"P{number:02d}")


def pay(
    division: Division, director: Actor, numbers: range | list[int], how: str = "cash", side: str | None = None
) -> None:
    for number in numbers:
        mark_paid(player(division, number), actor=director, fee=how, side_pool=side)


# -- the pure rules ------------------------------------------------------------------------------------------------


def test_the_pool_is_the_fees_paid_less_the_house_share_plus_the_added_money() -> None:
    payments = [cash.Payment("cash")] * 4 + [cash.Payment("transfer")] * 2 + [cash.Payment()] * 2
    pool = cash.pool_of(cash.Fees(entry_fee=500, house_share=Decimal(10), added_money=2000), payments)
    assert pool.fees.by_method == {"cash": 4, "transfer": 2}
    assert (pool.fees.received, pool.house, pool.prize_pool) == (3000, 300, 4700)


def test_a_refund_leaves_the_pools() -> None:
    payments = [cash.Payment("cash", "cash"), cash.Payment("cash", "transfer", refunded=True)]
    pool = cash.pool_of(cash.Fees(entry_fee=500, side_pool_fee=1000), payments)
    assert (pool.fees.received, pool.fees.refunded, pool.prize_pool) == (1000, 500, 500)
    assert (pool.side.received, pool.side.refunded, pool.side_pool) == (2000, 1000, 1000)


def test_the_side_pool_pays_by_rank_and_shared_ranks_split() -> None:
    paid, left = cash.side_pool_payouts(10001, [Decimal(50), Decimal(30), Decimal(20)], [[1], [2, 3]])
    assert paid == {1: 5000, 2: 2500, 3: 2500}
    assert left == 1  # the cent that rounding left


# -- setting the fees ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("given", "words"),
    [
        ({"entry_fee": "-5"}, "The entry fee is -5: give 0 or more"),
        ({"entry_fee": "5.555"}, "give at most two decimals"),
        ({"entry_fee": "five"}, "is not a number"),
        ({"entry_fee": "1e308"}, "it can be at most 9999999.99"),
        ({"house_share": "101"}, "The house share is 101: it can be at most 100"),
        ({"side_pool_fee": "10", "side_pool_prizes": ["70", "40"]}, "add up to 110, more than 100"),
        ({"side_pool_prizes": ["100"]}, "need a side pool"),
    ],
)
def test_bad_fees_are_refused_and_nothing_is_stored(
    division_of: Callable[..., Division], as_director: Actor, given: dict[str, object], words: str
) -> None:
    division = division_of("single", 4)
    before = snapshot()
    with pytest.raises(ApplicationError) as refused:
        fees(division, as_director, **given)
    assert words in refused.value.message
    assert snapshot() == before
    division.refresh_from_db()
    assert division.entry_fee == 0


def test_only_the_events_directors_set_fees_and_mark_payments(
    division_of: Callable[..., Division], as_director: Actor, stranger: Actor
) -> None:
    division = division_of("single", 4)
    with pytest.raises(ApplicationError) as refused:
        fees(division, stranger, entry_fee="5")
    assert refused.value.status == 403
    with pytest.raises(ApplicationError):
        mark_paid(player(division, 1), actor=stranger, fee="cash")
    assert not Entry.objects.filter(division=division).exclude(paid="").exists()


def test_a_payment_is_cash_or_transfer_and_a_side_pool_needs_its_fee(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    division = fees(division_of("single", 4), as_director, entry_fee="5")
    with pytest.raises(ApplicationError) as refused:
        mark_paid(player(division, 1), actor=as_director, fee="cheque")
    assert "use cash, transfer, or nothing" in refused.value.message
    with pytest.raises(ApplicationError) as refused:
        mark_paid(player(division, 1), actor=as_director, side_pool="cash")
    assert "has no side pool" in refused.value.message
    done = mark_paid(player(division, 1), actor=as_director, fee="transfer")
    assert (done.paid, done.side_pool) == ("transfer", "")
    assert done.paid_at is not None
    undone = mark_paid(player(division, 1), actor=as_director, fee="")
    assert (undone.paid, undone.paid_at) == ("", None)


def test_a_side_pool_with_players_in_it_cannot_be_removed(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    division = fees(division_of("single", 4), as_director, entry_fee="5", side_pool_fee="10")
    pay(division, as_director, [1], side="cash")
    with pytest.raises(ApplicationError) as refused:
        fees(division, as_director, entry_fee="5", side_pool_fee="0")
    assert "Players have paid into the side pool" in refused.value.message
    division.refresh_from_db()
    assert division.side_pool_fee == Decimal("10.00")


# -- refunds -------------------------------------------------------------------------------------------------------


def test_a_withdrawal_before_the_start_is_refunded_when_the_director_says_so(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    division = fees(division_of("single", 8), as_director, entry_fee="5", side_pool_fee="10")
    pay(division, as_director, range(1, 9))
    pay(division, as_director, [1, 2], side="cash")
    services.withdraw_entry(player(division, 2), actor=as_director, reason="ill", refund=True)
    services.withdraw_entry(player(division, 3), actor=as_director, reason="left early")  # keeps his fee in the pool
    pool = pool_of(division)
    assert (pool.fees.received, pool.fees.refunded, pool.prize_pool) == (4000, 500, 3500)
    assert (pool.side.received, pool.side.refunded, pool.side_pool) == (2000, 1000, 1000)
    with pytest.raises(ApplicationError) as refused:
        mark_paid(player(division, 2), actor=as_director, fee="cash")
    assert "was refunded" in refused.value.message


def test_no_refund_after_the_start_nor_of_nothing_paid(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    division = fees(division_of("single", 8), as_director, entry_fee="5")
    with pytest.raises(ApplicationError) as refused:
        services.withdraw_entry(player(division, 4), actor=as_director, reason="x", refund=True)
    assert "has paid nothing" in refused.value.message
    pay(division, as_director, range(1, 9))
    services.start_division(division, actor=as_director)
    before = snapshot()
    with pytest.raises(ApplicationError) as refused:
        services.withdraw_entry(player(division, 4), actor=as_director, reason="x", refund=True)
    assert "has started" in refused.value.message
    assert snapshot() == before
    assert player(division, 4).status != Entry.Status.WITHDRAWN


# -- the payout table draws on the pool ----------------------------------------------------------------------------


def test_percentages_without_a_typed_pool_are_of_the_fees_pool(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    division = division_of("main-consolation", 8, entry_mode="scoresheet", match_length=1)
    division = fees(division, as_director, entry_fee="10", house_share="10", added_money="8")
    set_payouts(
        division, actor=as_director, mode="percent", pool=None, ties="split", published=True, flights={"main": "50, 30"}
    )
    pay(division, as_director, range(1, 9))
    division = played_main_consolation(division, as_director)
    rows = selectors.standings_table(division)
    payouts = selectors.payouts_of(division, rows)
    # 8 x 10.00 = 80.00, less 10% = 72.00, plus 8.00 added = 80.00: 40.00 and 24.00.
    by_name = {row.entry.player.display_name: payouts.paid.get(row.entry_id) for row in rows}
    assert by_name["P01"] == {"main": 4000}
    assert by_name["P02"] == {"main": 2400}


def test_the_side_pool_pays_its_players_by_their_places(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    division = division_of("main-consolation", 8, entry_mode="scoresheet", match_length=1)
    fees(division, as_director, entry_fee="5", side_pool_fee="10", side_pool_prizes=["70", "30"])
    pay(division, as_director, range(1, 9))
    pay(division, as_director, [2, 4, 5, 7], side="transfer")
    division = played_main_consolation(division, as_director)
    rows = selectors.standings_table(division)
    payouts = selectors.payouts_of(division, rows)
    side = {
        row.entry.player.display_name: payouts.paid[row.entry_id]["side-pool"]
        for row in rows
        if "side-pool" in payouts.paid.get(row.entry_id, {})
    }
    # 4 x 10.00 = 40.00: P02 (2nd) 70% = 28.00, P04 (3-4) 30% = 12.00; P05 and P07 (5-8) nothing.
    assert side == {"P02": 2800, "P04": 1200}


def test_while_side_pool_players_still_play_their_share_waits(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    division = division_of("single", 4, entry_mode="scoresheet", match_length=1)
    fees(division, as_director, side_pool_fee="10", side_pool_prizes=["60", "40"])
    pay(division, as_director, [1, 4], how="", side="cash")
    services.start_division(division, actor=as_director)
    # Nobody is placed yet: both still play, and the side pool pays nothing yet.
    services.recompute_standings(division.pk)
    division.refresh_from_db()
    rows = selectors.standings_table(division)
    payouts = selectors.payouts_of(division, rows)
    assert not any("side-pool" in flights for flights in payouts.paid.values())
    # It waits for them: said so, not as money left over.
    assert (payouts.waiting["side-pool"], payouts.remainder["side-pool"]) == (2000, 0)
    notes = remainder_notes(payouts)
    assert notes == ["Side pool: 20.00 waits for the places of its players still playing."], notes


# -- the cash sheet ------------------------------------------------------------------------------------------------


def test_the_cash_sheet_adds_up(division_of: Callable[..., Division], as_director: Actor) -> None:
    division = division_of("main-consolation", 8, entry_mode="scoresheet", match_length=1)
    division = fees(division, as_director, entry_fee="5", side_pool_fee="10", house_share="20", added_money="10")
    pay(division, as_director, range(1, 7))
    pay(division, as_director, [7, 8], how="transfer")
    pay(division, as_director, [1, 3, 6], side="cash")
    set_payouts(
        division,
        actor=as_director,
        mode="percent",
        pool=None,
        ties="split",
        published=False,
        flights={"main": "60, 40"},
    )
    division = played_main_consolation(division, as_director)
    sheet = division_cash(division)
    # In: 8 x 5.00 + 3 x 10.00 = 70.00; house 20% of 40.00 = 8.00; pool 40 - 8 + 10 = 42.00: 25.20 and 16.80.
    assert sheet.fee_methods == {"cash": 6, "transfer": 2}
    assert (sheet.sheet.paid_in, sheet.sheet.pool.house, sheet.sheet.pool.prize_pool) == (7000, 800, 4200)
    # Side pool 30.00, all to the best placed of P01, P03, P06: P01.
    assert [(line.name, line.flight, line.cents) for line in sheet.prizes] == [
        ("P01", "main", 2520),
        ("P02", "main", 1680),
        ("P01", "side-pool", 3000),
    ]
    # Left in the box: 70.00 + 10.00 added - 72.00 paid out = 8.00, the house's share.
    assert sheet.sheet.left_over == 800
    night = event_cash(division.event)
    assert (night.total_in, night.total_out, night.total_left) == (8000, 7200, 800)
