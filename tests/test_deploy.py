"""Deployment settings: `manage.py check --deploy` is clean when configured as the README's deployment section and
.env.example say (DEBUG off, a secret key, the host names, BEHIND_TLS_PROXY=1), and the headers are there."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from django.test import Client

ROOT = Path(__file__).resolve().parent.parent


def _check(**env: str) -> subprocess.CompletedProcess[str]:
    dropped = ("DEBUG", "BEHIND_TLS_PROXY", "SECRET_KEY", "DJANGO_ALLOW_ASYNC_UNSAFE")  # the last: browser tests' own
    clean = {k: v for k, v in os.environ.items() if k not in dropped}
    command = [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"]
    return subprocess.run(command, cwd=ROOT, env={**clean, **env}, capture_output=True, text=True, timeout=120)


def test_check_deploy_is_clean_as_documented() -> None:
    result = _check(
        DEBUG="0", SECRET_KEY=secrets.token_urlsafe(50), ALLOWED_HOSTS="bg.example.org", BEHIND_TLS_PROXY="1"
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_check_deploy_warns_without_the_proxy_settings() -> None:
    result = _check(
        DEBUG="0", SECRET_KEY=secrets.token_urlsafe(50), ALLOWED_HOSTS="bg.example.org", BEHIND_TLS_PROXY="0"
    )
    assert result.returncode != 0 and "SECURE_SSL_REDIRECT" in result.stdout + result.stderr


@pytest.mark.django_db
def test_pages_carry_a_content_security_policy_with_only_our_own_scripts() -> None:
    response = Client().get("/")
    policy = response["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "unsafe-inline" not in policy and "frame-ancestors 'none'" in policy
    assert response["X-Content-Type-Options"] == "nosniff"


def test_the_compose_file_the_env_example_and_the_readme_agree_with_the_settings() -> None:
    """An operator sets a variable in .env: compose must pass it to the containers, the settings must read it, and
    the README must say what it does."""
    import re

    import yaml

    root = Path(__file__).resolve().parent.parent
    sources = (root / "config" / "settings.py").read_text() + (root / "config" / "gunicorn_conf.py").read_text()
    read = set(re.findall(r'(?:os\.environ\.get|env_bool|env_list)\("([A-Z][A-Z0-9_]+)"', sources))
    read.add("DATABASE_URL")  # read by dj_database_url.config()
    documented = set(re.findall(r"^#?\s*([A-Z][A-Z0-9_]+)=", (root / ".env.example").read_text(), re.MULTILINE))
    passed = set(yaml.safe_load((root / "docker-compose.yml").read_text())["x-app"]["environment"])
    # for compose's own services
    compose_only = {
        "POSTGRES_USER",
        "POSTGRES_PASSWORD",
        "POSTGRES_DB",
        "WEB_ADDRESS",
        "WEB_PORT",
        "ANALYSIS_CONCURRENCY",
        "SERVER_NAME",
        "TLS_DIR",
        "HTTP_PORT",
        "HTTPS_PORT",
    }
    readme = (root / "README.md").read_text()
    assert documented - compose_only <= passed, "set in .env.example but not passed to the containers"
    assert passed <= read, "passed by compose but read by no setting"
    assert documented - compose_only <= read, "documented in .env.example but read by no setting"
    assert sorted(name for name in read if f"`{name}`" not in readme) == [], "read by the settings, not in README"


def _env_example() -> dict[str, str]:
    text = (ROOT / ".env.example").read_text()
    return dict(line.split("=", 1) for line in text.splitlines() if line and not line.startswith("#"))


def test_the_env_example_as_it_stands_passes_check_deploy() -> None:
    example = _env_example()
    assert example["BEHIND_TLS_PROXY"] == "1"
    settings = {k: example[k] for k in ("DEBUG", "BEHIND_TLS_PROXY")}
    result = _check(**settings, SECRET_KEY=secrets.token_urlsafe(50), ALLOWED_HOSTS="bg.example.org")
    assert result.returncode == 0, result.stdout + result.stderr


def test_compose_publishes_the_web_service_on_the_loopback_unless_told_otherwise() -> None:
    import yaml

    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    [published] = compose["services"]["web"]["ports"]
    assert published == "${WEB_ADDRESS:-127.0.0.1}:${WEB_PORT:-8000}:8000"
    assert compose["x-app"]["environment"]["BEHIND_TLS_PROXY"] == "${BEHIND_TLS_PROXY:-1}"
    assert _env_example()["WEB_ADDRESS"] == "127.0.0.1"


def test_gunicorn_sends_no_server_header(tmp_path: Path) -> None:
    """The web service as compose runs it (gunicorn with config/gunicorn_conf.py) names no software."""
    import http.client
    import socket
    import time

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {
        **{k: v for k, v in os.environ.items() if k != "CELERY_BROKER_URL"},
        "DEBUG": "1",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
        "WEB_BIND": f"127.0.0.1:{port}",
        "WEB_WORKERS": "1",
    }
    command = [sys.executable, "-m", "gunicorn", "config.wsgi:application", "--config", "config/gunicorn_conf.py"]
    server = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120  # generous on a loaded machine; a pass goes on at gunicorn's first answer
        while True:
            assert server.poll() is None, "gunicorn did not start"
            try:
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
                connection.request("GET", "/health/")
                response = connection.getresponse()
                break
            except ConnectionRefusedError:
                assert time.monotonic() < deadline, "gunicorn did not answer"
                time.sleep(0.1)
        assert response.status == 200, response.read()
        assert response.getheader("Server") is None, response.getheader("Server")
    finally:
        server.terminate()
        server.wait(timeout=30)


def test_compose_puts_the_repository_nginx_in_front_of_the_web_service() -> None:
    """The proxy service is Debian's nginx with deploy/nginx's configuration: every variable of the template is
    given (by compose or the image), it proxies to the web service once that is healthy, holds the certificate read
    only, and listens on the HTTP and HTTPS ports .env.example names."""
    import re

    import yaml

    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    proxy = compose["services"]["proxy"]
    folder = ROOT / proxy["build"]
    dockerfile = (folder / "Dockerfile").read_text()
    assert "FROM debian:" in dockerfile and re.search(r"apt-get install .*\bnginx\b", dockerfile)
    template = (folder / "bgmatch.conf.template").read_text()
    wanted = set(re.findall(r"\$\{(BGMATCH_\w+)\}", template))
    given = set(proxy["environment"]) | set(re.findall(r"(BGMATCH_\w+)=", dockerfile))
    assert wanted <= given, f"not given to the proxy: {sorted(wanted - given)}"
    rendered_by_start = set(re.findall(r"\$\{(BGMATCH_\w+)\}", (folder / "start").read_text()))
    assert wanted <= rendered_by_start, f"not rendered by start: {sorted(wanted - rendered_by_start)}"
    assert proxy["environment"]["BGMATCH_UPSTREAM"] == "web:8000"
    assert proxy["depends_on"]["web"]["condition"] == "service_healthy"
    assert any(volume.endswith(":/etc/bgmatch/tls:ro") for volume in proxy["volumes"])
    assert sorted(proxy["ports"]) == ["${HTTPS_PORT:-443}:443", "${HTTP_PORT:-80}:80"]
    assert {"SERVER_NAME", "TLS_DIR", "HTTP_PORT", "HTTPS_PORT"} <= set(_env_example())
    for directive in (
        "proxy_cache_path",
        "proxy_cache_lock on",
        "proxy_cache_use_stale updating",
        "gzip on",
        "X-Forwarded-For",
        "X-Forwarded-Proto",
        "ssl_certificate",
        "proxy_no_cache $bgmatch_personal",
    ):
        assert directive in template, directive


def _setting(name: str, **env: str) -> str:
    dropped = ("DEBUG", "BEHIND_TLS_PROXY", "SECRET_KEY", "PUBLIC_URL", "DJANGO_ALLOW_ASYNC_UNSAFE")
    clean = {k: v for k, v in os.environ.items() if k not in dropped}
    code = f"import django; django.setup(); from django.conf import settings; print(repr(settings.{name}))"
    command = [sys.executable, "-c", code]
    env = {**clean, "DJANGO_SETTINGS_MODULE": "config.settings", "DEBUG": "0", "SECRET_KEY": "x" * 50, **env}
    return subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, check=True).stdout


def test_a_rooms_plain_http_address_sends_no_opener_policy_a_browser_would_refuse() -> None:
    """Over http://<laptop>:8000/ a phone's browser ignores Cross-Origin-Opener-Policy and logs an error on every
    page: the venue's plain-HTTP address does not send it; an HTTPS one, and a deployment, keep it."""
    assert _setting("SECURE_CROSS_ORIGIN_OPENER_POLICY", PUBLIC_URL="http://club-laptop.test:8000/").strip() == "None"
    kept = _setting("SECURE_CROSS_ORIGIN_OPENER_POLICY", PUBLIC_URL="https://club.example.org/").strip()
    assert kept == "'same-origin'"
    assert _setting("SECURE_CROSS_ORIGIN_OPENER_POLICY", ALLOWED_HOSTS="bg.example.org").strip() == "'same-origin'"
