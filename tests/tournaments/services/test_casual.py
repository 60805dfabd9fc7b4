"""A casual division (the beginners' rule sheet: no doubling cube and no gammons, "whoever bears off first wins the
round"): its matches are casual, and the engine refuses a double, a gammon or a cube value, so every game is worth
one point; the rehearsal runs such a division to the end."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from common.actor import Actor
from common.errors import ApplicationError
from games import services as games
from games.models import Match
from tests.tournaments.services.support import pairing
from tournaments import services
from tournaments.models import Division
from tournaments.simulation import simulate_event

pytestmark = pytest.mark.django_db


def test_a_casual_division_plays_without_cube_and_every_game_is_one_point(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    division = division_of("single", 2, entry_mode="scoresheet", match_length=3, casual=True)
    services.start_division(division, actor=as_director)
    match = Match.objects.get(pk=pairing(division, "main-1-0").match_id)
    assert match.casual
    for kind, cube, words in ((2, 1, "no gammons"), (1, 2, "no doubling cube")):
        with pytest.raises(ApplicationError) as refused:
            games.record_game_result(match.pk, actor=as_director, winner=0, kind=kind, cube_value=cube, expected_seq=0)
        assert words in refused.value.message
    assert Match.objects.get(pk=match.pk).seq == 0, "nothing stored"
    recorded = games.record_game_result(match.pk, actor=as_director, winner=0, kind=1, cube_value=1, expected_seq=0)
    assert recorded.state.score == (1, 0)


def test_a_casual_match_refuses_a_double_over_the_board(
    division_of: Callable[..., Division], as_director: Actor
) -> None:
    division = division_of("single", 2, entry_mode="moves", match_length=3, casual=True)
    services.start_division(division, actor=as_director)
    match = Match.objects.get(pk=pairing(division, "main-1-0").match_id)
    seq = games.record_opening_roll(match.pk, actor=as_director, dice=(3, 1), expected_seq=0).match.seq
    seq = games.record_play(match.pk, actor=as_director, side=0, play="8/5 6/5", expected_seq=seq).match.seq
    with pytest.raises(ApplicationError) as refused:
        games.offer_double(match.pk, actor=as_director, side=1, expected_seq=seq)
    assert "no doubling cube in a casual game" in refused.value.message


def test_a_casual_rehearsal_runs_to_the_end_with_one_point_games() -> None:
    report = simulate_event(format="main-consolation", players=9, seed=3, match_length=3, casual=True)
    division = Division.objects.get(event__slug=report["event"])
    assert division.casual and division.status == Division.Status.FINISHED
    games_played = [g for m in Match.objects.filter(pairing__division=division) for g in m.games.all()]
    assert games_played and {(g.result_kind, g.cube_value) for g in games_played if g.winner_side is not None} == {
        (1, 1)
    }
