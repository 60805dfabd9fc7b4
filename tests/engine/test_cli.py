"""The engine's command line, as docs/ARCHITECTURE.md "Command-line contracts" A and B define it.

A. ``python -m engine moves --position-id ID --dice D1 D2``: one line per distinct legal play, the resulting
   Position ID seen from the mover (mover encoded second); the input ID alone when nothing can be played; exit 2 and
   one line on stderr for bad input.
B. ``python -m engine check FILE ...``: one JSON object per file per line with fixed keys; exit 0 when every file
   is valid, 1 when any is invalid, 2 when any cannot be read or parsed.

The commands run as subprocesses from the repository root, as outside tests run them. The GNU Backgammon legal-play
vectors (tests/engine/data/gnubg/movegen.txt, made by tools/gnubg/gen_movegen.py) are compared in-process through
the engine's API, every line of them, and a few through the command line.
"""

from __future__ import annotations

import base64
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from engine import Position, legal_plays
from engine.gnubg_id import decode_position_id, encode_position_id

REPO_ROOT = Path(__file__).resolve().parents[2]
DATA = Path(__file__).resolve().parent / "data"
MAT = DATA / "mat"
MOVEGEN = DATA / "gnubg" / "movegen.txt"
START = "4HPwATDgc/ABMA"
KEYS = {"file", "ok", "match_length", "players", "games", "score", "winner", "error"}


def run_engine(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engine", *args],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=120,
    )


def moves(position_id: str, d1: int | str, d2: int | str) -> list[str]:
    run = run_engine("moves", "--position-id", position_id, "--dice", str(d1), str(d2))
    assert run.returncode == 0, run.stderr
    assert run.stderr == ""
    return run.stdout.splitlines()


def raw_position_id(first: list[int], second: list[int]) -> str:
    """A Position ID straight from FORMATS.md section 3, with no checks (so it can hold impossible positions)."""
    bits = "".join("1" * n + "0" for n in [*first, *second]).ljust(80, "0")
    key = bytes(int(bits[i : i + 8][::-1], 2) for i in range(0, 80, 8))
    return base64.b64encode(key).decode("ascii")[:14]


def side(points: dict[int, int]) -> list[int]:
    """25 counts in a side's own numbering (index 24 = the bar) from {point: checkers}, 25 = bar."""
    return [points.get(point, 0) for point in range(1, 26)]


# A position with no legal play: the mover has a checker on the bar against a closed board.
CLOSED_OUT = Position.from_points(
    {25: 1, 6: 5, 8: 3, 13: 6},
    {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 13: 3},
)
SOME_POSITIONS = {
    "start": START,
    "bar": Position.from_points({25: 1, 24: 1, 13: 5, 8: 3, 6: 5}, {24: 2, 13: 5, 8: 3, 6: 4, 5: 1}).gnubg_id(),
    "bearoff": Position.from_points({6: 2, 5: 3, 3: 4, 1: 2}, {1: 5, 2: 5, 21: 2}).gnubg_id(),
    "contact": Position.from_points(
        {24: 2, 20: 1, 13: 4, 8: 3, 6: 4, 5: 1}, {24: 1, 21: 1, 13: 5, 8: 3, 6: 5}
    ).gnubg_id(),
}


# -- contract A: legal plays -------------------------------------------------------------------------------------


def test_start_three_one() -> None:
    lines = moves(START, 3, 1)
    assert len(lines) == 16
    assert len(set(lines)) == 16
    assert "4HPwATCwZ/ABMA" in lines  # 8/5 6/5
    assert "sGfwATDgc/ABMA" not in lines  # the old manual's orientation of 8/5 6/5


def test_start_three_one_results_keep_the_mover_second() -> None:
    start_side = decode_position_id(START)[1]
    for line in moves(START, 3, 1):
        not_on_roll, on_roll = decode_position_id(line)
        assert not_on_roll == start_side  # nothing can be hit: the opponent is unchanged
        pips = sum(count * (index + 1) for index, count in enumerate(on_roll))
        assert pips == 167 - 4


@pytest.mark.parametrize("dice", [(3, 1), (6, 6), (6, 5), (2, 2), (5, 1)])
@pytest.mark.parametrize("name", sorted(SOME_POSITIONS))
def test_lines_are_distinct_decodable_position_ids(name: str, dice: tuple[int, int]) -> None:
    given = SOME_POSITIONS[name]
    lines = moves(given, *dice)
    assert lines
    assert len(lines) == len(set(lines))
    for line in lines:
        assert line == line.strip() and len(line) == 14
        Position.from_gnubg_id(line)  # raises if the line is not a valid position
    expected = len(legal_plays(Position.from_gnubg_id(given), dice))
    assert len(lines) == max(expected, 1)


@pytest.mark.parametrize("name", sorted(SOME_POSITIONS))
def test_dice_order_does_not_matter(name: str) -> None:
    for d1, d2 in [(3, 1), (6, 2), (5, 4)]:
        assert set(moves(SOME_POSITIONS[name], d1, d2)) == set(moves(SOME_POSITIONS[name], d2, d1))


def test_no_legal_play_prints_the_input_id() -> None:
    given = CLOSED_OUT.gnubg_id()
    for dice in [(6, 5), (1, 1), (6, 6), (2, 1)]:
        assert len(legal_plays(CLOSED_OUT, dice)) == 0
        run = run_engine("moves", "--position-id", given, "--dice", str(dice[0]), str(dice[1]))
        assert run.returncode == 0
        assert run.stdout == given + "\n"
        assert run.stderr == ""


SIXTEEN = raw_position_id(side({6: 5, 8: 3, 13: 5, 24: 2}), side({6: 6, 8: 3, 13: 5, 24: 2}))
SHARED_POINT = raw_position_id(side({6: 5, 8: 3, 13: 5, 24: 2}), side({6: 5, 8: 3, 13: 4, 24: 2, 19: 1}))

BAD_INPUT = {
    "malformed": ["moves", "--position-id", "hello", "--dice", "3", "1"],
    "empty id": ["moves", "--position-id", "", "--dice", "3", "1"],
    "13 characters": ["moves", "--position-id", START[:-1], "--dice", "3", "1"],
    "15 characters": ["moves", "--position-id", START + "A", "--dice", "3", "1"],
    "invalid character": ["moves", "--position-id", "4HPwATDgc/AB!A", "--dice", "3", "1"],
    "dash for slash": ["moves", "--position-id", "4HPwATDgc-ABMA", "--dice", "3", "1"],
    "bits past the end": ["moves", "--position-id", "4HPwATDgc/ABMB", "--dice", "3", "1"],
    "16 checkers": ["moves", "--position-id", SIXTEEN, "--dice", "3", "1"],
    "both sides on one point": ["moves", "--position-id", SHARED_POINT, "--dice", "3", "1"],
    "die 0": ["moves", "--position-id", START, "--dice", "0", "1"],
    "die 7": ["moves", "--position-id", START, "--dice", "3", "7"],
    "negative die": ["moves", "--position-id", START, "--dice", "-1", "3"],
    "die not a number": ["moves", "--position-id", START, "--dice", "x", "3"],
    "one die": ["moves", "--position-id", START, "--dice", "3"],
    "three dice": ["moves", "--position-id", START, "--dice", "3", "1", "2"],
    "no dice": ["moves", "--position-id", START],
    "no position": ["moves", "--dice", "3", "1"],
    "no arguments": ["moves"],
    "no command": [],
    "check without files": ["check"],
}


def test_raw_position_id_helper() -> None:
    standard = side({6: 5, 8: 3, 13: 5, 24: 2})
    assert raw_position_id(standard, standard) == START
    assert sum(side({6: 6, 8: 3, 13: 5, 24: 2})) == 16


@pytest.mark.parametrize("args", BAD_INPUT.values(), ids=list(BAD_INPUT))
def test_bad_input_exits_2_with_one_line_on_stderr(args: list[str]) -> None:
    run = run_engine(*args)
    assert run.returncode == 2, run.stdout + run.stderr
    assert run.stdout == ""
    lines = run.stderr.splitlines()
    assert len(lines) == 1, run.stderr
    assert lines[0].strip()


# -- contract A against GNU Backgammon's own move generator --------------------------------------------------------


def _vectors() -> list[tuple[str, tuple[int, int], int, frozenset[str]]]:
    if not MOVEGEN.is_file():
        return []
    out = []
    for number, line in enumerate(MOVEGEN.read_text(encoding="utf-8").splitlines(), start=1):
        fields = line.split()
        if not fields or fields[0].startswith("#"):
            continue
        position_id, dice, count, *ids = fields
        assert len(dice) == 2 and int(count) == len(ids), f"movegen.txt line {number} is malformed"
        out.append((position_id, (int(dice[0]), int(dice[1])), int(count), frozenset(ids)))
    return out


VECTORS = _vectors()
NO_VECTORS = f"the GNU Backgammon legal-play vectors are missing: {MOVEGEN} (made by tools/gnubg/gen_movegen.py)"
vector_params = pytest.mark.parametrize(
    "vector",
    [pytest.param(v, id=f"{v[0]}-{v[1][0]}{v[1][1]}") for v in VECTORS]
    or [pytest.param(None, marks=pytest.mark.skip(reason=NO_VECTORS))],
)


@vector_params
def test_legal_plays_match_gnubg(vector: tuple[str, tuple[int, int], int, frozenset[str]]) -> None:
    position_id, dice, count, expected = vector
    plays = legal_plays(Position.from_gnubg_id(position_id), dice)
    got = {encode_position_id(after.opp[1:26], after.me[1:26]) for after in plays.positions()}
    assert len(plays) == count
    assert got == expected


def _cli_sample() -> list[tuple[str, tuple[int, int], int, frozenset[str]]]:
    if not VECTORS:
        return []
    none = [v for v in VECTORS if v[2] == 0][:2]
    doubles = [v for v in VECTORS if v[1][0] == v[1][1] and v[2] > 1][:2]
    biggest = sorted(VECTORS, key=lambda v: v[2])[-2:]
    return VECTORS[:3] + none + doubles + biggest


@pytest.mark.parametrize(
    "vector",
    [pytest.param(v, id=f"{v[0]}-{v[1][0]}{v[1][1]}") for v in _cli_sample()]
    or [pytest.param(None, marks=pytest.mark.skip(reason=NO_VECTORS))],
)
def test_cli_matches_gnubg(vector: tuple[str, tuple[int, int], int, frozenset[str]]) -> None:
    position_id, (d1, d2), count, expected = vector
    lines = moves(position_id, d2, d1)  # gnubg lists the higher die first; the command takes either order
    if count == 0:
        assert lines == [position_id]
    else:
        assert len(lines) == count
        assert set(lines) == expected


# -- contract B: match-log check -----------------------------------------------------------------------------------

CLEAN = "tests/engine/data/mat/clean_hand_3pt.mat"
CLEAN_2 = "tests/engine/data/mat/clean_galaxy_5pt_7837984.mat"
CORRUPT = "tests/engine/data/mat/corrupt_double_in_crawford.mat"
MISSING = "tests/engine/data/mat/no_such_file.mat"


def check(*files: str) -> tuple[int, list[dict[str, object]], str]:
    run = run_engine("check", *files)
    lines = run.stdout.splitlines()
    assert len(lines) == len(files), run.stdout + run.stderr
    reports = [json.loads(line) for line in lines]
    for report in reports:
        assert set(report) == KEYS
        assert isinstance(report["ok"], bool)
        error = report["error"]
        assert (error is None) == report["ok"]
        if error is not None:
            assert set(error) == {"game", "move", "message"}
            assert isinstance(error["message"], str) and error["message"]
    assert [report["file"] for report in reports] == list(files)
    return run.returncode, reports, run.stderr


def test_check_valid_file() -> None:
    code, [report], _ = check(CLEAN)
    assert code == 0
    assert report == {
        "file": CLEAN,
        "ok": True,
        "match_length": 3,
        "players": ["Alice", "Bob"],
        "games": 4,
        "score": [4, 2],  # uncapped: the last game took Alice from 2 to 4 in a 3-point match
        "winner": "Alice",
        "error": None,
    }


def test_check_invalid_file() -> None:
    code, [report], _ = check(CORRUPT)
    assert code == 1
    assert report["ok"] is False
    assert report["match_length"] == 3
    assert report["players"] == ["Alice", "Bob"]
    assert report["games"] == 4
    assert report["error"]["game"] == 3
    assert report["error"]["move"] == 2
    assert "Crawford" in report["error"]["message"]


def test_check_types_of_a_valid_report() -> None:
    _, [report], _ = check(CLEAN_2)
    assert isinstance(report["match_length"], int)
    assert isinstance(report["games"], int)
    assert isinstance(report["players"], list) and len(report["players"]) == 2
    assert all(isinstance(name, str) for name in report["players"])
    assert isinstance(report["score"], list) and len(report["score"]) == 2
    assert all(isinstance(points, int) for points in report["score"])
    assert report["winner"] in report["players"]


def test_check_file_is_the_path_as_given(tmp_path: Path) -> None:
    folder = tmp_path / "a folder with spaces"
    folder.mkdir()
    spaced = folder / "my log (1).mat"
    shutil.copyfile(REPO_ROOT / CLEAN, spaced)
    given = [CLEAN, "./" + CLEAN, str(REPO_ROOT / CLEAN), str(spaced), CLEAN]
    code, reports, _ = check(*given)
    assert code == 0
    assert [report["file"] for report in reports] == given


def test_check_unfinished_match_has_no_winner(tmp_path: Path) -> None:
    text = (REPO_ROOT / CLEAN).read_text(encoding="utf-8")
    cut = tmp_path / "two_games.mat"
    cut.write_text(text[: text.index(" Game 3")], encoding="utf-8")
    code, [report], _ = check(str(cut))
    assert code == 0
    assert report["ok"] is True
    assert report["games"] == 2
    assert report["score"] == [1, 2]
    assert report["winner"] is None


@pytest.fixture
def unreadable(tmp_path: Path) -> dict[str, str]:
    binary = tmp_path / "binary.mat"
    binary.write_bytes(bytes(range(256)) * 8)
    no_header = tmp_path / "no_header.mat"
    no_header.write_text(
        " Game 1\n Alice : 0                      Bob : 0\n  1) 31: 8/5 6/5                 64: 24/18 13/9\n",
        encoding="utf-8",
    )
    empty = tmp_path / "empty.mat"
    empty.write_bytes(b"")
    return {
        "nonexistent": MISSING,
        "binary": str(binary),
        "no header": str(no_header),
        "empty": str(empty),
        "directory": str(tmp_path),
    }


@pytest.mark.parametrize("kind", ["nonexistent", "binary", "no header", "empty", "directory"])
def test_check_unreadable_file_exits_2(unreadable: dict[str, str], kind: str) -> None:
    code, [report], _ = check(unreadable[kind])
    assert code == 2
    assert report["ok"] is False
    assert report["winner"] is None


@pytest.mark.parametrize(
    ("files", "expected"),
    [
        ([CLEAN, CLEAN_2], 0),
        ([CLEAN, CORRUPT], 1),
        ([CORRUPT, CLEAN], 1),
        ([CLEAN, MISSING], 2),
        ([MISSING, CLEAN], 2),
        ([CORRUPT, MISSING], 2),
        ([MISSING, CORRUPT, CLEAN], 2),
        ([CLEAN, CORRUPT, CLEAN_2, CORRUPT], 1),
    ],
    ids=[
        "valid+valid",
        "valid+invalid",
        "invalid+valid",
        "valid+missing",
        "missing+valid",
        "invalid+missing",
        "missing+invalid+valid",
        "mixed-invalid",
    ],
)
def test_check_exit_code_of_mixtures(files: list[str], expected: int) -> None:
    code, reports, _ = check(*files)
    assert code == expected
    for name, report in zip(files, reports, strict=True):
        assert report["ok"] is (name in (CLEAN, CLEAN_2))


def test_check_mixture_with_binary_and_valid(unreadable: dict[str, str]) -> None:
    code, reports, _ = check(CLEAN, unreadable["binary"], CORRUPT)
    assert code == 2
    assert [report["ok"] for report in reports] == [True, False, False]
    assert reports[2]["error"]["game"] == 3  # the files after an unreadable one are still checked


def test_check_stdout_is_only_json(unreadable: dict[str, str]) -> None:
    run = run_engine("check", CLEAN, unreadable["no header"], CORRUPT)
    for line in run.stdout.splitlines():
        assert isinstance(json.loads(line), dict)
