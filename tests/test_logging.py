"""Logs: entry-link secrets never reach a log line; JSON lines for collectors."""

from __future__ import annotations

import json
import logging

from config.logging import JsonFormatter, RedactSecrets, redact


def test_entry_link_secrets_are_redacted() -> None:
    assert redact('"GET /play/12.0.abcDEF:sig-123/ HTTP/1.1" 302') == '"GET /play/[redacted]/ HTTP/1.1" 302'
    assert redact("GET /play/match/12/ 200") == "GET /play/match/12/ 200"
    assert redact("headers {'X-Entry-Token': '12.1.xyz:abc'}") == "headers {'X-Entry-Token': '[redacted]'}"


def test_the_filter_rewrites_records_with_arguments() -> None:
    record = logging.LogRecord(
        "django.server", logging.INFO, __file__, 1, '"%s" %s', ("GET /play/9.1.n:s/ HTTP/1.1", 302), None
    )
    assert RedactSecrets().filter(record)
    assert record.getMessage() == '"GET /play/[redacted]/ HTTP/1.1" 302'


def test_json_lines() -> None:
    record = logging.LogRecord("tournaments.tasks", logging.WARNING, __file__, 1, "division %s failed", (7,), None)
    line = json.loads(JsonFormatter().format(record))
    assert (
        line["level"] == "WARNING" and line["logger"] == "tournaments.tasks" and line["message"] == "division 7 failed"
    )
    assert line["time"].endswith("+00:00")
