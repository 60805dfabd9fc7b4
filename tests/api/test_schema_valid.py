"""The served schema is valid OpenAPI 3.1 as openapi-spec-validator reads it (a generated client and CI validate it
with that tool): no default that breaks its own field's pattern, no reference to nothing."""

from __future__ import annotations

from typing import Any

import pytest
from openapi_spec_validator import OpenAPIV31SpecValidator
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def schema(django_db_blocker: Any) -> dict[str, Any]:
    with django_db_blocker.unblock():
        return APIClient().get("/api/schema/?format=json").json()


def test_the_served_schema_passes_openapi_spec_validator(schema: dict[str, Any]) -> None:
    errors = [
        f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in OpenAPIV31SpecValidator(schema).iter_errors()
    ]
    assert errors == []


ANONYMOUS_READS = (
    "events_list",
    "events_divisions_entries_list",
    "events_divisions_payouts_retrieve",
    "matches_analysis_retrieve",
    "players_list",
)


def test_the_reads_anyone_may_make_need_no_credentials(schema: dict[str, Any]) -> None:
    """A read open to anonymous callers carries the empty security requirement, so a generated client does not
    demand a token there; a write next to it still needs one."""
    by_id = {op["operationId"]: op for ops in schema["paths"].values() for op in ops.values()}
    for operation_id in ANONYMOUS_READS:
        assert {} in by_id[operation_id]["security"], operation_id
    for operation_id in ("events_create", "players_create", "matches_analysis_create"):
        assert {} not in by_id[operation_id]["security"], operation_id
    client = APIClient()
    for path, ops in schema["paths"].items():
        for method, op in ops.items():
            if method == "get" and {} in op["security"] and "{" not in path:
                assert client.get(path).status_code == 200, path


def test_each_action_request_type_takes_only_its_own_kinds(schema: dict[str, Any]) -> None:
    components = schema["components"]["schemas"]
    mapping = components["ActionRequest"]["discriminator"]["mapping"]
    assert mapping["move"] == mapping["play"], "move, the alias of play, is in the mapping"
    kinds: dict[str, set[str]] = {}
    for kind, ref in mapping.items():
        kinds.setdefault(ref.rsplit("/", 1)[1], set()).add(kind)
    assert kinds["PlayInputRequest"] == {"play", "move"} and kinds["OpeningRollInputRequest"] == {"opening-roll"}
    for name, expected in kinds.items():
        assert set(components[name]["properties"]["kind"]["enum"]) == expected, name


def test_every_answer_documents_405_and_406_and_the_error_fields(schema: dict[str, Any]) -> None:
    for path, ops in schema["paths"].items():
        for method, op in ops.items():
            assert {"405", "406"} <= set(op["responses"]), (path, method)
    assert "table" in schema["components"]["schemas"]["ErrorDoc"]["properties"]
    client = APIClient()
    not_allowed = client.delete("/api/players/1/")
    assert not_allowed.status_code == 405 and set(not_allowed.json()) == {"code", "message"}
    not_acceptable = client.get("/api/matches/", HTTP_ACCEPT="application/xml")
    assert not_acceptable.status_code == 406 and set(not_acceptable.json()) == {"code", "message"}


def test_a_token_sent_with_the_wrong_scheme_is_told_so() -> None:
    """``Authorization: Bearer KEY`` was answered "Authentication credentials were not provided"."""
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Bearer 0123456789abcdef")
    answer = client.post("/api/matches/", {"player1": 1, "player2": 2, "length": 1}, format="json")
    assert answer.status_code == 401
    assert answer.json()["message"].startswith(
        'the Authorization header\'s scheme "Bearer" is not read here: send "Authorization: Token <key>"'
    )
    plain = APIClient().post("/api/matches/", {"player1": 1, "player2": 2, "length": 1}, format="json")
    assert plain.json()["message"] == "Authentication credentials were not provided."
