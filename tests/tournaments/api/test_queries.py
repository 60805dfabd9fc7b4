"""The pairings and standings lists run a fixed number of queries whatever the size of the field."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from common.actor import Actor
from tests.tournaments.api.support import division_url, play_round
from tournaments import services
from tournaments.models import Division

pytestmark = pytest.mark.django_db

#: (URL tail, queries): the division with its event; the rounds (when filtered); the rows with their players
READS = [
    ("pairings/", 3),  # + the count of the page's list
    ("pairings/?round=2", 3),
    ("pairings/?bracket=swiss", 3),
    ("standings/", 3),  # + the latest table's round
    ("standings/?after_round=1", 2),
    ("entries/", 2),
    ("rounds/", 2),
]


@pytest.fixture
def swiss_after_a_round(division_of: Callable[..., Division], as_director: Actor) -> Callable[[int], Division]:
    """A Swiss of ``players`` with round 1 played and confirmed, round 2 paired, standings computed."""

    def build(players: int) -> Division:
        event = services.create_event(actor=as_director, name=f"Night of {players}")
        division = division_of("swiss", players, event=event, entry_mode="scoresheet", match_length=1)
        services.start_division(division, actor=as_director)
        play_round(division, 1)
        services.pair_next_round(division, actor=as_director)
        services.recompute_standings(division.pk)
        return division

    return build


def _count(client: APIClient, url: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        answer = client.get(url)
    assert answer.status_code == 200, answer.json()
    return len(queries.captured_queries)


def test_the_same_queries_for_8_and_32_players(
    swiss_after_a_round: Callable[[int], Division], django_assert_max_num_queries: Any
) -> None:
    anon = APIClient()
    small, large = swiss_after_a_round(8), swiss_after_a_round(32)
    assert len(anon.get(division_url(large, "pairings/")).json()["results"]) == 32  # 16 boards a round, two rounds
    assert len(anon.get(division_url(large, "standings/")).json()["rows"]) == 32
    for tail, queries in READS:
        for division in (small, large):
            with django_assert_max_num_queries(queries):
                assert anon.get(division_url(division, tail)).status_code == 200
        assert _count(anon, division_url(small, tail)) == _count(anon, division_url(large, tail)) == queries, tail
