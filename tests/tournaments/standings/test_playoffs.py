"""The pure rule of playoffs for ties: which ties matter, the stepladder of three, and how an order settles a tie."""

from __future__ import annotations

from decimal import Decimal

import pytest

from tournaments.standings.playoffs import (
    CUT,
    FIRST,
    PLACES,
    Bout,
    Tie,
    bouts,
    finishing_order,
    settle,
    ties_that_matter,
)
from tournaments.standings.tiebreakers import Row


def test_a_tie_across_the_cut_matters_one_inside_it_does_not() -> None:
    rows = [(1, "a"), (1, "b"), (3, "c"), (3, "d"), (5, "e"), (5, "f")]
    assert ties_that_matter(rows, cut=3) == [Tie(CUT, 3, ("c", "d"))]
    assert ties_that_matter(rows, cut=4) == []


def test_a_tie_for_first_matters_in_a_table_and_a_three_way_cycle_is_one_tie() -> None:
    rows = [(1, "a"), (1, "b"), (1, "c")]
    (tie,) = ties_that_matter(rows, first=True)
    assert tie == Tie(FIRST, 1, ("a", "b", "c")) and tie.orderable and tie.last == 3
    assert ties_that_matter(rows) == []


def test_a_tie_over_places_that_pay_differently_matters_and_over_equal_prizes_does_not() -> None:
    rows = [(1, "a"), (2, "b"), (2, "c"), (4, "d"), (5, "e"), (5, "f")]
    prizes = [Decimal(50), Decimal(30), Decimal(10), Decimal(5), Decimal(5), Decimal(5)]
    assert ties_that_matter(rows, prizes=prizes) == [Tie(PLACES, 2, ("b", "c"))]
    # Past the table every place pays nothing: the last place paid against one unpaid is a tie that matters.
    assert ties_that_matter([(1, "a"), (2, "b"), (2, "c")], prizes=[Decimal(70), Decimal(30)]) == [
        Tie(PLACES, 2, ("b", "c"))
    ]


def test_the_cut_comes_before_first_and_places() -> None:
    rows = [(1, "a"), (1, "b")]
    assert ties_that_matter(rows, cut=1, first=True, prizes=[Decimal(2), Decimal(1)])[0].kind == CUT


def test_four_tied_players_are_a_tie_no_playoff_settles() -> None:
    (tie,) = ties_that_matter([(1, p) for p in "abcd"], first=True)
    assert not tie.orderable


def test_two_players_play_one_match_three_a_stepladder() -> None:
    assert bouts(["a", "b"]) == [Bout("a", "b")]
    assert bouts(["a", "b", "c"]) == [Bout("b", "c"), Bout("a", None)]
    with pytest.raises(ValueError, match="two or three players, not 4"):
        bouts(["a", "b", "c", "d"])


@pytest.mark.parametrize(
    ("winners", "order"),
    [
        (["b", "a"], ("a", "b", "c")),  # the lower two: b; the final: the top one
        (["b", "b"], ("b", "a", "c")),
        (["c", "c"], ("c", "a", "b")),
        (["c", "a"], ("a", "c", "b")),
        (["c"], ()),  # the final still to play
    ],
)
def test_the_stepladder_places_its_final_winner_first_and_its_first_loser_third(
    winners: list[str], order: tuple[str, ...]
) -> None:
    assert finishing_order(["a", "b", "c"], winners) == order


def test_an_order_splits_the_shared_position_and_nothing_else() -> None:
    rows = [Row(1, "a", 3), Row(2, "b", 2), Row(2, "c", 2), Row(2, "d", 2), Row(5, "e", 0)]
    settled = settle(rows, [("d", "b", "c")])
    assert [(r.position, r.player) for r in settled] == [(1, "a"), (2, "d"), (3, "b"), (4, "c"), (5, "e")]
    assert [r.score for r in settled] == [3, 2, 2, 2, 0]


def test_an_order_whose_players_no_longer_share_a_position_settles_nothing() -> None:
    rows = [Row(1, "a", 3), Row(2, "b", 2), Row(3, "c", 1)]  # a correction parted b and c
    assert settle(rows, [("c", "b")]) == rows
    tied = [Row(1, "a", 2), Row(1, "b", 2), Row(1, "c", 2)]
    assert settle(tied, [("b", "a")]) == tied  # two of three: not the whole tie
