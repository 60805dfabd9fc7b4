"""The weights of master points (an event's, a division's) and the places that earn placement points: set at
creation or later by a director (``set_points_weights``), each bad value refused saying why, nothing stored."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from common.actor import Actor
from common.errors import ApplicationError, ErrorCode
from tests.tournaments.services.support import snapshot
from tournaments import services
from tournaments.models import Division

pytestmark = pytest.mark.django_db


def test_weights_are_one_and_four_places_paid_unless_set(division_of: Callable[..., Division]) -> None:
    division = division_of("single", 4)
    assert (division.event.points_weight, division.points_weight, division.points_places) == (1.0, 1.0, 4)


def test_a_director_sets_them_later(division_of: Callable[..., Division], as_director: Actor) -> None:
    division = division_of("single", 4)
    event = services.set_points_weights(
        division.event, actor=as_director, weight=0.25, divisions={division.slug: (0.7, 8)}
    )
    division.refresh_from_db()
    assert (event.points_weight, division.points_weight, division.points_places) == (0.25, 0.7, 8)


@pytest.mark.parametrize(
    ("weight", "divisions", "message"),
    [
        (0.0, {}, "the event's weight for master points is 0.0: give a number above 0 and at most 10"),
        (float("nan"), {}, "the event's weight for master points is nan"),
        (None, {"nope": (1.0, 4)}, "has no division 'nope'"),
        (None, {"single-4": (-1.0, 4)}, "single-4's weight for master points is -1.0"),
        (None, {"single-4": (1.0, 0)}, "placement points go to 1-1024 places (4 by default), not 0"),
    ],
)
def test_bad_values_are_refused_and_nothing_is_stored(
    division_of: Callable[..., Division], as_director: Actor, weight: float | None, divisions: dict, message: str
) -> None:
    division = division_of("single", 4)
    before = snapshot()
    with pytest.raises(ApplicationError) as refused:
        services.set_points_weights(division.event, actor=as_director, weight=weight, divisions=divisions)
    assert refused.value.code is ErrorCode.INVALID_INPUT and message in refused.value.message
    assert snapshot() == before


def test_a_bad_weight_at_creation_is_refused(as_director: Actor) -> None:
    with pytest.raises(ApplicationError, match="the event's weight for master points is 20"):
        services.create_event(actor=as_director, name="Club night", points_weight=20)
    event = services.create_event(actor=as_director, name="Club night")
    settings = services.DivisionSettings(name="Open", format="single", points_places=0)
    with pytest.raises(ApplicationError, match="placement points go to 1-1024 places"):
        services.create_division(event, actor=as_director, settings=settings)


def test_only_its_directors_set_them(division_of: Callable[..., Division], other_director: Actor) -> None:
    division = division_of("single", 4)
    with pytest.raises(ApplicationError) as refused:
        services.set_points_weights(division.event, actor=other_director, weight=0.5)
    assert refused.value.code is ErrorCode.FORBIDDEN
