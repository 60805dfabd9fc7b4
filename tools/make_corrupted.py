"""Write the deliberately corrupted match logs of tests/engine/test_corrupted_logs.py, and their README.

Run from the repository root:  python tools/make_corrupted.py

Each fixture is a clean base log with a small edit that breaks one rule of RULES.md ("What a valid match record
satisfies"; a few plant two faults to test which is reported first). The bases are

* two Backgammon Galaxy logs from the shared corpus (``../shared/corpus/mat``), copied byte for byte as
  ``clean_*.mat``. They come from lassehjorthmadsen/backgammon, which is MIT-licensed: its notice is kept beside
  the fixtures in ``LICENSE.lassehjorthmadsen-backgammon.txt``. (kevung/gnubgparser files must not be copied.)
* two short logs written by hand in GNU Backgammon's ``export match mat`` layout, ``clean_hand_3pt.mat`` and
  ``clean_hand_5pt.mat``, which are kept in the fixture folder and only read here.

An edit names a game (0 = the header block before ``Game 1``) and a piece of text: the first line of that game
holding the text has it replaced (the replacement may hold line breaks), or the line is deleted. Line endings and
everything else stay as they were. After writing, every file is run through ``engine check`` and the verdict is
printed, so a fixture that does not fail (or a clean one that does) shows up at once; the expected error of each
fixture is asserted by the tests, not here.
"""

from __future__ import annotations

import itertools
import re
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus" / "mat"
OUT = ROOT / "tests" / "engine" / "data" / "mat"
GALAXY = "lassehjorthmadsen__backgammon/lasse/raw"
LICENCE = "LICENSE.lassehjorthmadsen-backgammon.txt"


@dataclass(frozen=True)
class Base:
    name: str  # the clean fixture: clean_<name>.mat
    corpus: str | None  # the corpus file it is copied from, None for a hand-written log
    about: str


@dataclass(frozen=True)
class Edit:
    game: int
    old: str
    new: str | None  # None deletes the line


@dataclass(frozen=True)
class Fixture:
    name: str  # corrupt_<name>.mat (or valid_<name>.mat when ``valid``)
    base: str
    edits: tuple[Edit, ...]
    about: str
    valid: bool = False

    @property
    def file(self) -> str:
        return f"{'valid' if self.valid else 'corrupt'}_{self.name}.mat"


BASES = {
    base.name: base
    for base in (
        Base(
            "galaxy_5pt_7837984",
            f"{GALAXY}/match7837984.txt",
            "Galaxy, 5-point match lasse v albert07, 5 games: a bear-off, three cube drops, double/take/redouble.",
        ),
        Base(
            "galaxy_5pt_9933346",
            f"{GALAXY}/match9933346.txt",
            "Galaxy, 5-point match lasse v underdog, 4 games: a gammon in game 1 (cube 1), bear-offs, drops.",
        ),
        Base(
            "hand_3pt",
            None,
            "3-point match Alice v Bob: 1-0 (drop), 1-2 (resigned at cube 2), game 3 is the Crawford "
            "game (Bob at 2), 2-2 post-Crawford game 4 with a double and take, Alice wins 4-2.",
        ),
        Base(
            "hand_5pt",
            None,
            "5-point match Carol v Dave: Dave jumps from 0 to 4 with a resigned gammon at cube 2 in "
            "game 2, so game 3 is the Crawford game; doubles in post-Crawford games 4 and 5; Dave wins 5-4.",
        ),
    )
}

GAME1_WINS_LEFT = "      Wins 2 point"
RIGHT = " " * 34

FIXTURES = (
    # -- illegal checker plays -------------------------------------------------------------------------------------
    Fixture(
        "empty_point",
        "galaxy_5pt_9933346",
        (Edit(2, "65: 24/18 18/13", "65: 24/18 12/7 "),),
        "Game 2 move 1: lasse plays 12/7, but his 12-point is empty.",
    ),
    Fixture(
        "blocked_point",
        "galaxy_5pt_7837984",
        (Edit(1, "54: 24/20 13/8", "54: 24/19 13/9"),),
        "Game 1 move 1: albert07 plays 24/19 onto lasse's 6-point (five checkers).",
    ),
    Fixture(
        "bar_ignored",
        "galaxy_5pt_7837984",
        (Edit(1, "31: 25/22 6/5", "31: 8/5 6/5  "),),
        "Game 1 move 3: lasse was hit on move 2 and plays 8/5 6/5 without entering his checker.",
    ),
    Fixture(
        "one_die_only",
        "galaxy_5pt_9933346",
        (Edit(2, "65: 24/18 18/13", "65: 24/18      "),),
        "Game 2 move 1: lasse plays only the 6 of his opening 6-5 although both dice can be played.",
    ),
    Fixture(
        "bearoff_with_checker_outside",
        "galaxy_5pt_9933346",
        (Edit(1, "32: 7/4 7/5", "32: 7/5 3/0"),),
        "Game 1 move 13: lasse bears off from his 3-point while a checker is still on his 7-point.",
    ),
    Fixture(
        "bearoff_wrong_die",
        "galaxy_5pt_9933346",
        (Edit(1, "51: 5/0 3/2", "51: 4/0 3/2"),),
        "Game 1 move 16: lasse uses the 5 to bear off from his 4-point while his 5- and 6-points are occupied.",
    ),
    Fixture(
        "play_missing",
        "galaxy_5pt_9933346",
        (Edit(1, " 10) 53: 13/8 13/10 ", " 10) 53:            "),),
        "Game 1 move 10: lasse's 5-3 has no play written (a dance) although it can be played, and no "
        "resignation follows.",
    ),
    Fixture(
        "turn_skipped",
        "hand_3pt",
        (Edit(4, "55: 13/8 13/8 8/3 8/3", ""),),
        "Game 4 move 4: Bob's roll on move 3 is gone, so Alice rolls twice in a row.",
    ),
    # -- dice --------------------------------------------------------------------------------------------------------
    Fixture(
        "die_out_of_range",
        "hand_3pt",
        (Edit(2, "43: 24/20 13/10", "73: 24/17 13/10"),),
        "Game 2 move 2: Alice's roll is written 73; a die shows 1 to 6.",
    ),
    Fixture(
        "opening_double",
        "hand_3pt",
        (Edit(1, "31: 8/5 6/5    ", "33: 8/5 8/5 6/3 6/3"),),
        "Game 1 move 1: the first roll of the game is 3-3; the opening roll is never a double.",
    ),
    # -- the cube ----------------------------------------------------------------------------------------------------
    Fixture(
        "double_not_cube_owner",
        "galaxy_5pt_7837984",
        (Edit(5, " 9) 33: 25/22 14/11 11/8 14/11   Doubles => 4", " 9)  Doubles => 4                Takes"),),
        "Game 5 move 9: lasse redoubles to 4, but albert07 took the cube on move 8 and owns it.",
    ),
    Fixture(
        "two_doubles",
        "galaxy_5pt_7837984",
        (Edit(5, " 8)  Doubles => 2                Takes", " 8)  Doubles => 2                 Doubles => 4"),),
        "Game 5 move 8: albert07 answers lasse's double with a double of his own instead of taking or dropping.",
    ),
    Fixture(
        "take_without_double",
        "galaxy_5pt_7837984",
        (Edit(2, "63: 24/18 21/18", " Takes"),),
        "Game 2 move 3: albert07 'Takes' in place of his roll; nobody doubled.",
    ),
    Fixture(
        "double_value_wrong",
        "hand_3pt",
        (Edit(1, "  2)  Doubles => 2", "  2)  Doubles => 4"),),
        "Game 1 move 2: Alice's first double is written '=> 4'; it turns the cube to 2.",
    ),
    Fixture(
        "double_in_crawford",
        "hand_3pt",
        (Edit(3, "  2) 65: 24/18 18/13", "  2)  Doubles => 2                Drops"),),
        "Game 3 move 2: Alice doubles in the Crawford game (Bob reached 2 of 3 points in game 2).",
    ),
    Fixture(
        "crawford_placement",
        "hand_5pt",
        (Edit(3, "  2) 65: 24/18 18/13", "  2)  Doubles => 2                Drops"),),
        "Game 3 move 2: Carol doubles in game 3, the Crawford game: Dave jumped from 0 to 4 of 5 points in game 2.",
    ),
    Fixture(
        "crawford_off",
        "hand_5pt",
        (
            Edit(0, '; [Crawford "On"]', '; [Crawford "Off"]'),
            Edit(3, "  2) 65: 24/18 18/13", "  2)  Doubles => 2                Drops"),
        ),
        "Control for crawford_placement: the same double in game 3, but the Crawford rule is Off.",
        valid=True,
    ),
    # -- results and score lines ---------------------------------------------------------------------------------------
    Fixture(
        "single_for_gammon",
        "galaxy_5pt_9933346",
        (Edit(1, "Wins 2 point", "Wins 1 point"),),
        "Game 1 result: underdog had borne off no checker (a gammon, 2 points at cube 1) but 'Wins 1 point'.",
    ),
    Fixture(
        "cube_not_applied",
        "galaxy_5pt_7837984",
        (Edit(1, "Wins 2 point", "Wins 1 point"),),
        "Game 1 result: a single game with the cube at 2 is written 'Wins 1 point' (the cube is not applied).",
    ),
    Fixture(
        "drop_points",
        "galaxy_5pt_7837984",
        (Edit(3, "      Wins 1 point", "      Wins 2 point"),),
        "Game 3 result: albert07 drops the double to 2, which costs 1 point, but the log says 'Wins 2 point'.",
    ),
    Fixture(
        "wrong_winner",
        "galaxy_5pt_7837984",
        (Edit(1, GAME1_WINS_LEFT, RIGHT + "Wins 2 point"),),
        "Game 1 result: lasse bore off all his checkers, but the Wins line is in albert07's column.",
    ),
    Fixture(
        "wins_by_dropper",
        "galaxy_5pt_7837984",
        (Edit(3, "      Wins 1 point", RIGHT + "Wins 1 point"),),
        "Game 3 result: albert07 drops lasse's double, then the log has albert07 winning the game.",
    ),
    Fixture(
        "wins_by_resigner",
        "galaxy_5pt_7837984",
        (Edit(5, "      Wins 2 point and the match", RIGHT + "Wins 2 point and the match"),),
        "Game 5 result: albert07 resigns ('Losses 2 point' in his column) and the Wins line is in his column too.",
    ),
    Fixture(
        "score_header_game3",
        "galaxy_5pt_7837984",
        (Edit(3, " lasse : 2                       albert07 : 1", " lasse : 2                       albert07 : 2"),),
        "Game 3 score line: 2-2, but games 1 and 2 add up to 2-1.",
    ),
    # -- which fault is reported first -------------------------------------------------------------------------------
    Fixture(
        "header_and_play_same_game",
        "galaxy_5pt_7837984",
        (
            Edit(3, " lasse : 2                       albert07 : 1", " lasse : 2                       albert07 : 2"),
            Edit(3, "43: 24/20 13/10", "43: 24/20 12/9 "),
        ),
        "Game 3: the score line says 2-2 (should be 2-1) and move 1 plays from albert07's empty 12-point; "
        "the score line comes first.",
    ),
    Fixture(
        "play_and_result_same_game",
        "galaxy_5pt_7837984",
        (Edit(1, "31: 25/22 6/5", "31: 8/5 6/5  "), Edit(1, "Wins 2 point", "Wins 1 point")),
        "Game 1: move 3 ignores the checker on the bar and the result says 1 point at cube 2; the move comes first.",
    ),
    Fixture(
        "faults_in_games_2_and_1",
        "galaxy_5pt_7837984",
        (Edit(2, "63: 24/18 21/18", " Takes"), Edit(1, "Wins 2 point", "Wins 1 point")),
        "Game 1's result (1 point at cube 2) and game 2 move 3 (a take with no double): game 1 comes first.",
    ),
    Fixture(
        "missing_result",
        "hand_3pt",
        (Edit(3, "      Wins 1 point", None),),
        "Game 3: Bob's resignation ('Wins 1 point' for Alice) is gone, and game 4 follows an unfinished game.",
    ),
    Fixture(
        "unfinished_game",
        "galaxy_5pt_7837984",
        (Edit(4, "  5) 63:                          Doubles => 2", None), Edit(4, "  6)  Drops", None)),
        "Game 4 stops after move 4 with no result (the double and the drop are cut), and game 5 follows.",
    ),
    Fixture(
        "game_after_match",
        "hand_3pt",
        (
            Edit(
                4,
                "      Wins 2 points",
                "      Wins 2 points\n\n Game 5\n Alice : 4                      Bob : 2\n"
                "  1) 31: 8/5 6/5                 64: 24/18 13/9 \n",
            ),
        ),
        "Game 5: a game after Alice won the match 4-2 in game 4.",
    ),
)


def game_spans(lines: list[str]) -> list[tuple[int, int]]:
    """(first, end) line indexes of the header block (index 0) and of each game (index = game number)."""
    starts = [i for i, line in enumerate(lines) if re.match(r"\s*Game\s+\d+\s*$", line)]
    bounds = [0, *starts, len(lines)]
    return list(itertools.pairwise(bounds))


def apply_edit(lines: list[str], edit: Edit) -> list[str]:
    first, end = game_spans(lines)[edit.game]
    for index in range(first, end):
        line = lines[index]
        if edit.old in line:
            if edit.new is None:
                return lines[:index] + lines[index + 1 :]
            eol = "\r" if line.endswith("\r") else ""
            new = line.replace(edit.old, edit.new, 1)
            return lines[:index] + [part.removesuffix("\r") + eol for part in new.split("\n")] + lines[index + 1 :]
    raise SystemExit(f"game {edit.game} has no line holding {edit.old!r}")


def base_text(base: Base) -> str:
    return (OUT / f"clean_{base.name}.mat").read_text(encoding="utf-8")


def write_readme() -> None:
    rows = []
    for base in BASES.values():
        origin = f"copied unchanged from the corpus: `{base.corpus}`" if base.corpus else "hand-written"
        rows.append(f"| `clean_{base.name}.mat` | {origin}. {base.about} |")
    for fixture in FIXTURES:
        rows.append(f"| `{fixture.file}` | from `clean_{fixture.base}.mat`. {fixture.about} |")
    text = f"""# Match logs for the `engine check` tests

Used by `tests/engine/test_corrupted_logs.py` and `tests/engine/test_cli.py`. Every `corrupt_*.mat` is a clean log
with one planted fault (RULES.md, "What a valid match record satisfies"); `clean_*.mat` and `valid_*.mat` must pass.
The corrupted and `valid_` files are written by `tools/make_corrupted.py` (run it from the repository root after
changing a base or an edit); the tests hold the expected error (game, move as printed, a word of the message).

## Licence

`clean_galaxy_*.mat` and every file made from them are Backgammon Galaxy exports from the GitHub repository
lassehjorthmadsen/backgammon (`data-raw/lasse/raw/`, commit 671cb08d63bdfa8a2a7b1a3c39d482989fb94fde), which is
under the MIT licence, "Copyright (c) 2023 backgammon authors": see `{LICENCE}`
beside them. The player names are online handles of real people; keep them out of demos and public pages.
The `hand_` logs (players Alice, Bob, Carol, Dave) were written for these tests.

## Files

| file | what it is |
| --- | --- |
{chr(10).join(rows)}
"""
    (OUT / "README.md").write_text(text, encoding="utf-8")


def main() -> int:
    from engine.formats.check import check_text

    for base in BASES.values():
        if base.corpus:
            shutil.copyfile(CORPUS / base.corpus, OUT / f"clean_{base.name}.mat")
    for fixture in FIXTURES:
        text = base_text(BASES[fixture.base])
        lines = text.split("\n")
        for edit in fixture.edits:
            lines = apply_edit(lines, edit)
        (OUT / fixture.file).write_bytes("\n".join(lines).encode("utf-8"))
    write_readme()
    names = [f"clean_{name}.mat" for name in BASES] + [fixture.file for fixture in FIXTURES]
    for name in names:
        report, _note, unreadable = check_text((OUT / name).read_bytes(), shown_as=name)
        verdict = "unreadable" if unreadable else "ok" if report["ok"] else "invalid"
        print(f"{name:40} {verdict:10} {report['error']}")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    sys.exit(main())
