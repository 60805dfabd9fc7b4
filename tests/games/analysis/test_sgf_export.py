"""The SGF export read back by the real GNU Backgammon (the tests marked ``gnubg``; skipped, naming the reason,
where it is not installed): the plays, cube actions, scores and results gnubg reads in our SGF are those it reads in
the same match's .mat log, and gnubg's analysis stored for a match comes back from the SGF as gnubg made it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from engine.formats.mat import read_mat
from engine.formats.matlog import replay_record
from engine.formats.sgf import write_sgf
from games.analysis.service import SIDES, analyse_match
from games.export import match_mat, match_sgf
from games.models import Decision, Match, MatchAnalysis, PlayerAnalysis
from tests.games.analysis.test_analyse_match import CORPUS, CUBE_MATCH, DATA, HUMAN_MATCH, NACKGAMMON, import_mat
from tests.gnubg_reader import gnubg_reads, plays_and_results

pytestmark = [pytest.mark.django_db, pytest.mark.gnubg]

#: Matches of several writers and rules: gnubg's own exports (cube, resignations, Nackgammon), Backgammon Studio
#: (a concession), XG, Galaxy, GridGammon and DailyGammon logs, a money session.
CORPUS_FILES = [
    CUBE_MATCH,
    NACKGAMMON,
    DATA / "gnubg_5pt_resign.mat",
    HUMAN_MATCH,
    CORPUS / "lassehjorthmadsen__backgammon/lasse/raw/MrPurple - Lasse 3pt Backgammon Studio 2024_05_11 20_10_33.txt",
    CORPUS / "kevung__gnubgparser/charlot1-charlot2_7p_2025-11-08-2305.mat",
    CORPUS / "kevung__gnubgparser/gnubg_roll_then_resign_1p.mat",
    CORPUS / "kevung__gbf/test.mat",
]


def need(path: Path) -> None:
    if not path.exists():
        pytest.skip(f"the shared match-log corpus is missing: {path}")


def sgf_of_log(path: Path) -> str:
    record = read_mat(path.read_bytes())
    replay = replay_record(record)
    assert replay.ok, replay.fault
    return write_sgf(
        [game.actions for game in replay.games],
        players=record.players,
        match_length=record.match_length,
        variant=replay.variant,
        crawford_rule=replay.crawford_rule,
    )


@pytest.mark.parametrize("path", CORPUS_FILES, ids=lambda p: p.name)
def test_gnubg_reads_in_the_sgf_the_match_it_reads_in_the_log(path: Path, tmp_path: Path) -> None:
    need(path)
    sgf = tmp_path / "match.sgf"
    sgf.write_text(sgf_of_log(path), encoding="utf-8")
    from_log = plays_and_results(gnubg_reads(path, tmp_path))
    from_sgf = plays_and_results(gnubg_reads(sgf, tmp_path))
    assert from_sgf["games"] and any(game["records"] for game in from_sgf["games"])
    assert from_sgf == from_log


@pytest.mark.parametrize("path", [CUBE_MATCH, NACKGAMMON, HUMAN_MATCH], ids=["cube", "nackgammon", "human"])
def test_a_stored_match_exported_as_sgf_is_the_match_gnubg_reads_in_its_mat(path: Path, tmp_path: Path) -> None:
    need(path)
    match = import_mat(path)
    mat, sgf = tmp_path / "match.mat", tmp_path / "match.sgf"
    mat.write_text(match_mat(match), encoding="utf-8")
    sgf.write_text(match_sgf(match), encoding="utf-8")
    from_sgf = plays_and_results(gnubg_reads(sgf, tmp_path))
    assert from_sgf == plays_and_results(gnubg_reads(mat, tmp_path))
    assert from_sgf["names"] == [match.player1.display_name, match.player2.display_name]


def close(a: float | None, b: float | None, within: float = 2e-6) -> bool:
    return a is not None and b is not None and abs(a - b) <= within


def _records(read: dict[str, Any]) -> dict[tuple[int, int], dict[str, Any]]:
    return {
        (number, turn): record
        for number, game in enumerate(read["games"], start=1)
        for turn, record in enumerate(game["records"])
    }


@pytest.mark.parametrize("path", [CUBE_MATCH, HUMAN_MATCH], ids=["cube", "human"])
def test_the_analysis_comes_back_from_the_sgf_as_gnubg_made_it(path: Path, tmp_path: Path) -> None:
    need(path)
    match = import_mat(path)
    analyse_match(match.pk, plies=0)
    sgf = tmp_path / "match.sgf"
    sgf.write_text(match_sgf(match), encoding="utf-8")
    read = gnubg_reads(sgf, tmp_path)
    records = _records(read)
    decisions = list(Decision.objects.filter(analysis__match=match).order_by("game_number", "turn"))
    # gnubg evaluates nearly every decision (not, say, the last plays of a match already decided)
    assert decisions and sum(1 for d in decisions if d.evaluation) > 0.9 * len(decisions)
    for decision in decisions:
        record = records[(decision.game_number, decision.turn)]
        assert record["action"] == decision.kind and record["player"] == SIDES[decision.side]
        analysis = record["analysis"]
        cube = decision.evaluation.get("cube")
        if decision.kind == Decision.Kind.MOVE:
            moves = analysis.get("moves") or []
            stored = decision.evaluation.get("candidates") or []
            assert len(moves) == len(stored)
            if not stored:
                continue
            for move, candidate in zip(moves, stored, strict=True):
                assert close(move["score"], candidate["equity"])
                assert all(close(a, b) for a, b in zip(move["probs"], candidate["probs"], strict=True))
            assert close(moves[analysis["imove"]]["score"], decision.played_equity)
            assert close(moves[0]["score"], decision.best_equity)
            assert close(analysis.get("luck-value"), decision.luck, 1e-5)
            assert analysis.get("luck", "") == decision.luck_mark
            assert analysis.get("skill", "") == decision.mark
            assert analysis.get("cube-skill", "") == decision.cube_mark
        elif decision.kind == Decision.Kind.DOUBLE:
            assert analysis.get("skill", "") == decision.mark
        if cube and decision.kind in (Decision.Kind.MOVE, Decision.Kind.DOUBLE):
            assert close(analysis["nd-cubeful-eq"], cube["no_double"])
            assert close(analysis["dt-cubeful-eq"], cube["double_take"])
            assert all(close(a, b) for a, b in zip(analysis["probs"], cube["probs"], strict=True))
    # gnubg's statistics of the match, computed from what it read, are the stored figures of each player
    for player in PlayerAnalysis.objects.filter(analysis__match=match):
        stats = read["stats"][SIDES[player.side]]
        assert stats["moves"]["unforced-moves"] == player.unforced_moves
        assert close(stats["moves"]["error-skill"], player.chequer_error, 1e-4)
        assert stats["cube"]["close-cube"] == player.close_cube_decisions
        assert close(stats["dice"]["luck"], player.luck, 1e-3)
    if path == HUMAN_MATCH:
        marked = [d for d in decisions if d.mark]
        assert marked, "people err: some decisions are marked"


def test_a_match_without_an_up_to_date_analysis_exports_none(tmp_path: Path) -> None:
    need(CUBE_MATCH)
    match = import_mat(CUBE_MATCH)
    plain = match_sgf(match)
    assert "]A[" not in plain and "DA[" not in plain and "LU[" not in plain
    analyse_match(match.pk, plies=0)
    analysed = match_sgf(match)
    assert "]A[0][" in analysed and "DA[E ver 3 0C 1 0.000000 1 " in analysed and "LU[" in analysed
    Match.objects.filter(pk=match.pk).update(seq=match.seq + 1)  # a correction moved the log on
    match.refresh_from_db()
    assert "LU[" not in match_sgf(match)
    Match.objects.filter(pk=match.pk).update(seq=match.seq - 1)
    match.refresh_from_db()
    assert "LU[" in match_sgf(match)
    MatchAnalysis.objects.filter(match=match).update(format_version=MatchAnalysis.FORMAT_VERSION - 1)
    assert "LU[" not in match_sgf(match)  # stored in an older format: being redone


def test_a_match_recorded_on_the_pages_reads_back_in_gnubg_as_recorded(
    tmp_path: Path, new_match: Any, drive: Any
) -> None:
    """Played through the services: a double dropped, a double taken, a rejected resignation, a roll then a
    gammon resignation, and a game won at the end of a bear-off; then analysed, and read back with its analysis."""
    match = new_match(length=7)
    driver = drive(match, seed=5)
    driver.turns(3)
    driver.to_roll_phase()
    driver.double()
    driver.drop()  # game 1: a single at the cube of 1
    driver.play_out(double_when=lambda d: d.game.cube.value == 1 and d.game.moves_played >= 6)
    driver.turns(2)
    driver.to_roll_phase()
    side = driver.game.on_roll
    driver.resign(side, 1)
    driver.reject()
    driver.roll()
    driver.resign(side, 2)
    driver.accept()
    match.refresh_from_db()
    assert match.score1 + match.score2 >= 4
    mat, sgf = tmp_path / "match.mat", tmp_path / "match.sgf"
    mat.write_text(match_mat(match), encoding="utf-8")
    sgf.write_text(match_sgf(match), encoding="utf-8")
    from_sgf = plays_and_results(gnubg_reads(sgf, tmp_path))
    assert from_sgf == plays_and_results(gnubg_reads(mat, tmp_path))
    assert [g["info"]["resigned"] for g in from_sgf["games"]] == [False, False, True]
    assert [r["action"] for r in from_sgf["games"][0]["records"]][-2:] == ["double", "drop"]
    analyse_match(match.pk, plies=0)
    sgf.write_text(match_sgf(match), encoding="utf-8")
    read = gnubg_reads(sgf, tmp_path)
    assert plays_and_results(read) == from_sgf
    for player in PlayerAnalysis.objects.filter(analysis__match=match):
        stats = read["stats"][SIDES[player.side]]
        assert stats["moves"]["unforced-moves"] == player.unforced_moves
        assert close(stats["moves"]["error-skill"], player.chequer_error, 1e-4)
        assert close(stats["dice"]["luck"], player.luck, 1e-3)
