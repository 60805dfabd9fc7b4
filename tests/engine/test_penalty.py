"""Penalty points (a director's decision, between games): they count like points won, can make the next game the
Crawford game, never end the match (that is a forfeit), and survive a snapshot."""

from __future__ import annotations

import pytest

from engine.actions import GameResult, OpeningRoll, PenaltyPoints
from engine.errors import IllegalActionError
from engine.match import MatchState
from engine.types import ResultKind


def test_points_go_to_the_opponent_of_the_penalised_side() -> None:
    state = MatchState.new(7).apply(PenaltyPoints(side=1, points=2))
    assert state.score == (2, 0) and state.penalties == (0, 2) and state.game_number == 1
    assert not state.outcomes  # no game was played


def test_a_penalty_reaching_one_away_makes_the_next_game_the_crawford_game() -> None:
    state = MatchState.new(5).apply(PenaltyPoints(side=0, points=4))
    assert state.score == (0, 4) and state.crawford_game and not state.game.cube_enabled


def test_a_penalty_is_refused_during_a_game() -> None:
    state = MatchState.new(7).apply(OpeningRoll((3, 1)))
    with pytest.raises(IllegalActionError, match="between games"):
        state.apply(PenaltyPoints(side=0, points=1))


def test_a_penalty_that_would_end_the_match_is_refused() -> None:
    state = MatchState.new(3).apply(GameResult(0, ResultKind.GAMMON))
    with pytest.raises(IllegalActionError, match="forfeit"):
        state.apply(PenaltyPoints(side=1, points=1))


@pytest.mark.parametrize("points", [0, 100, -1])
def test_a_penalty_is_1_to_99_points(points: int) -> None:
    with pytest.raises(IllegalActionError, match="1 to 99"):
        MatchState.new(7).apply(PenaltyPoints(side=0, points=points))


def test_money_play_has_no_penalty_points() -> None:
    with pytest.raises(IllegalActionError, match="match to N points"):
        MatchState.new(0).apply(PenaltyPoints(side=0, points=1))


def test_penalties_survive_a_snapshot() -> None:
    state = MatchState.new(9).apply(PenaltyPoints(side=0, points=1)).apply(PenaltyPoints(side=1, points=2))
    again = MatchState.from_snapshot(state.snapshot())
    assert again == state and again.penalties == (1, 2) and again.score == (2, 1)
