"""Places while a flight is still being played (services.recompute_standings): a player knocked out at a stage shares
the span of every player who can still end there, so each match still to be played at that stage keeps a place in
it, and first place is kept for the champion to come. A flight that is over places its champion at once, even while
another flight of the division goes on."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from common.actor import Actor
from tests.tournaments.services.support import director_win, named, open_pairings, pairing
from tournaments import services
from tournaments.core import plan_of
from tournaments.models import Division, Entry, Pairing, Round, Standing
from tournaments.pairing.brackets import Winner

pytestmark = pytest.mark.django_db


def places(division: Division, flight: str = "main") -> dict[str, str]:
    services.recompute_standings(division.pk)
    rows = Standing.objects.filter(division=division).select_related("entry__player")
    return {s.entry.player.display_name: s.places[flight] for s in rows if flight in s.places}


def better_seed(p: Pairing) -> Entry:
    a, b = Entry.objects.get(pk=p.entry_a_id), Entry.objects.get(pk=p.entry_b_id)
    return min((a, b), key=lambda e: e.seed or 10**6)


def started(division: Division, director: Actor) -> Division:
    services.start_division(division, actor=director)
    return division


def win(division: Division, key: str, director: Actor, winner: str | None = None) -> None:
    slot = pairing(division, key)
    director_win(slot, named(division, winner) if winner else better_seed(slot), director)


def play_bracket(division: Division, director: Actor, bracket: str, *, rounds: int | None = None) -> None:
    """The better seed wins every ready match of ``bracket`` (of its first ``rounds`` rounds)."""
    while True:
        todo = [p for p in open_pairings(division, bracket) if rounds is None or p.round.number <= rounds]
        if not todo:
            return
        for p in todo:
            director_win(p, better_seed(p), director, sync=False)
        services.sync_division(division.pk)


def test_a_semi_final_loser_shares_3_4_while_the_other_semi_final_is_pending(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    division = started(division_of("single", 8, match_length=1), as_director)
    play_bracket(division, as_director, "main", rounds=1)
    assert set(places(division).values()) == {"5-8"}, "the four quarter-final losers share 5-8"
    win(division, "main-2-0", as_director)
    got = places(division)
    assert got["P04"] == "3-4", "the other semi-final's loser will end at the same stage"
    assert pairing(division, "main-2-1").status == Pairing.Status.READY


def test_a_player_out_ranks_at_his_place_and_the_players_still_in_share_the_first_rank(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    """A tester saw a semi-final's loser at rank 6 beside his place 3-4 (the rank counted the players above him, the
    five still in): his rank is his place's first, and the players still in share rank 1."""
    division = started(division_of("single", 8, match_length=1), as_director)
    play_bracket(division, as_director, "main", rounds=1)
    win(division, "main-2-0", as_director)
    got = places(division)
    rows = Standing.objects.filter(division=division).select_related("entry__player")
    ranks = {s.entry.player.display_name: s.rank for s in rows}
    assert got["P04"] == "3-4" and ranks["P04"] == 3, (got, ranks)
    assert {ranks[name] for name, place in got.items() if place == "5-8"} == {5}
    assert {rank for name, rank in ranks.items() if name not in got} == {1}, "still in: P01, P02, P03"


def test_every_round_keeps_a_place_for_each_match_still_to_play(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    division = started(division_of("single", 8, match_length=1), as_director)
    win(division, "main-1-0", as_director)
    assert places(division) == {"P08": "5-8"}, "one quarter-final played, three to play at that stage"
    semi = next(n for n in plan_of(division).nodes if n.key == "main-2-0")
    assert isinstance(semi.a, Winner) and isinstance(semi.b, Winner) and "main-1-0" in (semi.a.key, semi.b.key)
    win(division, semi.b.key if semi.a.key == "main-1-0" else semi.a.key, as_director)
    win(division, "main-2-0", as_director)
    got = places(division)
    # a semi-final is over while two quarter-finals are still to be played: their losers go out behind him
    assert got["P04"] == "3-4" and got["P05"] == got["P08"] == "5-8" and len(got) == 3


def test_a_main_flight_that_is_over_places_its_champion_while_the_consolation_goes_on(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    division = started(division_of("main-consolation", 8, match_length=1), as_director)
    play_bracket(division, as_director, "main")
    division.refresh_from_db()
    assert division.status == Division.Status.RUNNING
    got = places(division)
    assert got["P01"] == "1" and got["P02"] == "2" and got["P03"] == got["P04"] == "3-4"
    assert places(division, "consolation") == {}, "the consolation is still being played"
    ranks = {s.entry.player.display_name: s.rank for s in Standing.objects.filter(division=division)}
    assert ranks["P01"] == 1 and ranks["P02"] == 2


def test_a_consolation_places_its_players_once_it_is_over(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    division = started(division_of("main-consolation", 8, match_length=1), as_director)
    play_bracket(division, as_director, "main", rounds=1)
    play_bracket(division, as_director, "consolation")
    division.refresh_from_db()
    assert division.status == Division.Status.RUNNING, "the main draw is still on"
    assert places(division, "consolation") == {"P05": "1", "P06": "2", "P07": "3-4", "P08": "3-4"}
    assert places(division)["P05"] == "5-8"


def test_double_elimination_keeps_a_place_for_each_losers_bracket_match_to_play(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    division = started(division_of("double-elimination", 8, match_length=1), as_director)
    play_bracket(division, as_director, "main", rounds=1)
    first = Pairing.objects.filter(division=division, round__bracket=Round.Bracket.CONSOLATION, round__number=1)
    assert first.count() == 2
    one, other = first.order_by("board")
    director_win(one, better_seed(one), as_director)
    got = places(division)
    assert list(got.values()) == ["7-8"], "out in the losers' bracket's first round, with the other match to play"
    director_win(pairing(division, other.key), better_seed(pairing(division, other.key)), as_director)
    assert set(places(division).values()) == {"7-8"}
