"""schemathesis against the project's own OpenAPI schema, in-process through WSGI, as three callers: anonymous, a
director (DRF token) and a player's entry link. No request may end in a 5xx, and every response must conform to
the schema (status code documented, body matching its schema, content type)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from rest_framework.authtoken.models import Token
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from games import services
from games.access import new_entry_token, token_text

schema = schemathesis.openapi.from_wsgi("/api/schema/?format=json", get_wsgi_application())
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]


@pytest.fixture(autouse=True)
def _keep_the_test_connection() -> Iterator[None]:
    """The WSGI app closes database connections at the end of each request; inside a test that would close the
    test's own connection (and its transaction). Django's test client turns this off the same way."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


@pytest.fixture
def callers(db: Any, django_user_model: Any) -> dict[str, dict[str, str]]:
    director = django_user_model.objects.create_user(username="dora", password=None)
    alice = services.create_player(display_name="Alice")
    bob = services.create_player(display_name="Bob")
    match = services.start_match(player1=alice, player2=bob, length=5, created_by=director)
    link = token_text(new_entry_token(match, 0))
    return {
        "anonymous": {},
        "director": {"Authorization": f"Token {Token.objects.create(user=director).key}"},
        "entry-link": {"X-Entry-Token": link},
    }


@pytest.mark.parametrize("caller", ["anonymous", "director", "entry-link"])
@schema.parametrize()
@settings(max_examples=8, deadline=None, suppress_health_check=list(HealthCheck))
def test_the_api_never_fails_and_keeps_to_its_schema(
    case: Any, caller: str, callers: dict[str, dict[str, str]]
) -> None:
    case.call_and_validate(headers=callers[caller], checks=CHECKS)
