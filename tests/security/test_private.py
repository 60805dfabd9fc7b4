"""What is private stays private on every route: a private match the caller may not read is a 404 on every route
of it (writes included: a 403 would say that it exists), and a player registered only in private events is as
hidden as those events, in the player list, the player's own page and what hangs off it."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from common.actor import Actor
from games import services as games
from games.access import new_entry_token, token_text
from games.models import Match
from tournaments import services
from tournaments.models import Entry

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks")]

#: Every write route of a match, with a body the serializer accepts (so that only access decides).
WRITES = {
    "actions/": {"kind": "opening-roll", "dice": [3, 1], "expected_seq": 0},
    "undo/": {"reason": "typo", "expected_seq": 0},
    "reopen/": {"reason": "typo", "expected_seq": 0},
    "forfeit/": {"loser_side": 0, "reason": "no-show", "expected_seq": 0},
    "void/": {"reason": "no-show", "expected_seq": 0},
    "finish/": {"reason": "done", "expected_seq": 0},
    "replace-result/": {"game": 1, "winner": 0, "result": "single", "reason": "typo", "expected_seq": 0},
    "entry-links/": {"side": 0},
    "entry-links/1/revoke/": {},
}
READS = ("", "games/", "log/", "cube-history/", "entry-links/", "export.mat", "export.sgf")


@pytest.fixture
def private_match(director: Any) -> Any:
    return games.start_match(
        player1=games.create_player(display_name="Alice"),
        player2=games.create_player(display_name="Bob"),
        length=3,
        private=True,
        created_by=director,
    )


def callers(django_user_model: Any, private_match: Any) -> dict[str, APIClient]:
    eve = APIClient()
    eve.force_authenticate(django_user_model.objects.create_user(username="eve", password=None))
    other = games.start_match(
        player1=games.create_player(display_name="Mallory"), player2=games.create_player(display_name="Trent"), length=1
    )
    link = APIClient()
    link.credentials(HTTP_X_ENTRY_TOKEN=token_text(new_entry_token(other, 0)))
    return {"another user": eve, "another match's link": link}


def test_every_route_of_a_private_match_one_may_not_read_is_a_404(
    django_user_model: Any, private_match: Any, director: Any
) -> None:
    base = f"/api/matches/{private_match.pk}/"
    for who, client in callers(django_user_model, private_match).items():
        for path in READS:
            assert client.get(base + path).status_code == 404, (who, path)
        for path, body in WRITES.items():
            response = client.post(base + path, body, format="json")
            assert (response.status_code, response.json()["code"]) == (404, "not_found"), (who, path, response.json())
    missing = APIClient()
    missing.force_authenticate(director)
    assert missing.post("/api/matches/999999/undo/", WRITES["undo/"], format="json").status_code == 404
    # Its own director still gets the usual answers (a refusal on the merits, not a 404).
    assert missing.post(base + "undo/", WRITES["undo/"], format="json").status_code == 409


def test_a_public_match_still_answers_403_to_who_may_not_write_it(django_user_model: Any) -> None:
    public = games.start_match(
        player1=games.create_player(display_name="Alice"), player2=games.create_player(display_name="Bob"), length=3
    )
    eve = APIClient()
    eve.force_authenticate(django_user_model.objects.create_user(username="eve", password=None))
    assert eve.post(f"/api/matches/{public.pk}/undo/", WRITES["undo/"], format="json").status_code == 403


@pytest.fixture
def private_event_players(division_of: Any, as_director: Any) -> dict[str, Any]:
    """A private event with "Hidden Hanna" (entered there only) and "Both Bo" (also in a public event)."""
    private = services.create_event(actor=as_director, name="Closed club", public=False)
    hidden = division_of("swiss", 0, event=private)
    public = division_of("swiss", 0)
    hanna = services.register_player(hidden, actor=as_director, name="Hidden Hanna").player
    bo = services.register_player(hidden, actor=as_director, name="Both Bo").player
    services.register_player(public, actor=as_director, name="Both Bo", player=bo)
    free = games.create_player(display_name="Hanna Free")  # in no event at all
    return {"hanna": hanna, "bo": bo, "free": free, "event": private}


def _names(client: APIClient, query: str) -> set[str]:
    response = client.get("/api/players/", {"q": query})
    assert response.status_code == 200
    return {row["display_name"] for row in response.json()["results"]}


def test_a_player_only_in_private_events_is_hidden_from_who_may_not_see_them(
    private_event_players: dict[str, Any], director: Any, django_user_model: Any
) -> None:
    hanna = private_event_players["hanna"]
    eve = APIClient()
    eve.force_authenticate(django_user_model.objects.create_user(username="eve", password=None))
    for who, client in {"anonymous": APIClient(), "another user": eve}.items():
        assert _names(client, "hanna") == {"Hanna Free"}, who
        assert _names(client, "bo") == {"Both Bo"}, who  # seen in the public event
        assert client.get(f"/api/players/{hanna.pk}/").status_code == 404, who
        assert client.get(f"/api/players/{hanna.pk}/next-match/").status_code == 404, who
        assert client.get(f"/api/players/{private_event_players['bo'].pk}/").status_code == 200, who
    for who, user in {
        "the event's director": director,
        "staff": django_user_model.objects.create_user(username="sam", password=None, is_staff=True),
    }.items():
        client = APIClient()
        client.force_authenticate(user)
        assert _names(client, "hanna") == {"Hanna Free", "Hidden Hanna"}, who
        assert client.get(f"/api/players/{hanna.pk}/").status_code == 200, who


def test_a_match_cannot_be_started_with_players_one_may_not_see(
    private_event_players: dict[str, Any], director: Any, django_user_model: Any
) -> None:
    """A plain user starting a match with players entered only in a private event would publish their names on the
    new match's pages: they are refused exactly as an id that does not exist is (nothing tells them apart)."""
    hanna, free = private_event_players["hanna"], private_event_players["free"]
    eve = APIClient()
    eve.force_authenticate(django_user_model.objects.create_user(username="eve", password=None))
    hidden = eve.post("/api/matches/", {"player1": hanna.pk, "player2": free.pk, "length": 1}, format="json")
    missing = eve.post("/api/matches/", {"player1": 999999, "player2": free.pk, "length": 1}, format="json")
    assert hidden.status_code == missing.status_code == 400, hidden.json()
    assert hidden.json()["message"] == missing.json()["message"].replace("999999", str(hanna.pk))
    assert "Hidden Hanna" not in hidden.content.decode()
    assert not Match.objects.exists()
    # The event's director sees her and may start the match.
    dora = APIClient()
    dora.force_authenticate(director)
    started = dora.post("/api/matches/", {"player1": hanna.pk, "player2": free.pk, "length": 1}, format="json")
    assert started.status_code == 201, started.json()


def test_a_player_one_may_not_see_cannot_be_entered_by_id_in_another_event(
    private_event_players: dict[str, Any], django_user_model: Any
) -> None:
    """The same for an entry: a director of another event entering a hidden player by id learns nothing."""
    cora = django_user_model.objects.create_user(username="cora", password=None)
    event = services.create_event(actor=Actor(user=cora), name="Cora's night")
    division = services.create_division(
        event, actor=Actor(user=cora), settings=services.DivisionSettings(name="Open", format="swiss", rounds_planned=3)
    )
    url = f"/api/events/{event.slug}/divisions/{division.slug}/entries/"
    client = APIClient()
    client.force_authenticate(cora)
    hidden = client.post(url, {"player": private_event_players["hanna"].pk}, format="json")
    missing = client.post(url, {"player": 999999}, format="json")
    assert hidden.status_code == missing.status_code == 400, hidden.json()
    assert "Hidden Hanna" not in hidden.content.decode()
    assert not Entry.objects.filter(division=division).exists()
