"""The SGF writer (engine/formats/sgf.py) on hand-made matches: gnubg's dialect node by node (FORMATS.md section 2),
the analysis properties as gnubg writes them, and what SGF cannot hold refused with the reason. (GNU Backgammon
reads the files back in tests/games/analysis/test_sgf_export.py.)"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine.actions import (
    AcceptResignation,
    ChooseDouble,
    ConcedeMatch,
    Double,
    Drop,
    GameResult,
    Move,
    OpeningRoll,
    PenaltyPoints,
    RejectResignation,
    Resign,
    Roll,
    Take,
)
from engine.errors import EngineError
from engine.formats.mat import read_mat
from engine.formats.matlog import replay_record
from engine.formats.sgf import Candidate, CubeEvaluation, DecisionAnalysis, escape, move_letters, write_sgf
from engine.types import ResultKind
from engine.variants import ACEY_DEUCEY, NACKGAMMON

GNUBG_EXPORTS = Path(__file__).parent / "data" / "gnubg" / "exported"
PLAYERS = ("Alice", "Bob")
#: Alice opens 3-1 8/5 6/5; Bob 6-2 24/18 13/11.
OPENING = [OpeningRoll((3, 1)), Move(0, "8/5 6/5"), Roll(1, (6, 2)), Move(1, "24/18 13/11")]


def trees(text: str) -> list[str]:
    assert text.startswith("(;FF[4]GM[6]CA[UTF-8]") and text.endswith(")\n")
    return [tree for tree in text.split(")\n") if tree]


def nodes(tree: str) -> list[str]:
    return tree.split("\n;")[1:]


def test_the_root_says_the_match_the_game_the_players_rules_and_result() -> None:
    games = [[*OPENING, Double(0), Drop(1)], [Roll(1, (5, 2)), Resign(1, ResultKind.GAMMON), AcceptResignation(0)]]
    text = write_sgf(games, players=PLAYERS, match_length=2, date="2026-12-01", place="bgmatch")
    first, second = trees(text)
    assert first.startswith(
        "(;FF[4]GM[6]CA[UTF-8]AP[bgmatch]MI[length:2][game:0][ws:0][bs:0]PW[Alice]PB[Bob]"
        "DT[2026-12-01]PC[bgmatch]RU[Crawford]RE[W+1]\n"
    )
    # game 2 starts at 1-0; Alice is then one away, so it is the Crawford game; the date is on game 1 only
    assert second.startswith(
        "(;FF[4]GM[6]CA[UTF-8]AP[bgmatch]MI[length:2][game:1][ws:1][bs:0]PW[Alice]PB[Bob]RU[Crawford:CrawfordGame]"
        "RE[W+2R]\n"
    )


def test_plays_and_cube_actions_are_one_node_each_in_gnubgs_letters() -> None:
    games = [[*OPENING, Double(0), Take(1), Roll(0, (6, 6)), Move(0, "24/18(2) 13/7(2)")]]
    assert nodes(trees(write_sgf(games, players=PLAYERS, match_length=5))[0]) == [
        "W[31hefe]",  # 8/5 6/5 for White: a..x are her points 1..24
        "B[62agln]",  # 24/18 13/11 for Black: his point p is x - (p - 1)
        "W[double]",
        "B[take]",
        "W[66xrxrmgmg]",
    ]


def test_bar_off_and_a_dance() -> None:
    assert move_letters([(25, 22), (6, 0)], 0) == "yvfz"
    assert move_letters([(25, 22), (6, 0)], 1) == "ycsz"
    # gnubg's own 5-point match: Black dances on 6-4 twice, and enters and bears off
    replay = replay_record(read_mat((GNUBG_EXPORTS / "gnubg_5pt_cube.mat").read_bytes()))
    assert replay.ok
    text = write_sgf([game.actions for game in replay.games], players=replay.record.players, match_length=5)
    first = nodes(trees(text)[0])
    assert first.count("B[64]") == 2 and "B[42ybae]" in first and any(n.endswith("z]") for n in text.split("\n;"))


def test_a_game_ended_by_a_drop_a_bear_off_a_resignation_and_a_scoresheet_result() -> None:
    games = [
        [*OPENING, Double(0), Drop(1)],
        [GameResult(1, ResultKind.GAMMON, 2)],
        [OpeningRoll((1, 2)), Move(1, "13/11 6/5"), Resign(0, ResultKind.SINGLE), AcceptResignation(1)],
    ]
    text = write_sgf(games, players=PLAYERS, match_length=9)
    results = [re.findall(r"RE\[[^]]*\]", tree) for tree in trees(text)]
    assert results == [["RE[W+1]"], ["RE[B+4]"], ["RE[B+1R]"]]
    assert nodes(trees(text)[1]) == []  # a scoresheet game is its root alone


def test_a_rejected_resignation_leaves_no_trace_and_a_roll_before_resigning_is_kept() -> None:
    games = [
        [
            *OPENING,
            Resign(0, ResultKind.SINGLE),
            RejectResignation(1),
            Roll(0, (5, 2)),
            Resign(0, ResultKind.GAMMON),
            AcceptResignation(1),
        ]
    ]
    tree = trees(write_sgf(games, players=PLAYERS, match_length=5))[0]
    assert nodes(tree) == ["W[31hefe]", "B[62agln]", "PL[W]DI[52]"]
    assert "RE[B+2R]" in tree


def test_a_match_in_progress_stops_where_the_log_does() -> None:
    rolled = write_sgf([[*OPENING, Roll(0, (4, 3))]], players=PLAYERS, match_length=5)
    assert nodes(trees(rolled)[0])[-1] == "PL[W]DI[43]" and "RE[" not in rolled
    offered = write_sgf([[*OPENING, Resign(0, ResultKind.SINGLE)]], players=PLAYERS, match_length=5)
    assert nodes(trees(offered)[0]) == ["W[31hefe]", "B[62agln]"] and "RE[" not in offered


def test_a_concession_is_the_largest_resignation_gnubg_knows() -> None:
    games = [[*OPENING, Double(0), Take(1), ConcedeMatch(1)]]
    assert "RE[W+6R]" in write_sgf(games, players=PLAYERS, match_length=7)


def test_rules_nackgammon_no_crawford_casual_and_money() -> None:
    nack = write_sgf([[OpeningRoll((3, 1)), Move(0, "8/5 6/5")]], players=PLAYERS, match_length=3, variant=NACKGAMMON)
    assert "RU[Crawford:Nackgammon]" in nack
    plain = write_sgf([[OpeningRoll((3, 1))]], players=PLAYERS, match_length=3, crawford_rule=False)
    assert "RU[" not in plain
    casual = write_sgf([[OpeningRoll((3, 1))]], players=PLAYERS, match_length=3, casual=True)
    assert "RU[NoCube]" in casual
    money = write_sgf([[OpeningRoll((3, 1))]], players=PLAYERS, match_length=0)
    assert "MI[length:0][game:0][ws:0][bs:0]" in money and "RU[" not in money


def test_names_and_texts_are_escaped() -> None:
    assert escape("a]b\\c") == "a\\]b\\\\c"
    assert write_sgf([], players=PLAYERS, match_length=1) == ""  # no game, no tree
    text = write_sgf([[OpeningRoll((3, 1))]], players=("Ann [the] \\best", "Bo:b"), match_length=1)
    assert "PW[Ann [the\\] \\\\best]PB[Bo:b]" in text


def test_what_sgf_cannot_hold_is_refused_with_the_reason() -> None:
    with pytest.raises(EngineError, match="Acey-Deucey matches cannot be written as SGF"):
        write_sgf([], players=PLAYERS, match_length=3, variant=ACEY_DEUCEY)
    with pytest.raises(EngineError, match="penalty points"):
        write_sgf([[*OPENING, Double(0), Drop(1)], [PenaltyPoints(1, 1)]], players=PLAYERS, match_length=5)
    with pytest.raises(EngineError):
        write_sgf([[OpeningRoll((3, 1)), Move(1, "8/5 6/5")]], players=PLAYERS, match_length=5)  # out of turn
    with pytest.raises(EngineError):
        write_sgf([[OpeningRoll((3, 1)), ChooseDouble(0, 3)]], players=PLAYERS, match_length=5)


PROBS = (0.5, 0.14, 0.006, 0.13, 0.005)


def test_a_plays_analysis_is_written_as_gnubg_writes_it() -> None:
    note = DecisionAnalysis(
        candidates=(
            Candidate(((24, 18), (13, 11)), PROBS, 0.014082),
            Candidate(((24, 18), (18, 16)), (0.49, 0.12, 0.005, 0.137, 0.0045), 0.008913),
        ),
        played=1,
        cube=CubeEvaluation(PROBS, -0.008687, 0.498911, 0.47162),
        mark="very bad",
        cube_mark="doubtful",
        luck=0.014080,
        luck_mark="verygood",
        plies=2,
    )
    text = write_sgf([OPENING], players=PLAYERS, match_length=5, analysis={(1, "move", 2): note})
    assert nodes(trees(text)[0])[1] == (
        "B[62agln]"
        "DA[E ver 3 2C 1 0.000000 1 0.500000 0.140000 0.006000 0.130000 0.005000 -0.008687 0.498911"
        " 0.500000 0.140000 0.006000 0.130000 0.005000 -0.008687 0.471620]"
        "A[1][agln E ver 3 0.500000 0.140000 0.006000 0.130000 0.005000 0.014082 2C 0 1 0.000000 1]"
        "[aggi E ver 3 0.490000 0.120000 0.005000 0.137000 0.004500 0.008913 2C 0 1 0.000000 1]"
        "LU[0.01408]GB[2]BM[2]DC[]"
    )


def test_luck_marks_say_whom_the_roll_favoured_and_cube_actions_carry_their_analysis() -> None:
    unlucky = DecisionAnalysis(luck=-0.2, luck_mark="bad")
    double = DecisionAnalysis(cube=CubeEvaluation(PROBS, 0.1, 0.6, 0.7), mark="bad")
    games = [[*OPENING, Double(0), Take(1)]]
    notes = {(1, "move", 1): unlucky, (1, "cube", 1): double, (1, "cube", 2): DecisionAnalysis(mark="doubtful")}
    found = nodes(trees(write_sgf(games, players=PLAYERS, match_length=5, analysis=notes))[0])
    assert found[0] == "W[31hefe]LU[-0.20000]GB[1]"  # bad for White: good for Black
    assert found[2].startswith("W[double]DA[E ver 3 0C 1 0.000000 1 ") and found[2].endswith("0.700000]BM[1]")
    assert found[3] == "B[take]DO[]"
