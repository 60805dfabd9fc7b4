"""Golden tests: every corpus log survives read -> replay -> write -> read -> replay unchanged, and GNU
Backgammon's own exports check with the results gnubg recorded for them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.formats.check import check_file
from engine.formats.mat import read_mat
from engine.formats.matlog import LogReplay, replay_record, write_match
from tests.engine.corpus import CORPUS, corpus_params

GNUBG_EXPORTS = Path(__file__).parent / "data" / "gnubg" / "exported"


def _rewrite(replay: LogReplay) -> LogReplay:
    text = write_match(
        [game.actions for game in replay.games],
        players=replay.record.players,
        match_length=replay.record.match_length,
        variant=replay.variant,
        crawford_rule=replay.crawford_rule,
    )
    return replay_record(read_mat(text))


@pytest.mark.parametrize("row", corpus_params())
def test_corpus_log_round_trips_through_the_writer(row: dict[str, str]) -> None:
    first = replay_record(read_mat((CORPUS / row["file"]).read_bytes()))
    assert first.ok, first.fault
    second = _rewrite(first)
    assert second.ok, second.fault
    assert second.record.players == first.record.players
    assert second.record.match_length == first.record.match_length
    assert [(g.winner, g.points, g.start_score, g.crawford) for g in second.games] == [
        (g.winner, g.points, g.start_score, g.crawford) for g in first.games
    ]
    assert second.score == first.score
    assert second.winner == first.winner
    assert first.state is not None and second.state is not None
    assert second.state.snapshot() == first.state.snapshot()
    # A second rewrite is byte-for-byte stable.
    assert _rewrite(second).record == second.record


@pytest.mark.parametrize("mat", sorted(GNUBG_EXPORTS.glob("*.mat")), ids=lambda p: p.name)
def test_gnubg_export_checks_with_gnubgs_own_results(mat: Path) -> None:
    expected = json.loads(mat.with_suffix(".json").read_text())
    report, _, unreadable = check_file(mat, shown_as=mat.name)
    assert not unreadable
    assert report["ok"], report["error"]
    assert report["players"] == expected["players"]
    assert report["games"] == expected["games"]
    assert report["score"] == expected["score"]
    assert report["winner"] == expected["winner_name"]
    replay = replay_record(read_mat(mat.read_bytes()))
    assert [(g.winner, g.points, g.crawford) for g in replay.games] == [
        (0 if r["winner"] == "left" else 1, r["points"], r["crawford"]) for r in expected["game_results"]
    ]
