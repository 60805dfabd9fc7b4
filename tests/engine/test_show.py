"""``python -m engine show``: an ASCII board for a Position ID, a PositionID:MatchID pair or an XGID."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from engine.formats.board_text import describe, draw
from engine.position import Position

ROOT = Path(__file__).resolve().parents[2]


def _show(arg: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engine", "show", arg], cwd=ROOT, capture_output=True, text=True, check=False
    )


def test_start_position_board_has_every_checker_and_the_pip_counts() -> None:
    text = draw(Position.initial())
    rows = [line for line in text.splitlines() if "|" in line and "-" not in line and not line.strip()[0].isdigit()]
    assert sum(row.count("X") for row in rows) == 15
    assert sum(row.count("O") for row in rows) == 15
    assert "bar: X 0  O 0" in text
    assert "X (on roll): pips 167, borne off 0" in text
    assert "O:           pips 167, borne off 0" in text


def test_points_are_numbered_from_the_mover_side() -> None:
    # X (on roll) has 2 on its 1-point; O has one checker on X's 24-point (O's own 1-point).
    position = Position.from_points({1: 2}, {1: 1})
    lines = draw(position).splitlines()
    bottom_numbers = lines[-4]
    top_numbers = lines[0]
    assert bottom_numbers.split()[-1] == "1" and top_numbers.split()[-1] == "24"
    first_bottom_row = lines[-6]
    assert first_bottom_row.rstrip().endswith("X")
    assert lines[2].rstrip().endswith("O")


def test_match_id_and_xgid_are_described() -> None:
    described = describe("4HPwATDgc/ABMA:cAkgAUAAEAAE")
    assert "9-point match, score 4-2" in described
    xg = describe("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10")
    assert "Position ID: 4HPwATDgc/ABMA" in xg and "money" in xg and "dice 52" in xg


def test_command_line_prints_the_board() -> None:
    result = _show("4HPwATDgc/ABMA")
    assert result.returncode == 0
    assert "Position ID: 4HPwATDgc/ABMA" in result.stdout and "pips 167" in result.stdout


@pytest.mark.parametrize("bad", ["nonsense", "4HPwATDgc/ABM", "XGID=-b--:0:0"])
def test_bad_input_exits_2_with_one_line(bad: str) -> None:
    result = _show(bad)
    assert result.returncode == 2
    assert result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1
