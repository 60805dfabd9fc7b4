"""Master points through the API (``/api/events/<event>/master-points/``): anyone who sees the event reads the same
object as ``manage.py master_points --json``; its directors set the weights and the places paid."""

from __future__ import annotations

import json
from collections.abc import Callable
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command
from rest_framework.test import APIClient

from common.actor import Actor
from tests.tournaments.api.conftest import logged_in
from tests.tournaments.services.support import played_main_consolation, snapshot
from tournaments.models import Division

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(division_of: Callable[..., Division], as_director: Actor) -> Division:
    division = division_of("main-consolation", 8, entry_mode="scoresheet", match_length=1)
    return played_main_consolation(division, as_director)


def url(division: Division) -> str:
    return f"/api/events/{division.event.slug}/master-points/"


def test_anyone_reads_what_the_command_prints(played: Division, anon: APIClient) -> None:
    answer = anon.get(url(played))
    assert answer.status_code == 200, answer.content
    out = StringIO()
    call_command("master_points", played.event.slug, "--system", "usbgf", "--json", stdout=out)
    assert answer.json() == json.loads(out.getvalue())
    rows = {p["name"]: p for p in answer.json()["players"]}
    # Main 1 P01 (3 main wins to 1 point): 3 x 1/3 + 0.6 x log2(8) = 2.8; consolation wins count as matches won.
    assert rows["P01"]["total"] == pytest.approx(2.8)
    assert rows["P05"]["match_wins"] == 2 and rows["P05"]["places"] == "5-8"  # the consolation's winner


def test_an_unknown_system_is_refused(played: Division, anon: APIClient) -> None:
    answer = anon.get(url(played) + "?system=fide")
    assert answer.status_code == 400
    assert "unknown points system 'fide': use usbgf" in answer.json()["message"]


def test_its_directors_set_the_weights(played: Division, director: Any, stranger: Any) -> None:
    body = {"event_weight": 0.5, "divisions": {played.slug: {"weight": 0.7, "places_paid": 8}}}
    before = snapshot()
    refused = logged_in(stranger).post(url(played), body, format="json")
    assert refused.status_code == 403 and snapshot() == before
    answer = logged_in(director).post(url(played), body, format="json")
    assert answer.status_code == 200, answer.content
    got = answer.json()
    assert got["event_weight"] == 0.5 and got["divisions"][0]["weight"] == 0.7
    assert got["divisions"][0]["places_paid"] == 8
    rows = {p["name"]: p for p in got["players"]}
    # 5-8 now share ranks 5-8's factors: (1/4 + 1/5 + 1/6 + 1/7) / 4, weighted 0.35, of 0.6 x log2(8).
    share = (1 / 4 + 1 / 5 + 1 / 6 + 1 / 7) / 4
    assert rows["P08"]["placement_points"] == pytest.approx(0.35 * 1.8 * share)
    bad = logged_in(director).post(url(played), {"divisions": {"nope": {"weight": 1}}}, format="json")
    assert bad.status_code == 400 and "has no division 'nope'" in bad.json()["message"]
