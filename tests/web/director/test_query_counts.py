"""The directors' pages cost statements that do not grow with the field."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from common.actor import Actor
from games.access import new_entry_token
from tests.web.director.support import client_for, pairing_at, swiss_division, urls, win
from tournaments import services
from tournaments.models import Division

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks")]


def queries(client: Client, url: str) -> int:
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    assert response.status_code == 200
    return len(captured)


def busy(director: Any, players: int, name: str) -> Division:
    """A started Swiss division with one match under way and one result awaiting confirmation."""
    division = swiss_division(director, players, name=name)
    under_way, awaiting = pairing_at(division, 1, 1), pairing_at(division, 1, 2)
    win(under_way.match, side=0, actor=Actor(token=new_entry_token(under_way.match, 0)), games_won=(1,))
    win(awaiting.match, side=1, actor=Actor(token=new_entry_token(awaiting.match, 1)))
    services.sync_division(division.pk)
    return division


@pytest.mark.parametrize("page", ["event", "division", "sheet", "slips", "match", "final-standings"])
def test_query_counts_do_not_grow_with_the_field(page: str, dora: Any, stella: Any) -> None:
    small, large = busy(dora, 8, "Small"), busy(dora, 32, "Large")
    for user in (dora, stella):
        client = client_for(user)
        client.get(urls(small)[page]), client.get(urls(large)[page])  # the sheet's first print makes the links
        assert queries(client, urls(small)[page]) == queries(client, urls(large)[page])


def test_the_counts(dora: Any) -> None:
    """The figures reported for the pages (update them knowingly)."""
    division = busy(dora, 32, "Large")
    client = client_for(dora)
    first_print = queries(client, urls(division)["slips"])
    counts = {page: queries(client, urls(division)[page]) for page in ("event", "division", "slips", "sheet")}
    # session, user, division (or event), "directs it?", then: divisions, rounds, current rounds, boards, the
    # venue's tables and their matches (2), queue (2: pairings, playoffs), directors | entries, rounds, current
    # rounds, boards | round, boards, savepoint, entry links, release | round, boards
    assert counts == {"event": 13, "division": 8, "slips": 9, "sheet": 6}
    assert first_print == counts["slips"] + 2 * 16 - 2  # a new link per side of 16 matches but the 2 made in busy()
