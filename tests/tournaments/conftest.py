"""Fixtures for the tournaments tests: eager Celery (tasks run in-process at commit, as with no broker), a
director, and a factory of divisions with registered players, all set up through the services."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from config.celery import app as celery_app
from games.access import Actor
from tournaments import services
from tournaments.models import Division


@pytest.fixture(autouse=True)
def eager_tasks(request: pytest.FixtureRequest) -> Iterator[None]:
    """Run tasks in-process unless the test is marked ``worker`` (CI configures a broker for the worker tests)."""
    if request.node.get_closest_marker("worker"):
        yield
        return
    old = celery_app.conf.task_always_eager, celery_app.conf.task_eager_propagates
    celery_app.conf.task_always_eager = celery_app.conf.task_eager_propagates = True
    try:
        yield
    finally:
        celery_app.conf.task_always_eager, celery_app.conf.task_eager_propagates = old


@pytest.fixture
def director(django_user_model: Any) -> Any:
    return django_user_model.objects.create_user(username="dora", password=None)


@pytest.fixture
def as_director(director: Any) -> Actor:
    return Actor(user=director)


@pytest.fixture
def division_of(as_director: Actor) -> Callable[..., Division]:
    """``division_of(format, players, **settings)``: an event with one division and ``players`` registered
    ("P01", "P02", ... with ratings 2000, 1990, ..., so seed k is P{k})."""

    def make(fmt: str, players: int, *, event: Any = None, **settings: Any) -> Division:
        event = event or services.create_event(actor=as_director, name="Club night")
        settings.setdefault("rounds_planned", 3 if fmt == "swiss" else 0)
        division = services.create_division(
            event,
            actor=as_director,
            settings=services.DivisionSettings(name=f"{fmt} {players}", format=fmt, **settings),
        )
        for i in range(1, players + 1):
            services.register_player(division, actor=as_director, name=f"P{i:02d}", rating=2010 - 10 * i)
        return division

    return make
