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
