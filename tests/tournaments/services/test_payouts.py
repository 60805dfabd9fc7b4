"""The payout table (tournaments/services/payouts.py) and what it pays the standings (selectors.payouts_of)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from common.actor import Actor
from common.errors import ApplicationError
from tests.tournaments.services.support import play_out, played_main_consolation, snapshot
from tests.tournaments.services.test_places_in_progress import play_bracket
from tournaments import selectors, services
from tournaments.models import Division
from tournaments.pages import remainder_notes
from tournaments.services.payouts import FlightSize, flight_sizes, set_payouts, stored_table
from tournaments.simulation import champions

sizes = flight_sizes

pytestmark = pytest.mark.django_db


def finished(division_of: Callable[..., Division], as_director: Actor) -> Division:
    division = division_of("main-consolation", 8, entry_mode="scoresheet", match_length=1)
    return played_main_consolation(division, as_director)


def paid(division: Division) -> dict[str, dict[str, int]]:
    rows = selectors.standings_table(division)
    payouts = selectors.payouts_of(division, rows)
    return {row.entry.player.display_name: payouts.paid[row.entry_id] for row in rows if row.entry_id in payouts.paid}


TABLE: dict[str, Any] = {
    "mode": "percent",
    "pool": "1000",
    "flights": {"main": "50, 25, 10, 5", "consolation": "4, 2, 1, 1"},
}


def test_percentages_of_the_pool_split_shared_places(division_of: Callable[..., Division], as_director: Actor) -> None:
    division = finished(division_of, as_director)
    division = set_payouts(division, actor=as_director, ties="split", published=False, **TABLE)
    # 3-4: (10% + 5%) / 2 = 75.00 each; consolation 3-4: (1% + 1%) / 2 = 10.00 each; main 5-8 pays nothing.
    assert paid(division) == {
        "P01": {"main": 50000},
        "P02": {"main": 25000},
        "P03": {"main": 7500},
        "P04": {"main": 7500},
        "P05": {"consolation": 4000},
        "P06": {"consolation": 2000},
        "P07": {"consolation": 1000},
        "P08": {"consolation": 1000},
    }


def test_best_place_pays_each_the_prize_of_the_best_place(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    division = finished(division_of, as_director)
    division = set_payouts(division, actor=as_director, ties="best", published=True, **TABLE)
    got = paid(division)
    assert got["P03"] == got["P04"] == {"main": 10000}  # place 3's 10%, each
    assert got["P07"] == got["P08"] == {"consolation": 1000}
    division.refresh_from_db()
    assert division.payouts["published"] is True and division.payouts["ties"] == "best"


def test_fixed_amounts_and_the_remainder_of_a_split(division_of: Callable[..., Division], as_director: Actor) -> None:
    division = finished(division_of, as_director)
    division = set_payouts(
        division,
        actor=as_director,
        mode="amount",
        pool=None,
        ties="split",
        published=False,
        flights={"main": "100, 50, 10, 0.01"},
    )
    rows = selectors.standings_table(division)
    payouts = selectors.payouts_of(division, rows)
    # 3-4 share 10.01: 5.00 each, 0.01 left over and stated.
    assert paid(division)["P03"] == {"main": 500} and payouts.remainder == {"main": 1}


def test_a_swiss_is_paid_by_its_ranks_shared_ranks_split(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    division = division_of("swiss", 4, entry_mode="scoresheet", match_length=1, rounds_planned=2)
    services.start_division(division, actor=as_director)
    play_out(division, as_director)
    services.recompute_standings(division.pk)
    division.refresh_from_db()
    division = set_payouts(
        division, actor=as_director, mode="amount", pool=None, ties="split", published=False, flights={"main": "30, 20"}
    )
    # P01 won both rounds (rank 1); P02 and P03 share rank 2, so places 2-3: (20.00 + 0) / 2 each; P04 nothing.
    assert paid(division) == {"P01": {"main": 3000}, "P02": {"main": 1000}, "P03": {"main": 1000}}


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"flights": {"main": "60, 30", "consolation": "20"}}, "all flights add up to 110, more than 100 of the pool"),
        ({"flights": {"main": "110"}}, "the main flight: the percentages add up to 110"),
        ({"flights": {"main": "50, -5"}}, "place 2 is -5, a negative prize: give 0 or more"),
        (
            {"flights": {"main": "10, 9, 8, 7, 6, 5, 4, 3, 2"}},
            "the main flight: the table pays 9 places but the main flight has 8 players: remove the last 1",
        ),
        ({"pool": None}, "percentages need a prize pool"),
        ({"flights": {"last-chance": "10"}}, "has no flight last-chance: its flights are main, consolation"),
        ({"pool": "lots"}, "the prize pool 'lots' is not a number"),
    ],
)
def test_a_bad_table_says_what_is_wrong_and_stores_nothing(
    changes: dict[str, Any], message: str, division_of: Callable[..., Division], as_director: Actor
) -> None:
    division = finished(division_of, as_director)
    set_payouts(division, actor=as_director, ties="split", published=True, **TABLE)
    before = snapshot()
    with pytest.raises(ApplicationError, match=message) as refused:
        set_payouts(division, actor=as_director, ties="split", published=False, **{**TABLE, **changes})
    assert refused.value.message.startswith("The payout table is not stored")
    assert snapshot() == before


def test_only_the_directors_set_the_table(
    division_of: Callable[..., Division], as_director: Actor, stranger: Actor
) -> None:
    division = division_of("single", 4)
    before = snapshot()
    with pytest.raises(ApplicationError):
        set_payouts(division, actor=stranger, ties="split", published=False, **{**TABLE, "flights": {"main": "50"}})
    assert snapshot() == before


def consolation_table(places: int) -> dict[str, Any]:
    return {
        "mode": "amount",
        "pool": None,
        "ties": "split",
        "published": False,
        "flights": {"main": "100", "consolation": ", ".join(["10"] * places)},
    }


def test_the_consolation_is_checked_against_its_own_size_not_the_divisions(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    division = finished(division_of, as_director)  # 8 players; the 4 first-match losers play the consolation
    assert sizes(division)["consolation"] == FlightSize(4, True), "no longer the division's 8 entries"
    set_payouts(division, actor=as_director, **consolation_table(4))
    before = snapshot()
    with pytest.raises(ApplicationError) as refused:
        set_payouts(division, actor=as_director, **consolation_table(5))
    assert refused.value.message == (
        "The payout table is not stored: the consolation: the table pays 5 places but the consolation has 4 players: "
        "remove the last 1."
    )
    assert snapshot() == before


def test_a_consolation_not_yet_filled_is_checked_against_the_most_players_it_can_have(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    division = division_of("main-consolation", 17, entry_mode="scoresheet", match_length=1)
    before_start = sizes(division)
    assert before_start["main"].players == 17 and not before_start["main"].known
    services.start_division(division, actor=as_director)
    division.refresh_from_db()
    size = sizes(division)["consolation"]
    # round 1's loser, seven round-2 losers who had a bye, and the eighth only if the bye-holder loses to round 1's
    # winner (for round 1's winner it is a second match)
    assert not size.known and size.players == 9
    with pytest.raises(ApplicationError) as refused:
        set_payouts(division, actor=as_director, **consolation_table(10))
    assert refused.value.message.startswith(
        "The payout table is not stored: the consolation: the table pays 10 places but the consolation can have at "
        "most 9 players (who enters it is known only once the main rounds that drop into it are over): "
    )
    set_payouts(division, actor=as_director, **consolation_table(9))  # may pay a place nobody reaches
    play_bracket(division, as_director, "main", rounds=2)  # the better seed wins: seed 1 beats round 1's winner
    division.refresh_from_db()
    assert sizes(division)["consolation"] == FlightSize(8, True)
    with pytest.raises(ApplicationError, match="the consolation has 8 players: remove the last 1"):
        set_payouts(division, actor=as_director, **consolation_table(9))


@pytest.mark.parametrize(
    ("fmt", "players"),
    [("main-consolation", 13), ("progressive-consolation", 17), ("main-consolation-lastchance", 17), ("single", 5)],
)
def test_once_a_division_is_over_each_flight_has_the_size_of_its_places(
    fmt: str, players: int, division_of: Callable[..., Division], as_director: Actor
) -> None:
    division = division_of(fmt, players, entry_mode="scoresheet", match_length=1)
    services.start_division(division, actor=as_director)
    play_out(division, as_director)
    services.recompute_standings(division.pk)
    division.refresh_from_db()
    assert division.status == Division.Status.FINISHED
    placed: dict[str, int] = {}
    for row in selectors.standings_table(division):
        for flight in row.places:
            placed[flight] = placed.get(flight, 0) + 1
    got = sizes(division)
    assert all(size.known for size in got.values()), got
    assert {flight: size.players for flight, size in got.items() if flight in placed} == placed


def test_a_swiss_into_a_knockout_pays_nothing_before_its_knockout(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    from tests.tournaments.services.support import director_win, open_pairings

    division = division_of(
        "swiss-knockout", 8, entry_mode="scoresheet", match_length=1, rounds_planned=2, knockout_size=4
    )
    services.start_division(division, actor=as_director)
    for p in open_pairings(division):
        director_win(p, p.entry_a, as_director)
    services.recompute_standings(division.pk)
    division.refresh_from_db()
    division = set_payouts(
        division, actor=as_director, mode="amount", pool=None, ties="split", published=True, flights={"main": "30, 20"}
    )
    # After a Swiss round its leaders are not its winners: the places, and so the prizes, come from the knockout.
    assert not division.knockout_drawn and selectors.standings_table(division)
    assert paid(division) == {}


def test_a_last_chance_only_one_player_reaches_names_no_champion_and_its_prizes_are_left_over(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    """Six players, the better seed always winning: the last chance holds only the loser of the consolation's one
    match, who walks over a bye. It was not played: no champion, no place, and its prizes (accepted while two players
    could still reach it) are stated as left over once the division is over, like a place no flight reached."""
    division = division_of("main-consolation-lastchance", 6, entry_mode="scoresheet", match_length=1)
    table = {"main": "50, 20", "consolation": "10, 5", "last-chance": "4, 1"}
    set_payouts(division, actor=as_director, mode="percent", pool="1000", ties="split", published=True, flights=table)
    played_main_consolation(division, as_director)
    assert division.status == Division.Status.FINISHED
    assert champions(division)["last-chance"] is None
    rows = selectors.standings_table(division)
    assert not any("last-chance" in row.places for row in rows)
    payouts = selectors.payouts_of(division, rows)
    assert payouts.unreached == {"main": 0, "consolation": 0, "last-chance": 5000}
    assert "Last-chance prize: 50.00 left over, the prizes of places nobody reached." in [
        str(note) for note in remainder_notes(payouts)
    ]


@pytest.mark.parametrize("one_prize", [False, True])
def test_one_prize_per_player_across_flights(
    division_of: Callable[..., Division], as_director: Actor, one_prize: bool
) -> None:
    """Main 5-8 and the whole consolation are the same four players: with one prize per player each keeps the larger
    of his two prizes and what he does not take is stated as left over."""
    division = finished(division_of, as_director)
    table = {"main": "40, 20, 10, 10, 2, 2, 2, 2", "consolation": "5, 3, 1, 1"}
    division = set_payouts(
        division,
        actor=as_director,
        mode="percent",
        pool="1000",
        ties="split",
        published=True,
        flights=table,
        one_prize=one_prize,
    )
    got = paid(division)
    if not one_prize:
        assert got["P05"] == {"main": 2000, "consolation": 5000} and got["P08"] == {"main": 2000, "consolation": 1000}
        return
    assert got["P05"] == {"consolation": 5000}, "the consolation's first prize is larger than his share of 5-8"
    assert got["P06"] == {"consolation": 3000}
    assert got["P07"] == got["P08"] == {"main": 2000}, "his share of 5-8 is larger than his share of 3-4"
    payouts = selectors.payouts_of(division, selectors.standings_table(division))
    assert payouts.forgone == {"main": 4000, "consolation": 2000}
    said = "Consolation prize: 20.00 left over, not paid to players who have a larger prize (one prize per player)."
    assert said in [str(note) for note in remainder_notes(payouts)]
    assert stored_table(division)["one_prize"] is True
