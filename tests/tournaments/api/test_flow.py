"""A whole Swiss event run through the API only, as a director and the players at their tables do it.

The test commits for real (``transaction=True``): the games API's signals fire after the commit and the follow-up
tasks (sync, standings) run eagerly, as in the first-look setup with no broker.
"""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.tournaments.api.conftest import logged_in

pytestmark = pytest.mark.django_db(transaction=True)

PLAYERS = [(f"Player {n}", 2000 - 100 * n) for n in range(1, 9)]
CSV = "name,club,country,rating\n" + "".join(f"{name},Oslo BK,NO,{rating}\n" for name, rating in PLAYERS)


def _link(director: APIClient, match: int, side: int) -> APIClient:
    created = director.post(f"/api/matches/{match}/entry-links/", {"side": side}, format="json")
    assert created.status_code == 201, created.json()
    client = APIClient()
    client.credentials(HTTP_X_ENTRY_TOKEN=created.json()["token"])
    return client


def _play(director: APIClient, spectator: APIClient, pairing: dict[str, Any], event: str) -> None:
    """The better seed wins every game; he enters the scoresheet from his link, the opponent confirms from his."""
    match = pairing["match"]
    links = (_link(director, match, 0), _link(director, match, 1))
    winner = 0 if pairing["a"]["seed"] < pairing["b"]["seed"] else 1
    state = spectator.get(f"/api/matches/{match}/").json()["state"]
    while state["status"] != "finished":
        body = {"kind": "game-result", "winner": winner, "result": "single", "expected_seq": state["seq"]}
        recorded = links[winner].post(f"/api/matches/{match}/actions/", body, format="json")
        assert recorded.status_code == 201, recorded.json()
        state = recorded.json()["state"]
    assert state["score"][winner] == 3
    [waiting] = [item for item in director.get(f"/api/events/{event}/queue/").json()]
    assert waiting["pairing"]["id"] == pairing["id"]
    assert waiting["pairing"]["confirmation"] == "awaiting" and waiting["pairing"]["confirmation_side"] == 1 - winner
    assert links[winner].post(f"/api/pairings/{pairing['id']}/confirm/", format="json").status_code == 403
    confirmed = links[1 - winner].post(f"/api/pairings/{pairing['id']}/confirm/", format="json")
    assert confirmed.status_code == 200, confirmed.json()
    assert confirmed.json()["confirmation"] == "confirmed" and confirmed.json()["status"] == "finished"
    assert director.get(f"/api/events/{event}/queue/").json() == []


def test_a_swiss_event_through_the_api(director: Any) -> None:
    dora, spectator = logged_in(director), APIClient()
    event = dora.post("/api/events/", {"name": "Spring Swiss", "starts_on": "2026-04-18"}, format="json").json()
    settings = {"name": "Open", "format": "swiss", "rounds_planned": 3, "entry_mode": "scoresheet", "match_length": 3}
    division = dora.post(f"/api/events/{event['slug']}/divisions/", settings, format="json").json()
    base = f"/api/events/{event['slug']}/divisions/{division['slug']}/"
    imported = dora.post(base + "entries/import/", {"csv": CSV}, format="json")
    assert imported.status_code == 201 and imported.json()["created"] == 8
    started = dora.post(base + "start/", {}, format="json")
    assert started.status_code == 200 and started.json()["status"] == "running"
    assert [e["seed"] for e in spectator.get(base + "entries/").json()] == list(range(1, 9))

    for number in (1, 2, 3):
        if number > 1:
            paired = dora.post(base + "pair-next-round/", format="json")
            assert paired.status_code == 201, paired.json()
            assert paired.json()["round"]["number"] == number
        pairings = spectator.get(f"{base}pairings/?round={number}").json()["results"]
        assert len(pairings) == 4 and all(p["status"] == "ready" and p["match"] for p in pairings)
        for pairing in pairings:
            _play(dora, spectator, pairing, event["slug"])
        table = spectator.get(base + "standings/").json()
        assert (table["after_round"], table["standings_status"]) == (number, "current")
        assert sum(row["wins"] for row in table["rows"]) == 4 * number

    finished = spectator.get(base).json()
    assert finished["status"] == "finished" and finished["finished_at"]
    assert spectator.get(f"/api/events/{event['slug']}/").json()["status"] == "finished"
    assert [r["number"] for r in spectator.get(base + "rounds/").json()] == [1, 2, 3]
    standings = spectator.get(base + "standings/").json()
    assert standings["standings_status"] == "current" and standings["after_round"] == 3
    rows = standings["rows"]
    assert len(rows) == 8 and rows[0]["rank"] == 1
    assert (rows[0]["name"], rows[0]["wins"], rows[0]["losses"], rows[0]["byes"]) == ("Player 1", 3, 0, 0)
    assert (rows[0]["points_for"], rows[0]["points_against"]) == (9, 0)
    assert rows[1]["name"] == "Player 2" and rows[1]["wins"] == 2
    assert sum(r["wins"] for r in rows) == sum(r["losses"] for r in rows) == 12
    assert [r["wins"] for r in rows] == sorted((r["wins"] for r in rows), reverse=True)
    assert {row["name"] for row in rows if row["wins"] == 0} == {"Player 8"}
    after_one = spectator.get(base + "standings/?after_round=1").json()
    assert after_one["after_round"] == 1 and sum(r["wins"] for r in after_one["rows"]) == 4
    champion = rows[0]["player"]
    assert spectator.get(f"/api/players/{champion}/next-match/").json()["pairing"] is None
