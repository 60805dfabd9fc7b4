"""gunicorn settings for the web service (docker-compose.yml, the systemd unit in the README).

The access log goes to stderr with entry-link secrets redacted (a player's first request carries the secret in
its path: /play/<secret>/). Workers and threads come from the environment (WEB_WORKERS, WEB_THREADS). Responses
carry no ``Server`` header (gunicorn's own names the software to anyone probing for it).
"""

import os

from gunicorn.glogging import Logger
from gunicorn.http import wsgi

from config.logging import redact

bind = os.environ.get("WEB_BIND", "0.0.0.0:8000")
workers = int(os.environ.get("WEB_WORKERS", "3"))
threads = int(os.environ.get("WEB_THREADS", "1"))
timeout = int(os.environ.get("WEB_TIMEOUT", "30"))
accesslog = "-"
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")


class RedactingLogger(Logger):
    def atoms(self, resp, req, environ, request_time):
        values = super().atoms(resp, req, environ, request_time)
        for key in ("r", "U", "q", "f"):
            if isinstance(values.get(key), str):
                values[key] = redact(values[key])
        return values


logger_class = RedactingLogger


_default_headers = wsgi.Response.default_headers


def _without_server(self: wsgi.Response) -> list[str]:
    return [line for line in _default_headers(self) if not line.startswith("Server:")]


# gunicorn has no setting for its Server header; the workers fork from the process that read this file.
wsgi.Response.default_headers = _without_server
