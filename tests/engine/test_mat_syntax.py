"""The .mat syntax layer (engine/formats/mat.py): reading every dialect, errors with places, gnubg's layout.

The real logs are read in place from the shared corpus beside the project (``../shared/corpus/mat``, see its
README.md and MANIFEST.tsv); tests that need it skip when it is absent. Everything else uses small inline texts
written for these tests.
"""

from __future__ import annotations

import csv
import dataclasses
from pathlib import Path

import pytest

from engine.errors import FormatError
from engine.formats.mat import (
    LEFT,
    RIGHT,
    Cell,
    CellKind,
    GameRecord,
    MatchRecord,
    RollMarker,
    format_cell,
    read_mat,
    write_mat,
)

CORPUS = Path(__file__).resolve().parents[2] / ".." / "shared" / "corpus" / "mat"
MANIFEST = CORPUS / "MANIFEST.tsv"
NO_CORPUS = f"the shared .mat corpus is missing: {CORPUS.resolve()} (MANIFEST.tsv) not found"


def _manifest() -> list[dict[str, str]]:
    if not MANIFEST.is_file():
        return []
    with MANIFEST.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle, delimiter="\t", quoting=csv.QUOTE_NONE))


MANIFEST_ROWS = _manifest()
needs_corpus = pytest.mark.skipif(not MANIFEST_ROWS, reason=NO_CORPUS)
corpus_rows = pytest.mark.parametrize(
    "row",
    MANIFEST_ROWS or [pytest.param({}, marks=pytest.mark.skip(reason=NO_CORPUS))],
    ids=lambda row: row.get("file", "no-corpus"),
)


def corpus_file(name: str) -> bytes:
    path = CORPUS / name
    if not path.is_file():
        pytest.skip(f"{NO_CORPUS} ({name})")
    return path.read_bytes()


SCORE = " Alice : 0                       Bob : 0"


def match(*body: str, score: str = SCORE, header: str = " 7 point match") -> str:
    """A one-game match: header on line 1, ``Game 1`` on line 3, the score on line 4, the body from line 5."""
    return "\n".join([header, "", " Game 1", score, *body, ""])


def cells(*body: str, score: str = SCORE) -> tuple[Cell, ...]:
    return read_mat(match(*body, score=score)).games[0].cells


def roll(side: int, dice: tuple[int, int], play: str, **fields: object) -> Cell:
    return Cell(side=side, kind=CellKind.ROLL, dice=dice, play=play, **fields)  # type: ignore[arg-type]


def without_places(record: MatchRecord) -> MatchRecord:
    """The record with what only says where things stood in a file cleared: lines, columns, raw text, numbers."""

    def cell(c: Cell) -> Cell:
        return dataclasses.replace(c, line=0, column=0, text="", move_number=None)

    games = tuple(
        dataclasses.replace(g, line=0, score_line=0, cells=tuple(cell(c) for c in g.cells)) for g in record.games
    )
    return dataclasses.replace(record, games=games)


# ------------------------------------------------------------------------------------------------------------
# The corpus


@corpus_rows
def test_corpus_file_parses_with_manifest_length_and_games(row: dict[str, str]) -> None:
    record = read_mat(corpus_file(row["file"]))
    assert record.match_length == int(row["match_length"])
    assert len(record.games) == int(row["games"])
    assert all(record.players)
    assert [game.number for game in record.games] == list(range(1, len(record.games) + 1))
    assert record.games[0].score == (0, 0)
    for game in record.games:
        assert game.players == record.players
        assert max(game.score) < record.match_length
        assert game.cells, f"game {game.number} has no cells"
    for before, after in zip(record.games, record.games[1:], strict=False):
        assert after.score[0] >= before.score[0] and after.score[1] >= before.score[1]
    first, second = record.tag("Player 1"), record.tag("Player 2")
    if first is not None and second is not None:  # XG puts "Player 1" in the right column: compare as sets
        assert {first.strip(), second.strip()} == set(record.players)


@corpus_rows
def test_corpus_cells_are_well_formed(row: dict[str, str]) -> None:
    record = read_mat(corpus_file(row["file"]))
    for game in record.games:
        assert game.cells[-1].kind in (CellKind.WINS, CellKind.LOSSES, CellKind.ROLL)
        for cell in game.cells:
            assert cell.side in (LEFT, RIGHT)
            assert cell.line > game.score_line and cell.column >= 1 and cell.text
            if cell.kind is CellKind.ROLL:
                assert cell.dice is not None and all(1 <= die <= 6 for die in cell.dice)
                assert cell.play is not None
            else:
                assert cell.dice is None and cell.play is None and cell.marker is None
            if cell.kind in (CellKind.DOUBLE, CellKind.WINS, CellKind.LOSSES):
                assert cell.value is not None and cell.value >= 1


@corpus_rows
def test_corpus_read_write_read_gives_the_same_record(row: dict[str, str]) -> None:
    record = read_mat(corpus_file(row["file"]))
    again = read_mat(write_mat(record))
    assert without_places(again) == without_places(record)


@needs_corpus
@pytest.mark.parametrize(
    "name",
    [
        "charlot1-charlot2_7p_2025-11-08-2305.mat",
        "gnubg_roll_then_resign_1p.mat",
        "gnubg_selfplay_drops_7p.mat",
    ],
)
def test_writer_reproduces_gnubg_exports_byte_for_byte(name: str) -> None:
    original = corpus_file(f"kevung__gnubgparser/{name}").decode("utf-8")
    assert write_mat(read_mat(original)) == original


@needs_corpus
def test_xg_mat_and_txt_flavours_hold_the_same_match() -> None:
    mat = read_mat(corpus_file("kevung__gbf/test.mat"))
    txt = read_mat(corpus_file("kevung__gbf/test.txt"))
    assert mat.players == txt.players == ("Kévin Unger", "Maxence Job")
    assert mat.tags == txt.tags and mat.tag("Site") == "Paris, Fédération Française de Bridge"

    def shape(record: MatchRecord) -> list[list[tuple[object, ...]]]:
        return [[(c.side, c.kind, c.dice, c.value, c.and_the_match) for c in g.cells] for g in record.games]

    assert shape(mat) == shape(txt)
    # XG writes a dance as "64:" in .mat and "64: Cannot Move" in .txt, a roll-then-resign as ??? and ????.
    empty = [c for g in mat.games for c in g.cells if c.kind is CellKind.ROLL and c.play == "" and not c.marker]
    cannot = [c for g in txt.games for c in g.cells if c.marker is RollMarker.CANNOT_MOVE]
    assert len(empty) == len(cannot) == 34
    for record in (mat, txt):
        resigned = [c for g in record.games for c in g.cells if c.marker is RollMarker.RESIGN_AFTER_ROLL]
        assert [(c.line, c.side, c.dice) for c in resigned] == [
            (71, RIGHT, (3, 3)),
            (166, LEFT, (2, 1)),
            (231, RIGHT, (5, 3)),
        ]


@needs_corpus
@pytest.mark.parametrize(
    ("name", "lineno", "dice", "play", "number", "points"),
    [
        ("match2900236.txt", 59, (4, 3), "21/18 18/14", 24, 2),
        ("match3241209.txt", 102, (2, 2), "13/11 13/11 4/2 5/3", 14, 1),
    ],
)
def test_malformed_galaxy_row_keeps_every_cell_in_order(
    name: str, lineno: int, dice: tuple[int, int], play: str, number: int, points: int
) -> None:
    """``24) 43: ...   24)  Losses 2 point   ...   Wins 2 point and the match`` on one line.

    The repeated row number starts a new row: the left player moved, then resigned (Losses, left column) and the
    right player won. In match2900236 that is the only reading the score allows (0-1 in a 3-point match, and
    only the right player can win "2 point and the match").
    """
    record = read_mat(corpus_file(f"lassehjorthmadsen__backgammon/lasse/raw/{name}"))
    last = record.games[-1].cells[-3:]
    assert last == (
        roll(LEFT, dice, play, move_number=number, line=lineno, column=6, text=f"{dice[0]}{dice[1]}: {play}"),
        Cell(
            side=LEFT,
            kind=CellKind.LOSSES,
            value=points,
            move_number=number,
            line=lineno,
            column=40,
            text=f"Losses {points} point",
        ),
        Cell(
            side=RIGHT,
            kind=CellKind.WINS,
            value=points,
            and_the_match=True,
            move_number=number,
            line=lineno,
            column=101,
            text=f"Wins {points} point and the match",
        ),
    )


@needs_corpus
def test_whole_corpus_parses() -> None:
    """Every file reads into as many games as the manifest says (speed is measured in bench/, not here)."""
    for row in MANIFEST_ROWS:
        assert len(read_mat(corpus_file(row["file"])).games) == int(row["games"]), row["file"]


# ------------------------------------------------------------------------------------------------------------
# Structure, header and score lines


LONG_LEFT = "11: 17/16 16/15 15/14 14/13*"  # longer than gnubg's 27-column left cell: one space before the right cell


def test_gnubg_rows_give_exact_cells() -> None:
    got = cells(
        "  1)                             41: 13/9 24/23 ",
        "  2) 31: 6/5 8/5                 41: 6/5 9/5 ",
        " 10) 61: 9/8 13/7                 Doubles => 2",
        " 11)  Takes                      64: 13/7 7/3 ",
        " 14) 11: 17/16 16/15 15/14 14/13* 41: 25/21 ",
        " 22)  Doubles => 4                Drops",
        "      Wins 2 points",
    )
    assert got == (
        roll(RIGHT, (4, 1), "13/9 24/23", move_number=1, line=5, column=34, text="41: 13/9 24/23"),
        roll(LEFT, (3, 1), "6/5 8/5", move_number=2, line=6, column=6, text="31: 6/5 8/5"),
        roll(RIGHT, (4, 1), "6/5 9/5", move_number=2, line=6, column=34, text="41: 6/5 9/5"),
        roll(LEFT, (6, 1), "9/8 13/7", move_number=10, line=7, column=6, text="61: 9/8 13/7"),
        Cell(side=RIGHT, kind=CellKind.DOUBLE, value=2, move_number=10, line=7, column=35, text="Doubles => 2"),
        Cell(side=LEFT, kind=CellKind.TAKE, move_number=11, line=8, column=7, text="Takes"),
        roll(RIGHT, (6, 4), "13/7 7/3", move_number=11, line=8, column=34, text="64: 13/7 7/3"),
        roll(LEFT, (1, 1), "17/16 16/15 15/14 14/13*", move_number=14, line=9, column=6, text=LONG_LEFT),
        roll(RIGHT, (4, 1), "25/21", move_number=14, line=9, column=35, text="41: 25/21"),
        Cell(side=LEFT, kind=CellKind.DOUBLE, value=4, move_number=22, line=10, column=7, text="Doubles => 4"),
        Cell(side=RIGHT, kind=CellKind.DROP, move_number=22, line=10, column=35, text="Drops"),
        Cell(side=LEFT, kind=CellKind.WINS, value=2, line=11, column=7, text="Wins 2 points"),
    )


def test_header_block_tags_and_comments_keep_their_order() -> None:
    text = "\n".join(
        [
            '; [Site "BackgammonGalaxy"]',
            '; [Player 1 Elo "3,00/0"]',
            "; a free comment",
            '#  [EventDate "2026.01.02"]',
            ";",
            "",
            "5 point match",
            "",
            " Game 1",
            SCORE,
            "  1) 31: 8/5 6/5",
        ]
    )
    record = read_mat(text)
    assert record.tags == (("Site", "BackgammonGalaxy"), ("Player 1 Elo", "3,00/0"), ("EventDate", "2026.01.02"))
    assert record.comments == ("a free comment", "")
    assert record.tag("eventdate") == "2026.01.02" and record.tag("Round") is None


@pytest.mark.parametrize(
    ("header", "length"),
    [
        (" 7 point match", 7),
        ("7 point match", 7),
        ("  11 Point Match", 11),
        ("3 POINT MATCH", 3),
        (" 0 point match", 0),
    ],
)
def test_match_header_variants(header: str, length: int) -> None:
    record = read_mat(match("  1) 31: 8/5 6/5", header=header))
    assert record.match_length == length
    assert len(record.games) == 1


def test_bom_crlf_and_blank_lines_between_games() -> None:
    text = (
        '\ufeff; [Site "XG"]\r\n\r\n7 point match\r\n\r\n Game 1\r\n Kévin : 0                 Zoë : 0\r\n'
        "  1) 31: 8/5 6/5                 \r\n      Wins 1 point\r\n\r\n\r\n\r\n Game 2\r\n"
        " Kévin : 1                 Zoë : 0\r\n  1)                             42: 8/4 6/4\r\n"
    )
    for data in (text, text.encode("utf-8"), text.replace("\r\n", "\r")):
        record = read_mat(data)
        assert record.tags == (("Site", "XG"),)
        assert record.players == ("Kévin", "Zoë")
        assert [g.score for g in record.games] == [(0, 0), (1, 0)]
        assert [g.line for g in record.games] == [5, 12]
        assert record.games[1].cells[0].line == 14


def test_bytes_that_are_not_utf8_fall_back_to_cp1252_then_latin1() -> None:
    data = match("  1) 31: 8/5 6/5", score=" José : 0                       Bob € : 0").encode("cp1252")
    assert read_mat(data).players == ("José", "Bob €")
    data = data.replace(b"\x80", b"\x81")  # undefined in cp1252
    assert read_mat(data).players == ("José", "Bob \x81")


def test_names_with_spaces_digits_and_non_ascii() -> None:
    record = read_mat(match("  1) 31: 8/5 6/5", score=" Player 2 : 3                Ωmega 7 Jr. : 12"))
    assert record.players == ("Player 2", "Ωmega 7 Jr.")
    assert record.games[0].score == (3, 12)
    assert record.games[0].score_line == 4


def test_gammonview_score_line_without_space_before_colon() -> None:
    record = read_mat(match("  1) 25: 24/22 13/8", score=" Owen Talbot: 0                      Dana Ellery: 4"))
    assert record.players == ("Owen Talbot", "Dana Ellery")
    assert record.games[0].score == (0, 4)


def test_gridgammon_rating_is_split_off_the_name() -> None:
    record = read_mat(match("  1) 14: 24/23 13/9", score=" alice,1650.25 : 0                bob,1499 : 0"))
    assert record.players == ("alice", "bob")
    assert record.ratings == ("1650.25", "1499")
    # A comma that is not followed by a positive number stays in the name (gnubg's strtol > 0 rule).
    record = read_mat(match("  1) 14: 24/23 13/9", score=" Smith, John : 0                Doe,0 : 0"))
    assert record.players == ("Smith, John", "Doe,0")
    assert record.ratings == (None, None)


def test_tabs_are_expanded_before_columns_are_read() -> None:
    got = cells(" 1)\t31: 8/5 6/5\t\t\t42: 8/4 6/4", "\t\t\t\t  Wins 1 point", "\tWins 2 points")
    assert [(c.side, c.kind, c.column) for c in got] == [
        (LEFT, CellKind.ROLL, 9),
        (RIGHT, CellKind.ROLL, 41),
        (RIGHT, CellKind.WINS, 35),
        (LEFT, CellKind.WINS, 9),
    ]


def test_set_position_and_game_comments() -> None:
    record = read_mat(match("; Set Pos=-a-B--E-C---dE---c-e----B-/-1", "; transcribed live", "  1) 31: 8/5 6/5"))
    game = record.games[0]
    assert game.set_position == "-a-B--E-C---dE---c-e----B-/-1"
    assert game.comments == ("transcribed live",)
    assert read_mat(write_mat(record)).games[0].set_position == game.set_position


def test_money_session_parses() -> None:
    text = match("  1) 31: 8/5 6/5                 Doubles => 2", "  2)  Drops", header="0 point match")
    text += " Game 2\n Alice : 0                       Bob : 1\n  1) 42: 8/4 6/4\n"
    record = read_mat(text)
    assert record.match_length == 0
    assert [g.score for g in record.games] == [(0, 0), (0, 1)]


def test_header_without_games_gives_an_empty_record() -> None:
    record = read_mat(" 5 point match\n")
    assert record == MatchRecord(match_length=5)
    assert record.players == ("", "") and record.ratings == (None, None)


# ------------------------------------------------------------------------------------------------------------
# Cells: the dialect features


def test_empty_play_with_trailing_spaces_is_an_empty_roll() -> None:
    got = cells(
        "  6) 63: 24/21 21/15*            65: ", " 11) 54: 20/15 15/11             64:                         "
    )
    assert got[1] == roll(RIGHT, (6, 5), "", move_number=6, line=5, column=34, text="65:")
    assert got[3] == roll(RIGHT, (6, 4), "", move_number=11, line=6, column=34, text="64:")


def test_cannot_move_is_a_marker_with_an_empty_play() -> None:
    got = cells(" 11) 54: 20/11*                        64: Cannot Move                   ")
    assert got[1] == roll(
        RIGHT, (6, 4), "", marker=RollMarker.CANNOT_MOVE, move_number=11, line=5, column=40, text="64: Cannot Move"
    )


@pytest.mark.parametrize("marks", ["???", "????"])
def test_question_marks_are_resign_after_roll(marks: str) -> None:
    left = f"21: {marks}"
    got = cells(f" 62) {left:<27}  Wins 2 point", f" 63) 62: 5/3 5/0       53: {marks}   ")
    assert got[0] == roll(
        LEFT, (2, 1), "", marker=RollMarker.RESIGN_AFTER_ROLL, move_number=62, line=5, column=6, text=f"21: {marks}"
    )
    assert got[1] == Cell(
        side=RIGHT, kind=CellKind.WINS, value=2, move_number=62, line=5, column=35, text="Wins 2 point"
    )
    assert got[3].side == RIGHT and got[3].marker is RollMarker.RESIGN_AFTER_ROLL


def test_gnubg_illegal_play_keeps_the_snowie_position() -> None:
    snowie = "25;0;1;1;0;0;0;0;Ann 62: Wins;Bob;0;-2;0;0;0;0;5;0;3"
    got = cells(f"  3) 62: Illegal play ({snowie})  41: 24/23 13/9 ")
    assert got[0] == roll(
        LEFT,
        (6, 2),
        "",
        marker=RollMarker.ILLEGAL_PLAY,
        position=snowie,
        move_number=3,
        line=5,
        column=6,
        text=f"62: Illegal play ({snowie})",
    )
    assert got[1].dice == (4, 1) and got[1].side == RIGHT
    assert read_mat(write_mat(read_mat(match(got[0].text)))).games[0].cells[0].position == snowie


def test_dice_are_kept_in_the_order_written() -> None:
    got = cells("  1) 14: 24/23 13/9              41: 13/9 24/23")
    assert [c.dice for c in got] == [(1, 4), (4, 1)]


def test_studio_misaligned_rows_and_wins_rows() -> None:
    got = cells(
        "  9) 11: 24/22 8/7(2)                   41: 8/3*",
        "  10) 42: bar/21 3/1                    54: 21/16 8/4*",
        "  26) 65: 8/3 7/1                        Doubles => 2",
        "  27)  Drops                             Wins 1 point",
        "  29) 61: 11/10 11/5                    31: 1/off",
        "  30)                                    Wins 2 point",
        "  38)                                   ",
        "  20)  Wins 2 point                     ",
    )
    brief = [(c.side, c.kind, c.move_number, c.value) for c in got]
    assert brief == [
        (LEFT, CellKind.ROLL, 9, None),
        (RIGHT, CellKind.ROLL, 9, None),
        (LEFT, CellKind.ROLL, 10, None),
        (RIGHT, CellKind.ROLL, 10, None),
        (LEFT, CellKind.ROLL, 26, None),
        (RIGHT, CellKind.DOUBLE, 26, 2),
        (LEFT, CellKind.DROP, 27, None),
        (RIGHT, CellKind.WINS, 27, 1),
        (LEFT, CellKind.ROLL, 29, None),
        (RIGHT, CellKind.ROLL, 29, None),
        (RIGHT, CellKind.WINS, 30, 2),
        (LEFT, CellKind.WINS, 20, 2),
    ]
    assert got[0].play == "24/22 8/7(2)" and got[2].play == "bar/21 3/1"


def test_wins_variants() -> None:
    got = cells(
        "      Wins 1 point",
        "                                  Wins 2 points",
        "      Wins 2 point and the match",
        "                                       Wins 4016 point",
        "      wins 3 POINTS   AND THE   match",
    )
    assert [(c.side, c.value, c.and_the_match) for c in got] == [
        (LEFT, 1, False),
        (RIGHT, 2, False),
        (LEFT, 2, True),
        (RIGHT, 4016, False),
        (LEFT, 3, True),
    ]
    assert all(c.kind is CellKind.WINS and c.move_number is None for c in got)


def test_continuation_side_is_decided_by_indentation() -> None:
    got = cells("   Wins 4 points", "              Wins 1 point", "               Wins 1 point")
    assert [c.side for c in got] == [LEFT, LEFT, RIGHT]


def test_galaxy_losses_then_wins() -> None:
    got = cells(
        "  2)  Losses 1 point                                               Wins 1 point and the match",
        " 24) 61: 4/0 1/0                  Losses 2 point",
        "      Wins 2 point",
    )
    assert got == (
        Cell(side=LEFT, kind=CellKind.LOSSES, value=1, move_number=2, line=5, column=7, text="Losses 1 point"),
        Cell(
            side=RIGHT,
            kind=CellKind.WINS,
            value=1,
            and_the_match=True,
            move_number=2,
            line=5,
            column=68,
            text="Wins 1 point and the match",
        ),
        roll(LEFT, (6, 1), "4/0 1/0", move_number=24, line=6, column=6, text="61: 4/0 1/0"),
        Cell(side=RIGHT, kind=CellKind.LOSSES, value=2, move_number=24, line=6, column=35, text="Losses 2 point"),
        Cell(side=LEFT, kind=CellKind.WINS, value=2, line=7, column=7, text="Wins 2 point"),
    )


def test_repeated_row_number_starts_a_new_row() -> None:
    got = cells(" 24) 43: 21/18 18/14              24)  Losses 2 point          Wins 2 point and the match")
    assert [(c.side, c.kind, c.move_number) for c in got] == [
        (LEFT, CellKind.ROLL, 24),
        (LEFT, CellKind.LOSSES, 24),
        (RIGHT, CellKind.WINS, 24),
    ]


def test_passes_is_a_drop_and_beavers_raccoons_carry_the_cube() -> None:
    got = cells(
        "  5) 62: 24/18 13/11              Doubles => 2",
        "  6)  Beavers => 4                62: 24/18 13/11",
        "  7)  Doubles => 8                Raccoons => 16",
        "  8) 31: 8/5 6/5                  Doubles => 2",
        "  9)  Passes",
    )
    assert [(c.side, c.kind, c.value) for c in got] == [
        (LEFT, CellKind.ROLL, None),
        (RIGHT, CellKind.DOUBLE, 2),
        (LEFT, CellKind.BEAVER, 4),
        (RIGHT, CellKind.ROLL, None),
        (LEFT, CellKind.DOUBLE, 8),
        (RIGHT, CellKind.RACCOON, 16),
        (LEFT, CellKind.ROLL, None),
        (RIGHT, CellKind.DOUBLE, 2),
        (LEFT, CellKind.DROP, None),
    ]
    assert got[-1].text == "Passes"


def test_gammonview_resigns_and_cube_cells_without_leading_space() -> None:
    got = cells(
        "  3) Doubles => 2                        Takes",
        "  23) 66: 3/0 2/0 2/0 1/0                 Resigns",
        "   Wins 2 points",
    )
    assert [(c.side, c.kind, c.value) for c in got] == [
        (LEFT, CellKind.DOUBLE, 2),
        (RIGHT, CellKind.TAKE, None),
        (LEFT, CellKind.ROLL, None),
        (RIGHT, CellKind.RESIGNS, None),
        (LEFT, CellKind.WINS, 2),
    ]


def test_right_player_opening_leaves_the_left_cell_empty() -> None:
    got = cells("  1)                             62: 24/18 13/11")
    assert got == (roll(RIGHT, (6, 2), "24/18 13/11", move_number=1, line=5, column=34, text="62: 24/18 13/11"),)


@pytest.mark.parametrize(
    "play",
    ["bar/22*", "Bar/21 24/21", "6/off(2)", "1/Off(4)", "13/10*(2)", "8/5(3) 6/3", "24/18*/13", "b/22 o/1", "8-5 6-5"],
)
def test_play_notations_of_every_dialect_are_kept_as_written(play: str) -> None:
    assert cells(f"  1) 62: {play}")[0].play == play


def test_play_whitespace_is_collapsed() -> None:
    assert cells("  1) 62:   24/18    13/11   ")[0].play == "24/18 13/11"


# ------------------------------------------------------------------------------------------------------------
# Errors carry the line (and the column where it helps)


def error(text: str | bytes) -> FormatError:
    with pytest.raises(FormatError) as caught:
        read_mat(text)
    return caught.value


def test_missing_match_header() -> None:
    found = error(" Game 1\n Alice : 0   Bob : 0\n  1) 31: 8/5 6/5\n")
    assert (found.line, found.column) == (1, None)
    assert "point match" in found.reason


def test_empty_text_has_no_header() -> None:
    assert error("").line == 1
    assert error('; [Site "x"]\n\n').line == 2


def test_game_without_score_line() -> None:
    found = error(" 3 point match\n\n Game 1\n  1) 31: 8/5 6/5   42: 8/4 6/4\n")
    assert found.line == 4 and "score line" in found.reason
    found = error(" 3 point match\n\n Game 1\n\n Game 2\n Alice : 0   Bob : 0\n")
    assert found.line == 5 and "game 1" in found.reason
    assert error(" 3 point match\n\n Game 1\n\n").line == 4


def test_non_numeric_score() -> None:
    found = error(match("  1) 31: 8/5 6/5", score=" Alice : x                       Bob : 0"))
    assert (found.line, found.column) == (4, 10)
    found = error(match("  1) 31: 8/5 6/5", score=" Alice : 0                       Bob : 1.5"))
    assert (found.line, found.column) == (4, 40)


def test_garbage_rows() -> None:
    found = error(match("  1) 31: 8/5 6/5", "  2) hello world"))
    assert (found.line, found.column) == (6, 6)
    found = error(match("  1) 31: 8/5 6/5", "      this is not a cell"))
    assert (found.line, found.column) == (6, 7)
    found = error(match("  1) 31: 8/5 6/5 x7         42: 8/4 6/4"))
    assert (found.line, found.column) == (5, 18) and "x7" in found.reason
    found = error(match("  1) 31: 8/5 6/5                 Doubles => two"))
    assert (found.line, found.column) == (5, 34)
    found = error(match("  1) 31: Illegal play (25;0;1"))
    assert found.line == 5


def test_rows_before_the_first_game() -> None:
    found = error(" 3 point match\n\n  1) 31: 8/5 6/5\n")
    assert found.line == 3


def test_concatenated_matches() -> None:
    text = match("  1) 31: 8/5 6/5") + "\n 5 point match\n\n Game 1\n" + SCORE + "\n"
    found = error(text)
    assert found.line == 7 and "second match header" in found.reason


# ------------------------------------------------------------------------------------------------------------
# Writing: gnubg's layout


def _game(number: int, score: tuple[int, int], *cells_: Cell) -> GameRecord:
    return GameRecord(number=number, players=("Alice", "Bob"), score=score, cells=cells_)


def _cube(side: int, kind: CellKind, value: int | None = None) -> Cell:
    return Cell(side=side, kind=kind, value=value)


def _wins(side: int, points: int, *, and_the_match: bool = False) -> Cell:
    return Cell(side=side, kind=CellKind.WINS, value=points, and_the_match=and_the_match)


HAND_BUILT = MatchRecord(
    match_length=7,
    tags=(("Site", "Club"), ("EventDate", "2026.01.02")),
    games=(
        _game(
            1,
            (0, 0),
            roll(RIGHT, (6, 2), "24/18 13/11"),
            roll(LEFT, (3, 1), "8/5 6/5"),
            roll(RIGHT, (1, 1), "6/5 6/5 8/7 8/7"),
            roll(LEFT, (1, 1), "17/16 16/15 15/14 14/13*"),
            _cube(RIGHT, CellKind.DOUBLE, 2),
            _cube(LEFT, CellKind.TAKE),
            roll(RIGHT, (4, 3), ""),
            roll(LEFT, (6, 4), "6/0 4/0"),
            roll(RIGHT, (2, 1), "2/0 1/0"),
            _wins(RIGHT, 2),
        ),
        _game(
            2,
            (0, 2),
            roll(LEFT, (5, 2), "13/11 13/8"),
            roll(RIGHT, (3, 1), "8/5 6/5"),
            _cube(LEFT, CellKind.DOUBLE, 2),
            _cube(RIGHT, CellKind.DROP),
            _wins(LEFT, 1),
        ),
        _game(
            3,
            (1, 2),
            roll(RIGHT, (4, 1), "24/23 13/9"),
            _cube(LEFT, CellKind.DOUBLE, 2),
            _cube(RIGHT, CellKind.TAKE),
            roll(LEFT, (6, 3), "24/18 13/10"),
            _cube(RIGHT, CellKind.DOUBLE, 4),
            _cube(LEFT, CellKind.DROP),
            _wins(RIGHT, 2),
        ),
        _game(4, (1, 4), roll(LEFT, (6, 5), "24/13"), roll(RIGHT, (5, 1), ""), _wins(LEFT, 1)),
        _game(5, (2, 4), roll(RIGHT, (6, 2), "24/18 13/11"), roll(LEFT, (5, 1), ""), _wins(RIGHT, 1)),
        _game(6, (2, 5), roll(LEFT, (6, 4), "4/0 6/0"), _wins(LEFT, 2, and_the_match=True)),
    ),
)

# Built by hand from FORMATS.md 1.10 and gnubg's export code: " %-31s%s : %d" score lines, "%3d) %-27s " and the
# right cell, a trailing space after each of the first three sub-moves, Wins at column 6 (left) or 34 (right),
# a left drop written with the opponent's result in one cell (23 spaces, then a trailing space), a left
# roll-then-resign written "%3d) %-3s" plus 24 spaces, a blank line after every game.
HAND_WRITTEN = "\n".join(
    [
        '; [Site "Club"]',
        '; [EventDate "2026.01.02"]',
        "",
        " 7 point match",
        "",
        " Game 1",
        " Alice : 0" + " " * 22 + "Bob : 0",
        "  1)" + " " * 29 + "62: 24/18 13/11 ",
        "  2) 31: 8/5 6/5" + " " * 17 + "11: 6/5 6/5 8/7 8/7",
        "  3) 11: 17/16 16/15 15/14 14/13*  Doubles => 2",
        "  4)  Takes" + " " * 22 + "43: ",
        "  5) 64: 6/0 4/0" + " " * 17 + "21: 2/0 1/0 ",
        " " * 34 + "Wins 2 points",
        "",
        " Game 2",
        " Alice : 0" + " " * 22 + "Bob : 2",
        "  1) 52: 13/11 13/8" + " " * 14 + "31: 8/5 6/5 ",
        "  2)  Doubles => 2" + " " * 16 + "Drops",
        "      Wins 1 point",
        "",
        " Game 3",
        " Alice : 1" + " " * 22 + "Bob : 2",
        "  1)" + " " * 29 + "41: 24/23 13/9 ",
        "  2)  Doubles => 2" + " " * 16 + "Takes",
        "  3) 63: 24/18 13/10" + " " * 14 + "Doubles => 4",
        "  4)  Drops" + " " * 23 + "Wins 2 points ",
        "",
        " Game 4",
        " Alice : 1" + " " * 22 + "Bob : 4",
        "  1) 65: 24/13" + " " * 19 + "51: ",
        "      Wins 1 point",
        "",
        " Game 5",
        " Alice : 2" + " " * 22 + "Bob : 4",
        "  1)" + " " * 29 + "62: 24/18 13/11 ",
        "  2) 51:" + " " * 25 + "Wins 1 point",
        "",
        " Game 6",
        " Alice : 2" + " " * 22 + "Bob : 5",
        "  1) 64: 4/0 6/0" + " " * 17,
        "      Wins 2 points and the match",
        "",
        "",
    ]
)


def test_writer_matches_the_hand_written_gnubg_layout() -> None:
    assert write_mat(HAND_BUILT) == HAND_WRITTEN


def test_hand_written_layout_reads_back_to_the_record() -> None:
    assert without_places(read_mat(HAND_WRITTEN)) == without_places(HAND_BUILT)


def test_writer_without_tags_starts_with_gnubg_blank_line() -> None:
    record = MatchRecord(match_length=1, games=(_game(1, (0, 0), roll(LEFT, (3, 1), "8/5 6/5")),))
    assert write_mat(record) == "\n 1 point match\n\n Game 1\n Alice : 0" + " " * 22 + (
        "Bob : 0\n  1) 31: 8/5 6/5" + " " * 17 + "\n\n"
    )


def test_writer_comments_ratings_and_every_cell_kind() -> None:
    record = MatchRecord(
        match_length=0,
        comments=("typed in by hand", ""),
        games=(
            GameRecord(
                number=1,
                players=("ann", "bo b"),
                ratings=("1650", None),
                score=(0, 0),
                set_position="-a-B--E-C---dE---c-e----B-/0",
                comments=("note",),
                cells=(
                    roll(LEFT, (5, 2), "", marker=RollMarker.CANNOT_MOVE),
                    _cube(RIGHT, CellKind.DOUBLE, 2),
                    _cube(LEFT, CellKind.BEAVER, 4),
                    _cube(RIGHT, CellKind.RACCOON, 8),
                    roll(LEFT, (4, 4), "", marker=RollMarker.RESIGN_AFTER_ROLL),
                    Cell(side=RIGHT, kind=CellKind.RESIGNS),
                    roll(LEFT, (2, 1), "", marker=RollMarker.ILLEGAL_PLAY, position="25;0;1"),
                    Cell(side=RIGHT, kind=CellKind.LOSSES, value=1),
                    _wins(LEFT, 1),
                ),
            ),
        ),
    )
    text = write_mat(record)
    assert text.splitlines()[:9] == [
        "",
        "; typed in by hand",
        ";",
        "",
        " 0 point match",
        "",
        " Game 1",
        " ann,1650 : 0" + " " * 19 + "bo b : 0",
        "; Set Pos=-a-B--E-C---dE---c-e----B-/0",
    ]
    assert "  1) 52: Cannot Move" + " " * 12 + "  Doubles => 2\n" in text
    assert "  2)  Beavers => 4" + " " * 14 + "  Raccoons => 8\n" in text
    assert "  3) 44: ???" + " " * 20 + "  Resigns\n" in text
    assert "  4) 21: Illegal play (25;0;1)" + " " * 2 + "  Losses 1 point\n      Wins 1 point\n" in text
    assert without_places(read_mat(text)) == without_places(record)


@pytest.mark.parametrize(
    ("cell", "text"),
    [
        (roll(LEFT, (6, 2), "24/18 13/11"), "62: 24/18 13/11 "),
        (roll(LEFT, (3, 3), "8/5 8/5 6/3 6/3"), "33: 8/5 8/5 6/3 6/3"),
        (roll(LEFT, (6, 5), ""), "65: "),
        (_cube(LEFT, CellKind.DOUBLE, 2), " Doubles => 2"),
        (_cube(LEFT, CellKind.TAKE), " Takes"),
        (_cube(LEFT, CellKind.DROP), " Drops"),
        (_wins(LEFT, 1), "Wins 1 point"),
        (_wins(LEFT, 3, and_the_match=True), "Wins 3 points and the match"),
    ],
)
def test_format_cell(cell: Cell, text: str) -> None:
    assert format_cell(cell) == text


def test_writer_refuses_what_it_cannot_write_readably() -> None:
    colon = MatchRecord(match_length=1, games=(GameRecord(number=1, players=("a:b", "c"), score=(0, 0)),))
    with pytest.raises(FormatError, match="':'"):
        write_mat(colon)
    newline = MatchRecord(match_length=1, tags=(("Site", "two\nlines"),))
    with pytest.raises(FormatError, match="line break"):
        write_mat(newline)
    no_dice = MatchRecord(match_length=1, games=(_game(1, (0, 0), Cell(side=LEFT, kind=CellKind.ROLL, play="")),))
    with pytest.raises(FormatError, match="no dice"):
        write_mat(no_dice)
