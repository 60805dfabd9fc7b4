"""The pieces of ``make venue`` (config/venue.py) that need no server: what it runs, its data folder, its backups."""

from __future__ import annotations

import ipaddress
import sqlite3
from pathlib import Path

import pytest

from config import venue


def test_analysis_has_a_worker_of_its_own_so_it_never_holds_up_the_rooms_work(tmp_path: Path) -> None:
    commands = venue.processes({}, tmp_path)
    assert set(commands) == {"web", "worker", "analysis", "beat"}
    worker, analysis = commands["worker"], commands["analysis"]
    assert worker[worker.index("-Q") + 1] == "celery", "the bracket, calls and standings: never the analysis queue"
    assert analysis[analysis.index("-Q") + 1] == "analysis" and analysis[analysis.index("-c") + 1] == "1"
    assert "gunicorn" in commands["web"] and "runserver" not in " ".join(commands["web"])


def test_the_environment_is_debug_off_with_its_own_data_and_a_kept_secret_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("DATABASE_URL", "CELERY_BROKER_URL", "SECRET_KEY", "PUBLIC_URL", "STATIC_ROOT"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("DEBUG", "1")
    monkeypatch.setenv("VENUE_DATA_DIR", str(tmp_path / "data"))
    env = venue.venue_environment(8123)
    assert env["DEBUG"] == "0" and env["WEB_BIND"] == "0.0.0.0:8123"
    assert env["DATABASE_URL"] == f"sqlite:///{tmp_path / 'data' / 'db.sqlite3'}"
    assert venue.sqlite_path(env["DATABASE_URL"]) == tmp_path / "data" / "db.sqlite3"
    assert env["CELERY_BROKER_URL"] == f"filesystem://localhost{tmp_path / 'data' / 'broker'}"
    assert (tmp_path / "data" / "broker" / "queue").is_dir()
    host = env["PUBLIC_URL"].removeprefix("http://").removesuffix(":8123/")
    ipaddress.IPv4Address(host)  # the machine's address (no packet sent to find it)
    key = (tmp_path / "data" / "secret_key").read_text().strip()
    assert env["SECRET_KEY"] == key and len(key) >= 50
    assert venue.venue_environment(8123)["SECRET_KEY"] == key, "made once, then kept"
    assert (tmp_path / "data").stat().st_mode & 0o777 == 0o700, "the data folder is the owner's alone"
    monkeypatch.setenv("PUBLIC_URL", "http://club-laptop.test:8123/")
    assert venue.venue_environment(8123)["PUBLIC_URL"] == "http://club-laptop.test:8123/"
    assert venue.sqlite_path("postgres://db/bgmatch") is None


def test_backups_are_online_copies_and_the_newest_are_kept(tmp_path: Path) -> None:
    database = tmp_path / "db.sqlite3"
    (tmp_path / "secret_key").write_text("k" * 50)
    writer = sqlite3.connect(database)
    writer.execute("PRAGMA journal_mode=WAL")
    writer.execute("CREATE TABLE night (result TEXT)")
    writer.execute("INSERT INTO night VALUES ('P01 beat P02')")
    writer.commit()
    writer.execute("BEGIN IMMEDIATE")  # a write under way while the copy is taken
    writer.execute("INSERT INTO night VALUES ('not yet committed')")
    copies = [venue.take_backup(database, tmp_path / "backups", keep=3) for _ in range(5)]
    writer.rollback()
    writer.close()
    kept = sorted((tmp_path / "backups").glob("db-*.sqlite3"))
    assert kept == copies[-3:]
    with sqlite3.connect(kept[-1]) as copy:
        assert copy.execute("SELECT result FROM night").fetchall() == [("P01 beat P02",)]
    assert (tmp_path / "backups" / "secret_key").read_text() == "k" * 50
    fresh = tmp_path / "fresh" / "db.sqlite3"
    venue.restore_backup(kept[0], fresh)
    with sqlite3.connect(fresh) as restored:
        assert restored.execute("SELECT result FROM night").fetchall() == [("P01 beat P02",)]
    assert (tmp_path / "fresh" / "secret_key").read_text() == "k" * 50
    with pytest.raises(venue.VenueError, match="no backup at"):
        venue.restore_backup(tmp_path / "missing.sqlite3", fresh)


def test_a_write_lock_held_past_sqlites_busy_timeout_is_a_retryable_503_not_a_500(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from django.db import OperationalError

    from common import middleware

    class SQLite:
        vendor = "sqlite"
        connection = object()

        def is_usable(self) -> bool:
            return True

    monkeypatch.setattr(middleware, "connection", SQLite())
    assert middleware.is_database_unavailable(OperationalError("database is locked"))
    assert not middleware.is_database_unavailable(OperationalError('near "SELEC": syntax error')), "a bug stays a 500"
