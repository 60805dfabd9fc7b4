"""Fixtures of the tournaments service tests (the director ``dora``, ``as_director`` and ``division_of`` come from
tests/tournaments/conftest.py): the other people of the access rule, and the follow-ups of results run as after a
real commit."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Any

import pytest

from common.actor import Actor
from tests.factories import EventFactory, UserFactory


@pytest.fixture
def stranger(django_user_model: Any) -> Actor:
    """A logged-in user with no rights over anything."""
    return Actor(user=UserFactory(username="stan"))


@pytest.fixture
def other_director(django_user_model: Any) -> Actor:
    """The director of another event."""
    return Actor(user=EventFactory(director__username="otto", name="Other club night").directors.get())


@pytest.fixture
def committed(django_capture_on_commit_callbacks: Any) -> Callable[[], AbstractContextManager[Any]]:
    """``with committed():`` runs the block's on-commit callbacks when it ends, as a real commit would: games/
    signals a finished match, the receiver marks the standings pending and enqueues ``advance_division``, which
    runs at once (eager tasks) and moves the division on, then recomputes the standings and ratings."""

    @contextmanager
    def run() -> Iterator[Any]:
        with django_capture_on_commit_callbacks(execute=True) as callbacks:
            yield callbacks

    return run
