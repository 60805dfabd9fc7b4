"""What an import costs: ``import_matches`` replays a log once (the check's states are stored, no second replay)
and writes it with the same statements whatever its length (the log's rows in one COPY, the games in one INSERT)
and whatever the number of files (the valid files of a batch in one transaction; a finished match imported into
nothing costs its signal's receivers no query).

Time is measured by bench/import_bench.py (bench/README.md, "Import"), never here.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from django.core.checks.registry import registry
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

from engine.formats.matlog import write_match
from engine.match import MatchState
from games.models import Action, Match, Player
from tests.games.test_commands import CLEAN, GNUBG_LOG, NO_CORPUS, run
from tests.web.conftest import simulated_games

pytestmark = pytest.mark.django_db


@pytest.mark.skipif(not GNUBG_LOG.is_file(), reason=NO_CORPUS)
def test_an_imported_log_is_replayed_once(monkeypatch: pytest.MonkeyPatch) -> None:
    applied = []
    apply = MatchState.apply

    def counted(state: MatchState, action: object) -> MatchState:
        applied.append(action)
        return apply(state, action)  # type: ignore[arg-type]

    monkeypatch.setattr(MatchState, "apply", counted)
    _out, _err, error = run("import_matches", str(GNUBG_LOG))
    assert error is None
    stored = Action.objects.count()
    assert stored > 100 and len(applied) == stored  # the check's replay; storing applies nothing again


@pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="needs PostgreSQL (DATABASE_URL=postgres://...): it counts PostgreSQL's statements",
)
def test_the_statements_of_an_import_do_not_grow_with_the_log(tmp_path: Path) -> None:
    games = simulated_games(2_500, length=25, seed=7)
    long_log = tmp_path / "long.mat"
    long_log.write_text(write_match(games, players=("Ann", "Ben"), match_length=25), encoding="utf-8")
    short_log = tmp_path / "short.mat"
    short_log.write_text(write_match(games[:1], players=("Cy", "Di"), match_length=25), encoding="utf-8")
    statements = []
    for path in (short_log, long_log):
        with CaptureQueriesContext(connection) as captured:
            _out, _err, error = run("import_matches", str(path))
        assert error is None, _out
        statements.append([q["sql"].split()[0] for q in captured.captured_queries])
    long_match = Match.objects.get(player1__display_name="Ann")
    assert long_match.seq >= 2_500 and long_match.games.count() > 5
    assert statements[0] == statements[1]
    assert statements[1].count("COPY") == 1 and "UPDATE" not in statements[1]


def _logs(tmp_path: Path, count: int) -> list[str]:
    """``count`` finished 5-point logs, each between two players of its own."""
    paths = []
    tmp_path.mkdir(exist_ok=True)
    for n in range(count):
        path = tmp_path / f"log{n}.mat"
        path.write_text(CLEAN.read_text().replace("Carol", f"Carol {n}").replace("Dave", f"Dave {n}"))
        paths.append(str(path))
    return paths


@pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="needs PostgreSQL (DATABASE_URL=postgres://...): it counts PostgreSQL's statements",
)
def test_the_statements_of_an_import_do_not_grow_with_the_files(
    tmp_path: Path, django_capture_on_commit_callbacks: Any
) -> None:
    """Three files cost the statements of one, the receivers of the finished matches' signals included."""
    statements = []
    for paths in (_logs(tmp_path / "one", 1), _logs(tmp_path / "three", 3)):
        with (
            CaptureQueriesContext(connection) as captured,
            django_capture_on_commit_callbacks(execute=True) as callbacks,
        ):
            out, _err, error = run("import_matches", *paths)
        assert error is None, out
        assert len(callbacks) == len(paths)  # each finished match is signalled
        statements.append([q["sql"].split()[0] for q in captured.captured_queries])
    assert Match.objects.filter(status=Match.Status.FINISHED).count() == 4
    assert statements[0] == statements[1]
    assert statements[1].count("COPY") == 1 and statements[1].count("SELECT") == 1


def test_a_file_the_services_refuse_in_a_batch_stores_nothing_and_the_others_are_kept(tmp_path: Path) -> None:
    first, second, third = _logs(tmp_path, 3)
    long_name = "Carol " + "x" * 120
    Path(second).write_text(Path(second).read_text().replace("Carol 1", long_name))
    out, _err, error = run("import_matches", first, second, third)
    lines = out.splitlines()
    assert lines[0].startswith(f"imported {first}: match #")
    assert lines[1] == f"invalid {second}: a player's name has at most 100 characters"
    assert lines[2].startswith(f"imported {third}: match #")
    assert error is not None and "2 imported, 1 invalid, 0 unreadable" in str(error)
    assert sorted(Match.objects.values_list("source", flat=True)) == [first, third]
    assert sorted(Player.objects.values_list("display_name", flat=True)) == [
        "Carol 0", "Carol 2", "Dave 0", "Dave 2",
    ]  # fmt: skip


def test_the_import_runs_no_system_check(monkeypatch: pytest.MonkeyPatch) -> None:
    """Django's checks of the project's set-up (the URLs and the views they load) are ``manage.py check``'s: they
    took more of the command's start-up than the rest of it together, and say nothing of the files."""
    ran: list[object] = []

    def recorded(**kwargs: object) -> list[object]:
        ran.append(kwargs)
        return []

    monkeypatch.setattr(registry, "registered_checks", {recorded})
    call_command("import_matches", str(CLEAN), skip_checks=False, stdout=io.StringIO(), stderr=io.StringIO())
    assert Match.objects.count() == 1
    assert ran == []
