"""What an import costs: ``import_matches`` replays a log once (the check's states are stored, no second replay)
and writes it with the same statements whatever its length (the log's rows in one COPY, the games in one INSERT).

Time is measured by bench/import_bench.py (bench/README.md, "Import"), never here.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from engine.formats.matlog import write_match
from engine.match import MatchState
from games.models import Action, Match
from tests.games.test_commands import GNUBG_LOG, NO_CORPUS, run
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
