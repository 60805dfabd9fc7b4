"""close_event: refused while a division runs (naming it); the directors' dashboard offers it."""

from __future__ import annotations

import pytest
from django.test import Client

from common.errors import ApplicationError, ErrorCode
from tournaments import services
from tournaments.models import Event
from tournaments.simulation import run_division

pytestmark = pytest.mark.django_db


def test_an_event_closes_only_when_no_division_runs(division_of, as_director) -> None:
    import random

    division = division_of("single", 4, entry_mode="scoresheet")
    event = division.event
    services.start_division(division, actor=as_director)
    with pytest.raises(ApplicationError) as info:
        services.close_event(event, actor=as_director)
    assert info.value.code is ErrorCode.CONFLICT and division.name in info.value.message
    assert Event.objects.get(pk=event.pk).status == Event.Status.RUNNING
    division_of("swiss", 4, event=event)  # a side event never started stays as it is
    run_division(division, as_director, random.Random(1))
    event.refresh_from_db()
    services.close_event(event, actor=as_director)
    assert Event.objects.get(pk=event.pk).status == Event.Status.FINISHED


def test_the_dashboard_closes_the_event(division_of, director) -> None:
    event = division_of("swiss", 2).event
    client = Client()
    client.force_login(director)
    response = client.post(f"/manage/{event.slug}/", {"action": "close-event"}, follow=True)
    assert response.status_code == 200 and "The event is closed." in response.content.decode()
    assert Event.objects.get(pk=event.pk).status == Event.Status.FINISHED


def test_a_closed_event_takes_no_new_division(division_of, as_director, director) -> None:
    event = division_of("swiss", 2).event
    services.close_event(event, actor=as_director)
    event.refresh_from_db()
    divisions = event.divisions.count()
    with pytest.raises(ApplicationError) as info:
        services.create_division(
            event, actor=as_director, settings=services.DivisionSettings(name="Late side event", format="single")
        )
    assert info.value.code is ErrorCode.CONFLICT and "closed" in info.value.message
    assert event.divisions.count() == divisions
    client = Client()
    client.force_login(director)
    page = client.get(f"/manage/{event.slug}/").content.decode()
    assert "The event is closed: it takes no new division." in page and "create-division" not in page
