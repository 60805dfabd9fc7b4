"""``python -m engine check`` on deliberately corrupted match logs (docs/ARCHITECTURE.md contract B, RULES.md "What a
valid
match record satisfies").

Each fixture in tests/engine/data/mat is a clean log with one planted fault (see its README.md; the files are
written by tools/make_corrupted.py). Here each one must be reported invalid, with the error at the right game and
move number (as printed in the file; None when the fault is in a score line) and a message that says what is wrong.
The clean bases and the ``valid_`` variants must pass.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.formats.check import check_file

REPO_ROOT = Path(__file__).resolve().parents[2]
DATA = Path(__file__).resolve().parent / "data" / "mat"
KEYS = {"file", "ok", "match_length", "players", "games", "score", "winner", "error"}

#: fixture name (corrupt_<name>.mat) -> (game, move as printed or None, words of which the message holds one)
CASES: dict[str, tuple[int, int | None, tuple[str, ...]]] = {
    # illegal checker plays
    "empty_point": (2, 1, ("no checker", "empty")),
    "blocked_point": (1, 1, ("blocked",)),
    "bar_ignored": (1, 3, ("bar",)),
    "one_die_only": (2, 1, ("both dice",)),
    "bearoff_with_checker_outside": (1, 13, ("7-point", "home")),
    "bearoff_wrong_die": (1, 16, ("larger die", "higher")),
    "play_missing": (1, 10, ("no play",)),
    "turn_skipped": (4, 4, ("turn",)),
    # dice
    "die_out_of_range": (2, 2, ("die", "dice")),
    "opening_double": (1, 1, ("opening",)),
    # the cube
    "double_not_cube_owner": (5, 9, ("owns the cube", "owner")),
    "two_doubles": (5, 8, ("take or drop",)),
    "take_without_double": (2, 3, ("taking", "take", "no double")),
    "double_value_wrong": (1, 2, ("=> 4",)),
    "double_in_crawford": (3, 2, ("Crawford",)),
    "crawford_placement": (3, 2, ("Crawford",)),
    # results and score lines
    "single_for_gammon": (1, 24, ("gammon",)),
    "cube_not_applied": (1, 34, ("cube at 2",)),
    "drop_points": (3, 4, ("1 point",)),
    "wrong_winner": (1, 34, ("won by the other player",)),
    "wins_by_dropper": (3, 4, ("won by the other player", "drop")),
    "wins_by_resigner": (5, 32, ("resigned",)),
    "score_header_game3": (3, None, ("score line",)),
    "missing_result": (3, 2, ("no result",)),
    "unfinished_game": (4, 4, ("no result",)),
    "game_after_match": (5, None, ("after the match",)),
    # the first fault in file order: games in order; a game's score line, then its moves, then its result
    "header_and_play_same_game": (3, None, ("score line",)),
    "play_and_result_same_game": (1, 3, ("bar",)),
    "faults_in_games_2_and_1": (1, 34, ("cube at 2",)),
}

#: valid logs: (match length, players, games, score, winner)
VALID: dict[str, tuple[int, list[str], int, list[int], str | None]] = {
    "clean_galaxy_5pt_7837984.mat": (5, ["lasse", "albert07"], 5, [7, 2], "lasse"),
    "clean_galaxy_5pt_9933346.mat": (5, ["lasse", "underdog"], 4, [2, 6], "underdog"),
    "clean_hand_3pt.mat": (3, ["Alice", "Bob"], 4, [4, 2], "Alice"),
    "clean_hand_5pt.mat": (5, ["Carol", "Dave"], 5, [4, 5], "Dave"),
    "valid_crawford_off.mat": (5, ["Carol", "Dave"], 5, [4, 5], "Dave"),
}


def _games_in(name: str) -> int:
    text = (DATA / f"corrupt_{name}.mat").read_text(encoding="utf-8")
    return sum(1 for line in text.splitlines() if line.strip().startswith("Game "))


def test_every_fixture_has_a_case() -> None:
    on_disk = {path.name.removeprefix("corrupt_").removesuffix(".mat") for path in DATA.glob("corrupt_*.mat")}
    assert on_disk == set(CASES)
    assert {path.name for path in DATA.glob("clean_*.mat")} | {path.name for path in DATA.glob("valid_*.mat")} == set(
        VALID
    )


@pytest.mark.parametrize("name", sorted(VALID))
def test_clean_control_passes(name: str) -> None:
    report, _note, unreadable = check_file(DATA / name, shown_as=name)
    assert not unreadable
    assert report["error"] is None
    assert report["ok"] is True
    length, players, games, score, winner = VALID[name]
    assert report["match_length"] == length
    assert report["players"] == players
    assert report["games"] == games
    assert report["score"] == score
    assert report["winner"] == winner


@pytest.mark.parametrize("name", sorted(CASES))
def test_corrupted_log_is_reported_at_its_fault(name: str) -> None:
    game, move, words = CASES[name]
    report, _note, unreadable = check_file(DATA / f"corrupt_{name}.mat", shown_as=name)
    assert set(report) == KEYS
    assert report["ok"] is False
    assert not unreadable, f"a readable log with a bad cell is invalid (exit 1), not unreadable: {report['error']}"
    error = report["error"]
    assert set(error) == {"game", "move", "message"}
    assert (error["game"], error["move"]) == (game, move), error["message"]
    assert any(word.casefold() in error["message"].casefold() for word in words), error["message"]
    assert report["games"] == _games_in(name)


def test_cli_exit_code_is_1_for_all_corrupted_logs() -> None:
    names = [f"tests/engine/data/mat/corrupt_{name}.mat" for name in sorted(CASES)]
    run = subprocess.run(
        [sys.executable, "-m", "engine", "check", *names],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=300,
    )
    reports = [json.loads(line) for line in run.stdout.splitlines()]
    assert [report["file"] for report in reports] == names
    assert all(report["ok"] is False for report in reports)
    unlocated = [report["file"] for report in reports if report["error"]["game"] is None]
    assert not unlocated, f"reported as unreadable, without a game: {unlocated}"
    assert run.returncode == 1, run.stderr
