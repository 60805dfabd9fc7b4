"""A division's per-round lengths name their rounds by bracket: every bracket a round can be in is accepted, anything
else is refused with the words to use, and nothing is stored."""

from __future__ import annotations

from typing import Any

import pytest

from common.errors import ApplicationError
from tests.factories import EventFactory
from tournaments import services
from tournaments.models import Division

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "key", ["knockout:final", "main:1", "consolation:final", "last-chance:2", "swiss:3", "round-robin:1"]
)
def test_every_bracket_names_a_round(director: Any, as_director: Any, key: str) -> None:
    event = EventFactory(director=director)
    settings = services.DivisionSettings(name="Open", format="single", match_length=3, round_lengths={key: 5})
    division = services.create_division(event, actor=as_director, settings=settings)
    assert list(division.round_lengths.values()) == [5]


def test_an_unknown_bracket_is_refused_with_the_words_to_use(director: Any, as_director: Any) -> None:
    event = EventFactory(director=director)
    settings = services.DivisionSettings(name="Open", format="single", match_length=3, round_lengths={"quarter:1": 5})
    with pytest.raises(ApplicationError, match="start with knockout \\(or main\\), consolation, last-chance, swiss"):
        services.create_division(event, actor=as_director, settings=settings)
    assert not Division.objects.filter(event=event).exists()
