"""Standings (``services.recompute_standings``): only finished and confirmed results count; Swiss and round robin
keep a table per round ranked by wins then the division's tie-breaks; an elimination table ranks the main
champion first, then everyone by the bracket he was eliminated from and the round he lost in."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from common.actor import Actor
from games import services as games
from tests.tournaments.services.support import director_win, enter_win, link, named, pairing, play_out
from tournaments import services
from tournaments.models import Division, Entry, Standing

pytestmark = pytest.mark.django_db


def table(division: Division, after_round: int = 0) -> list[tuple[str, int, int, int]]:
    """(name, rank, wins, losses) in table order."""
    rows = Standing.objects.filter(division=division, after_round=after_round).select_related("entry__player")
    return [(s.entry.player.display_name, s.rank, s.wins, s.losses) for s in rows.order_by("rank", "entry__seed")]


def test_only_finished_and_confirmed_results_count(division_of: Callable[..., Division], as_director: Actor) -> None:
    division = division_of("swiss", 6, rounds_planned=2, entry_mode="scoresheet", match_length=3)
    services.start_division(division, actor=as_director)
    finished, awaiting, playing = (pairing(division, f"swiss-1-{t}") for t in (1, 2, 3))
    director_win(finished, finished.entry_a, as_director)  # P01 beat P04: counts
    enter_win(awaiting, awaiting.entry_a, actor=link(awaiting.match_id, 0))  # P02 entered his win: awaits P05
    games.record_game_result(playing.match_id, actor=as_director, winner=0, kind=1, expected_seq=0)  # 1-0 of 3
    services.sync_division(division.pk)
    assert services.recompute_standings(division.pk) == 6
    wins = {name: (w, lost) for name, _, w, lost in table(division, 1)}
    assert wins == {"P01": (1, 0), "P04": (0, 1), "P02": (0, 0), "P05": (0, 0), "P03": (0, 0), "P06": (0, 0)}

    services.confirm_result(pairing(division, "swiss-1-2"), actor=link(awaiting.match_id, 1))
    services.sync_division(division.pk)
    services.recompute_standings(division.pk)
    wins = {name: (w, lost) for name, _, w, lost in table(division, 1)}
    assert wins["P02"] == (1, 0) and wins["P05"] == (0, 1)
    division.refresh_from_db()
    assert division.standings_version == division.results_version
    assert division.standings_status == Division.Work.CURRENT


def test_swiss_tables_per_round_ranked_by_wins_then_tie_breaks(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    division = division_of("swiss", 4, rounds_planned=2, entry_mode="scoresheet", match_length=1)
    services.start_division(division, actor=as_director)
    play_out(division, as_director)  # the better seed always wins: P01 2-0, P02 1-1, P03 1-1, P04 0-2
    services.recompute_standings(division.pk)
    assert [r[0] for r in table(division, 1)][:2] == ["P01", "P02"]
    final = table(division, 2)
    assert [(name, wins) for name, _, wins, _ in final] == [("P01", 2), ("P02", 1), ("P03", 1), ("P04", 0)]
    rows = {s.entry.player.display_name: s for s in Standing.objects.filter(division=division, after_round=2)}
    # Buchholz: the final scores of the opponents (P02 met P04 and P01: 0 + 2; P03 met P01 and P04: 2 + 0)
    assert rows["P01"].tiebreaks == {"buchholz": 2, "sonneborn-berger": 2, "points-diff": 2}
    assert rows["P02"].tiebreaks["buchholz"] == rows["P03"].tiebreaks["buchholz"] == 2
    assert rows["P02"].rank == rows["P03"].rank == 2, "level on wins and every tie-break: they share the rank"


def test_elimination_table_ranks_by_how_far_each_player_went(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    division = division_of("main-consolation", 8, entry_mode="scoresheet", match_length=1)
    services.start_division(division, actor=as_director)
    services.recompute_standings(division.pk)
    assert {rank for _, rank, _, _ in table(division)} == {1}, "before any result everyone is level"
    play_out(division, as_director)  # the better seed always wins
    services.recompute_standings(division.pk)
    assert table(division) == [
        ("P01", 1, 3, 0),  # the champion
        ("P02", 2, 2, 1),  # lost the final
        ("P03", 3, 1, 1),  # lost in the semifinals
        ("P04", 3, 1, 1),
        ("P05", 5, 2, 1),  # lost in main round 1 (main places 5-8), then won the consolation
        ("P06", 5, 1, 2),
        ("P07", 5, 0, 2),
        ("P08", 5, 0, 2),
    ]
    places = {s.entry.player.display_name: s.places for s in Standing.objects.filter(division=division)}
    assert places["P01"] == {"main": "1"} and places["P02"] == {"main": "2"} and places["P03"] == {"main": "3-4"}
    assert places["P05"] == {"main": "5-8", "consolation": "1"} and places["P06"]["consolation"] == "2"
    assert places["P07"]["consolation"] == places["P08"]["consolation"] == "3-4"


def test_a_running_elimination_ranks_players_still_in_first(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    division = division_of("single", 4, entry_mode="scoresheet", match_length=1)
    services.start_division(division, actor=as_director)
    director_win(pairing(division, "main-1-0"), named(division, "P04"), as_director)
    services.recompute_standings(division.pk)
    ranks = {name: rank for name, rank, _, _ in table(division)}
    # The only one out so far ranks last, at his place 3-4 (the other semi-final's loser will share it).
    assert ranks["P01"] == 3 and max(ranks.values()) == 3 and sorted(ranks.values()) == [1, 1, 1, 3]
    assert named(division, "P01").status == Entry.Status.ELIMINATED
