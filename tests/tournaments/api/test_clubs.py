"""Clubs through the API: one record per person across a club's events.

What was seen: "Pia Ruud,Oslo BK" imported (``entries/import``) into two events gave two players. Events without a
club still do (each registration by name is a new player, as before); a club's events find the roster's player: an
exact name is the same record, a close one (case, accents, a typo, an initial) is offered to the director to choose
or to refuse, never merged silently."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from games.models import Match, Player
from tests.tournaments.api.conftest import logged_in
from tests.tournaments.services.support import snapshot
from tournaments.models import Club, Event

pytestmark = pytest.mark.django_db


def new_event(client: APIClient, name: str, club: str | None = None) -> str:
    body: dict[str, Any] = {"name": name}
    if club:
        body["club"] = club
    answer = client.post("/api/events/", body, format="json")
    assert answer.status_code == 201, answer.content
    slug = answer.json()["slug"]
    division = client.post(f"/api/events/{slug}/divisions/", {"name": "Open", "format": "single"}, format="json")
    assert division.status_code == 201, division.content
    return slug


def import_list(client: APIClient, event: str, text: str) -> Any:
    return client.post(f"/api/events/{event}/divisions/open/entries/import/", {"csv": text}, format="json")


def enter(client: APIClient, event: str, **body: Any) -> Any:
    return client.post(f"/api/events/{event}/divisions/open/entries/", body, format="json")


def players_of(answer: Any) -> list[int]:
    assert answer.status_code == 201, answer.content
    return [entry["player"] for entry in answer.json()["entries"]]


LIST = "Pia Ruud,Oslo BK\nOle Dahl,Oslo BK\nKari Nes,Bergen BK\n"


def test_without_a_club_the_same_names_in_two_events_are_new_players(director: Any) -> None:
    client = logged_in(director)
    first = players_of(import_list(client, new_event(client, "Night 1"), LIST))
    second = players_of(import_list(client, new_event(client, "Night 2"), LIST))
    assert not set(first) & set(second), "an event without a club keeps working as before"
    assert Player.objects.filter(display_name="Pia Ruud").count() == 2


@pytest.fixture
def club(director: Any) -> str:
    answer = logged_in(director).post("/api/clubs/", {"name": "Oslo Backgammon Klubb"}, format="json")
    assert answer.status_code == 201, answer.content
    body = answer.json()
    assert body["slug"] == "oslo-backgammon-klubb" and body["rating_list"] == "oslo-backgammon-klubb"
    return body["slug"]


def test_in_a_club_the_same_names_are_the_same_players(director: Any, club: str) -> None:
    client = logged_in(director)
    night1 = new_event(client, "Night 1", club)
    night2 = new_event(client, "Night 2", club)
    first = players_of(import_list(client, night1, LIST))
    second = players_of(import_list(client, night2, LIST))
    assert first == second
    assert Player.objects.filter(display_name="Pia Ruud").count() == 1
    event = Event.objects.get(slug=night2)
    assert event.club is not None and event.rating_list == event.club.rating_list  # rated on the club's list
    roster = client.get(f"/api/clubs/{club}/players/").json()
    assert [(p["name"], p["events"]) for p in roster] == [("Kari Nes", 2), ("Ole Dahl", 2), ("Pia Ruud", 2)]
    assert client.get(f"/api/events/{night1}/").json()["club"] == club


@pytest.mark.parametrize("typed", ["pia ruud", "Pía Ruud", "Pia Rud", "P. Ruud", "Ruud, Pia"])
def test_a_close_name_is_offered_to_choose_never_merged(director: Any, club: str, typed: str) -> None:
    client = logged_in(director)
    pia = players_of(import_list(client, new_event(client, "Night 1", club), LIST))[0]
    night2 = new_event(client, "Night 2", club)
    before = snapshot()
    refused = enter(client, night2, name=typed)
    assert refused.status_code == 409, refused.content
    body = refused.json()
    assert body["code"] == "player_to_choose"
    assert body["candidates"] == [{"id": pia, "name": "Pia Ruud", "label": f"Pia Ruud (Oslo BK) #{pia}"}]
    roster = f"Oslo Backgammon Klubb's roster: Pia Ruud (Oslo BK) #{pia}"
    assert f"'{typed}' is close to a name on {roster}" in body["message"], "one player: a name"
    assert snapshot() == before, "nothing registered, nobody merged"
    # The director chooses her: the same record.
    chosen = enter(client, night2, player=pia)
    assert chosen.status_code == 201 and chosen.json()["player"] == pia


def test_the_director_may_say_a_close_name_is_a_new_person(director: Any, club: str) -> None:
    client = logged_in(director)
    import_list(client, new_event(client, "Night 1", club), LIST)
    night2 = new_event(client, "Night 2", club)
    answer = enter(client, night2, name="P. Ruud", new_player=True)
    assert answer.status_code == 201, answer.content
    assert Player.objects.filter(display_name__in=["Pia Ruud", "P. Ruud"]).count() == 2
    assert Club.objects.get(slug=club).players.count() == 4  # the new person joined the roster


def test_a_pasted_list_names_every_line_to_choose_and_takes_a_player_column(director: Any, club: str) -> None:
    client = logged_in(director)
    pia, ole, _ = players_of(import_list(client, new_event(client, "Night 1", club), LIST))
    night2 = new_event(client, "Night 2", club)
    before = snapshot()
    refused = import_list(client, night2, "pia ruud\nOle Dal\nKari Nes\nNew Face\n")
    assert refused.status_code == 409, refused.content
    body = refused.json()
    assert body["code"] == "player_to_choose"
    assert [(line["line"], [c["id"] for c in line["candidates"]]) for line in body["lines"]] == [(1, [pia]), (2, [ole])]
    assert "line 1: 'pia ruud' is close to" in body["message"] and "line 2: 'Ole Dal' is close to" in body["message"]
    assert snapshot() == before
    answer = import_list(client, night2, f"name,player\npia ruud,{pia}\nOle Dal,new\nKari Nes,\nNew Face,\n")
    got = players_of(answer)
    assert got[0] == pia and got[1] != ole
    assert Player.objects.get(pk=got[1]).display_name == "Ole Dal"
    bad = import_list(client, night2, "name,player\nSomeone,maybe\n")
    assert bad.status_code == 400 and "player 'maybe' is neither a player's number nor new" in bad.json()["message"]


def test_namesakes_on_the_roster_are_offered_too(director: Any, club: str) -> None:
    client = logged_in(director)
    first = client.post(f"/api/clubs/{club}/players/", {"name": "Anna Berg", "club": "Oslo"}, format="json")
    assert first.status_code == 201
    second = client.post(f"/api/clubs/{club}/players/", {"name": "Anna Berg", "new_player": True}, format="json")
    assert second.status_code == 201 and second.json()["id"] != first.json()["id"]
    answer = enter(client, new_event(client, "Night 1", club), name="Anna Berg")
    assert answer.status_code == 409 and answer.json()["code"] == "player_to_choose"
    assert "is namesakes on" in answer.json()["message"]
    assert len(answer.json()["candidates"]) == 2


def test_the_roster_takes_a_name_once(director: Any, club: str) -> None:
    client = logged_in(director)
    first = client.post(f"/api/clubs/{club}/players/", {"name": "Pia Ruud"}, format="json").json()
    again = client.post(f"/api/clubs/{club}/players/", {"name": "Pia Ruud"}, format="json").json()
    assert again["id"] == first["id"]
    close = client.post(f"/api/clubs/{club}/players/", {"name": "pia  ruud"}, format="json")
    assert close.status_code == 409 and close.json()["candidates"][0]["id"] == first["id"]


def test_only_the_clubs_directors_run_its_events_and_roster(director: Any, club: str, stranger: Any) -> None:
    client = logged_in(stranger)
    before = snapshot()
    answer = client.post("/api/events/", {"name": "Pirate night", "club": club}, format="json")
    assert answer.status_code == 403 and "you are not a director of Oslo Backgammon Klubb" in answer.json()["message"]
    assert client.post(f"/api/clubs/{club}/players/", {"name": "X"}, format="json").status_code == 403
    assert snapshot() == before
    added = logged_in(director).post(f"/api/clubs/{club}/directors/", {"username": "stan"}, format="json")
    assert added.status_code == 204
    assert client.post("/api/events/", {"name": "Night", "club": club}, format="json").status_code == 201


def test_an_unknown_club_is_a_404(anon: APIClient, director: Any) -> None:
    assert anon.get("/api/clubs/nope/").status_code == 404
    answer = logged_in(director).post("/api/events/", {"name": "Night", "club": "nope"}, format="json")
    assert answer.status_code == 400 and "club" in answer.json()["fields"]


# -- merging two records of one person ---------------------------------------------------------------------------


def test_a_director_merges_two_records_and_undoes_it(director: Any, club: str, stranger: Any) -> None:
    client = logged_in(director)
    night1, night2 = new_event(client, "Night 1", club), new_event(client, "Night 2", club)
    pia = players_of(import_list(client, night1, "Pia Ruud,Oslo BK\n"))[0]
    again = enter(client, night2, name="P. Ruud", new_player=True)
    assert again.status_code == 201, again.content
    ruud = again.json()["player"]
    merged = client.post(f"/api/clubs/{club}/merges/", {"keep": pia, "fold": ruud}, format="json")
    assert merged.status_code == 201, merged.content
    body = merged.json()
    assert body["kept"]["id"] == pia and body["folded"]["id"] == ruud and body["moved"]["entries"] == 1
    assert body["merged_by"] == director.username and body["undone_at"] is None
    assert [e["player"] for e in client.get(f"/api/events/{night2}/divisions/open/entries/").json()] == [pia]
    assert client.get(f"/api/players/{ruud}/").status_code == 404, "a merged record is hidden from look-ups"
    assert [p["id"] for p in client.get(f"/api/clubs/{club}/players/").json()] == [pia]
    listed = client.get(f"/api/clubs/{club}/merges/").json()
    assert [(m["id"], m["folded"]["name"]) for m in listed] == [(body["id"], "P. Ruud")]

    again = client.post(f"/api/clubs/{club}/merges/", {"keep": pia, "fold": ruud}, format="json")
    assert again.status_code == 409 and "already merged" in again.json()["message"]
    self_merge = client.post(f"/api/clubs/{club}/merges/", {"keep": pia, "fold": pia}, format="json")
    assert self_merge.status_code == 400 and "himself" in self_merge.json()["message"]
    outsider = logged_in(stranger)
    assert outsider.post(f"/api/clubs/{club}/merges/{body['id']}/undo/").status_code == 403
    assert outsider.get(f"/api/clubs/{club}/merges/").status_code == 403

    undone = client.post(f"/api/clubs/{club}/merges/{body['id']}/undo/")
    assert undone.status_code == 200, undone.content
    assert undone.json()["undone_by"] == director.username
    assert [e["player"] for e in client.get(f"/api/events/{night2}/divisions/open/entries/").json()] == [ruud]
    assert client.get(f"/api/players/{ruud}/").status_code == 200
    twice = client.post(f"/api/clubs/{club}/merges/{body['id']}/undo/")
    assert twice.status_code == 409 and "undone already" in twice.json()["message"]
    assert client.post(f"/api/clubs/{club}/merges/999999/undo/").status_code == 404


def test_two_players_of_one_division_are_not_merged(director: Any, club: str) -> None:
    client = logged_in(director)
    night = new_event(client, "Night 1", club)
    ids = players_of(import_list(client, night, LIST))
    refused = client.post(f"/api/clubs/{club}/merges/", {"keep": ids[0], "fold": ids[1]}, format="json")
    assert refused.status_code == 409
    assert "both entered in Open of Night 1" in refused.json()["message"]
    assert not client.get(f"/api/clubs/{club}/merges/").json()
    unknown = client.post(f"/api/clubs/{club}/merges/", {"keep": ids[0], "fold": 999999}, format="json")
    assert unknown.status_code == 404 and "no player #999999" in unknown.json()["message"]


def test_the_merges_are_in_the_schema(director: Any) -> None:
    schema = logged_in(director).get("/api/schema/?format=json").json()
    assert set(schema["paths"]["/api/clubs/{club}/merges/"]) >= {"get", "post"}
    assert "post" in schema["paths"]["/api/clubs/{club}/merges/{merge_id}/undo/"]
    assert {"keep", "fold"} <= set(schema["components"]["schemas"]["MergeInputRequest"]["properties"])


def test_a_player_an_import_made_apart_is_linked_through_the_merges(director: Any, club: str) -> None:
    client = logged_in(director)
    night = new_event(client, "Night 1", club)
    pia = players_of(import_list(client, night, "Pia Ruud,Oslo BK\n"))[0]
    log = "\n 1 point match\n\n Game 1\n Pia Ruud : 0    Ole Dahl : 0\n  1) 31: 8/5 6/5    64: 24/18 18/14 \n"
    upload = SimpleUploadedFile("a.mat", log.encode())
    answer = client.post("/api/matches/import/", {"file": upload, "event": night}, format="multipart")
    assert answer.status_code == 201, answer.content
    match = Match.objects.get(pk=answer.json()["id"])
    apart = match.player1_id
    assert apart != pia and match.player1.display_name == "Pia Ruud", "the import made a player of its own"
    linked = client.post(f"/api/clubs/{club}/merges/", {"keep": pia, "fold": apart}, format="json")
    assert linked.status_code == 201, linked.content
    assert linked.json()["moved"]["matches_as_player1"] == 1
    match.refresh_from_db()
    assert match.player1_id == pia
    stranger = Player.objects.create(display_name="Pia Ruud")  # in none of the club's events
    refused = client.post(f"/api/clubs/{club}/merges/", {"keep": pia, "fold": stranger.pk}, format="json")
    assert refused.status_code == 400 and "not on Oslo Backgammon Klubb's roster" in refused.json()["message"]
