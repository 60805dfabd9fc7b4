"""The served OpenAPI document is one a client generator can use: JSON bodies (multipart only for an upload), OpenAPI
3.1 nullability, integer path ids, a named enum for every status, error code and action kind, typed settings, the
bodies the server needs marked required, every field an answer can hold, no parameter that does nothing, and
defaults the server accepts (tests/api/test_generated_client.py then builds a client from it and uses it)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from rest_framework.test import APIClient

from common.errors import ErrorCode
from tournaments.models import Event

pytestmark = pytest.mark.django_db

UPLOADS = {"/api/matches/import/", "/api/events/{event}/divisions/{division}/entries/import/"}


@pytest.fixture(scope="module")
def schema(django_db_blocker: Any) -> dict[str, Any]:
    with django_db_blocker.unblock():
        return APIClient().get("/api/schema/?format=json").json()


def operations(schema: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [(path, method, op) for path, ops in schema["paths"].items() for method, op in ops.items()]


def component(schema: dict[str, Any], ref_or_schema: dict[str, Any]) -> dict[str, Any]:
    """The schema behind a ``$ref`` (or an ``allOf`` of one), else the schema itself."""
    if "allOf" in ref_or_schema and len(ref_or_schema["allOf"]) == 1:
        ref_or_schema = ref_or_schema["allOf"][0]
    ref = ref_or_schema.get("$ref")
    return schema["components"]["schemas"][ref.rsplit("/", 1)[1]] if ref else ref_or_schema


def enum_of(schema: dict[str, Any], prop: dict[str, Any]) -> list[Any]:
    """The values a property may take when it is an enum (oneOf an enum and a blank or null one counts)."""
    parts = prop.get("oneOf", [prop])
    values: list[Any] = []
    for part in parts:
        resolved = component(schema, part)
        if resolved.get("type") == "null":
            values.append(None)
        else:
            assert "enum" in resolved, prop
            values.extend(resolved["enum"])
    return values


def test_it_is_openapi_3_1_so_that_nullability_needs_no_flag(schema: dict[str, Any]) -> None:
    assert schema["openapi"] == "3.1.0"
    assert '"nullable"' not in json.dumps(schema)


def test_request_bodies_are_json_and_multipart_only_for_uploads(schema: dict[str, Any]) -> None:
    bodies = [(path, op["requestBody"]) for path, _method, op in operations(schema) if "requestBody" in op]
    assert len(bodies) > 20
    for path, body in bodies:
        expected = {"multipart/form-data"} if path in UPLOADS else {"application/json"}
        assert set(body["content"]) == expected, path


def test_the_bodies_the_server_needs_are_marked_required(schema: dict[str, Any]) -> None:
    needed = {
        "/api/matches/{match_id}/actions/",
        "/api/events/{event}/divisions/{division}/entries/",
        "/api/events/{event}/divisions/{division}/entries/import/",
        "/api/players/",
        "/api/matches/",
    }
    for path, method, op in operations(schema):
        if path in needed and method == "post":
            assert op["requestBody"].get("required") is True, path


def test_path_ids_are_integers(schema: dict[str, Any]) -> None:
    seen = 0
    for path, _method, op in operations(schema):
        for parameter in op.get("parameters", []):
            if parameter["in"] == "path" and (parameter["name"] == "id" or parameter["name"].endswith("_id")):
                assert parameter["schema"]["type"] == "integer", (path, parameter)
                seen += 1
    assert seen > 20


def test_every_status_error_code_and_kind_is_a_named_enum(schema: dict[str, Any]) -> None:
    components = schema["components"]["schemas"]
    names = ("status", "standings_status", "confirmation", "decision", "code", "kind", "phase", "entry_mode")
    names += ("variant", "bracket", "format", "seeding")
    checked = set()
    for name, body in components.items():
        for prop_name, prop in body.get("properties", {}).items():
            if prop_name in names and prop.get("type") != "integer":  # a replacement's kind is the points 1..3
                assert enum_of(schema, prop), (name, prop_name)
                checked.add((name, prop_name))
    assert {("Match", "status"), ("Event", "status"), ("Pairing", "status"), ("Entry", "status")} <= checked
    assert {("ErrorDoc", "code"), ("ActionRow", "kind"), ("OpeningRollInputRequest", "kind")} <= checked
    assert {("LiveStateDoc", "variant"), ("Pairing", "bracket"), ("Division", "format")} <= checked
    assert set(enum_of(schema, components["ErrorDoc"]["properties"]["code"])) == {str(code) for code in ErrorCode}
    assert {"MatchStatusEnum", "EventStatusEnum", "DivisionStatusEnum", "PairingStatusEnum", "ErrorCodeEnum"} <= set(
        components
    )
    legal = components["LiveStateDoc"]["properties"]["legal_actions"]["items"]
    assert "play" in enum_of(schema, legal)


def test_settings_and_the_log_data_are_typed(schema: dict[str, Any]) -> None:
    division = schema["components"]["schemas"]["Division"]["properties"]
    assert division["round_lengths"]["type"] == "object"
    assert division["round_lengths"]["additionalProperties"]["type"] == "integer"
    assert division["tiebreaks"]["type"] == "array"
    assert "buchholz" in enum_of(schema, division["tiebreaks"]["items"])
    data = component(schema, schema["components"]["schemas"]["ActionRow"]["properties"]["data"])
    assert {"cube", "ended_by", "replacement"} <= set(data["properties"])


def test_the_staff_fields_of_a_player_are_documented(schema: dict[str, Any]) -> None:
    for path in ("/api/players/{id}/", "/api/players/"):
        answer = schema["paths"][path]["get"]["responses"]["200"]["content"]["application/json"]["schema"]
        player = component(schema, answer)
        if "results" in player.get("properties", {}):
            player = component(schema, player["properties"]["results"]["items"])
        assert {"contact", "user"} <= set(player["properties"]), path
        assert not {"contact", "user"} & set(player.get("required", [])), path


def test_export_advertises_no_format_parameter(schema: dict[str, Any]) -> None:
    parameters = schema["paths"]["/api/matches/{match_id}/export.mat"]["get"].get("parameters", [])
    assert [p["name"] for p in parameters] == ["match_id"]


def test_every_default_of_a_request_body_is_accepted(schema: dict[str, Any]) -> None:
    """A documented default satisfies the field's own constraints (``slug: ""`` had ``minLength: 1``)."""
    for name, body in schema["components"]["schemas"].items():
        for prop_name, prop in body.get("properties", {}).items():
            if prop.get("default") == "":
                assert prop.get("minLength", 0) == 0, (name, prop_name)


def test_an_event_is_created_with_the_documented_default_slug(django_user_model: Any) -> None:
    client = APIClient()
    client.force_login(django_user_model.objects.create_user("dora", password=None))
    created = client.post("/api/events/", {"name": "Club night", "slug": ""}, format="json")
    assert created.status_code == 201, created.json()
    assert Event.objects.get().slug == created.json()["slug"] == "club-night"
