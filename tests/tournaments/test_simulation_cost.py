"""What a rehearsal (tournaments/simulation.py) sends to the database besides the services' own statements: a
batch's entry links in one INSERT, and no match read again between its games (the state each result returns is the
match's). The big fields of bench/README.md ("Formats") are rehearsed with it, so what it wastes is paid per match."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.models import EntryToken, Match
from tournaments.simulation import simulate_event

pytestmark = pytest.mark.django_db


def test_a_rehearsal_makes_a_batchs_entry_links_at_once_and_reads_no_match_between_games() -> None:
    # A round robin of 5 makes its 10 matches at its start: one batch. Matches to 3 points: most have 2 games or more.
    with CaptureQueriesContext(connection) as queries:
        report = simulate_event(format="round-robin", players=5, seed=3, match_length=3)
    statements = [q["sql"] for q in queries.captured_queries]
    assert sum(len(r["pairings"]) for r in report["rounds"]) == 15  # 10 matches and 5 byes
    assert sum('INSERT INTO "games_entrytoken"' in s for s in statements) == 1
    assert EntryToken.objects.count() == 20  # both sides' links of every match, each used
    assert set(EntryToken.objects.values_list("side", flat=True)) == {0, 1}
    reread = [
        s
        for s in statements
        if s.startswith("SELECT") and 'FROM "games_match" WHERE "games_match"."id" =' in s and "FOR UPDATE" not in s
    ]
    assert reread == []
    assert Match.objects.filter(status=Match.Status.FINISHED).count() == 10
