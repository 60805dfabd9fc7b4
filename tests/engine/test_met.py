"""engine/met.py: the Kazaross-XG2 match equity table, read in gnubg's layout.

Every expected figure below was read by hand from ``engine/data/Kazaross-XG2.xml``; the comment gives the line.
"""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path

import pytest

from engine.met import (
    MAX_AWAY,
    kazaross_xg2,
    match_winning_chance,
    match_winning_chances,
    parse_met,
    race_winning_chance,
)

DATA = Path(__file__).resolve().parents[2] / "engine" / "data" / "Kazaross-XG2.xml"
SHARED = Path(__file__).resolve().parents[3] / "shared" / "data" / "met" / "Kazaross-XG2.xml"


def test_the_shipped_file_is_the_shared_one_unmodified_with_its_notice() -> None:
    text = DATA.read_bytes()
    assert b"Copyright (C) 2011 Neil Kazaross" in text
    assert b"copyright\n     notice and this notice are preserved" in text
    if SHARED.exists():
        assert text == SHARED.read_bytes()


def test_the_table_is_25_by_25_with_a_25_long_post_crawford_row() -> None:
    table = kazaross_xg2()
    assert table.name == "Kazaross XG2 25 point MET"
    assert len(table.pre) == MAX_AWAY == 25
    assert all(len(row) == 25 for row in table.pre)
    assert len(table.post) == 25


def test_gnubg_layout_the_first_row_is_1_away() -> None:
    pre = kazaross_xg2().pre
    # line 31-33: the first row opens 0.50000, 0.67736, 0.75076: 1-away against 1-, 2-, 3-away.
    assert pre[0][:3] == (0.5, 0.67736, 0.75076)
    # the first row only rises (the further the opponent, the better for the 1-away leader) ...
    assert all(a < b for a, b in pairwise(pre[0]))
    # ... and the first column only falls: the 1-away column is the trailer's Crawford-game chance.
    column = [row[0] for row in pre]
    assert all(a > b for a, b in pairwise(column))
    # line 56: the first row ends with 1-away against 25-away; line 704: the last row opens with 25-away vs 1.
    assert pre[0][24] == 0.99905
    assert pre[24][0] == 0.00095


@pytest.mark.parametrize(
    ("away_me", "away_opp", "expected"),
    [
        (1, 1, 0.5),  # line 31
        (1, 2, 0.67736),  # line 32: the Crawford game, leader's side
        (2, 1, 0.32264),  # line 60: the Crawford game, trailer's side
        (3, 4, 0.57150),  # line 91
        (4, 7, 0.69924),  # line 122
        (5, 3, 0.35205),  # line 146
        (25, 25, 0.5),  # line 728
    ],
)
def test_pre_crawford_figures_read_by_hand(away_me: int, away_opp: int, expected: float) -> None:
    assert match_winning_chance(away_me, away_opp) == pytest.approx(expected, abs=1e-9)


@pytest.mark.parametrize(
    ("away_me", "away_opp", "expected"),
    [
        (1, 1, 0.5),  # line 735
        (2, 1, 0.48803),  # line 736: the trailer 2-away after the Crawford game (the free drop)
        (1, 2, 1 - 0.48803),  # the leader's side of the same score
        (4, 1, 0.31002),  # line 738
        (25, 1, 0.001230),  # line 759
    ],
)
def test_post_crawford_figures_read_by_hand(away_me: int, away_opp: int, expected: float) -> None:
    assert match_winning_chance(away_me, away_opp, post_crawford=True) == pytest.approx(expected, abs=1e-9)


def test_post_crawford_differs_from_the_crawford_game() -> None:
    # 2-away against 1-away: 32% in the Crawford game (dead cube), 49% after it (the trailer doubles at once).
    assert match_winning_chance(2, 1) == pytest.approx(0.32264)
    assert match_winning_chance(2, 1, post_crawford=True) == pytest.approx(0.48803)


def test_symmetry_p_ab_plus_p_ba_is_1_everywhere_in_the_pre_crawford_table() -> None:
    for a in range(1, 26):
        for b in range(1, 26):
            total = match_winning_chance(a, b) + match_winning_chance(b, a)
            assert total == pytest.approx(1.0, abs=1e-5), (a, b)


def test_symmetry_post_crawford() -> None:
    for a in range(1, 26):
        total = match_winning_chance(a, 1, post_crawford=True) + match_winning_chance(1, a, post_crawford=True)
        assert total == pytest.approx(1.0, abs=1e-12)


@pytest.mark.parametrize(("away_me", "away_opp"), [(0, 3), (3, 0), (26, 3), (3, 26), (-1, 1), (99, 99)])
def test_scores_outside_the_table_are_refused_not_extrapolated(away_me: int, away_opp: int) -> None:
    with pytest.raises(ValueError, match="no extrapolation"):
        match_winning_chance(away_me, away_opp)


def test_post_crawford_needs_a_side_1_away() -> None:
    with pytest.raises(ValueError, match="1-away"):
        match_winning_chance(2, 3, post_crawford=True)


def test_chances_at_a_score() -> None:
    assert match_winning_chances(7, (0, 0)) == (0.5, 0.5)
    me, opp = match_winning_chances(7, (6, 5))  # 1-away against 2-away: the Crawford game
    assert me == pytest.approx(0.67736) and opp == pytest.approx(0.32264)
    me, opp = match_winning_chances(7, (6, 5), post_crawford=True)
    assert me == pytest.approx(1 - 0.48803) and opp == pytest.approx(0.48803)
    assert match_winning_chances(7, (7, 2)) == (1.0, 0.0)
    assert match_winning_chances(7, (3, 9)) == (0.0, 1.0)
    with pytest.raises(ValueError, match="money"):
        match_winning_chances(0, (0, 0))


@pytest.mark.parametrize(
    ("away_me", "away_opp", "expected"),
    [
        (1, 1, 0.5),
        (2, 3, 0.6875),  # 3-point casual match at 1-0
        (1, 2, 0.75),  # at 2-1
        (2, 2, 0.5),  # at 1-1
        (1, 3, 0.875),  # at 2-0
        (2, 1, 0.25),
        (3, 3, 0.5),
    ],
)
def test_a_casual_match_is_a_race_of_coin_tosses(away_me: int, away_opp: int, expected: float) -> None:
    assert race_winning_chance(away_me, away_opp) == expected


def test_the_race_is_symmetric_and_has_no_table_limit() -> None:
    for a in range(1, 40):
        for b in range(1, 40):
            assert race_winning_chance(a, b) + race_winning_chance(b, a) == pytest.approx(1.0, abs=1e-12)
    assert 0.5 < race_winning_chance(99, 100) < 0.6
    with pytest.raises(ValueError):
        race_winning_chance(0, 3)


def test_casual_chances_at_a_score_ignore_the_table_and_crawford() -> None:
    assert match_winning_chances(3, (1, 0), casual=True) == (0.6875, 0.3125)
    assert match_winning_chances(3, (1, 0)) != (0.6875, 0.3125)  # the table's figure is another
    assert match_winning_chances(3, (2, 1), casual=True) == match_winning_chances(
        3, (2, 1), post_crawford=True, casual=True
    )
    assert match_winning_chances(3, (2, 1), casual=True) == (0.75, 0.25)
    assert match_winning_chances(3, (3, 1), casual=True) == (1.0, 0.0)
    assert match_winning_chances(31, (0, 0), casual=True) == (0.5, 0.5)  # past the table's 25 away


def test_parse_met_refuses_a_ragged_table() -> None:
    ragged = (
        "<met><pre-crawford-table><row><me>0.5</me><me>0.6</me></row><row><me>0.4</me></row></pre-crawford-table>"
        "<post-crawford-table><row><me>0.5</me><me>0.4</me></row></post-crawford-table></met>"
    )
    with pytest.raises(ValueError, match="square"):
        parse_met(ragged)
    with pytest.raises(ValueError, match="post-crawford"):
        parse_met("<met><pre-crawford-table><row><me>0.5</me></row></pre-crawford-table></met>")
