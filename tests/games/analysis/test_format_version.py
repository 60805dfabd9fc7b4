"""An analysis stored in an older format (MatchAnalysis.FORMAT_VERSION: before the cube equities were normalised
and the cube error was gnubg's total) is out of date: it counts towards no PR, its match page says it is being
redone, and ``requeue_analyses`` (and Celery beat) ask for it again; one in the current format is left alone."""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.core.management import CommandError, call_command

from games import tasks
from games.analysis.selectors import player_pr_history
from games.models import Match, MatchAnalysis, PlayerAnalysis
from tests.conftest import tasks_run_eagerly
from tests.games.analysis.test_analyse_match import CUBE_MATCH, import_mat

pytestmark = pytest.mark.django_db


def analysed(format_version: int, plies: int = 0) -> Match:
    """An imported finished match with a stored analysis done in ``format_version`` (figures made up)."""
    match = import_mat(CUBE_MATCH)
    analysis = MatchAnalysis.objects.create(
        match=match,
        status=MatchAnalysis.Status.DONE,
        plies=plies,
        engine="GNU Backgammon 1.0",
        match_seq=match.seq,
        format_version=format_version,
    )
    for side in (0, 1):
        PlayerAnalysis.objects.create(
            analysis=analysis,
            side=side,
            player=match.player(side),
            unforced_moves=40,
            chequer_error=0.5,
            close_cube_decisions=5,
            cube_error=0.1,
            luck=0.2,
            pr=6.67,
        )
    return match


@pytest.fixture
def enqueued(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, int | None]]:
    sent: list[tuple[int, int | None]] = []
    monkeypatch.setattr(tasks.analyse_match, "delay", lambda match_id, plies=None: sent.append((match_id, plies)))
    return sent


def test_an_old_analysis_is_requeued_and_a_current_one_is_not(
    django_capture_on_commit_callbacks: Any, enqueued: list[tuple[int, int | None]]
) -> None:
    old, current = analysed(1, plies=2), analysed(MatchAnalysis.FORMAT_VERSION)
    out = io.StringIO()
    with django_capture_on_commit_callbacks(execute=True):
        call_command("requeue_analyses", stdout=out)
    assert enqueued == [(old.pk, 2)]  # at the depth it was done at
    assert out.getvalue().strip() == f"1 out-of-date analysis asked for again: matches #{old.pk}"
    assert MatchAnalysis.objects.get(match=old).status == MatchAnalysis.Status.PENDING
    assert MatchAnalysis.objects.get(match=current).status == MatchAnalysis.Status.DONE
    with django_capture_on_commit_callbacks(execute=True):
        assert tasks.requeue_out_of_date_analyses() == []  # pending now: not asked twice
    assert enqueued == [(old.pk, 2)]


def test_an_old_analysis_says_it_is_out_of_date_and_counts_nowhere(client: Any) -> None:
    match = analysed(1)
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert "analysis out of date, being redone" in page
    assert "PR 6.67" not in page and "<strong>6.67</strong>" not in page
    player = client.get(f"/players/{match.player1_id}/").content.decode()
    assert "No match of this player has been analysed yet." in player
    api = client.get(f"/api/matches/{match.pk}/analysis/").json()
    assert api["format_version"] == 1 and api["current"] is False
    assert client.get(f"/api/players/{match.player1_id}/analysis/").json()["results"] == []


def test_a_current_analysis_counts() -> None:
    match = analysed(MatchAnalysis.FORMAT_VERSION)
    assert [row.analysis.match_id for row in player_pr_history(match.player1_id)] == [match.pk]


@pytest.mark.gnubg
def test_a_requeued_old_analysis_is_redone_in_the_current_format(
    settings: Any, django_capture_on_commit_callbacks: Any
) -> None:
    settings.ANALYSIS_PLIES = 0
    match = analysed(1)
    with tasks_run_eagerly(), django_capture_on_commit_callbacks(execute=True):
        call_command("requeue_analyses", stdout=io.StringIO())
    analysis = MatchAnalysis.objects.get(match=match)
    assert analysis.status == MatchAnalysis.Status.DONE
    assert analysis.format_version == MatchAnalysis.FORMAT_VERSION
    assert [row.pr for row in analysis.players.all()] != [6.67, 6.67]  # gnubg's figures, not the stale ones


def test_a_limit_below_one_is_refused() -> None:
    with pytest.raises(CommandError, match="--limit 0 is not a number of analyses: give 1 or more"):
        call_command("requeue_analyses", "--limit", "0")
