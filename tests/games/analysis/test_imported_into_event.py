"""An event's "analyse imported matches" setting: a .mat match imported into the event (``import_matches --event``,
or the API's import with ``event``, its directors only) is analysed by gnubg as it is imported, as
ANALYSIS_IMPORTED does for every import."""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from rest_framework.test import APIClient

from games.models import Match, MatchAnalysis
from tests.conftest import tasks_run_eagerly
from tests.games.analysis.test_analyse_match import CUBE_MATCH
from tests.games.api.conftest import logged_in
from tournaments import services
from tournaments.models import Event, ImportedMatch

pytestmark = pytest.mark.django_db


def import_into(event: str) -> Match:
    call_command("import_matches", "--event", event, str(CUBE_MATCH), stdout=io.StringIO(), stderr=io.StringIO())
    return Match.objects.latest("id")


@pytest.mark.gnubg
@pytest.mark.parametrize("analyse_imported", [False, True])
def test_a_match_imported_into_an_event_is_analysed_when_the_event_says(
    settings: Any, django_capture_on_commit_callbacks: Any, as_director: Any, analyse_imported: bool
) -> None:
    settings.ANALYSIS_IMPORTED = False
    settings.ANALYSIS_PLIES = 0
    event = services.create_event(actor=as_director, name="Club night", analyse_imported=analyse_imported)
    with tasks_run_eagerly(), django_capture_on_commit_callbacks(execute=True):
        match = import_into(event.slug)
    assert match.status == Match.Status.FINISHED
    assert ImportedMatch.objects.filter(event=event, match=match).exists()
    analysis = MatchAnalysis.objects.filter(match=match).first()
    if analyse_imported:
        assert analysis is not None and analysis.status == MatchAnalysis.Status.DONE and analysis.plies == 0
        assert analysis.players.count() == 2
    else:
        assert analysis is None


@pytest.mark.gnubg
def test_another_events_setting_does_not_analyse_an_import(
    settings: Any, django_capture_on_commit_callbacks: Any, as_director: Any
) -> None:
    settings.ANALYSIS_IMPORTED = False
    services.create_event(actor=as_director, name="Analysed", analyse_imported=True)
    plain = services.create_event(actor=as_director, name="Plain")
    with tasks_run_eagerly(), django_capture_on_commit_callbacks(execute=True):
        match = import_into(plain.slug)
        call_command("import_matches", str(CUBE_MATCH), stdout=io.StringIO(), stderr=io.StringIO())
    loose = Match.objects.latest("id")
    assert loose.pk != match.pk
    assert not MatchAnalysis.objects.filter(match__in=[match, loose]).exists()


def test_an_unknown_event_is_refused_and_nothing_is_stored() -> None:
    with pytest.raises(CommandError, match=r"there is no event 'nope': give the address \(slug\) of an event"):
        import_into("nope")
    assert not Match.objects.exists() and not ImportedMatch.objects.exists()


def test_the_setting_is_off_by_default(as_director: Any) -> None:
    assert services.create_event(actor=as_director, name="Club night").analyse_imported is False
    assert Event._meta.get_field("analyse_imported").default is False


# -- the API's import into an event ----------------------------------------------------------------------------------

IMPORT_URL = "/api/matches/import/"


def api_import(client: Any, event: str | None) -> Any:
    data: dict[str, Any] = {"file": SimpleUploadedFile(CUBE_MATCH.name, CUBE_MATCH.read_bytes(), "text/plain")}
    if event is not None:
        data["event"] = event
    return client.post(IMPORT_URL, data, format="multipart")


@pytest.mark.gnubg
@pytest.mark.parametrize("analyse_imported", [False, True])
def test_the_api_imports_into_an_event_its_director_directs(
    settings: Any,
    django_capture_on_commit_callbacks: Any,
    as_director: Any,
    director: Any,
    analyse_imported: bool,
) -> None:
    settings.ANALYSIS_IMPORTED = False
    settings.ANALYSIS_PLIES = 0
    event = services.create_event(actor=as_director, name="Club night", analyse_imported=analyse_imported)
    with tasks_run_eagerly(), django_capture_on_commit_callbacks(execute=True):
        response = api_import(logged_in(director), event.slug)
    assert response.status_code == 201, response.content
    match = Match.objects.get(pk=response.json()["id"])
    assert ImportedMatch.objects.filter(event=event, match=match).exists()
    analysis = MatchAnalysis.objects.filter(match=match).first()
    if analyse_imported:
        assert analysis is not None and analysis.status == MatchAnalysis.Status.DONE
    else:
        assert analysis is None


def test_the_api_refuses_an_import_into_an_event_one_does_not_direct(as_director: Any, django_user_model: Any) -> None:
    event = services.create_event(actor=as_director, name="Club night")
    Event.objects.filter(pk=event.pk).update(public=True)
    other = logged_in(django_user_model.objects.create_user(username="olga"))
    response = api_import(other, event.slug)
    assert response.status_code == 403
    assert response.json()["code"] == "forbidden"
    assert response.json()["message"] == (
        "you are not a director of Club night: only its directors import matches into it (import without an "
        "event, or ask one of them)"
    )
    assert not Match.objects.exists() and not ImportedMatch.objects.exists()
    assert api_import(other, None).status_code == 201  # without an event, anyone logged in imports
    assert not ImportedMatch.objects.exists()


@pytest.mark.parametrize("public", [False, None], ids=["private-event-of-another", "unknown-event"])
def test_the_api_treats_an_event_one_may_not_see_as_unknown(
    as_director: Any, django_user_model: Any, public: bool | None
) -> None:
    slug = "nope"
    if public is not None:
        slug = services.create_event(actor=as_director, name="Hidden").slug
        Event.objects.filter(slug=slug).update(public=False)
    response = api_import(logged_in(django_user_model.objects.create_user(username="olga")), slug)
    assert response.status_code == 400
    assert response.json()["fields"]["event"] == [
        f"there is no event {slug!r}: give the address (slug) of an event you direct"
    ]
    assert not Match.objects.exists()


def test_an_anonymous_import_into_an_event_is_refused(as_director: Any) -> None:
    event = services.create_event(actor=as_director, name="Club night")
    assert api_import(APIClient(), event.slug).status_code == 401
    assert not Match.objects.exists()
