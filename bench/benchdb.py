"""The throwaway PostgreSQL database and the Django set-up that the benchmarks share.

A benchmark names its database with a URL (``postgres://``, ``postgresql://`` or ``pgsql://``, with a database
name). ``prepare_database`` creates it through the server's ``postgres`` database; ``release_database``, called in
a ``finally`` block, drops it again (or empties the one the benchmark was given). ``setup_django`` points Django at
it with the benchmark's settings. psycopg and Django are imported only when a function needs them, so that
``--help`` works without them.
"""

from __future__ import annotations

import os
import signal
import sys
import warnings
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

#: The project's root, put on ``sys.path`` by ``setup_django`` (for a checkout that is not installed).
REPO = Path(__file__).resolve().parent.parent


def maintenance_url(url: str) -> tuple[str, str]:
    """(URL of the server's ``postgres`` database, name of the bench database), both from ``url``.

    Raises ``SystemExit`` with a message when ``url`` is not a PostgreSQL URL with a database name."""
    parts = urlsplit(url)
    name = parts.path.lstrip("/")
    if parts.scheme not in ("postgres", "postgresql", "pgsql") or not name:
        raise SystemExit(f"--database-url must be a postgres:// URL with a database name, not {url!r}")
    return urlunsplit(parts._replace(scheme="postgresql", path="/postgres")), name


def database_name(url: str) -> str:
    """The database name in ``url`` (see :func:`maintenance_url`)."""
    return maintenance_url(url)[1]


def _database_url(url: str) -> str:
    """``url`` with the scheme psycopg accepts."""
    return urlunsplit(urlsplit(url)._replace(scheme="postgresql"))


def prepare_database(url: str, *, reuse_empty: bool = False) -> bool:
    """Create the database named in ``url`` and return True.

    When it exists already: with ``reuse_empty`` it is used as it is, provided its ``public`` schema has no tables
    (as ``createdb`` leaves it), and the result is False; otherwise, or when it has tables, ``SystemExit`` says
    what to do."""
    import psycopg
    from psycopg import sql

    admin, name = maintenance_url(url)
    with psycopg.connect(admin, autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone():
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
            return True
    if not reuse_empty:
        raise SystemExit(f"database {name!r} already exists: drop it, or name another with --database-url")
    with psycopg.connect(_database_url(url), autocommit=True) as conn:
        tables = conn.execute("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'").fetchone()
        if tables and tables[0]:
            raise SystemExit(f"database {name!r} exists and has tables: drop it, or name another with --database-url")
    return False


def clean_database(url: str, created: bool) -> None:
    """Drop the database (even with sessions still connected) if ``prepare_database`` created it (``created``);
    else drop and recreate its ``public`` schema, which leaves it as empty as it was given."""
    import psycopg
    from psycopg import sql

    admin, name = maintenance_url(url)
    if created:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))
        return
    with psycopg.connect(_database_url(url), autocommit=True) as conn:
        conn.execute("DROP SCHEMA public CASCADE")
        conn.execute("CREATE SCHEMA public")


def release_database(url: str, created: bool, *, keep: bool, kept: str = "") -> None:
    """The end of a run, also after an error: close Django's connections if Django was loaded, then either print
    ``kept database <name>`` followed by ``kept`` (when ``keep``), or :func:`clean_database`."""
    if "django" in sys.modules:
        from django.db import connections

        connections.close_all()
    if keep:
        print(f"kept database {database_name(url)}{kept}")
    else:
        clean_database(url, created)


def exit_on_sigterm() -> None:
    """Make SIGTERM raise ``SystemExit(128 + signal)``, so that ``finally`` blocks run as they do on Ctrl-C."""

    def interrupted(signum: int, frame: Any) -> None:
        raise SystemExit(128 + signum)

    signal.signal(signal.SIGTERM, interrupted)


def environment(name: str, **more: str) -> dict[str, str]:
    """A deployment's settings for benchmark ``name``: DEBUG off, tasks run eagerly (no broker), quiet logging,
    a placeholder secret key; then ``more``."""
    return {
        "DEBUG": "0",
        "SECRET_KEY": f"{name}-bench-not-secret",
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "LOG_LEVEL": "WARNING",
        "CELERY_BROKER_URL": "",
        **more,
    }


def quiet_static_warning() -> None:
    """WhiteNoise warns that STATIC_ROOT does not exist when ``collectstatic`` has not run; no benchmark times the
    static files it would serve."""
    warnings.filterwarnings("ignore", message=r"No directory at: .*staticfiles", category=UserWarning)


def setup_django(url: str, settings: Mapping[str, str], *, root: Path = REPO) -> None:
    """Put the project's root (``root``: another checkout of it, to measure that code) first on ``sys.path``,
    ``settings`` and ``DATABASE_URL=url`` in the environment (``DJANGO_SETTINGS_MODULE`` defaults to
    ``config.settings``), run ``django.setup()`` and migrate the database."""
    if str(root) in sys.path:
        sys.path.remove(str(root))
    sys.path.insert(0, str(root))
    os.environ.update(settings)
    os.environ["DATABASE_URL"] = url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    quiet_static_warning()
    import django
    from django.core.management import call_command

    here = os.getcwd()
    os.chdir(root)  # Celery's Django fix-up puts the working directory first on sys.path as Django sets up: it
    try:  # must be ``root``, or a run from one checkout with ``--root`` another would import the first's apps
        django.setup()
    finally:
        os.chdir(here)
    call_command("migrate", verbosity=0)


def disconnect_division_followups() -> None:
    """Plug in a follow-up task that drops what it is given: with eager tasks each recorded result would run its
    division's follow-up (sync and standings) at once after its commit, which a benchmark that builds hundreds of
    results does itself, once per round. The results still flag their pairings due, as without a worker."""
    from tournaments.services.followup import plug_followup_task

    plug_followup_task(_DroppedFollowups())


class _DroppedFollowups:
    """The follow-up task, replaced: ``delay`` does nothing (a broker no worker takes)."""

    class app:  # noqa: N801 - what the follow-up reads of the task's app
        class conf:  # noqa: N801
            task_always_eager = False

    def delay(self, division_id: int) -> None:
        return None
