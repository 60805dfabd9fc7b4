"""drf-spectacular extensions: how the OpenAPI schema describes what it cannot infer (the entry-link header)."""

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


def document_common_errors(result: dict[str, Any], generator: Any, request: Any, public: bool) -> dict[str, Any]:
    """Postprocessing hook: the answers any operation can give, whatever it does, are in the schema.

    Every operation may answer 400 (a malformed body or query), 401/403 (credentials sent but refused: a revoked
    entry link on a public read is still refused), 404 (no such object, or a page past a list's last) and 429
    (throttled), 503 (the database is unreachable: retry after ``Retry-After`` seconds, nothing was written), and an
    operation with a body 415 (a media type it does not read). All of them are ``{code, message}`` errors.
    """
    error = {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorDoc"}}}}
    common = {
        "400": "malformed input",
        "401": "credentials needed or not recognised",
        "403": "credentials refused (a revoked or foreign entry link, not a director)",
        "429": "too many requests: wait and retry (see Retry-After)",
        "503": "the database is unreachable: nothing was written; retry after Retry-After seconds",
    }
    for operations in result.get("paths", {}).values():
        for operation in operations.values():
            responses = operation.setdefault("responses", {})
            for status, text in common.items():
                responses.setdefault(status, {**error, "description": text})
            responses.setdefault("404", {**error, "description": "no such object (or page of a list)"})
            if "requestBody" in operation:
                responses.setdefault(
                    "415", {**error, "description": "a body in a media type this operation does not read"}
                )
    return result
