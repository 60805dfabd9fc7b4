"""The API's decision list carries every figure of a decision the analysis stores, the cube decision before a
chequer play included (what not doubling gave away and the right cube action), each documented in the schema."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.management import call_command
from rest_framework.test import APIClient

from games.api.serializers import DecisionSerializer
from games.models import Decision
from tests.games.analysis.test_analyse_match import HUMAN_MATCH, import_mat

pytestmark = pytest.mark.django_db

CUBE_ACTIONS = {"no double", "double, take", "double, pass", "too good to double, take", "too good to double, pass"}


@pytest.mark.gnubg
def test_the_decision_list_has_the_cube_decision_before_each_play(client: Any) -> None:
    if not HUMAN_MATCH.exists():
        pytest.skip(f"the shared match-log corpus is missing: {HUMAN_MATCH}")
    match = import_mat(HUMAN_MATCH)
    call_command("analyse_match", str(match.pk))
    answer = client.get(f"/api/matches/{match.pk}/analysis/").json()
    stored = {(d.game_number, d.turn): d for d in Decision.objects.filter(analysis__match=match)}
    assert len(answer["decisions"]) == len(stored)
    for item in answer["decisions"]:
        row = stored[(item["game_number"], item["turn"])]
        assert (item["cube_equity_lost"], item["cube_best"], item["cube_mark"]) == (
            row.cube_equity_lost,
            row.cube_best,
            row.cube_mark,
        )
    plays = [d for d in answer["decisions"] if d["kind"] == "move"]
    assert {d["cube_best"] for d in plays if d["cube_best"]} <= CUBE_ACTIONS
    missed = [d for d in plays if d["cube_mark"]]
    assert missed and all(d["cube_best"].startswith("double") and d["cube_equity_lost"] > 0 for d in missed)
    actions = [d for d in answer["decisions"] if d["kind"] != "move"]
    assert actions and {d["best"] for d in actions} <= CUBE_ACTIONS


def test_every_stored_figure_of_a_decision_is_in_the_api_and_described() -> None:
    stored = {f.name for f in Decision._meta.concrete_fields} - {"id", "analysis"}
    assert stored == set(DecisionSerializer.Meta.fields)
    schema = APIClient().get("/api/schema/?format=json").json()["components"]["schemas"]["Decision"]
    for name in ("cube_equity_lost", "cube_best", "cube_mark", "best", "equity_lost"):
        assert schema["properties"][name].get("description"), name
    assert "too good to double" in schema["properties"]["cube_best"]["description"]
