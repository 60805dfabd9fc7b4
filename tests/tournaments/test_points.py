"""tournaments.points: USBGF master points (2019), against values worked out by hand (pure Python, no database).

The hand values: sqrt(1)/3 = 0.333333, sqrt(5)/3 = 2.236068/3 = 0.745356, sqrt(7)/3 = 2.645751/3 = 0.881917,
sqrt(9)/3 = 1; log2(8) = 3, log2(5) = 2.321928, log2(12) = 3.584963, log2(16) = 4.
"""

from __future__ import annotations

import pytest

from tournaments.points import (
    Earned,
    match_win_points,
    placement_points,
    rank_factor,
    shared_factor,
    usbgf_points,
)


def test_rank_factors_one_point_seven_then_one_over_rank_less_one() -> None:
    assert rank_factor(1) == 1.0
    assert rank_factor(2) == 0.7
    assert rank_factor(3) == 0.5  # 1/(3-1)
    assert rank_factor(4) == pytest.approx(0.333333, abs=1e-6)  # 1/(4-1)
    assert rank_factor(5) == 0.0  # past the top four places
    assert rank_factor(5, places_paid=8) == 0.25  # 1/(5-1)
    assert rank_factor(8, places_paid=8) == pytest.approx(0.142857, abs=1e-6)  # 1/7


def test_tied_players_share_the_mean_of_the_factors_of_the_ranks_they_span() -> None:
    assert shared_factor(3, 4) == pytest.approx(0.416667, abs=1e-6)  # (0.5 + 0.333333) / 2
    assert shared_factor(1, 2) == pytest.approx(0.85)  # (1 + 0.7) / 2
    assert shared_factor(5, 8) == 0.0  # four places paid: none of 5-8
    # Six places paid: 5-8 share (1/4 + 1/5 + 0 + 0) / 4 = 0.45 / 4.
    assert shared_factor(5, 8, places_paid=6) == pytest.approx(0.1125)
    # Four places paid: 3-6 share (1/2 + 1/3 + 0 + 0) / 4.
    assert shared_factor(3, 6) == pytest.approx(0.208333, abs=1e-6)


def test_match_win_points_are_sqrt_length_over_three() -> None:
    assert match_win_points(1) == pytest.approx(0.333333, abs=1e-6)
    assert match_win_points(5) == pytest.approx(0.745356, abs=1e-6)
    assert match_win_points(7) == pytest.approx(0.881917, abs=1e-6)
    assert match_win_points(9) == pytest.approx(1.0)
    # Weighted: an event of 0.5, an intermediate division of 0.7: 0.35 x 1.
    assert match_win_points(9, event_weight=0.5, division_weight=0.7) == pytest.approx(0.35)


@pytest.mark.parametrize(
    ("first", "last", "players", "expected"),
    [
        (1, 1, 8, 1.8),  # 0.6 x 3 x 1.0
        (2, 2, 8, 1.26),  # 0.6 x 3 x 0.7
        (3, 4, 8, 0.75),  # 0.6 x 3 x 0.416667
        (5, 8, 8, 0.0),
        (1, 1, 5, 1.393157),  # 0.6 x 2.321928
        (2, 2, 5, 0.975210),  # 1.393157 x 0.7
        (3, 4, 5, 0.580482),  # 1.393157 x 0.416667
        (1, 1, 12, 2.150978),  # 0.6 x 3.584963
        (3, 4, 12, 0.896241),  # 2.150978 x 0.416667
        (1, 1, 16, 2.4),  # 0.6 x 4
        (1, 1, 1, 0.0),  # a field of one: log2(1) = 0
    ],
)
def test_placement_points(first: int, last: int, players: int, expected: float) -> None:
    assert placement_points(first, last, players) == pytest.approx(expected, abs=1e-6)


def test_placement_points_with_weights_and_more_places_paid() -> None:
    # 0.5 x 0.7 x 0.6 x 3 x 1.0
    assert placement_points(1, 1, 8, event_weight=0.5, division_weight=0.7) == pytest.approx(0.63)
    # 0.6 x 4 x 0.1125 (5-8 of 16, six places paid)
    assert placement_points(5, 8, 16, places_paid=6) == pytest.approx(0.27)


def test_a_players_points_add_his_match_wins_and_his_place() -> None:
    # The champion of 8 who won three 7-point matches: 3 x 0.881917 + 1.8.
    earned = usbgf_points([7, 7, 7], (1, 1), 8)
    assert earned.match_wins == 3
    assert earned.match_win_points == pytest.approx(2.645751, abs=1e-6)
    assert earned.placement_points == pytest.approx(1.8)
    assert earned.total == pytest.approx(4.445751, abs=1e-6)
    # No place yet: match wins only.
    assert usbgf_points([5], None, 8) == Earned(1, pytest.approx(0.745356, abs=1e-6), 0.0)
    assert usbgf_points([], None, 8).total == 0.0


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: rank_factor(0), "a rank is 1 or more"),
        (lambda: shared_factor(4, 3), "not 4-3"),
        (lambda: match_win_points(0), "1 point or more"),
        (lambda: placement_points(1, 1, 0), "at least 1 player"),
    ],
)
def test_impossible_values_are_refused(call: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        call()  # type: ignore[operator]
