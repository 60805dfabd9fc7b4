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
        "/api/events/{event}/tables/",
        "/api/events/{event}/tables/{number}/hold/",
        "/api/events/{event}/tables/{number}/release/",
        DIVISION,
        DIVISION + "entries/",
        DIVISION + "entries/import/",
        DIVISION + "entries/{entry_id}/check-in/",
        DIVISION + "entries/{entry_id}/seed/",
        DIVISION + "entries/{entry_id}/player/",
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
        "/api/pairings/{pairing_id}/table/",
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
    tables = schema["paths"]["/api/events/{event}/tables/"]
    assert set(tables) >= {"get", "post"}
    venue = schema["components"]["schemas"]["Venue"]["properties"]
    assert set(venue) == {"tables_given", "tables", "queue"}
    table = schema["components"]["schemas"]["VenueTable"]["properties"]
    assert set(table) == {"number", "name", "label", "held", "state", "division", "pairing"}
    assert schema["components"]["schemas"]["TableStateEnum"]["enum"] == ["free", "called", "playing"]
    given = schema["components"]["schemas"]["TablesInputRequest"]["properties"]
    assert set(given) == {"count", "names", "as_needed"} and given["count"]["maximum"] == 500
    seat = schema["paths"]["/api/pairings/{pairing_id}/table/"]["post"]
    assert set(seat["responses"]) >= {"200", "400", "401", "403", "404", "409"}
    codes = schema["components"]["schemas"]["ErrorCodeEnum"]["enum"]
    assert {"unknown_table", "table_occupied", "match_not_ready"} <= set(codes)


def test_the_schema_validates_without_warnings(tmp_path: Path) -> None:
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(tmp_path / "schema.yml"))
    text = (tmp_path / "schema.yml").read_text()
    assert "/api/events/{event}/divisions/{division}/pairings/:" in text
    assert "bye_rule:" in text and "standings_status:" in text


def test_the_schema_describes_each_status_in_the_words_of_the_pages(anon: APIClient) -> None:
    """A status enum's description lists its values with the models' labels, the words every page shows
    (tournaments/pages/words.py keeps no second table)."""
    schema = anon.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    enums = schema["components"]["schemas"]
    assert "* `running` - in play" in enums["DivisionStatusEnum"]["description"]
    assert "* `draft` - in preparation" in enums["EventStatusEnum"]["description"]
    assert "* `checked_in` - checked in" in enums["EntryStatusEnum"]["description"]
    assert "* `empty` - not needed" in enums["PairingStatusEnum"]["description"]
