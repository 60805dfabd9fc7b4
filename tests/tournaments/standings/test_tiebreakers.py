"""Tie-breaks on a tiny hand-computed table (five players, three rounds, one bye a round)."""

from __future__ import annotations

import pytest

from tournaments.standings.tiebreakers import (
    ForfeitRule,
    Result,
    Tiebreak,
    buchholz,
    match_wins,
    median_buchholz,
    points_diff,
    scores,
    sonneborn_berger,
    standings,
)

# Final scores: A 2, B 1, C 2, D 1, E 3 (a bye is a win).
RESULTS = [
    Result(1, "A", "B", "A", 5, 2),
    Result(1, "C", "D", "C", 5, 4),
    Result(1, "E", None, "E"),
    Result(2, "A", "C", "A", 5, 1),
    Result(2, "E", "B", "E", 5, 3),
    Result(2, "D", None, "D"),
    Result(3, "E", "A", "E", 5, 0),
    Result(3, "B", "D", "B", 5, 2),
    Result(3, "C", None, "C"),
]

#          wins  buchholz        median  SB             points-diff
EXPECTED = {
    "A": (2, 6, 2, 3, 2),  # opp B1 C2 E3; beat B, C; +3 +4 -5
    "B": (1, 6, 2, 1, -2),  # opp A2 E3 D1; beat D; -3 -2 +3
    "C": (1, 3, 1, 1, -3),  # opp D1 A2 bye0; beat D (and the bye, 0); +1 -4 +0
    "D": (0, 3, 1, 0, -4),  # opp C2 bye0 B1; beat only the bye (0); -1 +0 -3
    "E": (2, 3, 1, 3, 7),  # opp bye0 B1 A2; beat all; 0 +2 +5
}


def test_scores_count_byes_as_wins() -> None:
    assert scores(RESULTS) == {"A": 2, "B": 1, "C": 2, "D": 1, "E": 3}


@pytest.mark.parametrize("player", sorted(EXPECTED))
def test_hand_computed_tiebreaks(player: str) -> None:
    got = (
        match_wins(RESULTS, player),
        buchholz(RESULTS, player),
        median_buchholz(RESULTS, player),
        sonneborn_berger(RESULTS, player),
        points_diff(RESULTS, player),
    )
    assert got == EXPECTED[player]


def test_bye_virtual_opponent_scores_zero() -> None:
    # C's opponents: D (1), A (2) and the bye's virtual opponent, counted as 0 (not C's own score, 2).
    assert buchholz(RESULTS, "C") == 3
    assert median_buchholz(RESULTS, "C") == 1  # drops the 0 and the 2
    assert sonneborn_berger(RESULTS, "E") == 3  # beat B (1), A (2) and the virtual opponent (0)


def test_match_wins_excludes_byes() -> None:
    assert [match_wins(RESULTS, p) for p in "CDE"] == [1, 0, 2]


def order_of(rows: list) -> list[str]:
    return [row.player for row in rows]


@pytest.mark.parametrize(
    ("order", "expected"),
    [
        ([Tiebreak.BUCHHOLZ], ["E", "A", "C", "B", "D"]),
        ([Tiebreak.MATCH_WINS], ["E", "A", "C", "B", "D"]),
        ([Tiebreak.POINTS_DIFF], ["E", "A", "C", "B", "D"]),
        ([Tiebreak.HEAD_TO_HEAD], ["E", "A", "C", "B", "D"]),
        ([], ["E", "A", "C", "B", "D"]),
    ],
)
def test_standings_order(order: list[Tiebreak], expected: list[str]) -> None:
    assert order_of(standings(RESULTS, order)) == expected


def test_standings_rows_carry_positions_and_values() -> None:
    rows = standings(RESULTS, [Tiebreak.SONNEBORN_BERGER, Tiebreak.BUCHHOLZ])
    assert [(r.position, r.player, r.score) for r in rows] == [
        (1, "E", 3),
        (2, "A", 2),
        (3, "C", 2),
        (4, "B", 1),
        (5, "D", 1),
    ]
    assert rows[1].tiebreaks == {Tiebreak.SONNEBORN_BERGER: 3, Tiebreak.BUCHHOLZ: 6}


def test_without_tiebreaks_tied_players_share_a_position() -> None:
    rows = standings(RESULTS, [])
    assert [r.position for r in rows] == [1, 2, 2, 4, 4]


def test_later_tiebreak_only_splits_players_still_tied() -> None:
    # A table where the first tie-break leaves everyone tied and the second decides.
    results = [
        Result(1, "A", "B", "A", 5, 0),
        Result(1, "C", "D", "C", 5, 4),
        Result(2, "B", "C", "B", 5, 3),
        Result(2, "D", "A", "D", 5, 1),
    ]
    # Everyone scores 1 and, head to head among all four, everyone has one win: a four-way tie.
    rows = standings(results, [Tiebreak.HEAD_TO_HEAD])
    assert [r.position for r in rows] == [1, 1, 1, 1]
    assert order_of(rows) == ["A", "B", "C", "D"]  # first appearance
    # Points-diff splits them: A +5-4 = +1, B -5+2 = -3, C +1-2 = -1, D -1+4 = +3.
    rows = standings(results, [Tiebreak.HEAD_TO_HEAD, Tiebreak.POINTS_DIFF])
    assert order_of(rows) == ["D", "A", "C", "B"]
    assert [r.position for r in rows] == [1, 2, 3, 4]


def test_head_to_head_among_tied_players_only() -> None:
    results = [
        Result(1, "A", "B", "B", 3, 5),
        Result(1, "C", "D", "C", 5, 0),
        Result(2, "A", "D", "A", 5, 0),
        Result(2, "B", "C", "C", 0, 5),
        Result(3, "A", "C", "A", 5, 2),
        Result(3, "B", "D", "B", 5, 1),
    ]
    # Scores A 2, B 2, C 2, D 0. Among A, B, C each won once: still tied; points-diff then decides.
    rows = standings(results, [Tiebreak.HEAD_TO_HEAD, Tiebreak.POINTS_DIFF])
    assert {r.player: r.tiebreaks[Tiebreak.HEAD_TO_HEAD] for r in rows} == {"A": 1, "B": 1, "C": 1, "D": 0}
    # Points-diff: A -2+5+3 = 6, B +2-5+4 = 1, C +5+5-3 = 7.
    assert order_of(rows) == ["C", "A", "B", "D"]


def test_explicit_players_include_those_without_results() -> None:
    rows = standings(RESULTS, [Tiebreak.BUCHHOLZ], players=["A", "B", "C", "D", "E", "F"])
    assert rows[-1].player == "F" and rows[-1].score == 0 and rows[-1].position == 6


def test_codes_are_stable() -> None:
    assert [t.value for t in Tiebreak] == [
        "wins",
        "buchholz",
        "median-buchholz",
        "sonneborn-berger",
        "points-diff",
        "head-to-head",
    ]


def test_result_rejects_a_winner_who_did_not_play() -> None:
    with pytest.raises(ValueError, match="did not play"):
        Result(1, "A", "B", "C")


def test_a_forfeit_is_a_match_win_left_out_of_points_and_buchholz_by_default() -> None:
    """A no-show recorded 7-0 gives the winner a match win, but by default no points and no opponent: it is left out
    of points-diff and of both players' Buchholz and Sonneborn-Berger; ``as-played`` counts it as recorded."""
    results = [
        Result(1, "A", "B", "A", 7, 0, forfeit=True),  # B did not show up
        Result(1, "C", "D", "C", 7, 5),
        Result(2, "A", "C", "A", 7, 6),
        Result(2, "B", "D", "B", 7, 2),
    ]
    order = [Tiebreak.MATCH_WINS, Tiebreak.BUCHHOLZ, Tiebreak.SONNEBORN_BERGER, Tiebreak.POINTS_DIFF]
    rows = {row.player: row for row in standings(results, order)}
    assert rows["A"].score == 2 and rows["A"].tiebreaks[Tiebreak.MATCH_WINS] == 2, "the forfeit is a match win"
    assert rows["A"].tiebreaks[Tiebreak.POINTS_DIFF] == 1, "7-6 only: the 7-0 forfeit gives no points"
    assert rows["A"].tiebreaks[Tiebreak.BUCHHOLZ] == 1, "C's score only: B is not A's opponent"
    assert rows["B"].tiebreaks[Tiebreak.BUCHHOLZ] == 0, "D's score only: A is not B's opponent"
    assert rows["A"].tiebreaks[Tiebreak.SONNEBORN_BERGER] == 1
    played = {row.player: row for row in standings(results, order, forfeits=ForfeitRule.AS_PLAYED)}
    assert played["A"].tiebreaks[Tiebreak.POINTS_DIFF] == 8
    assert played["A"].tiebreaks[Tiebreak.BUCHHOLZ] == 2 and played["B"].tiebreaks[Tiebreak.BUCHHOLZ] == 2
