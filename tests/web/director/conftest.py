"""Fixtures of the directors' pages' tests: the cast besides the director ``dora`` (``otto`` directs another event,
``sam`` has an account and no event, ``stella`` is staff; tests also take them by name), a started Swiss
division of 8, a division still registering, a Swiss with its first round played (and its second paired), a
casual round robin."""

from __future__ import annotations

from typing import Any

import pytest

from common.actor import Actor
from games.access import new_entry_token
from tests.web.director.support import pairing_at, swiss_division, win
from tournaments import services
from tournaments.models import Division, Pairing


@pytest.fixture
def otto(django_user_model: Any) -> Any:
    """Directs another event."""
    user = django_user_model.objects.create_user("otto", password=None)
    services.create_event(actor=Actor(user=user), name="Otto's cup")
    return user


@pytest.fixture
def sam(django_user_model: Any) -> Any:
    """A user with an account and no event."""
    return django_user_model.objects.create_user("sam", password=None)


@pytest.fixture
def stella(django_user_model: Any) -> Any:
    return django_user_model.objects.create_user("stella", password=None, is_staff=True)


@pytest.fixture
def swiss(dora: Any) -> Division:
    return swiss_division(dora, 8)


@pytest.fixture
def registering(dora: Any) -> Division:
    actor = Actor(user=dora)
    event = services.create_event(actor=actor, name="Club night")
    division = services.create_division(
        event, actor=actor, settings=services.DivisionSettings(name="Open", format="single", seeding="manual")
    )
    services.register_player(division, actor=actor, name="Ann", seed=1)
    services.register_player(division, actor=actor, name="Ben")
    return division


@pytest.fixture
def round_one_played(swiss: Division, django_capture_on_commit_callbacks: Any) -> Division:
    """Round 1 played: side a won everywhere, every result confirmed by the opponent."""
    round_1 = list(Pairing.objects.filter(division=swiss, round__number=1).select_related("match"))
    with django_capture_on_commit_callbacks(execute=True):
        for p in round_1:
            win(p.match, side=0, actor=Actor(token=new_entry_token(p.match, 0)))
    with django_capture_on_commit_callbacks(execute=True):
        for p in round_1:
            services.confirm_result(p, actor=Actor(token=new_entry_token(p.match, 1)))
    return swiss


@pytest.fixture
def round_two(dora: Any, round_one_played: Division) -> Division:
    """... and round 2 paired."""
    services.pair_next_round(round_one_played, actor=Actor(user=dora))
    return round_one_played


@pytest.fixture
def casual(dora: Any) -> Division:
    """A started casual round robin of 4 (3-point scoresheet matches); round 1 table 1 has a game entered."""
    actor = Actor(user=dora)
    event = services.create_event(actor=actor, name="Beginners")
    settings = services.DivisionSettings(
        name="Casual", format="round-robin", entry_mode="scoresheet", match_length=3, casual=True
    )
    division = services.create_division(event, actor=actor, settings=settings)
    for i in range(1, 5):
        services.register_player(division, actor=actor, name=f"P{i}", rating=2000 - i)
    services.start_division(division, actor=actor)
    win(pairing_at(division, 1, 1).match, side=0, actor=actor, games_won=(1,))
    return division
