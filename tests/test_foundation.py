"""The project's foundation: settings from the environment, the health endpoint, migrations, Celery."""

from __future__ import annotations

import runpy
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.core.management import call_command
from django.test import Client

from config.celery import app as celery_app
from games.tasks import ping

if TYPE_CHECKING:
    from tests.conftest import CeleryWorker

SETTINGS_FILE = Path(__file__).resolve().parent.parent / "config" / "settings.py"


def load_settings(monkeypatch: pytest.MonkeyPatch, **env: str) -> dict[str, Any]:
    """Evaluate config/settings.py afresh with exactly these overrides of the environment."""
    for name in ("DATABASE_URL", "CELERY_BROKER_URL", "CELERY_RESULT_BACKEND", "DEBUG", "SECRET_KEY"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    return runpy.run_path(str(SETTINGS_FILE))


def test_settings_read_database_url(monkeypatch: pytest.MonkeyPatch) -> None:
    settings = load_settings(monkeypatch, DATABASE_URL="postgres://director:secret@db.example:6543/bgmatch")
    database = settings["DATABASES"]["default"]
    assert database["ENGINE"] == "django.db.backends.postgresql"
    assert (database["NAME"], database["USER"], database["HOST"], database["PORT"]) == (
        "bgmatch",
        "director",
        "db.example",
        6543,
    )


def test_settings_default_to_sqlite_and_eager_tasks(monkeypatch: pytest.MonkeyPatch) -> None:
    settings = load_settings(monkeypatch)
    database = settings["DATABASES"]["default"]
    assert database["ENGINE"] == "django.db.backends.sqlite3"
    assert database["NAME"] == str(settings["BASE_DIR"] / "db.sqlite3")
    assert settings["CELERY_TASK_ALWAYS_EAGER"] is True
    assert settings["CELERY_TASK_EAGER_PROPAGATES"] is True


def test_settings_with_a_broker_send_tasks_to_it(monkeypatch: pytest.MonkeyPatch) -> None:
    settings = load_settings(monkeypatch, CELERY_BROKER_URL="redis://cache.example:6379/3")
    assert settings["CELERY_TASK_ALWAYS_EAGER"] is False
    assert settings["CELERY_BROKER_URL"] == "redis://cache.example:6379/3"
    assert settings["CELERY_RESULT_BACKEND"] == "redis://cache.example:6379/3"


def test_settings_refuse_a_missing_secret_key_without_debug(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ImproperlyConfigured, match="SECRET_KEY"):
        load_settings(monkeypatch, DEBUG="0")


@pytest.mark.django_db
def test_health_reports_database_ok(client: Client) -> None:
    response = client.get("/health/")
    assert response.status_code == 200
    body = response.json()
    assert body["database"] == "ok"
    assert body["broker"] in {"ok", "eager"}
    assert body["workers"] in {"ok", "eager", "none", "late"} and body["cache"] in {"local", "ok"}


@pytest.mark.django_db
def test_health_is_503_when_the_broker_is_unreachable(client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CELERY_BROKER_URL", raising=False)  # Celery reads it before its own configuration
    monkeypatch.setitem(celery_app.conf, "task_always_eager", False)
    monkeypatch.setitem(celery_app.conf, "broker_url", "redis://127.0.0.1:1/0")
    response = client.get("/health/")
    assert response.status_code == 503
    body = response.json()
    assert (body["database"], body["broker"], body["workers"]) == ("ok", "error", "error")
    assert body["cache"] in {"local", "ok"}  # (a cache of this process's own without CACHE_URL)


@pytest.mark.django_db
def test_home_page_renders(client: Client) -> None:
    response = client.get("/")
    assert response.status_code == 200
    assert b"bgmatch" in response.content


@pytest.mark.django_db
def test_migrations_are_in_step_with_models() -> None:
    call_command("makemigrations", "--check", "--dry-run", verbosity=0)


def test_ping_runs_eagerly_without_a_broker(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(celery_app.conf, "task_always_eager", True)
    assert ping.delay().get(timeout=5) == "pong"


@pytest.mark.worker
def test_ping_goes_through_redis_and_a_real_worker(celery_worker: CeleryWorker) -> None:
    assert not celery_app.conf.task_always_eager
    result = ping.apply_async(queue=celery_worker.queue)
    deadline = time.monotonic() + 90
    while not result.ready():
        if celery_worker.process.poll() is not None:
            code = celery_worker.process.returncode
            pytest.fail(f"the Celery worker exited with {code}; its log:\n{celery_worker.log()}")
        if time.monotonic() > deadline:
            pytest.fail(f"no answer from the Celery worker within 90 s; its log:\n{celery_worker.log()}")
        time.sleep(0.2)
    assert result.get(timeout=5) == "pong"
