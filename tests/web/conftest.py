"""Fixtures for the web pages' tests: the cast, matches started through the services and the driver that plays
them action by action are the games app's own (tests/games/conftest.py), re-exported here; ``long_moves_match``
stores a long move-by-move match in one go (random legal plays, no cube) through ``services.import_match``."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from engine.actions import Action as EngineAction
from engine.actions import Move, OpeningRoll, Roll
from engine.game import Phase
from engine.match import MatchState
from games import services
from games.models import Match
from tests.games.conftest import cast, drive, new_match  # noqa: F401 (fixtures)


def simulated_games(actions: int, *, length: int = 15, seed: int = 0) -> list[list[EngineAction]]:
    """``actions`` engine actions of a ``length``-point match (fewer if the match ends first), by game: random
    dice, a random legal play, no doubles."""
    rng = random.Random(seed)
    state = MatchState.new(length)
    games: list[list[EngineAction]] = [[]]
    count = 0
    while count < actions and not state.is_over:
        game = state.game
        action: EngineAction
        if game.phase is Phase.OPENING:
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            if dice[0] == dice[1]:
                continue
            action = OpeningRoll(dice)
        elif game.phase is Phase.ROLL:
            action = Roll(game.on_roll, (rng.randint(1, 6), rng.randint(1, 6)))
        else:
            plays = list(game.legal_plays())
            action = Move(game.on_roll, rng.choice(plays) if plays else "")
        number = state.game_number
        state = state.apply(action)
        games[-1].append(action)
        count += 1
        if state.game_number != number and not state.is_over:
            games.append([])
    return [g for g in games if g]


@pytest.fixture
def long_moves_match() -> Callable[..., Match]:
    """``long_moves_match(actions, seed=0)``: an in-progress 15-point match of Alice and Bob with that many actions."""

    def make(actions: int, *, seed: int = 0) -> Match:
        return services.import_match(
            players=("Alice", "Bob"),
            length=15,
            variant="standard",
            crawford=True,
            games=simulated_games(actions, seed=seed),
            source="test",
        )

    return make
