"""Each format's largest field (tournaments.core.MAX_FIELD): a start above it is refused with a clear answer and
nothing written; a big round robin at the limit starts in one request, every match made (never a worker timeout)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection

from games.engine_bridge import load_state
from games.models import Match, Player
from tests.tournaments.api.conftest import logged_in
from tests.tournaments.api.support import division_url
from tournaments.core import MAX_DOUBLE_ROUND_ROBIN, MAX_FIELD
from tournaments.models import Division, Entry, Pairing

pytestmark = pytest.mark.django_db


def with_entries(division: Division, players: int) -> Division:
    """``players`` more entries, written in bulk (register_player one by one is the slow part of a set-up)."""
    people = Player.objects.bulk_create(Player(display_name=f"Player {i:04d}") for i in range(players))
    Entry.objects.bulk_create(Entry(division=division, player=p, rating=2000 - i) for i, p in enumerate(people))
    return division


@pytest.mark.parametrize(
    ("options", "players"),
    [
        ({"format": "round-robin"}, MAX_FIELD[Division.Format.ROUND_ROBIN] + 1),
        ({"format": "round-robin", "double_round_robin": True}, MAX_DOUBLE_ROUND_ROBIN + 1),
    ],
)
def test_a_round_robin_above_its_largest_field_is_refused(
    division_of: Callable[..., Division], director: Any, options: dict[str, Any], players: int
) -> None:
    division = with_entries(division_of(options.pop("format"), 0, **options), players)
    answer = logged_in(director).post(division_url(division, "start/"), {}, format="json")
    assert answer.status_code == 409
    body = answer.json()
    assert body["code"] == "conflict"
    assert f"starts with at most {players - 1} players" in body["message"] and f"has {players}" in body["message"]
    assert "split the field" in body["message"] and "Nothing was started" in body["message"]
    division.refresh_from_db()
    assert division.status == Division.Status.REGISTRATION and not division.rounds.exists()
    assert not Match.objects.exists() and not Entry.objects.filter(division=division, seed__isnull=False).exists()


def test_every_format_states_its_largest_field() -> None:
    assert set(MAX_FIELD) == set(Division.Format.values)
    assert all(limit >= 500 for limit in MAX_FIELD.values())


@pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="needs PostgreSQL (DATABASE_URL=postgres://...): its COPY writes the 102,720 matches in seconds",
)
def test_a_321_player_double_round_robin_starts_in_one_request(
    division_of: Callable[..., Division], director: Any
) -> None:
    division = with_entries(division_of("round-robin", 0, double_round_robin=True, match_length=3), 321)
    answer = logged_in(director).post(division_url(division, "start/"), {}, format="json")
    assert answer.status_code == 200, answer.content[:300]
    assert answer.json()["status"] == "running"
    assert division.rounds.count() == 2 * 321
    pairings = Pairing.objects.filter(division=division)
    assert pairings.count() == 2 * 321 * 161 and pairings.filter(status=Pairing.Status.BYE).count() == 2 * 321
    assert pairings.filter(status=Pairing.Status.READY).count() == 321 * 320
    # Each player's next ten matches are made with the draw (tournaments/core.py, round_robin_ahead), not all 102,720:
    # rounds 1 to 10 whole, and round 11's for the players who had a bye among them.
    made = pairings.filter(match__isnull=False, status=Pairing.Status.READY)
    assert made.filter(round__number__lte=10).count() == 10 * 160
    assert made.filter(round__number=11).count() == 10 and not made.filter(round__number__gt=11).exists()
    assert Match.objects.count() == 1610
    first = pairings.select_related("match", "entry_a", "entry_b").get(key="round-robin-1-1")
    assert (first.match.player1_id, first.match.player2_id) == (first.entry_a.player_id, first.entry_b.player_id)
    assert first.match.length == 3 and first.match.source.endswith("/round-robin-1-1")
    state = load_state(first.match)  # no state is stored until the first action: the match is at its start
    assert first.match.state == "" and state.length == 3 and state.score == (0, 0)
