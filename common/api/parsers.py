"""Request parsers: DRF's JSON parser, refusing what would make Python's JSON decoder recurse too deep."""

from __future__ import annotations

from typing import Any

from rest_framework import parsers
from rest_framework.exceptions import ParseError


class JSONParser(parsers.JSONParser):
    """A body nested deeper than the decoder can follow (``[[[[...``) is a 400 "malformed JSON", not a 500."""

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        try:
            return super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError("JSON parse error - the body is nested too deeply") from None
