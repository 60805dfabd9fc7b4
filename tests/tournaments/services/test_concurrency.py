"""Results arriving together on one bracket, on real PostgreSQL: the division's row lock serialises the follow-ups,
so when the two semifinals finish at the same moment the final is created exactly once, with the two right
players. Each thread has its own database connection (closed when it is done); tasks run eagerly in the thread
that commits, as the receivers enqueue them."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection

from common.actor import Actor
from games import services as games
from games.models import Match
from tests.tournaments.services.support import named, pairing, run_in_threads
from tournaments import services
from tournaments.models import Division, Pairing
from tournaments.services.followup import followups_deferred

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="needs real PostgreSQL (row locks, concurrent connections): set DATABASE_URL=postgres://...",
    ),
]

REPEAT = 3  # independent divisions per test: more chances for the threads to collide


def semifinals(division_of: Callable[..., Division], director: Actor) -> Division:
    division = division_of("single", 4, entry_mode="scoresheet", match_length=1)
    return services.start_division(division, actor=director)


def win(division: Division, key: str, winner: str, director: Actor) -> Callable[[], Any]:
    p = pairing(division, key)
    side = 0 if p.entry_a.player.display_name == winner else 1
    return lambda: games.record_game_result(p.match_id, actor=director, winner=side, kind=1, expected_seq=0)


def assert_one_final(division: Division) -> None:
    final = pairing(division, "main-2-0")
    assert (final.entry_a, final.entry_b) == (named(division, "P01"), named(division, "P02"))
    assert final.status == Pairing.Status.READY and final.match is not None
    assert (final.match.player1, final.match.player2) == (final.entry_a.player, final.entry_b.player)
    made = Match.objects.filter(source=f"{division.event.slug}/{division.slug}/main-2-0")
    assert list(made) == [final.match], "the final was created exactly once"
    assert not Match.objects.filter(pairing__division=division, status=Match.Status.VOID).exists()
    assert Match.objects.filter(source__startswith=f"{division.event.slug}/{division.slug}/").count() == 3


@pytest.mark.parametrize("attempt", range(REPEAT))
def test_two_semifinals_finishing_at_once_create_the_final_once(
    division_of: Callable[..., Division], as_director: Actor, attempt: int
) -> None:
    division = semifinals(division_of, as_director)
    run_in_threads([win(division, "main-1-0", "P01", as_director), win(division, "main-1-1", "P02", as_director)])
    assert_one_final(division)
    division.refresh_from_db()
    assert division.standings_status == Division.Work.CURRENT, "both follow-ups ran"
    assert division.standings.filter(wins=1).count() == 2


@pytest.mark.parametrize("attempt", range(REPEAT))
def test_two_follow_ups_running_at_once_create_the_final_once(
    division_of: Callable[..., Division], as_director: Actor, attempt: int
) -> None:
    division = semifinals(division_of, as_director)
    with followups_deferred() as deferred:  # the results commit, their follow-ups are left to the threads
        win(division, "main-1-0", "P01", as_director)()
        win(division, "main-1-1", "P02", as_director)()
    assert deferred == {division.pk}
    assert pairing(division, "main-2-0").match_id is None

    reports = run_in_threads([lambda: services.sync_division(division.pk)] * 2)
    assert_one_final(division)
    assert sorted(r.matches for r in reports) == [[], ["main-2-0"]], "one sync made the final, the other nothing"
