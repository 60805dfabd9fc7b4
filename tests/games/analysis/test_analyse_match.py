"""Analysis by GNU Backgammon (games/analysis, docs/ARCHITECTURE.md contract F).

The tests marked ``gnubg`` run the real program (skipped, naming the reason, where it is not installed; CI
installs Debian's package). The failure paths need no gnubg: a path that does not exist, and small executable
scripts standing in for a gnubg that crashes or hangs.
"""

from __future__ import annotations

import io
import json
import re
import textwrap
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command

from common.actor import SYSTEM
from games import services
from games.analysis.service import analyse_match, pr_of
from games.models import Decision, Match, MatchAnalysis, PlayerAnalysis
from tests.conftest import tasks_run_eagerly
from tests.gnubg_reader import gnubg_answer

pytestmark = pytest.mark.django_db

DATA = Path(__file__).resolve().parents[2] / "engine" / "data" / "gnubg" / "exported"
CUBE_MATCH = DATA / "gnubg_5pt_cube.mat"
NACKGAMMON = DATA / "gnubg_3pt_nackgammon.mat"
CORPUS = Path(__file__).resolve().parents[4] / "shared" / "corpus" / "mat"
HUMAN_MATCH = (
    CORPUS / "lassehjorthmadsen__backgammon/lasse/raw" / "Magic - Lasse 5pt Backgammon Studio 2024_04_22 19_06_30.txt"
)

#: An independent reading of the same file: gnubg imports it itself and reports its own statistics.
GNUBG_OWN = textwrap.dedent(
    """
    import json, os, sys
    import gnubg
    out = os.fdopen(os.dup(1), "w")
    os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
    gnubg.command('import mat "%s"' % os.environ["MAT_FILE"])
    gnubg.command("set analysis chequerplay evaluation plies 0")
    gnubg.command("set analysis cubedecision evaluation plies 0")
    gnubg.command("analyse match")
    m = gnubg.match(analysis=1, boards=0, statistics=1, verbose=0)
    players = []
    for side in ("X", "O"):
        s = m["stats"][side]
        players.append({"name": m["match-info"][side]["name"], "unforced_moves": s["moves"]["unforced-moves"],
                        "chequer_error": s["moves"]["error-skill"], "close_cube_decisions": s["cube"]["close-cube"],
                        "cube_error": sum(float(v) for k, v in s["cube"].items() if k.startswith("err-")
                                          and k.endswith("-skill")),
                        "luck": s["dice"]["luck"]})
    out.write(json.dumps(players) + "\\n")
    out.flush()
    """
)


def import_mat(path: Path) -> Match:
    call_command("import_matches", str(path), stdout=io.StringIO(), stderr=io.StringIO())
    return Match.objects.latest("id")


def analyse_json(match: Match, *args: str) -> dict[str, object]:
    out = io.StringIO()
    call_command("analyse_match", str(match.pk), "--json", *args, stdout=out)
    return json.loads(out.getvalue())


def gnubg_own_report(path: Path, tmp_path: Path) -> list[dict[str, object]]:
    return list(gnubg_answer(GNUBG_OWN, tmp_path, {"MAT_FILE": str(path)}, timeout=120))


def stand_in(tmp_path: Path, body: str) -> str:
    """An executable that says it is GNU Backgammon when asked its version, and otherwise runs ``body``."""
    path = tmp_path / "gnubg"
    version = 'if [ "$1" = "--version" ]; then echo "GNU Backgammon 0.0 stand-in"; exit 0; fi'
    path.write_text(f"#!/bin/sh\n{version}\n{body}\n")
    path.chmod(0o755)
    return str(path)


# -- the contract, against gnubg's own analysis ----------------------------------------------------------------------


@pytest.mark.gnubg
@pytest.mark.parametrize("path", [CUBE_MATCH, NACKGAMMON, HUMAN_MATCH], ids=["cube", "nackgammon", "human"])
def test_json_matches_gnubg_own_analysis_of_the_same_mat(path: Path, tmp_path: Path) -> None:
    if not path.exists():
        pytest.skip(f"the shared match-log corpus is missing: {path}")
    match = import_mat(path)
    report = analyse_json(match, "--plies", "0")
    assert report["match"] == match.pk and report["plies"] == 0
    assert str(report["engine"]).startswith("GNU Backgammon ")
    own = gnubg_own_report(path, tmp_path)
    players = report["players"]
    assert isinstance(players, list)
    assert [p["name"] for p in players] == [match.player1.display_name, match.player2.display_name]
    for ours, theirs in zip(players, own, strict=True):
        assert {k: ours[k] for k in theirs} == theirs
        assert ours["pr"] == pr_of(
            ours["chequer_error"], ours["cube_error"], ours["unforced_moves"], ours["close_cube_decisions"]
        )
    if path == HUMAN_MATCH:  # people err: the figures are not all zero, and the errors are marked
        assert all(p["chequer_error"] > 0 and p["pr"] > 0 for p in players)
        assert Decision.objects.filter(analysis__match=match, mark="very bad").exists()


@pytest.mark.gnubg
@pytest.mark.parametrize("path", [CUBE_MATCH, HUMAN_MATCH], ids=["cube", "human"])
def test_each_decision_loss_sums_to_the_player_totals(path: Path) -> None:
    """gnubg's per-decision errors: a player's cube decisions (doubles, takes, passes and the not-doubling before
    each play) lose in all his cube error, his chequer plays his chequer error; a cube mark only on a loss."""
    if not path.exists():
        pytest.skip(f"the shared match-log corpus is missing: {path}")
    match = import_mat(path)
    analyse_match(match.pk, plies=0)
    decisions = Decision.objects.filter(analysis__match=match)
    cube_kinds = [Decision.Kind.DOUBLE, Decision.Kind.TAKE, Decision.Kind.DROP]
    assert decisions.filter(kind__in=cube_kinds).exists()
    for player in PlayerAnalysis.objects.filter(analysis__match=match):
        mine = decisions.filter(side=player.side)
        plays = mine.filter(kind=Decision.Kind.MOVE)
        cube = sum(d.equity_lost for d in mine.filter(kind__in=cube_kinds))
        cube += sum(d.cube_equity_lost for d in plays)
        assert cube == pytest.approx(player.cube_error, abs=1e-4)
        assert sum(d.equity_lost for d in plays) == pytest.approx(player.chequer_error, abs=1e-4)
    for decision in decisions.filter(kind__in=cube_kinds):
        assert decision.best in {"no double", "double, take", "double, pass"} or decision.best.startswith("too good")
        if decision.mark:
            assert decision.equity_lost > 0, decision
    for decision in decisions.filter(kind=Decision.Kind.MOVE).exclude(cube_mark=""):
        assert decision.cube_equity_lost > 0, decision


@pytest.mark.gnubg
def test_analysing_twice_changes_nothing(tmp_path: Path) -> None:
    match = import_mat(CUBE_MATCH)
    first = analyse_json(match)
    stored = MatchAnalysis.objects.get(match=match)
    decisions = list(Decision.objects.filter(analysis=stored).values_list("id", flat=True))
    assert decisions and first == analyse_json(match)
    again = MatchAnalysis.objects.get(match=match)
    assert again.finished_at == stored.finished_at
    assert list(Decision.objects.filter(analysis=stored).values_list("id", flat=True)) == decisions
    assert PlayerAnalysis.objects.filter(analysis=stored).count() == 2


@pytest.mark.gnubg
def test_a_correction_redoes_the_analysis(
    settings: object, django_capture_on_commit_callbacks: object, eager_tasks: None
) -> None:
    settings.ANALYSIS_AUTO = True  # type: ignore[attr-defined]
    match = import_mat(CUBE_MATCH)
    analyse_match(match.pk)
    before = MatchAnalysis.objects.get(match=match)
    with tasks_run_eagerly(), django_capture_on_commit_callbacks(execute=True):  # type: ignore[operator]
        services.reopen_match(match.pk, actor=SYSTEM, reason="the last game was entered wrongly")
    match.refresh_from_db()
    after = MatchAnalysis.objects.get(match=match)
    assert after.status == MatchAnalysis.Status.DONE
    assert after.match_seq == match.seq > before.match_seq


# -- refusals and failures (no gnubg needed) -------------------------------------------------------------------------


def test_acey_deucey_is_not_analysed(new_match: object) -> None:
    match = new_match(variant="acey-deucey")  # type: ignore[operator]
    with pytest.raises(CommandError, match="not available for the acey-deucey variant"):
        call_command("analyse_match", str(match.pk), "--json", stdout=io.StringIO())
    analysis = MatchAnalysis.objects.get(match=match)
    assert analysis.status == MatchAnalysis.Status.UNAVAILABLE
    assert "acey-deucey" in analysis.error


def test_gnubg_missing_is_reported_on_the_match_and_by_health(settings: object, client: object) -> None:
    settings.GNUBG_PATH = "/nonexistent/gnubg"  # type: ignore[attr-defined]
    match = import_mat(CUBE_MATCH)
    with pytest.raises(CommandError, match="not installed at /nonexistent/gnubg"):
        call_command("analyse_match", str(match.pk), stdout=io.StringIO())
    analysis = MatchAnalysis.objects.get(match=match)
    assert analysis.status == MatchAnalysis.Status.UNAVAILABLE
    assert "GNUBG_PATH" in analysis.error
    response = client.get("/health/")  # type: ignore[attr-defined]
    assert response.status_code == 200  # analysis is optional: the site is healthy without it
    assert response.json()["analysis"]["status"] == "unavailable"
    assert "/nonexistent/gnubg" in response.json()["analysis"]["reason"]


@pytest.mark.parametrize(
    ("body", "timeout", "message"),
    [("exit 3", 30, "exited (status 3) without an answer"), ("exec sleep 60", 1, "did not answer within 1 s")],
    ids=["crash", "hang"],
)
def test_a_crashing_or_hanging_gnubg_is_retried_then_marked_failed(
    settings: object, tmp_path: Path, body: str, timeout: int, message: str
) -> None:
    settings.GNUBG_PATH = stand_in(tmp_path, body)  # type: ignore[attr-defined]
    settings.ANALYSIS_TIMEOUT = timeout  # type: ignore[attr-defined]
    settings.ANALYSIS_ATTEMPTS = 2  # type: ignore[attr-defined]
    match = import_mat(CUBE_MATCH)
    with pytest.raises(CommandError, match=re.escape(message)):
        call_command("analyse_match", str(match.pk), stdout=io.StringIO())
    analysis = MatchAnalysis.objects.get(match=match)
    assert analysis.status == MatchAnalysis.Status.FAILED
    assert analysis.attempts == 2
    assert message in analysis.error
    assert not analysis.players.exists()


def test_the_task_goes_to_the_analysis_queue() -> None:
    from config.celery import app

    route = app.amqp.router.route({}, "games.tasks.analyse_match", args=(1,), kwargs={})
    assert route["queue"].name == "analysis"
    assert (
        app.amqp.router.route({}, "tournaments.tasks.recompute_standings", args=(1,), kwargs={})["queue"].name
        != "analysis"
    )


def test_bad_plies_are_refused(new_match: object) -> None:
    match = new_match()  # type: ignore[operator]
    with pytest.raises(CommandError, match="--plies 9 is out of range"):
        call_command("analyse_match", str(match.pk), "--plies", "9", stdout=io.StringIO())
    with pytest.raises(CommandError, match="there is no match 999999"):
        call_command("analyse_match", "999999", stdout=io.StringIO())


@pytest.mark.gnubg
@pytest.mark.parametrize("imported", [False, True])
def test_imported_matches_are_analysed_only_when_the_setting_says(
    settings: Any, django_capture_on_commit_callbacks: Any, imported: bool
) -> None:
    settings.ANALYSIS_AUTO = True
    settings.ANALYSIS_IMPORTED = imported
    with tasks_run_eagerly(), django_capture_on_commit_callbacks(execute=True):
        match = import_mat(CUBE_MATCH)
    found = MatchAnalysis.objects.filter(match=match, status=MatchAnalysis.Status.DONE).exists()
    assert found is imported
