"""``make run``'s demo without GNU Backgammon: the product works, each finished match of the demo says analysis is
unavailable and why, and the command says how to get gnubg."""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.core.management import call_command

from games.models import MatchAnalysis
from tests.conftest import tasks_run_eagerly

pytestmark = pytest.mark.django_db


def test_the_demo_says_how_to_get_gnubg(settings: Any, django_capture_on_commit_callbacks: Any) -> None:
    settings.ANALYSIS_AUTO = True
    settings.GNUBG_PATH = "/nonexistent/gnubg"
    out = io.StringIO()
    with tasks_run_eagerly(), django_capture_on_commit_callbacks(execute=True):
        call_command("load_demo", stdout=out)
    assert "sudo apt-get install gnubg" in out.getvalue()
    statuses = set(MatchAnalysis.objects.values_list("status", flat=True))
    assert statuses == {MatchAnalysis.Status.UNAVAILABLE}
    assert MatchAnalysis.objects.count() >= 5
