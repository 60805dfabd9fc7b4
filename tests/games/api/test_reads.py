"""Public reads: pagination, filters, what spectators may not see, and query counts flat in the match size."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.contrib.auth.models import Permission
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from common.actor import SYSTEM
from engine.game import Phase
from games import services
from games.engine_bridge import load_state
from games.models import Match, Player
from tests.games.api.conftest import logged_in
from tests.games.api.support import token_client

pytestmark = pytest.mark.django_db


def test_players_are_paginated_and_filtered(anon: APIClient) -> None:
    for n in range(203):
        services.create_player(display_name=f"Player {n:03}", country="DK" if n % 2 else "SE")
    first = anon.get("/api/players/").json()
    assert first["count"] == 203 and len(first["results"]) == 50 and first["next"] and first["previous"] is None
    assert len(anon.get("/api/players/?page_size=500").json()["results"]) == 200
    page = anon.get("/api/players/?page_size=10&page=2").json()
    assert [p["display_name"] for p in page["results"]][:2] == ["Player 010", "Player 011"]
    assert anon.get("/api/players/?country=dk").json()["count"] == 101
    assert anon.get("/api/players/?q=player 20").json()["count"] == 3
    assert anon.get("/api/players/?page=99").status_code == 404


def test_contact_details_are_for_staff_only(players: tuple[Player, Player], anon: APIClient, staff: Any) -> None:
    public = anon.get("/api/players/")
    assert "alice@example.org" not in public.content.decode()
    assert all("contact" not in p for p in public.json()["results"])
    assert "contact" not in anon.get(f"/api/players/{players[0].pk}/").json()
    assert anon.get(f"/api/players/{players[0].pk}/").json()["label"] == f"Alice Ames (Oslo BK, NO) #{players[0].pk}"
    seen = logged_in(staff).get(f"/api/players/{players[0].pk}/").json()
    assert seen["contact"] == "alice@example.org"
    match = services.start_match(player1=players[0], player2=players[1], length=1)
    assert "alice@example.org" not in anon.get(f"/api/matches/{match.pk}/").content.decode()


def test_only_directors_register_players(anon: APIClient, stranger: Any, staff: Any, django_user_model: Any) -> None:
    body = {"display_name": "  Cecil   Cole ", "country": "gb", "contact": "cecil@example.org"}
    assert anon.post("/api/players/", body, format="json").status_code == 401
    refused = logged_in(stranger).post("/api/players/", body, format="json")
    assert refused.status_code == 403 and refused.json()["code"] == "forbidden"
    created = logged_in(staff).post("/api/players/", body, format="json")
    assert created.status_code == 201
    assert (created.json()["display_name"], created.json()["country"], created.json()["contact"]) == (
        "Cecil Cole",
        "GB",
        "cecil@example.org",
    )
    clerk = django_user_model.objects.create_user("clerk", password="x")
    clerk.user_permissions.add(Permission.objects.get(codename="add_player", content_type__app_label="games"))
    assert logged_in(clerk).post("/api/players/", {"display_name": "Dee"}, format="json").status_code == 201
    bad = logged_in(staff).post("/api/players/", {"display_name": "", "country": "GBR"}, format="json")
    assert bad.status_code == 400 and set(bad.json()["fields"]) == {"display_name", "country"}


def test_matches_are_filtered_by_status_and_player(
    players: tuple[Player, Player], director: Any, anon: APIClient
) -> None:
    carl = services.create_player(display_name="Carl")
    client = logged_in(director)
    ids = []
    for p1, p2 in ((players[0], players[1]), (players[0], carl), (carl, players[1])):
        created = client.post("/api/matches/", {"player1": p1.pk, "player2": p2.pk, "length": 5}, format="json")
        assert created.status_code == 201 and created.json()["status"] == "scheduled"
        ids.append(created.json()["id"])
    services.record_opening_roll(ids[0], actor=SYSTEM, dice=(3, 1), expected_seq=0)
    assert anon.get("/api/matches/").json()["count"] == 3
    assert [m["id"] for m in anon.get("/api/matches/?status=in_progress").json()["results"]] == [ids[0]]
    assert sorted(m["id"] for m in anon.get(f"/api/matches/?player={carl.pk}").json()["results"]) == ids[1:]
    assert anon.get(f"/api/matches/?player={carl.pk}&status=scheduled&page_size=1").json()["count"] == 2
    bad = anon.get("/api/matches/?status=paused")
    assert bad.status_code == 400 and set(bad.json()["fields"]) == {"status"}
    same = client.post("/api/matches/", {"player1": carl.pk, "player2": carl.pk, "length": 5}, format="json")
    assert same.status_code == 400 and same.json()["code"] == "invalid_input"
    unknown = client.post("/api/matches/", {"player1": 999, "player2": carl.pk, "length": 100}, format="json")
    assert unknown.status_code == 400 and set(unknown.json()["fields"]) == {"player1", "length"}


def test_private_matches_are_hidden_from_spectators(
    players: tuple[Player, Player], director: Any, staff: Any, stranger: Any, django_user_model: Any
) -> None:
    user = django_user_model.objects.create_user("pat", password="x")
    pat = services.create_player(display_name="Pat", user=user)
    private = services.start_match(player1=pat, player2=players[1], length=3, private=True, created_by=director)
    public = services.start_match(player1=players[0], player2=players[1], length=3)
    for client in (APIClient(), logged_in(stranger)):
        assert [m["id"] for m in client.get("/api/matches/").json()["results"]] == [public.pk]
        for what in ("", "log/", "games/", "cube-history/", "export.mat"):
            response = client.get(f"/api/matches/{private.pk}/{what}")
            assert response.status_code == 404 and response.json()["code"] == "not_found", what
    for client in (logged_in(user), logged_in(director), logged_in(staff)):
        assert {m["id"] for m in client.get("/api/matches/").json()["results"]} == {public.pk, private.pk}
        assert client.get(f"/api/matches/{private.pk}/").status_code == 200
    assert token_client(private, 1).get(f"/api/matches/{private.pk}/log/").status_code == 200


def _played(players: tuple[Player, Player], actions: int) -> Match:
    """A long match played through the services with random dice and the first legal play."""
    match = services.start_match(player1=players[0], player2=players[1], length=25)
    rng = random.Random(actions)
    state = load_state(match)
    for seq in range(actions):
        game = state.game
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        if game.phase is Phase.OPENING:
            dice = (dice[0], dice[0] % 6 + 1)
            recorded = services.record_opening_roll(match.pk, actor=SYSTEM, dice=dice, expected_seq=seq)
        elif game.phase is Phase.ROLL:
            recorded = services.record_roll(match.pk, actor=SYSTEM, side=game.on_roll, dice=dice, expected_seq=seq)
        else:
            plays = game.legal_plays()
            play = plays[0] if len(plays) else ""
            recorded = services.record_play(match.pk, actor=SYSTEM, side=game.on_roll, play=play, expected_seq=seq)
        state = recorded.state
    return Match.objects.get(pk=match.pk)


def _queries(client: APIClient, url: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200, response.content
    return len(queries)


@pytest.mark.parametrize("reader", ["anonymous", "session"])
def test_detail_and_log_queries_do_not_grow_with_the_match(
    players: tuple[Player, Player], director: Any, reader: str, django_assert_max_num_queries: Any
) -> None:
    small, big = _played(players, 5), _played(players, 200)
    assert big.seq == 200 and small.seq == 5
    client = logged_in(director) if reader == "session" else APIClient()
    for what, most in (("", 3), ("log/", 5), ("log/?page_size=200", 5), ("games/", 5), ("cube-history/", 4)):
        assert _queries(client, f"/api/matches/{small.pk}/{what}") == _queries(client, f"/api/matches/{big.pk}/{what}")
        with django_assert_max_num_queries(most):
            client.get(f"/api/matches/{big.pk}/{what}")
    log = client.get(f"/api/matches/{big.pk}/log/?page_size=200").json()
    assert log["count"] == 200 and len(log["results"]) == 200
