"""The OpenAPI schema describes the tournaments API and still builds without warnings."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.core.management import call_command
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db

DIVISION = "/api/events/{event}/divisions/{division}/"


def test_the_schema_lists_the_tournaments_endpoints(anon: APIClient) -> None:
    schema = anon.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    paths = set(schema["paths"])
    assert {
        "/api/events/",
        "/api/events/{event}/",
        "/api/events/{event}/directors/",
        "/api/events/{event}/divisions/",
        "/api/events/{event}/queue/",
        DIVISION,
        DIVISION + "entries/",
        DIVISION + "entries/import/",
        DIVISION + "entries/{entry_id}/check-in/",
        DIVISION + "entries/{entry_id}/seed/",
        DIVISION + "entries/{entry_id}/withdraw/",
        DIVISION + "rounds/",
        DIVISION + "pairings/",
        DIVISION + "standings/",
        DIVISION + "payouts/",
        DIVISION + "start/",
        DIVISION + "pair-next-round/",
        DIVISION + "close-last-chance/",
        DIVISION + "swap/",
        DIVISION + "recompute/",
        "/api/pairings/{pairing_id}/confirm/",
        "/api/pairings/{pairing_id}/dispute/",
        "/api/pairings/{pairing_id}/forfeit/",
        "/api/rating-lists/{slug}/",
        "/api/rating-lists/{slug}/players/{player_id}/history/",
        "/api/players/{player_id}/next-match/",
        "/api/entry-links/next-match/",
    } <= paths
    pairings = schema["paths"][DIVISION + "pairings/"]["get"]
    assert {p["name"] for p in pairings["parameters"]} >= {"event", "division", "bracket", "round"}
    imports = schema["paths"][DIVISION + "entries/import/"]["post"]["requestBody"]["content"]
    assert set(imports) == {"multipart/form-data"}  # a file upload; JSON `csv` text is read but not advertised
    assert "202" in schema["paths"][DIVISION + "recompute/"]["post"]["responses"]
    payouts = schema["paths"][DIVISION + "payouts/"]
    assert set(payouts) >= {"get", "post"} and "403" in payouts["get"]["responses"]
    body = schema["components"]["schemas"]["PayoutsInputRequest"]
    assert body["required"] == ["mode"], "mode is the one field without a default"
    prizes = body["properties"]["flights"]["additionalProperties"]["items"]
    assert prizes["type"] == "number", "a prize is a JSON number, as the strict field takes it"
    assert body["properties"]["pool"]["type"] == ["number", "null"]


def test_the_schema_validates_without_warnings(tmp_path: Path) -> None:
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(tmp_path / "schema.yml"))
    text = (tmp_path / "schema.yml").read_text()
    assert "/api/events/{event}/divisions/{division}/pairings/:" in text
    assert "bye_rule:" in text and "standings_status:" in text
