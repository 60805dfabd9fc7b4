"""Asking for an analysis through the API (``POST /api/matches/ID/analysis/``): a match with no play yet is
refused with a clear error and an exception's text never reaches the analysis status anyone reads; one job per
match while one is pending (a new depth replaces the pending request); a depth above the site's only for staff and
the directors of the match's event; a per-account rate; and a 202 that does not pass an earlier analysis's figures
off as current."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import pytest
from rest_framework.test import APIClient

from common.actor import SYSTEM, Actor
from games import services
from games.analysis import service as analysis_service
from games.models import Match, MatchAnalysis, PlayerAnalysis
from tests.conftest import tasks_run_eagerly
from tests.games.analysis.test_analyse_match import stand_in

pytestmark = pytest.mark.django_db


@pytest.fixture
def dora(director: Any) -> Any:
    return director


def client_of(user: Any) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def new_match(director: Any, *, plays: int = 1) -> Match:
    """A 3-point match started by ``director``: the opening roll, and its play unless ``plays`` is 0."""
    match = services.start_match(
        player1=services.create_player(display_name="Alice"),
        player2=services.create_player(display_name="Bob"),
        length=3,
        created_by=director,
    )
    services.record_opening_roll(match.pk, actor=SYSTEM, dice=(3, 1), expected_seq=0)
    if plays:
        services.record_play(match.pk, actor=SYSTEM, side=0, play="8/5 6/5", expected_seq=1)
    return match


def url(match: Match) -> str:
    return f"/api/matches/{match.pk}/analysis/"


# -- an unfinished match ---------------------------------------------------------------------------------------------


def test_a_match_with_no_play_yet_is_refused_with_a_clear_error(
    dora: Any, django_capture_on_commit_callbacks: Any
) -> None:
    """gnubg failed three times on it with "AttributeError: 'NoneType' object has no attribute 'get'", which
    anonymous visitors read in the analysis status."""
    match = new_match(dora, plays=0)
    with django_capture_on_commit_callbacks() as queued:
        answer = client_of(dora).post(url(match), {}, format="json")
    assert answer.status_code == 409, answer.content
    assert answer.json()["message"] == (
        f"there is nothing to analyse yet: no play of match {match.pk} has been entered; ask again once the players "
        "have moved"
    )
    assert not queued and not MatchAnalysis.objects.exists()


def test_gnubgs_error_text_is_never_shown(settings: Any, tmp_path: Path, dora: Any) -> None:
    """What gnubg's Python raised goes to the worker's log; the status says that it failed, in words."""
    error = "AttributeError: 'NoneType' object has no attribute 'get'"
    settings.GNUBG_PATH = stand_in(
        tmp_path,
        f'echo \'@@bgmatch {{"ready": true}}\'\nread request\necho \'@@bgmatch {{"ok": false, "error": "{error}"}}\'',
    )
    settings.ANALYSIS_ATTEMPTS = 1
    match = new_match(dora)
    with pytest.raises(analysis_service.AnalysisFailedError):
        analysis_service.analyse_match(match.pk)
    seen = APIClient().get(url(match)).json()
    assert seen["status"] == "failed"
    assert seen["error"] == "GNU Backgammon could not analyse this match (its error is in the worker's log)"


@pytest.mark.gnubg
def test_a_match_under_way_is_analysed_as_far_as_it_went(dora: Any, django_capture_on_commit_callbacks: Any) -> None:
    match = new_match(dora)
    with tasks_run_eagerly(), django_capture_on_commit_callbacks(execute=True):
        answer = client_of(dora).post(url(match), {}, format="json")
    assert answer.status_code == 202, answer.content
    seen = APIClient().get(url(match)).json()
    assert (seen["status"], seen["error"], seen["current"]) == ("done", "", True)
    assert [p["unforced_moves"] for p in seen["players"]] == [1, 0]


# -- one job per match, the depth, the rate ---------------------------------------------------------------------------


def test_one_job_per_match_while_one_is_pending_and_a_new_depth_replaces_it(
    dora: Any, settings: Any, django_capture_on_commit_callbacks: Any
) -> None:
    """40 requests alternating 4 and 0 plies queued 38 jobs: now the first queues one, the others only change the
    depth it will do (the last asked for)."""
    settings.ANALYSIS_PLIES = 4
    match = new_match(dora)
    client = client_of(dora)
    with django_capture_on_commit_callbacks() as queued:
        answers = [client.post(url(match), {"plies": 4 if n % 2 else 0}, format="json") for n in range(10)]
    assert {a.status_code for a in answers} == {202}
    assert len(queued) == 1, "one job for the match"
    analysis = MatchAnalysis.objects.get(match=match)
    assert (analysis.status, analysis.requested_plies) == ("pending", 4)
    assert answers[-1].json()["requested_plies"] == 4


def test_an_analysis_of_the_log_as_it_stands_is_left_as_it_is_and_another_depth_replaces_it(
    dora: Any, django_capture_on_commit_callbacks: Any
) -> None:
    """The request's upsert writes nothing over an analysis done of the log as it stands at the depth asked (no job);
    asked at another depth, the analysis is pending again, its figures kept until the job replaces them, and a job
    is queued; and a request pending for longer than a job can take is enqueued again."""
    match = Match.objects.get(pk=new_match(dora).pk)
    done = MatchAnalysis.objects.create(
        match=match,
        status="done",
        plies=0,
        engine="gnubg 1.07",
        match_seq=match.seq,
        format_version=MatchAnalysis.FORMAT_VERSION,
    )
    with django_capture_on_commit_callbacks() as queued:
        same = analysis_service.request_analysis(match.pk, plies=0)
    assert queued == [] and (same.pk, same.status, same.requested_at) == (done.pk, "done", done.requested_at)

    with django_capture_on_commit_callbacks() as queued:
        deeper = analysis_service.request_analysis(match.pk, plies=2)
    assert len(queued) == 1 and (deeper.pk, deeper.status, deeper.requested_plies) == (done.pk, "pending", 2)
    assert (deeper.engine, deeper.plies, deeper.match_seq) == ("gnubg 1.07", 0, match.seq), "figures kept"

    MatchAnalysis.objects.filter(pk=done.pk).update(requested_at=deeper.requested_at - dt.timedelta(days=1))
    with django_capture_on_commit_callbacks() as queued:
        again = analysis_service.request_analysis(match.pk, plies=2)
    assert len(queued) == 1, "a request pending for a day lost its job: enqueued again"
    assert again.requested_at > deeper.requested_at


def test_the_job_does_the_request_as_it_stands_when_it_runs(dora: Any, monkeypatch: Any) -> None:
    """A new depth asked for while the job waits or runs is the one stored; the job runs again for it."""
    match = new_match(dora)
    done: list[int] = []

    def analyse(match_id: int, *, plies: int | None = None, request: Any = None) -> MatchAnalysis:
        done.append(plies or 0)
        if len(done) == 1:  # asked again at 2 plies while gnubg was analysing at 0
            analysis_service.request_analysis(match_id, plies=2)
        analysis = MatchAnalysis.objects.get(match_id=match_id)
        if analysis.requested_at == request:
            analysis.status, analysis.plies, analysis.match_seq = "done", plies, match.seq + 0
            analysis.save()
        return analysis

    monkeypatch.setattr(analysis_service, "analyse_match", analyse)
    analysis_service.request_analysis(match.pk, plies=0)
    assert analysis_service.run_requested(match.pk, 0).status == "done"
    assert done == [0, 2] and MatchAnalysis.objects.get(match=match).plies == 2


def test_a_depth_above_the_sites_is_for_staff_and_the_events_directors(
    dora: Any, django_user_model: Any, settings: Any, django_capture_on_commit_callbacks: Any, division_of: Any
) -> None:
    settings.ANALYSIS_PLIES = 0
    match = new_match(dora)  # dora created it: she directs the match, not an event it belongs to
    with django_capture_on_commit_callbacks() as queued:
        deep = client_of(dora).post(url(match), {"plies": 4}, format="json")
        assert deep.status_code == 403, deep.content
        assert (
            "deeper than 0 plies (this site's depth) is for staff and the directors of an event"
            in deep.json()["message"]
        )
        assert client_of(dora).post(url(match), {"plies": 0}, format="json").status_code == 202
    assert len(queued) == 1
    staff = django_user_model.objects.create_user("sam", password=None, is_staff=True)
    assert client_of(staff).post(url(match), {"plies": 2}, format="json").status_code == 202
    from tournaments import services as tournaments
    from tournaments.models import Pairing

    division = division_of("swiss", 2, match_length=1, rounds_planned=1)
    tournaments.start_division(division, actor=Actor(user=dora))
    pairing = Pairing.objects.get(division=division)
    services.record_opening_roll(pairing.match_id, actor=SYSTEM, dice=(3, 1), expected_seq=pairing.match.seq)
    services.record_play(pairing.match_id, actor=SYSTEM, side=0, play="8/5 6/5", expected_seq=pairing.match.seq + 1)
    event_match = Match.objects.get(pk=pairing.match_id)
    assert client_of(dora).post(url(event_match), {"plies": 2}, format="json").status_code == 202


def test_requests_for_analyses_are_rated_per_account(dora: Any, settings: Any) -> None:
    settings.API_RATE_ANALYSIS = "3/hour"
    matches = [new_match(dora) for _ in range(4)]
    client = client_of(dora)
    answers = [client.post(url(m), {}, format="json").status_code for m in matches]
    assert answers == [202, 202, 202, 429]
    assert client.get(url(matches[0])).status_code == 200, "reading is not counted"


# -- the answer ----------------------------------------------------------------------------------------------------


def test_the_202_does_not_carry_an_earlier_analysis_as_current(dora: Any, settings: Any) -> None:
    settings.ANALYSIS_PLIES = 2
    match = new_match(dora)
    earlier = MatchAnalysis.objects.create(
        match=match, status="done", plies=0, match_seq=match.seq, format_version=MatchAnalysis.FORMAT_VERSION
    )
    for side, player in ((0, match.player1), (1, match.player2)):
        PlayerAnalysis.objects.create(
            analysis=earlier,
            side=side,
            player=player,
            unforced_moves=1,
            chequer_error=0.5,
            close_cube_decisions=0,
            cube_error=0.0,
            luck=0.0,
            pr=250.0,
        )
    answer = client_of(dora).post(url(Match.objects.get(pk=match.pk)), {"plies": 2}, format="json")
    assert answer.status_code == 202, answer.content
    body = answer.json()
    assert (body["status"], body["current"], body["requested_plies"]) == ("pending", False, 2)
    assert body["players"] == [] and body["decisions"] == []
    read = APIClient().get(url(match)).json()
    assert read["current"] is False and len(read["players"]) == 2, "the earlier figures, not as current"
    again = client_of(dora).post(url(match), {"plies": 0}, format="json")  # pending: replaced, not redone
    assert again.status_code == 202 and again.json()["requested_plies"] == 0


def test_failures_stored_with_gnubgs_error_text_now_say_it_in_words(dora: Any) -> None:
    """Analyses that failed before this change kept the Python error text; the migration words them as new ones."""
    from importlib import import_module

    from django.apps import apps

    match = new_match(dora)
    MatchAnalysis.objects.create(
        match=match, status="failed", error="GNU Backgammon reported: AttributeError: 'NoneType' object"
    )
    import_module("games.migrations.0015_analysis_errors_in_words").in_words(apps, None)
    seen = APIClient().get(url(match)).json()
    assert seen["error"] == "GNU Backgammon could not analyse this match (its error is in the worker's log)"
