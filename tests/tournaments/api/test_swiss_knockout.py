"""A Swiss into a knockout through the API: created with its Swiss rounds and its knockout size (bad ones refused
with the reason), read with its phase and the knockout's seeds, its knockout drawn by pair-next-round, its bracket
read from the pairings, and the Swiss steering refused once the knockout is drawn."""

from __future__ import annotations

from typing import Any

import pytest

from common.actor import Actor
from tests.tournaments.api.conftest import logged_in
from tests.tournaments.api.support import division_url
from tests.tournaments.services.test_swiss_knockout import play_swiss_round
from tournaments import services
from tournaments.models import Division, Event
from tournaments.services.standings import swiss_standings

pytestmark = pytest.mark.django_db


def test_a_director_runs_a_swiss_into_a_knockout_through_the_api(director: Any, as_director: Actor) -> None:
    client = logged_in(director)
    event = services.create_event(actor=as_director, name="Open")
    url = f"/api/events/{event.slug}/divisions/"
    body = {"name": "Main", "format": "swiss-knockout", "rounds_planned": 2, "knockout_size": 4}
    created = client.post(url, {**body, "entry_mode": "scoresheet", "match_length": 1}, format="json")
    assert created.status_code == 201, created.json()
    read = created.json()
    assert (read["format"], read["rounds_planned"], read["knockout_size"]) == ("swiss-knockout", 2, 4)
    assert (read["phase"], read["knockout_seeds"]) == ("swiss", [])

    division = Division.objects.get(event=event, slug="main")
    for i in range(1, 9):
        services.register_player(division, actor=as_director, name=f"P{i}", rating=2000 - i)
    assert client.post(division_url(division, "start/"), {}, format="json").status_code in (200, 201)
    play_swiss_round(division, as_director)
    assert client.post(division_url(division, "pair-next-round/"), {}, format="json").status_code == 201
    play_swiss_round(division, as_director)
    order = [int(row.player) for row in swiss_standings(division)]

    drawn = client.post(division_url(division, "pair-next-round/"), {}, format="json")
    assert drawn.status_code == 201, drawn.json()
    assert (drawn.json()["round"]["bracket"], drawn.json()["round"]["number"]) == ("main", 1)
    assert len(drawn.json()["pairings"]) == 2
    read = client.get(division_url(division)).json()
    assert (read["phase"], read["knockout_seeds"]) == ("knockout", order[:4])
    bracket = client.get(division_url(division, "pairings/"), {"bracket": "main"}).json()
    keys = sorted(p["key"] for p in bracket["results"])
    assert keys == ["main-1-0", "main-1-1", "main-2-0"], "the knockout's three slots"
    names = {p["key"]: p["round_name"] for p in bracket["results"]}
    assert names == {"main-1-0": "Knockout semi-final", "main-1-1": "Knockout semi-final", "main-2-0": "Knockout final"}
    swiss = client.get(division_url(division, "pairings/"), {"bracket": "swiss", "round": 2}).json()["results"]
    assert {p["round_name"] for p in swiss} == {"Round 2"}

    for path, payload in (("swiss/end/", {}), ("swiss/rounds/", {"rounds": 3}), ("swiss/unpair/", {})):
        refused = client.post(division_url(division, path), payload, format="json")
        assert refused.status_code == 409, (path, refused.json())
        assert "its knockout is drawn: the Swiss can no longer be ended" in refused.json()["message"]


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"rounds_planned": 3, "knockout_size": 6}, "not 6: a knockout of a power of two has no byes"),
        ({"rounds_planned": 0, "knockout_size": 8}, "needs the number of Swiss rounds to play before its knockout"),
        ({"rounds_planned": 3}, "(knockout_size), not 0"),
    ],
)
def test_bad_settings_are_refused_with_the_reason_and_nothing_stored(
    director: Any, as_director: Actor, body: dict[str, int], message: str
) -> None:
    event = services.create_event(actor=as_director, name="Open")
    answer = logged_in(director).post(
        f"/api/events/{event.slug}/divisions/", {"name": "Main", "format": "swiss-knockout", **body}, format="json"
    )
    assert answer.status_code == 400 and message in answer.json()["message"]
    assert not Event.objects.get(pk=event.pk).divisions.exists()


def test_a_knockout_larger_than_the_field_is_refused_at_the_start(director: Any, as_director: Actor) -> None:
    event = services.create_event(actor=as_director, name="Open")
    settings = services.DivisionSettings(name="Main", format="swiss-knockout", rounds_planned=3, knockout_size=8)
    division = services.create_division(event, actor=as_director, settings=settings)
    for i in range(1, 7):
        services.register_player(division, actor=as_director, name=f"P{i}")
    answer = logged_in(director).post(division_url(division, "start/"), {}, format="json")
    assert answer.status_code == 409
    assert "sends its top 8 players into the knockout, and it has 6" in answer.json()["message"]
    assert Division.objects.get(pk=division.pk).status == Division.Status.REGISTRATION
