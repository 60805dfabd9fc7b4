"""The match page, its live part and the board fragment cost the same at 20 and at 5,000 actions: they read a game
at a time (the move list shows one game, with a link to each), so they send the same statements at any size and
show no entry of a game they do not show. Time is measured by bench/pages_bench.py (bench/README.md, "Pages").
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import services
from games.models import Action, Match
from tests.web.conftest import simulated_games
from tests.web.test_match_poll import Shown, live_of, parse_list, poll

pytestmark = pytest.mark.django_db

ENTRY_LINK = re.compile(r'<a href="/matches/\d+/\?at=(\d+)#replay" data-seq="\1"')


def long_match(actions: int) -> Match:
    games = simulated_games(actions, length=99, seed=actions)
    assert sum(map(len, games)) == actions
    return services.import_match(
        players=("Alice", "Bob"), length=99, variant="standard", crawford=True, games=games, source="test"
    )


def statements(client: Client, path: str, **headers: str) -> tuple[int, int, str]:
    """(status, statements sent, body) of a GET."""
    with CaptureQueriesContext(connection) as captured:
        response = client.get(path, **headers)
    return response.status_code, len(captured.captured_queries), response.content.decode()


def measured(client: Client, match: Match, drive: Any) -> dict[str, tuple[int, int]]:
    """Every request of the match's pages: (status, statements); the page shows the latest game's moves only."""
    page = reverse("games:match", args=[match.pk])
    rows = Action.objects.filter(match=match)
    latest = rows.order_by("-seq").first()
    first = rows.order_by("seq").exclude(kind=Action.Kind.OPENING_ROLL).first()
    assert latest is not None and first is not None
    out: dict[str, tuple[int, int]] = {}
    status, count, html = statements(client, page)
    out["page"] = (status, count)
    shown = Shown(parse_list(html), *live_of(html))
    seqs = [int(s) for s in ENTRY_LINK.findall(html)]
    in_latest_game = set(rows.filter(game_number=latest.game_number).values_list("seq", flat=True))
    assert seqs and set(seqs) <= in_latest_game  # one game's moves, not the match's
    status, count, at_first = statements(client, f"{page}?at={first.seq}")
    out["page ?at= game 1"] = (status, count)
    assert set(int(s) for s in ENTRY_LINK.findall(at_first)) <= set(
        rows.filter(game_number=1).values_list("seq", flat=True)
    )
    out["page ?at= last"] = statements(client, f"{page}?at={seqs[-1]}")[:2]
    middle = seqs[len(seqs) // 2]
    out["board fragment"] = statements(client, f"{reverse('games:match-board', args=[match.pk])}?at={middle}")[:2]
    drive(Match.objects.get(pk=match.pk), seed=3).turns(2)
    with CaptureQueriesContext(connection) as captured:
        status, _text = poll(client, shown)
    out["poll 200"] = (status, len(captured.captured_queries))
    out["poll 304"] = statements(client, shown.poll, HTTP_IF_NONE_MATCH=shown.etag)[:2]
    return out


def test_the_match_pages_send_the_same_statements_at_20_and_5000_actions(client: Client, drive: Any) -> None:
    small = measured(client, long_match(20), drive)
    big = measured(client, long_match(5_000), drive)
    assert big == small
    assert small["page"] == (200, 7) and small["board fragment"] == (200, 3) and small["poll 304"] == (304, 1)
