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
from games.models import Match, MatchAnalysis
from tests.conftest import tasks_run_eagerly
from tests.games.analysis.made_up import store_analysis
from tests.games.analysis.test_analyse_match import CUBE_MATCH, import_mat

pytestmark = pytest.mark.django_db


def analysed(format_version: int, plies: int = 0) -> Match:
    """An imported finished match with a stored analysis done in ``format_version`` (PR 2.50 each)."""
    match = import_mat(CUBE_MATCH)
    store_analysis(match, plies=plies, format_version=format_version)
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
    assert "<strong>2.50</strong>" not in page
    player = client.get(f"/players/{match.player1_id}/").content.decode()
    assert "No match of this player has been analysed yet." in player
    assert "The analysis of 1 match is out of date, being redone: it counts here once it is." in player
    api = client.get(f"/api/matches/{match.pk}/analysis/").json()
    assert api["format_version"] == 1 and api["current"] is False
    assert client.get(f"/api/players/{match.player1_id}/analysis/").json()["results"] == []


def test_a_current_analysis_counts(client: Any) -> None:
    match = analysed(MatchAnalysis.FORMAT_VERSION)
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert "<strong>2.50</strong>" in page and "out of date" not in page
    assert "out of date" not in client.get(f"/players/{match.player1_id}/").content.decode()
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
    assert [row.pr for row in analysis.players.all()] != [2.5, 2.5]  # gnubg's figures, not the stale ones


def test_a_limit_below_one_is_refused() -> None:
    with pytest.raises(CommandError, match="--limit 0 is not a number of analyses: give 1 or more"):
        call_command("requeue_analyses", "--limit", "0")
