"""Places within a flight (tournaments/standings/places.py): shared places span the players level there."""

from __future__ import annotations

import pytest

from tournaments.standings.places import Place, flight_places


def shown(places: dict[str, Place]) -> dict[str, str]:
    return {p: str(x) for p, x in places.items()}


def test_a_knockout_of_seventeen_shares_its_places_by_round() -> None:
    out_at = {"final": 5, "s1": 4, "s2": 4, **{f"q{i}": 3 for i in range(4)}, **{f"r{i}": 2 for i in range(8)}}
    places = shown(flight_places({**out_at, "first": 1}, "champion"))
    assert places["champion"] == "1" and places["final"] == "2" and places["s1"] == places["s2"] == "3-4"
    assert {places[f"q{i}"] for i in range(4)} == {"5-8"} and {places[f"r{i}"] for i in range(8)} == {"9-16"}
    assert places["first"] == "17"


def test_players_still_in_have_no_place_but_are_ahead() -> None:
    # two quarter-finals played, two to play; one semi-final and the final to play: 1 and 2 kept, 3-4 kept
    places = shown(flight_places({"a": 1, "b": 1}, None, {1: 2, 2: 2, 3: 1}))
    assert places == {"a": "5-8", "b": "5-8"}


def test_each_match_still_to_play_keeps_a_place_in_its_stage() -> None:
    # one semi-final over, the other pending: its loser shares 3-4; a quarter-final still to play goes out behind
    places = shown(flight_places({"s1": 2, "q1": 1, "q2": 1}, None, {3: 1, 2: 1, 1: 2}))
    assert places == {"s1": "3-4", "q1": "5-8", "q2": "5-8"}
    assert shown(flight_places({"s1": 2}, None, {})) == {"s1": "1"}, "nothing pending and no champion: a bare order"


def test_the_champion_cannot_be_out() -> None:
    with pytest.raises(ValueError, match="cannot also be out"):
        flight_places({"a": 1}, "a")


def test_places_order_and_words() -> None:
    assert str(Place(5, 8)) == "5-8" and str(Place(3, 3)) == "3" and Place(1, 1) < Place(2, 2)
