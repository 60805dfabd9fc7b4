"""The services send the same number of SQL statements whatever the size of the field: starting a division, the
sync that takes one result (what every result's follow-up task runs), pairing a Swiss round, and recomputing the
standings and ratings. Each count is taken on a small and on a larger field (statements, not times: the times are
measured by bench/tournaments_bench.py). ``CaptureQueriesContext`` sees the ``COPY`` the standings and ratings are
written with, as it sees every other statement."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from common.actor import Actor
from tests.tournaments.services.support import director_win, pairing
from tournaments import services
from tournaments.core import plan_of
from tournaments.models import Division, Entry, Pairing, Standing
from tournaments.pairing.brackets import Winner

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="needs PostgreSQL (DATABASE_URL=postgres://...): it counts PostgreSQL's statements",
    ),
]


def statements(call: Callable[[], Any]) -> tuple[int, list[str]]:
    """The statements ``call`` sends, savepoints left out (the test's transaction turns every atomic block into
    one)."""
    with CaptureQueriesContext(connection) as captured:
        call()
    sql = [q["sql"] for q in captured.captured_queries if "SAVEPOINT" not in q["sql"]]
    return len(sql), sql


def decide(division: Division, number: int, director: Actor) -> None:
    """The director enters every open result of round ``number`` (seed a wins), without a sync."""
    open_boards = Pairing.objects.filter(division=division, round__number=number, status=Pairing.Status.READY)
    for p in open_boards.select_related("entry_a"):
        director_win(p, p.entry_a, director, sync=False)


def swiss_counts(division_of: Callable[..., Division], director: Actor, players: int) -> dict[str, int]:
    """Statements of each service on a Swiss division of ``players``, with a rating list on its event."""
    rating_list = services.create_rating_list(actor=director, name=f"List {players}")
    event = services.create_event(actor=director, name=f"Swiss night {players}", rating_list=rating_list)
    division = division_of("swiss", players, event=event, rounds_planned=4, match_length=1, tiebreaks=["buchholz"])
    counts: dict[str, int] = {}
    counts["start"], _ = statements(lambda: services.start_division(division, actor=director))
    decide(division, 1, director)
    counts["sync, a round's results"], _ = statements(lambda: services.sync_division(division.pk))
    counts["pair round 2"], _ = statements(lambda: services.pair_next_round(division, actor=director))
    decide(division, 2, director)
    services.sync_division(division.pk)
    services.pair_next_round(division, actor=director)

    first = pairing(division, "swiss-3-1")
    director_win(first, first.entry_a, director, sync=False)
    counts["sync, one result"], _ = statements(lambda: services.sync_division(division.pk))
    counts["sync, nothing to do"], _ = statements(lambda: services.sync_division(division.pk))
    counts["standings, every table"], sql = statements(lambda: services.recompute_standings(division.pk))
    assert any(s.startswith("COPY") for s in sql), "the tables are written with COPY, and the COPY is counted"
    assert Standing.objects.filter(division=division).count() == 3 * players
    counts["standings, nothing changed"], _ = statements(lambda: services.recompute_standings(division.pk))
    counts["ratings"], _ = statements(lambda: services.recompute_ratings(rating_list.pk))
    return counts


def test_swiss_statements_do_not_grow_with_the_field(division_of: Callable[..., Division], as_director: Actor) -> None:
    small = swiss_counts(division_of, as_director, 16)
    large = swiss_counts(division_of, as_director, 64)
    assert small == large
    assert large["sync, nothing to do"] == 2, "the division's lock and the read of the pairings that can change"


@pytest.mark.parametrize(
    "fmt",
    ["single", "main-consolation", "progressive-consolation", "main-consolation-lastchance", "double-elimination"],
)
def test_elimination_statements_do_not_grow_with_the_field(
    division_of: Callable[..., Division], as_director: Actor, fmt: str
) -> None:
    def counts(players: int) -> dict[str, int]:
        division = division_of(fmt, players, match_length=1)
        out: dict[str, int] = {}
        out["start"], _ = statements(lambda: services.start_division(division, actor=as_director))
        node = next(n for n in plan_of(division).nodes if n.key == "main-2-1")
        assert isinstance(node.a, Winner) and isinstance(node.b, Winner)
        for side, key in enumerate((node.a.key, node.b.key)):  # the two first-round winners meet in main-2-1
            slot = pairing(division, key)
            director_win(slot, slot.entry_a, as_director, sync=False)
            out[f"sync after the result of feeder {side}"], _ = statements(lambda: services.sync_division(division.pk))
        assert pairing(division, "main-2-1").status == Pairing.Status.READY
        assert pairing(division, "main-2-1").match_id is not None
        out["sync, nothing to do"], _ = statements(lambda: services.sync_division(division.pk))
        out["standings"], _ = statements(lambda: services.recompute_standings(division.pk))
        return out

    assert counts(16) == counts(64)


def test_round_robin_start_does_not_grow_with_the_field(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    def start(players: int) -> int:
        division = division_of("round-robin", players, match_length=1)
        count, _ = statements(lambda: services.start_division(division, actor=as_director))
        assert Pairing.objects.filter(division=division).count() == players * (players - 1) // 2
        return count

    assert start(6) == start(12)


def test_a_withdrawn_players_new_match_is_forfeited_by_the_light_sync(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    """The sync loads only the pairings that can change; a withdrawn player's next slot still gets its match, which
    is forfeited to the opponent at once."""
    division = division_of("single", 4, match_length=1)
    services.start_division(division, actor=as_director)
    final = next(n for n in plan_of(division).nodes if n.round == 2)
    assert isinstance(final.a, Winner) and isinstance(final.b, Winner)
    first = pairing(division, final.a.key)
    director_win(first, first.entry_a, as_director)
    services.withdraw_entry(Entry.objects.get(pk=first.entry_a_id), actor=as_director, reason="went home")
    second = pairing(division, final.b.key)
    director_win(second, second.entry_a, as_director)
    decided = pairing(division, final.key)
    assert decided.status == Pairing.Status.FINISHED
    assert decided.decision == Pairing.Decision.FORFEIT_WITHDRAWAL
    assert decided.winner_id == second.entry_a_id
    division.refresh_from_db()
    assert division.status == Division.Status.FINISHED
