"""drf-spectacular's schema class and postprocessing for every app's API (docs/ARCHITECTURE.md, "common/"): what the
OpenAPI schema says that it cannot infer (which request bodies are required, the answers every operation can
give). The entry link's security scheme is games' (games.api.schema).

The schema is written for generated clients (tests/api/test_generated_client.py builds one with
openapi-python-client and plays a short day through it): JSON request bodies (multipart only for an upload),
OpenAPI 3.1 nullability, integer path ids, and a named enum for every status, error code and action kind.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular import openapi
from drf_spectacular.utils import PolymorphicProxySerializer
from rest_framework import permissions


class AutoSchema(openapi.AutoSchema):
    """drf-spectacular's, marking a request body required where the server refuses an empty one although no single
    field is required: an action (``kind`` picks its fields) and a serializer that says ``body_required = True``
    (an entry: a player's id or a new name)."""

    def get_auth(self) -> list[dict[str, Any]]:
        """drf-spectacular's, with the empty requirement (no credentials) on the reads of a view whose permission
        lets anyone read (``anonymous_reads``, games.api.auth): a generated client then asks for no token there."""
        auths = super().get_auth()
        anonymous = any(getattr(p, "anonymous_reads", False) for p in self.view.get_permissions())
        if anonymous and self.method in permissions.SAFE_METHODS and {} not in auths:
            auths.append({})
        return auths

    def _get_request_body(self, direction: str = "request") -> dict[str, Any] | None:
        body = super()._get_request_body(direction)
        if body is None:
            return None
        serializer = self.get_request_serializer()
        media_types = serializer.values() if isinstance(serializer, dict) else [serializer]
        if any(_body_required(each) for each in media_types):
            body["required"] = True
        return body


def _body_required(serializer: Any) -> bool:
    return isinstance(serializer, PolymorphicProxySerializer) or getattr(serializer, "body_required", False)


def document_common_errors(result: dict[str, Any], generator: Any, request: Any, public: bool) -> dict[str, Any]:
    """Postprocessing hook: the answers any operation can give, whatever it does, are in the schema.

    Every operation may answer 400 (a malformed body or query), 401/403 (credentials sent but refused: a revoked
    entry link on a public read is still refused), 404 (no such object, or a page past a list's last) and 429
    (throttled), 503 (the database is unreachable: retry after ``Retry-After`` seconds, nothing was written), 405 (a
    method the path does not take) and 406 (an ``Accept`` it cannot answer), and an operation with a body 415 (a
    media type it does not read). All of them are ``{code, message}`` errors.

    Then each member of a polymorphic request (the ``kind`` of an action) narrows its discriminator to the values
    that choose it (:func:`_narrow_discriminators`).
    """
    error = {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorDoc"}}}}
    common = {
        "400": "malformed input",
        "401": "credentials needed or not recognised",
        "403": "credentials refused (a revoked or foreign entry link, not a director)",
        "405": "the method is not allowed on this path (the Allow header lists those that are)",
        "406": "the Accept header asks for a media type this operation cannot answer in",
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
    _narrow_discriminators(result)
    return result


def _narrow_discriminators(result: dict[str, Any]) -> None:
    """Each member of a ``oneOf`` with a discriminator takes only the values its mapping gives it (an opening roll's
    ``kind`` is "opening-roll", a play's "play" or "move"), instead of every value of the shared enum; "move", the
    alias of "play", is in the mapping too."""
    components = result.get("components", {}).get("schemas", {})
    for component in components.values():
        discriminator = component.get("discriminator")
        if not discriminator or "mapping" not in discriminator:
            continue
        mapping, field = discriminator["mapping"], discriminator["propertyName"]
        for alias, value in ALIASES.get(field, {}).items():
            if value in mapping:
                mapping.setdefault(alias, mapping[value])
        members: dict[str, list[str]] = {}
        for value, ref in mapping.items():
            members.setdefault(ref, []).append(value)
        for ref, values in members.items():
            member = components.get(ref.rsplit("/", 1)[-1], {})
            prop = member.get("properties", {}).get(field)
            if prop is not None:
                member["properties"][field] = {
                    "type": "string",
                    "enum": values,
                    "description": prop.get("description", ""),
                }


#: Values a discriminator takes for another one's member ("move" is accepted for "play", games.api.views).
ALIASES = {"kind": {"move": "play"}}
