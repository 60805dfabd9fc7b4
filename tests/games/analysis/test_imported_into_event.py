"""An event's "analyse imported matches" setting: a .mat match imported into the event (``import_matches --event``)
is analysed by gnubg as it is imported, as ANALYSIS_IMPORTED does for every import."""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.core.management import CommandError, call_command

from games.models import Match, MatchAnalysis
from tests.conftest import tasks_run_eagerly
from tests.games.analysis.test_analyse_match import CUBE_MATCH
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
