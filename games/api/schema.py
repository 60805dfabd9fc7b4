"""drf-spectacular extension: the entry link's header as the schema's ``entryToken`` security scheme. The schema
class and the answers every operation documents are every app's (common.api.schema).
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
