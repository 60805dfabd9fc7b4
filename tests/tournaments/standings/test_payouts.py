"""Payouts by place (tournaments/standings/payouts.py), computed by hand."""

from __future__ import annotations

from decimal import Decimal

import pytest

from tournaments.standings.payouts import (
    AMOUNT,
    BEST,
    PERCENT,
    SPLIT,
    PayoutError,
    check_places,
    flight_payouts,
    flight_prizes,
    parse_values,
)
from tournaments.standings.places import Place

# A 17-player knockout's places: 1, 2, 3-4, 5-8 (the four quarter-final losers), 9-16, 17.
KNOCKOUT = {
    "champion": Place(1, 1),
    "final": Place(2, 2),
    "s1": Place(3, 4),
    "s2": Place(3, 4),
    **{f"q{i}": Place(5, 8) for i in range(4)},
    **{f"r{i}": Place(9, 16) for i in range(8)},
    "first": Place(17, 17),
}
# Pool 1,000.00: 40, 20, 10, 10, 5, 5, 5, 5 (percent): 400.00, 200.00, 100.00 twice, 50.00 four times.
PRIZES = [40000, 20000, 10000, 10000, 5000, 5000, 5000, 5000]


def test_split_shares_the_sum_of_the_places_a_group_spans() -> None:
    uneven = [40000, 20000, 12000, 8000, 7000, 5000, 4000, 2000]
    result = flight_payouts(KNOCKOUT, uneven, SPLIT)
    # 3-4: (120 + 80) / 2 = 100 each; 5-8: (70 + 50 + 40 + 20) / 4 = 45 each; 9-16 pay nothing.
    assert result.paid == {"champion": 40000, "final": 20000, "s1": 10000, "s2": 10000} | {
        f"q{i}": 4500 for i in range(4)
    }
    assert result.remainder == 0


def test_best_pays_each_the_prize_of_the_best_place_of_the_group() -> None:
    uneven = [40000, 20000, 12000, 8000, 7000, 5000, 4000, 2000]
    result = flight_payouts(KNOCKOUT, uneven, BEST)
    # 3-4 both get place 3's 120.00; 5-8 all get place 5's 70.00: 400 + 200 + 240 + 280 = 1,120.00 paid in all.
    assert result.paid["s1"] == result.paid["s2"] == 12000
    assert {result.paid[f"q{i}"] for i in range(4)} == {7000}
    assert sum(result.paid.values()) == 112000 and "r0" not in result.paid


def test_a_split_that_does_not_divide_states_its_remainder() -> None:
    # Places 2-4 shared by three: 100.00 + 50.00 + 50.00 = 200.00 / 3 = 66.66 each, 0.02 left over.
    places = {"a": Place(1, 1), "b": Place(2, 4), "c": Place(2, 4), "d": Place(2, 4)}
    result = flight_payouts(places, [30000, 10000, 5000, 5000], SPLIT)
    assert result.paid == {"a": 30000, "b": 6666, "c": 6666, "d": 6666}
    assert result.remainder == 2


def test_percentages_round_down_to_cents_with_the_remainder_stated() -> None:
    # 333.33 at 50/30/20: 166.665 -> 166.66, 99.999 -> 99.99, 66.666 -> 66.66: 333.31 paid, 0.02 left over.
    prizes = flight_prizes([Decimal(50), Decimal(30), Decimal(20)], mode=PERCENT, pool=Decimal("333.33"), what="main")
    assert prizes.cents == (16666, 9999, 6666)
    assert prizes.remainder == 2


def test_percentages_under_100_keep_the_rest_of_the_pool_out_of_the_remainder() -> None:
    prizes = flight_prizes([Decimal(50), Decimal(25)], mode=PERCENT, pool=Decimal(1000), what="main")
    assert prizes.cents == (50000, 25000) and prizes.remainder == 0


def test_fixed_amounts_are_taken_as_given() -> None:
    prizes = flight_prizes([Decimal("250.50"), Decimal(100)], mode=AMOUNT, pool=None, what="main")
    assert prizes == prizes.__class__((25050, 10000), 0)


def test_players_still_in_and_places_beyond_the_table_are_paid_nothing() -> None:
    result = flight_payouts({"a": Place(3, 4), "b": Place(3, 4)}, [100, 50, 20], SPLIT)
    assert result.paid == {"a": 10, "b": 10}  # (20 + 0) / 2


@pytest.mark.parametrize(
    ("values", "pool", "message"),
    [
        ([Decimal(60), Decimal(50)], Decimal(100), "add up to 110, more than 100 of the pool: lower them by 10"),
        ([Decimal(50)], None, "percentages need a prize pool"),
    ],
)
def test_bad_percentages_say_what_to_fix(values: list[Decimal], pool: Decimal | None, message: str) -> None:
    with pytest.raises(PayoutError, match=message):
        flight_prizes(values, mode=PERCENT, pool=pool, what="main")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("50, -10", "place 2 is -10, a negative prize: give 0 or more"),
        ("50, ten", "place 2 is 'ten', not a number"),
        ("10.555", "at most two decimals"),
    ],
)
def test_bad_values_say_what_to_fix(text: str, message: str) -> None:
    with pytest.raises(PayoutError, match=message):
        parse_values(text, what="main")


def test_more_places_than_players_is_refused() -> None:
    check_places(4, 4, what="the consolation")
    with pytest.raises(PayoutError, match=r"^the consolation: the table pays 5 places but the consolation has 4 "):
        check_places(5, 4, what="the consolation")
    with pytest.raises(PayoutError, match=r"pays 5 places but the consolation can have at most 4 players \(why\)"):
        check_places(5, 4, what="the consolation", size="the consolation can have at most 4 players (why)")


def test_a_shared_place_still_being_played_pays_its_share_of_the_whole_span() -> None:
    # Three quarter-final losers known, the fourth quarter-final still played: 5-8 pays (4 x 45.00) / 4 each, not
    # 180.00 split by the three out so far (60.00 each, then 45.00 once the fourth is out).
    places = {"champion": Place(1, 1), **{f"q{i}": Place(5, 8) for i in range(3)}}
    result = flight_payouts(places, [40000, 20000, 10000, 10000, 4500, 4500, 4500, 4500], SPLIT)
    assert {result.paid[f"q{i}"] for i in range(3)} == {4500} and result.remainder == 0


def test_best_says_what_it_pays_beyond_the_table() -> None:
    uneven = [40000, 20000, 12000, 8000, 7000, 5000, 4000, 2000]
    # 3-4: 2 x 120.00 against 200.00 in the table; 5-8: 4 x 70.00 against 180.00: 140.00 more in all.
    assert flight_payouts(KNOCKOUT, uneven, BEST).over == 4000 + 10000
    assert flight_payouts(KNOCKOUT, uneven, SPLIT).over == 0
    assert flight_payouts(KNOCKOUT, PRIZES, BEST).over == 0  # the places of each group pay the same
