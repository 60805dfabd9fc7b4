"""drf-spectacular extensions: how the OpenAPI schema describes what it cannot infer (the entry-link header, which
request bodies are required).

The schema is written for generated clients (tests/api/test_generated_client.py builds one with
openapi-python-client and plays a short day through it): JSON request bodies (multipart only for an upload),
OpenAPI 3.1 nullability, integer path ids, and a named enum for every status, error code and action kind.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.extensions import OpenApiAuthenticationExtension

from games.api.auth import ENTRY_TOKEN_HEADER


class EntryTokenScheme(OpenApiAuthenticationExtension):
    """``X-Entry-Token``: a per-side entry link, as an API-key security scheme."""

    target_class = "games.api.auth.EntryTokenAuthentication"
    name = "entryToken"

    def get_security_definition(self, auto_schema: Any) -> dict[str, str]:
        return {"type": "apiKey", "in": "header", "name": ENTRY_TOKEN_HEADER}
