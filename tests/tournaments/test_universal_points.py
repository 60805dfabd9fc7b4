"""BackGames.org's Universal Club Master Points (tournaments/points.py, tournaments/universal_club_table.py): the
table's rows by field size and by rounds, ties taking their own figure, and a place's figure or the matches won's,
whichever is higher, times the event's bonus."""

from __future__ import annotations

import pytest

from tournaments import universal_club_table
from tournaments.points import universal_band, universal_place_points, universal_points

ROW = {"1": 10.0, "1/2": 8.0, "2": 6.0, "2/3": 5.0, "3": 4.0, "3/4": 3.5, "4": 3.0, "5-8": 1.0}
LEVEL = {
    "per_win": 0.5,
    "players": {"1-11": ROW, "12-23": {k: v * 2 for k, v in ROW.items()}},
    "rounds": {"3": {k: v * 3 for k, v in ROW.items()}, "4": {k: v * 4 for k, v in ROW.items()}},
}


@pytest.mark.parametrize(
    ("first", "last", "figure"),
    [
        (1, 1, 10.0),
        (1, 2, 8.0),
        (2, 2, 6.0),
        (2, 3, 5.0),
        (3, 3, 4.0),
        (3, 4, 3.5),
        (4, 4, 3.0),
        (5, 8, 1.0),
        (6, 6, 1.0),
    ],
)
def test_each_place_and_each_tie_takes_its_own_figure(first: int, last: int, figure: float) -> None:
    assert universal_place_points(ROW, first, last) == figure


def test_a_share_the_table_has_no_figure_for_takes_the_mean_of_its_places() -> None:
    assert universal_place_points(ROW, 1, 3) == pytest.approx((10 + 6 + 4) / 3)
    assert universal_place_points(ROW, 4, 5) == pytest.approx((3 + 1) / 2)
    assert universal_place_points(ROW, 9, 16) == 0.0


@pytest.mark.parametrize(
    ("players", "rounds", "bands"),
    [
        (1, 0, ("1-11", None)),
        (11, 2, ("1-11", None)),
        (12, 3, ("12-23", "3")),
        (23, 6, ("12-23", "6")),
        (24, 7, ("24-32", "7+")),
        (32, 5, ("24-32", "5")),
        (33, 9, ("33-64", "7+")),
        (64, 6, ("33-64", "6")),
        (65, 7, ("65+", "7+")),
    ],
)
def test_the_rows_by_field_size_and_by_rounds(players: int, rounds: int, bands: tuple[str, str | None]) -> None:
    assert universal_band(players, rounds) == bands


def test_a_3_4_tie_gets_the_3_4_figure_by_players_or_by_rounds_or_the_higher() -> None:
    by_players = universal_points(LEVEL, 1, (3, 4), players=12, rounds=3, basis="players")
    by_rounds = universal_points(LEVEL, 1, (3, 4), players=12, rounds=3, basis="rounds")
    higher = universal_points(LEVEL, 1, (3, 4), players=12, rounds=3, basis="higher")
    assert (by_players.place_points, by_rounds.place_points, higher.place_points) == (7.0, 10.5, 10.5)
    assert universal_points(LEVEL, 1, (3, 4), players=12, rounds=4, basis="higher").place_points == 14.0
    # Under 3 rounds the table has no rounds row: nothing by rounds, the field's size when it is the higher.
    assert universal_points(LEVEL, 0, (1, 1), players=4, rounds=2, basis="rounds").total == 0.0
    assert universal_points(LEVEL, 0, (1, 1), players=4, rounds=2, basis="higher").total == 10.0


def test_whichever_is_higher_the_place_or_the_matches_won_times_the_bonus() -> None:
    placed = universal_points(LEVEL, 3, (5, 8), players=8, rounds=3)  # 5-8: 1.0 < 3 wins x 0.5
    assert (placed.place_points, placed.win_points, placed.total) == (1.0, 1.5, 1.5)
    champion = universal_points(LEVEL, 3, (1, 1), players=8, rounds=3, multiplier=1.5)  # 10 > 1.5, x1.5
    assert champion.total == 15.0
    unplaced = universal_points(LEVEL, 1, None, players=8, rounds=3, multiplier=2)
    assert unplaced.total == 1.0


def test_a_bad_basis_or_field_is_refused() -> None:
    with pytest.raises(ValueError, match="players, rounds or the higher"):
        universal_points(LEVEL, 0, (1, 1), players=8, rounds=3, basis="best")
    with pytest.raises(ValueError, match="at least 1 player"):
        universal_points(LEVEL, 0, (1, 1), players=0, rounds=3)


def test_the_default_table_has_the_tables_shape_and_a_club_changes_part_of_it() -> None:
    table = universal_club_table.DEFAULT_TABLE
    assert tuple(table) == universal_club_table.LEVELS
    for level in table.values():
        assert tuple(level["players"]) == universal_club_table.PLAYER_BANDS
        assert tuple(level["rounds"]) == universal_club_table.ROUND_BANDS
        for row in [*level["players"].values(), *level["rounds"].values()]:
            assert tuple(row) == universal_club_table.PLACES
    changed = universal_club_table.with_changes({"novice": {"per_win": 0.1, "rounds": {"7+": {"1": 9}}}})
    assert changed["novice"]["per_win"] == 0.1 and changed["novice"]["rounds"]["7+"]["1"] == 9.0
    assert changed["open"] == table["open"] and table["novice"]["rounds"]["7+"]["1"] != 9.0
    with pytest.raises(ValueError, match=r"figures.open.players has no '100\+'"):
        universal_club_table.with_changes({"open": {"players": {"100+": {}}}})
    with pytest.raises(ValueError, match="give a number from 0 to 10000"):
        universal_club_table.with_changes({"open": {"per_win": "a lot"}})
