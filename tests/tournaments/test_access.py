"""Event directors direct their events' matches: games/ asks tournaments/ through its hooks."""

from __future__ import annotations

import pytest

from common.actor import Actor
from games import selectors
from games.access import is_director
from tournaments import services
from tournaments.models import Pairing

pytestmark = pytest.mark.django_db


@pytest.fixture
def private_match(as_director, division_of):
    event = services.create_event(actor=as_director, name="Closed club night", public=False)
    division = division_of("single", 2, event=event)
    services.start_division(division, actor=as_director)
    return Pairing.objects.select_related("match").get(division=division, key="main-1-0").match


def test_a_private_events_match_is_private_and_its_director_sees_and_directs_it(
    private_match, director, django_user_model
) -> None:
    outsider = django_user_model.objects.create_user(username="olaf", password=None)
    assert private_match.private
    assert private_match in selectors.matches_visible_to(director)
    assert private_match not in selectors.matches_visible_to(outsider)
    assert private_match not in selectors.matches_visible_to(None)
    assert is_director(director, private_match) and not is_director(outsider, private_match)


def test_a_co_director_added_later_directs_the_match_too(private_match, as_director, django_user_model) -> None:
    co = django_user_model.objects.create_user(username="cora", password=None)
    assert not is_director(co, private_match)
    event = private_match.pairing.division.event
    services.add_director(event, actor=as_director, user=co)
    assert is_director(co, private_match) and private_match in selectors.matches_visible_to(co)
    with pytest.raises(Exception, match="not a director"):
        services.add_director(event, actor=Actor(user=django_user_model.objects.create_user(username="x")), user=co)
