"""The OpenAPI schema and its documentation pages, served without any CDN."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders
from django.core.management import call_command
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db


def test_the_schema_is_served(anon: APIClient) -> None:
    response = anon.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    schema = response.json()
    assert schema["openapi"].startswith("3.")
    assert {"/api/matches/{match_id}/actions/", "/api/matches/import/", "/api/matches/{match_id}/export.mat"} <= set(
        schema["paths"]
    )
    assert schema["components"]["securitySchemes"]["entryToken"] == {
        "type": "apiKey",
        "in": "header",
        "name": "X-Entry-Token",
    }


def test_every_operation_documents_the_errors_any_request_can_meet(anon: APIClient) -> None:
    schema = anon.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    operations = [(path, op) for path, ops in schema["paths"].items() for op in ops.values()]
    assert len(operations) > 20
    for path, operation in operations:
        assert {"400", "401", "403", "404", "429", "503"} <= set(operation["responses"]), path
        assert ("415" in operation["responses"]) == ("requestBody" in operation), path


def test_the_docs_load_their_assets_locally(anon: APIClient) -> None:
    response = anon.get("/api/docs/")
    assert response.status_code == 200
    html = response.content.decode()
    assert not re.search(r"(?:src|href)=\"(?:https?:)?//", html), "a CDN link"
    assert "http://" not in html and "https://" not in html
    assets = re.findall(r"/static/(drf_spectacular_sidecar/[^\"']+)", html)
    assert assets and all(finders.find(asset) for asset in assets), assets


def test_the_schema_validates_without_warnings(tmp_path: Path) -> None:
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(tmp_path / "schema.yml"))
    text = (tmp_path / "schema.yml").read_text()
    assert "propertyName: kind" in text and "opening-roll: '#/components/schemas/OpeningRollInputRequest'" in text
