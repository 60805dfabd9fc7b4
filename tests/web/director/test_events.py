"""The director's events and an event's dashboard (tournaments/director/views/events.py): the events one directs,
the forms that create an event and a division, and an event's directors added and removed (never the last)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import override_settings

from common.actor import Actor
from tests.web.director.support import check_html, client_for, refused, swiss_division, text_of
from tournaments import services
from tournaments.models import Division, Event

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_tasks")]


@pytest.mark.parametrize("who", ["dora", "stella"])
def test_the_events_list_shows_what_one_directs(who: str, request: pytest.FixtureRequest, otto: Any) -> None:
    mine = swiss_division(request.getfixturevalue("dora"), 2, name="Dora's night").event
    page = text_of(client_for(request.getfixturevalue(who)).get("/manage/"))
    assert mine.name.replace("'", "&#x27;") in page
    assert ("Otto&#x27;s cup" in page) == (who == "stella")
    check_html(page)


def test_a_user_without_events_sees_an_empty_list_and_the_form(sam: Any, swiss: Division) -> None:
    page = text_of(client_for(sam).get("/manage/"))
    assert "You do not direct any event yet" in page and "Club night" not in page
    assert 'name="create-event-name"' in page
    assert 'name="create-event-analyse_imported"' in page and "Analyse imported matches" in page


def test_the_event_form_turns_on_the_analysis_of_imported_matches(sam: Any) -> None:
    created = client_for(sam).post(
        "/manage/",
        {"action": "create-event", "create-event-name": "Imports", "create-event-time_zone": "UTC",
         "create-event-analyse_imported": "on"},
    )  # fmt: skip
    assert created.status_code == 302 and created["Location"] == "/manage/imports/"
    assert Event.objects.get(slug="imports").analyse_imported is True


def test_a_division_with_unknown_settings_is_refused(dora: Any, registering: Division) -> None:
    page = refused(
        client_for(dora),
        f"/manage/{registering.event.slug}/",
        {"action": "create-division", "create-division-name": "Side", "create-division-format": "swiss",
         "create-division-match_length": "5", "create-division-variant": "standard",
         "create-division-entry_mode": "moves", "create-division-seeding": "rating",
         "create-division-tiebreaks": "buchholz, coin-toss", "create-division-rounds_planned": "4",
         "create-division-last_chance_places": "0"},
        "unknown tie-break &#x27;coin-toss&#x27;",
    )  # fmt: skip
    assert 'value="buchholz, coin-toss"' in page and '<details class="panel" open>' in page


def test_an_event_keeps_one_director(dora: Any, registering: Division) -> None:
    refused(
        client_for(dora),
        f"/manage/{registering.event.slug}/",
        {"action": "remove-director", "target": dora.pk},
        "an event keeps at least one director: add another one first",
        status=409,
    )


def test_directors_are_added_and_removed(dora: Any, sam: Any, registering: Division) -> None:
    client, url = client_for(dora), f"/manage/{registering.event.slug}/"
    refused(client, url, {"action": "add-director", "add-director-username": "nobody"}, "There is no user “nobody”.")
    assert client.post(url, {"action": "add-director", "add-director-username": "sam"}).status_code == 302
    assert set(registering.event.directors.all()) == {dora, sam}
    assert client_for(sam).get(url).status_code == 200
    assert client.post(url, {"action": "remove-director", "target": sam.pk}).status_code == 302
    assert list(registering.event.directors.all()) == [dora]
    assert client_for(sam).get(url).status_code == 403


def test_the_division_form_as_it_comes_adds_a_division_that_can_start(dora: Any) -> None:
    event = services.create_event(actor=Actor(user=dora), name="Spring open")
    client, url = client_for(dora), f"/manage/{event.slug}/"
    page = text_of(client.get(url))
    data: dict[str, Any] = {"action": "create-division"}
    for name, value in re.findall(r'name="(create-division-[a-z_]+)"[^>]*value="([^"]*)"', page):
        data[name] = value
    for name, value in re.findall(
        r'<select name="(create-division-[a-z_]+)"[^>]*>.*?<option value="([^"]*)" selected', page, re.S
    ):
        data[name] = value
    data["create-division-name"] = "Open"
    data["create-division-crawford"] = "on"
    response = client.post(url, data)
    assert response.status_code == 302, text_of(response)
    division = Division.objects.get(event=event)
    assert division.format == "swiss" and division.rounds_planned >= 1


def test_the_event_forms_time_zone_starts_at_the_sites_and_lists_only_real_places(dora: Any) -> None:
    with override_settings(TIME_ZONE="Europe/Oslo"):
        html = client_for(dora).get("/manage/").content.decode()
    select = html[html.index('name="create-event-time_zone"') :]
    select = select[: select.index("</select>")]
    assert '<option value="Europe/Oslo" selected>' in select
    assert '<option value="UTC">' in select and '<option value="America/New_York">' in select
    for alias in ("Factory", "localtime", "US/Eastern", "Etc/GMT+1", "GB", "posixrules"):
        assert f'<option value="{alias}"' not in select


def test_the_event_form_s_first_day_is_today(dora: Any) -> None:
    """An event made without dates showed "dates to be announced" on its pages for good: a club night is today's."""
    from django.utils import timezone

    html = client_for(dora).get("/manage/").content.decode()
    first_day = html[html.index('name="create-event-starts_on"') :]
    assert f'value="{timezone.localdate().isoformat()}"' in first_day[: first_day.index(">")]
    last_day = html[html.index('name="create-event-ends_on"') :]
    assert "value=" not in last_day[: last_day.index(">")]


def test_the_dashboard_says_no_match_is_at_a_table_before_the_start(dora: Any, registering: Division) -> None:
    """ "Every match at a table has started" was said before anything was drawn, and after the event was over."""
    page = text_of(client_for(dora).get(f"/manage/{registering.event.slug}/"))
    assert "No call is waiting: no match is at a table." in page
    assert "every match at a table has started" not in page


def test_the_only_director_is_not_offered_to_remove_himself(dora: Any, django_user_model: Any) -> None:
    division = swiss_division(dora, 4)
    client, url = client_for(dora), f"/manage/{division.event.slug}/"
    page = text_of(client.get(url))
    directors = page[page.index('id="directors-heading"') : page.index("Add the director")]
    assert 'value="remove-director"' not in directors
    assert "the only director: add another one before leaving the event" in directors
    django_user_model.objects.create_user("erik", password=None)
    assert client.post(url, {"action": "add-director", "add-director-username": "erik"}).status_code == 302
    page = text_of(client.get(url))
    directors = page[page.index('id="directors-heading"') : page.index("Add the director")]
    assert directors.count('value="remove-director"') == 2 and "the only director" not in directors
