"""A director asks for a match's analysis on the directors' match page, and sees its outcome there."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from games.models import MatchAnalysis
from tests.conftest import tasks_run_eagerly
from tournaments import services
from tournaments.models import Pairing

pytestmark = pytest.mark.django_db


def finished_pairing(division_of: Any, as_director: Any, drive: Any) -> Pairing:
    division = division_of("swiss", 2, match_length=1, rounds_planned=1)
    services.start_division(division, actor=as_director)
    pairing = Pairing.objects.select_related("match", "division__event").get(division=division)
    driver = drive(pairing.match)
    while not driver.is_over:
        driver.play_out()
    return pairing


@pytest.mark.parametrize("installed", [False, pytest.param(True, marks=pytest.mark.gnubg)])
def test_a_director_asks_for_the_analysis(
    division_of: Any,
    as_director: Any,
    director: Any,
    drive: Any,
    settings: Any,
    django_capture_on_commit_callbacks: Any,
    installed: bool,
) -> None:
    if not installed:
        settings.GNUBG_PATH = "/nonexistent/gnubg"
    pairing = finished_pairing(division_of, as_director, drive)
    client = Client()
    client.force_login(director)
    url = f"/manage/{pairing.division.event.slug}/{pairing.division.slug}/match/{pairing.key}/"
    assert "Not analysed yet" in client.get(url).content.decode()
    with tasks_run_eagerly(), django_capture_on_commit_callbacks(execute=True):
        response = client.post(url, {"action": "analyse"})
    assert response.status_code == 302
    analysis = MatchAnalysis.objects.get(match=pairing.match)
    page = client.get(url).content.decode()
    if installed:
        assert analysis.status == MatchAnalysis.Status.DONE
        for row in analysis.players.all():
            assert f"PR {row.pr:.2f}" in page
    else:
        assert analysis.status == MatchAnalysis.Status.UNAVAILABLE
        assert "analysis unavailable: GNU Backgammon is not installed at /nonexistent/gnubg" in page
