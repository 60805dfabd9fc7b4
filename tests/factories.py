"""The suite's test data: people, players, events and divisions with their entries, made with factory_boy.

Users are plain rows (an account has no rule of its own); players, events and divisions are made through the
services (``games.services.create_player``, ``tournaments.services.create_event``, ``create_division`` and
``register_player``), so the data a test starts from obeys the same rules as what a director makes.

    dora = UserFactory(username="dora")
    division = DivisionFactory(event__director=dora, format="swiss", players=8, rounds_planned=3)
"""

from __future__ import annotations

from typing import Any

import factory
from django.contrib.auth import get_user_model

from common.actor import Actor
from games import services as games_services
from games.models import Player
from tournaments import services
from tournaments.models import Division, Event

__all__ = ["DivisionFactory", "EventFactory", "PlayerFactory", "UserFactory"]


class UserFactory(factory.django.DjangoModelFactory):
    """An account with no usable password unless ``password`` is given."""

    class Meta:
        model = get_user_model()

    username = factory.Sequence(lambda n: f"user{n}")
    is_staff = False

    @classmethod
    def _create(cls, model_class: Any, *args: Any, password: str | None = None, **kwargs: Any) -> Any:
        manager = cls._get_manager(model_class)
        return manager.create_user(*args, password=password, **kwargs)


class PlayerFactory(factory.django.DjangoModelFactory):
    """A player made by ``games.services.create_player`` (names checked as the pages check them)."""

    class Meta:
        model = Player

    display_name = factory.Sequence(lambda n: f"Player {n:03d}")
    club = ""
    country = ""
    contact = ""

    @classmethod
    def _create(cls, model_class: Any, *args: Any, **kwargs: Any) -> Player:
        return games_services.create_player(**kwargs)


class EventFactory(factory.django.DjangoModelFactory):
    """An event made by ``director`` (a new user unless given) through ``tournaments.services.create_event``."""

    class Meta:
        model = Event

    director = factory.SubFactory(UserFactory)
    name = "Club night"

    @classmethod
    def _create(cls, model_class: Any, *args: Any, director: Any, **kwargs: Any) -> Event:
        return services.create_event(actor=Actor(user=director), **kwargs)


class DivisionFactory(factory.django.DjangoModelFactory):
    """A division of ``format`` with ``players`` registered: "P01", "P02", ... rated 2000, 1990, ..., so seed k is
    P{k}; made by ``director`` (the event's first director unless given). Any other keyword is a
    ``DivisionSettings`` field (``rounds_planned`` is 3 for a Swiss unless given)."""

    class Meta:
        model = Division

    event = factory.SubFactory(EventFactory)
    director = factory.LazyAttribute(lambda o: o.event.directors.order_by("pk").first())
    format = "single"
    players = 8

    @classmethod
    def _create(
        cls, model_class: Any, *args: Any, event: Event, director: Any, format: str, players: int, **settings: Any
    ) -> Division:
        actor = Actor(user=director)
        settings.setdefault("rounds_planned", 3 if format == "swiss" else 0)
        settings.setdefault("name", f"{format} {players}")
        division = services.create_division(
            event, actor=actor, settings=services.DivisionSettings(format=format, **settings)
        )
        for i in range(1, players + 1):
            services.register_player(division, actor=actor, name=f"P{i:02d}", rating=2010 - 10 * i)
        return division
