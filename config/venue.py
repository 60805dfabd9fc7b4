"""``make venue``: a club night served from one machine (the director's laptop) to the phones in the room.

``python -m config.venue serve`` prepares its own data folder (``VENUE_DATA_DIR``, by default ``venue-data/`` in the
project): the SQLite database (unless ``DATABASE_URL`` names another), a secret key made at the first start, the
broker's folder (Kombu's filesystem transport: no server to install, unless ``CELERY_BROKER_URL`` names one) and the
backups. It migrates, collects the static files, makes the first director account if there is none, prints the
address the phones use with a QR code of it, then runs, each in a process of its own:

- the web server (gunicorn, DEBUG off, on every interface at ``PORT``),
- a Celery worker for the bracket, the next call, the standings and the ratings (the ``celery`` queue),
- a Celery worker for GNU Backgammon's analyses (the ``analysis`` queue, one at a time, at a lower CPU priority),
  so that no analysis ever delays a player or a director,
- Celery beat (``reconcile`` every minute: the follow-up of a result whose task was lost is done again),

and, in its own thread, an online backup of the SQLite database every ``VENUE_BACKUP_MINUTES`` with SQLite's backup
API, keeping the last ``VENUE_BACKUPS_KEPT``. Ctrl-C (SIGINT) or SIGTERM stops every process it started (a task
being run is finished, tasks not started stay queued) and takes a last backup; starting again goes on from there,
and the follow-up of every result not yet processed is enqueued again at the start.

``python -m config.venue restore BACKUP`` puts a backup back as the venue's database (the venue stopped), with the
secret key kept beside the backups, so that the entry links already printed still open. ``python -m config.venue
backup`` takes one now, while the venue serves.

The address phones use: ``PUBLIC_URL`` when set, else the machine's address on its network, found from the route
the system would take (a UDP socket's own address after ``connect``, which sends nothing).
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import fcntl
import os
import secrets
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
#: Seconds a process has to stop after SIGTERM before it is killed.
STOP_SECONDS = 30.0
#: A documentation address (RFC 5737): connecting a UDP socket to it picks the outgoing interface, sends nothing.
ROUTE_PROBE = ("192.0.2.1", 9)


class VenueError(Exception):
    """A reason the venue cannot start or restore, said in one sentence with what to do."""


def data_dir() -> Path:
    return Path(os.environ.get("VENUE_DATA_DIR") or ROOT / "venue-data").resolve()


def sqlite_path(database_url: str) -> Path | None:
    """The file of a ``sqlite:///`` URL, None for any other database."""
    if not database_url.startswith("sqlite:"):
        return None
    return ROOT / urlsplit(database_url).path[1:]  # as dj-database-url reads it: relative to the project


def network_address() -> str:
    """This machine's address on the network it would use to reach others (no packet is sent); the loopback
    address when it has no network."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(ROUTE_PROBE)
            return str(probe.getsockname()[0])
        except OSError:
            return "127.0.0.1"


def secret_key(folder: Path) -> str:
    """The secret key kept in ``folder/secret_key``, made (random, readable by the owner only) at the first start."""
    path = folder / "secret_key"
    if not path.exists():
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as out:
            out.write(secrets.token_urlsafe(50) + "\n")
    return path.read_text().strip()


def venue_environment(port: int) -> dict[str, str]:
    """The environment every process of the venue runs with (the caller's, completed)."""
    folder = data_dir()
    folder.mkdir(parents=True, exist_ok=True)
    # The night's data (the players, the database, its backups, the key) is the laptop owner's alone: the folder is
    # closed to other accounts (and serve() makes the files its processes write their owner's only).
    folder.chmod(0o700)
    env = dict(os.environ)
    env["DEBUG"] = "0"
    env.setdefault("SECRET_KEY", secret_key(folder))
    env.setdefault("DATABASE_URL", f"sqlite:///{folder / 'db.sqlite3'}")
    env.setdefault("CELERY_BROKER_URL", f"filesystem://localhost{folder / 'broker'}")
    if env["CELERY_BROKER_URL"].startswith("filesystem://"):
        broker = Path(urlsplit(env["CELERY_BROKER_URL"]).path)
        (broker / "queue").mkdir(parents=True, exist_ok=True)
        (broker / "taken").mkdir(parents=True, exist_ok=True)
        for taken in (broker / "taken").iterdir():  # messages workers took before this start: done, or lost with
            taken.unlink()  # a killed worker (``reconcile`` sends the work again)
    env["PUBLIC_URL"] = env.get("PUBLIC_URL") or f"http://{network_address()}:{port}/"
    env["WEB_BIND"] = f"0.0.0.0:{port}"
    env.setdefault("WEB_THREADS", "4")  # phones polling the live pages hold a thread for a moment each
    env.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    env["VENUE_DATA_DIR"] = str(folder)
    env.setdefault("STATIC_ROOT", str(folder / "static"))
    return env


# --- Backups ------------------------------------------------------------------------------------------------------


def backup_folder() -> Path:
    return data_dir() / "backups"


def take_backup(database: Path, folder: Path, keep: int) -> Path:
    """An online copy of ``database`` in ``folder`` with SQLite's backup API (consistent while others write), named
    by its UTC time; only the newest ``keep`` copies are kept. The secret key is kept beside them."""
    folder.mkdir(parents=True, exist_ok=True)
    stamp = dt.datetime.now(dt.UTC).strftime("%Y%m%d-%H%M%S-%f")
    target = folder / f"db-{stamp}.sqlite3"
    partial = target.with_suffix(".partial")
    source = sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=30)
    try:
        copy = sqlite3.connect(partial)
        try:
            source.backup(copy)
        finally:
            copy.close()
    finally:
        source.close()
    partial.rename(target)
    key = database.parent / "secret_key"
    if key.exists() and not (folder / "secret_key").exists():
        (folder / "secret_key").write_text(key.read_text())
        (folder / "secret_key").chmod(0o600)
    for old in sorted(folder.glob("db-*.sqlite3"))[:-keep]:
        old.unlink()
    return target


def restore_backup(backup: Path, database: Path) -> None:
    """Make ``backup`` the database at ``database`` (the venue stopped), and the secret key beside the backup the
    venue's, so that the entry links printed from that database open."""
    if not backup.is_file():
        raise VenueError(f"no backup at {backup}: give a file from {backup_folder()}")
    check = sqlite3.connect(f"file:{backup}?mode=ro", uri=True)
    try:
        ok = check.execute("PRAGMA quick_check").fetchone()[0] == "ok"
    except sqlite3.DatabaseError as exc:
        raise VenueError(f"{backup} is not an SQLite database ({exc}): give a file from {backup_folder()}") from None
    finally:
        check.close()
    if not ok:
        raise VenueError(f"{backup} is damaged (SQLite's quick_check failed): restore an older backup")
    database.parent.mkdir(parents=True, exist_ok=True)
    partial = database.with_name(database.name + ".restoring")
    partial.unlink(missing_ok=True)
    source, copy = sqlite3.connect(f"file:{backup}?mode=ro", uri=True), sqlite3.connect(partial)
    try:
        source.backup(copy)
    finally:
        source.close()
        copy.close()
    for leftover in (database.with_name(database.name + "-wal"), database.with_name(database.name + "-shm")):
        leftover.unlink(missing_ok=True)
    partial.replace(database)
    key = backup.parent / "secret_key"
    if key.exists():
        (database.parent / "secret_key").write_text(key.read_text())
        (database.parent / "secret_key").chmod(0o600)


class Backups(threading.Thread):
    """Every ``minutes``, a backup of the SQLite database while the venue serves."""

    def __init__(self, database: Path, minutes: float, keep: int) -> None:
        super().__init__(name="venue-backups", daemon=True)
        self.database, self.seconds, self.keep = database, minutes * 60, keep
        self.stopped = threading.Event()

    def run(self) -> None:
        while not self.stopped.wait(self.seconds):
            self.once()

    def once(self) -> None:
        try:
            take_backup(self.database, backup_folder(), self.keep)
        except (OSError, sqlite3.Error) as exc:
            say(f"backup failed ({exc}); the next is tried in {self.seconds / 60:g} min")


# --- Serving ------------------------------------------------------------------------------------------------------


def say(line: str) -> None:
    print(f"venue: {line}", flush=True)


@contextlib.contextmanager
def venue_lock(folder: Path) -> Iterator[None]:
    """Held while the venue runs on ``folder`` (a second start, or a restore, is refused meanwhile)."""
    folder.mkdir(parents=True, exist_ok=True)
    handle: IO[str] = (folder / "venue.lock").open("w")
    try:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise VenueError(
                f"a venue is already running on {folder}: stop it (Ctrl-C in its terminal) first"
            ) from None
        yield
    finally:
        handle.close()


def manage(env: dict[str, str], *args: str) -> None:
    result = subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, check=False)
    if result.returncode != 0:
        raise VenueError(f"`manage.py {' '.join(args)}` failed (exit {result.returncode}): see above")


def print_address(url: str) -> None:
    import segno

    print(flush=True)
    segno.make_qr(url).terminal(compact=True)
    say(f"players join at {url}")
    host = urlsplit(url).hostname or ""
    if host.startswith("127.") or host == "localhost":
        say(
            "this machine has no network: phones cannot reach it. Join the venue's Wi-Fi or start this laptop's "
            "hotspot, then start again (or set PUBLIC_URL)"
        )


def processes(env: dict[str, str], folder: Path) -> dict[str, list[str]]:
    python = sys.executable
    celery = [python, "-m", "celery", "-A", "config"]
    # One worker a queue on one machine: no gossip between workers, no syncing at start, no event heartbeats.
    alone = ["--without-gossip", "--without-mingle", "--without-heartbeat", "-l", "WARNING"]
    return {
        "web": [python, "-m", "gunicorn", "-c", "config/gunicorn_conf.py", *control_socket(folder), "config.wsgi"],
        "worker": [*celery, "worker", *alone, "-Q", "celery", "-n", "venue-work@%h", "-c", "2"],
        "analysis": [*celery, "worker", *alone, "-Q", "analysis", "-n", "venue-analysis@%h", "-c", "1"],
        "beat": [*celery, "beat", "-s", str(folder / "celerybeat-schedule"), "-l", "WARNING"],
    }


def control_socket(folder: Path) -> list[str]:
    """Newer gunicorns open a control socket, by default one per user (shared with any other gunicorn of the user):
    the venue needs none."""
    from gunicorn import config

    return ["--no-control-socket"] if hasattr(config, "ControlSocketDisable") else []


def _lower_priority() -> None:
    os.nice(10)


class Venue:
    def __init__(self, env: dict[str, str], folder: Path) -> None:
        self.env, self.folder = env, folder
        self.children: dict[str, subprocess.Popen[bytes]] = {}
        self.stopping = False

    def start(self) -> None:
        for name, command in processes(self.env, self.folder).items():
            # Each in a session of its own: the terminal's Ctrl-C reaches this process only, which stops the others
            # in order (a Celery worker takes a second SIGINT as "stop now").
            self.children[name] = subprocess.Popen(
                command,
                cwd=ROOT,
                env=self.env,
                start_new_session=True,
                preexec_fn=_lower_priority if name == "analysis" else None,
            )

    def wait(self) -> int:
        """Until a signal says stop (0) or a process ends by itself (1)."""
        while not self.stopping:
            for name, child in self.children.items():
                if child.poll() is not None:
                    say(f"the {name} process stopped (exit {child.returncode}); stopping the others")
                    return 1
            time.sleep(0.5)
        return 0

    def stop(self) -> None:
        for child in self.children.values():
            if child.poll() is None:
                child.terminate()
        deadline = time.monotonic() + STOP_SECONDS
        for name, child in self.children.items():
            try:
                child.wait(max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                say(f"the {name} process did not stop in {STOP_SECONDS:g} s; killing it")
                child.kill()
                child.wait()


#: What the venue enqueues at each start: work a stopped worker may have taken with it.
CATCH_UP_TASKS = ("tournaments.tasks.reconcile", "games.tasks.requeue_pending_analyses")


def catch_up(env: dict[str, str]) -> None:
    """Enqueue ``reconcile`` now (the follow-up of every result not yet processed, a task lost at the last stop, is
    done at once, not at beat's first minute) and the analyses left pending (a job the analysis worker had taken
    when the venue stopped is gone with it)."""
    os.environ.update(env)
    from config.celery import app

    for name in CATCH_UP_TASKS:
        app.send_task(name)


def serve(port: int) -> int:
    os.umask(0o077)  # what the venue's processes write (database, backups, broker files) is the owner's only
    folder = data_dir()
    with venue_lock(folder):  # before anything in the folder is touched
        env = venue_environment(port)
        database = sqlite_path(env["DATABASE_URL"])
        if database is not None and database.exists():
            take_backup(database, backup_folder(), keep_backups())
        say(f"data in {folder}" + (f" (database {database})" if database else " (database from DATABASE_URL)"))
        manage(env, "migrate", "--noinput", "-v", "0")
        manage(env, "collectstatic", "--noinput", "-v", "0")
        manage(env, "first_director")
        print_address(env["PUBLIC_URL"])
        say(f"this laptop: http://127.0.0.1:{port}/manage/ (directors), Ctrl-C stops everything")
        venue = Venue(env, folder)
        backups = Backups(database, backup_minutes(), keep_backups()) if database is not None else None

        def on_signal(signum: int, frame: Any) -> None:
            if venue.stopping:  # a second Ctrl-C: stop now
                for child in venue.children.values():
                    with contextlib.suppress(ProcessLookupError):
                        child.kill()
                return
            venue.stopping = True

        signal.signal(signal.SIGINT, on_signal)
        signal.signal(signal.SIGTERM, on_signal)
        venue.start()
        status = 0
        try:
            catch_up(env)
            if backups is not None:
                backups.start()
            status = venue.wait()
        finally:
            say("stopping")
            if backups is not None:
                backups.stopped.set()
            venue.stop()
            if database is not None and database.exists():
                say(f"last backup: {take_backup(database, backup_folder(), keep_backups())}")
            say("stopped")
        return status


def backup_minutes() -> float:
    return float(os.environ.get("VENUE_BACKUP_MINUTES") or "5")


def keep_backups() -> int:
    return max(1, int(os.environ.get("VENUE_BACKUPS_KEPT") or "12"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m config.venue", description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    serve_parser = commands.add_parser("serve", help="serve the room (make venue)")
    serve_parser.add_argument("--port", type=int, default=int(os.environ.get("PORT") or "8000"))
    restore_parser = commands.add_parser(
        "restore", help="put a backup back as the venue's database (make venue-restore)"
    )
    restore_parser.add_argument("backup", type=Path)
    commands.add_parser("backup", help="take a backup now (the venue may be serving)")
    args = parser.parse_args(argv)
    database = sqlite_path(os.environ.get("DATABASE_URL") or f"sqlite:///{data_dir() / 'db.sqlite3'}")
    try:
        if args.command == "serve":
            return serve(args.port)
        if database is None:
            raise VenueError("backups are of the SQLite database: with PostgreSQL use pg_dump and pg_restore")
        if args.command == "backup":
            if not database.exists():
                raise VenueError(f"no database at {database} yet: start the venue first (make venue)")
            say(f"backup: {take_backup(database, backup_folder(), keep_backups())}")
            return 0
        with venue_lock(data_dir()):
            restore_backup(args.backup.resolve(), database)
        say(f"restored {args.backup} as {database}; start the venue again (make venue)")
        return 0
    except VenueError as exc:
        print(f"venue: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
