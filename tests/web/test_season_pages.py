"""A season's public table in pages: a hundred rows a page with the rank of the whole table, the playoff line on the
first, "Find a player" across every page, and the CSV with every row. A club's season of a thousand players was one
page of a thousand rows (bench/season_bench.py's cost goal)."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from common.actor import Actor
from games.models import Player
from tournaments import services
from tournaments.models import Season, SeasonPoints
from tournaments.views import SEASON_ROWS_PER_PAGE

pytestmark = pytest.mark.django_db

PLAYERS = SEASON_ROWS_PER_PAGE + 30


@pytest.fixture
def big_season(dora: Any) -> Season:
    """A season whose stored points give player k (1-based) rank k: ``Player 001`` first."""
    actor = Actor(user=dora)
    club = services.create_club(actor=actor, name="Oslo Backgammonklubb")
    season = services.create_season(
        club, actor=actor, name="Autumn", starts_on=dt.date(2026, 9, 1), ends_on=dt.date(2026, 12, 31), qualify=8
    )
    event = services.create_event(actor=actor, name="Night 1", starts_on=dt.date(2026, 9, 3), club=club)
    players = Player.objects.bulk_create(Player(display_name=f"Player {k:03}") for k in range(1, PLAYERS + 1))
    SeasonPoints.objects.bulk_create(
        SeasonPoints(season=season, event=event, player=player, points=1000 - k, match_wins=k % 4)
        for k, player in enumerate(players, start=1)
    )
    return season


def ranks(html: str) -> list[tuple[int, str]]:
    """(rank, name) of each row of the table, in order."""
    body = html.split("<tbody>")[1].split("</tbody>")[0]
    return [(int(r), n) for r, n in re.findall(r"<tr[^>]*><td[^>]*>(\d+)</td><th[^>]*><a [^>]*>([^<]+)</a>", body)]


def page_of(season: Season, query: str = "") -> str:
    response = Client().get(f"/clubs/{season.club.slug}/seasons/{season.slug}/{query}")
    assert response.status_code == 200
    return response.content.decode()


def test_the_table_is_paged_with_the_whole_tables_ranks(big_season: Season) -> None:
    first = page_of(big_season)
    assert ranks(first) == [(k, f"Player {k:03}") for k in range(1, SEASON_ROWS_PER_PAGE + 1)]
    assert first.count('class="qualified"') == 8  # the playoff line, on the first page
    assert f"Page 1 of 2 (rows 1-{SEASON_ROWS_PER_PAGE})" in first and 'href="?page=2" rel="next"' in first
    second = page_of(big_season, "?page=2")
    assert ranks(second) == [(k, f"Player {k:03}") for k in range(SEASON_ROWS_PER_PAGE + 1, PLAYERS + 1)]
    assert 'href="?page=1" rel="prev"' in second
    assert ranks(page_of(big_season, "?page=99")) == ranks(second)  # past the end: the last page


def test_find_a_player_shows_his_rank_in_the_whole_table(big_season: Season) -> None:
    found = page_of(big_season, "?find=player+117")
    assert ranks(found) == [(117, "Player 117")]
    assert "1 player named like “player 117”, with his rank in the whole table." in found
    assert ranks(page_of(big_season, "?find=Player+01")) == [(k, f"Player {k:03}") for k in range(10, 20)]
    nobody = page_of(big_season, "?find=%3Cscript%3E")
    assert (
        "No player of the table is named like “&lt;script&gt;”." in nobody
        and "<script>" not in nobody.split("<main")[1]
        and "0 players" not in nobody
    )


def test_the_csv_still_holds_every_row(big_season: Season) -> None:
    response = Client().get(reverse("tournaments:season-csv", args=[big_season.club.slug, big_season.slug]))
    assert response.status_code == 200
    assert len(response.content.decode().strip().splitlines()) == PLAYERS + 1
