"""Log formatting for operators: plain lines for a terminal, one JSON object per line for a log collector
(LOG_FORMAT=json), and a filter that keeps entry-link secrets out of every log line."""

from __future__ import annotations

import json
import logging
import re
from datetime import UTC, datetime

# /play/<secret>/ is the entry link a player opens; its pages after the first redirect carry no secret.
_ENTRY_LINK = re.compile(r"/play/(?!match/|next/|pairings/)[^/\s?\"']+")
_ENTRY_HEADER = re.compile(r"(X-Entry-Token['\"]?\s*[:=]\s*['\"]?)[^\s'\",}]+", re.IGNORECASE)


def redact(text: str) -> str:
    return _ENTRY_HEADER.sub(r"\1[redacted]", _ENTRY_LINK.sub("/play/[redacted]", text))


class RedactSecrets(logging.Filter):
    """Rewrite a record's message (and its arguments) so that no entry-link secret reaches a log."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        cleaned = redact(message)
        if cleaned != message:
            record.msg, record.args = cleaned, None
        return True


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time (UTC), level, logger, message, and the exception when there is one."""

    def format(self, record: logging.LogRecord) -> str:
        entry = {
            "time": datetime.fromtimestamp(record.created, tz=UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        for key in ("status_code", "task_id", "task_name"):
            if hasattr(record, key):
                entry[key] = getattr(record, key)
        if record.exc_info:
            entry["exception"] = redact(self.formatException(record.exc_info))
        return json.dumps(entry, ensure_ascii=False)
