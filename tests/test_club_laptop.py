"""``make venue``: a club night from one laptop, run for real (gunicorn, a Celery worker on Kombu's filesystem
broker, beat) on its own SQLite data folder, inside the loopback range: the server listens on every interface, so
127.0.0.2 stands for "another device on the room's network", and the public address is a name
(``PUBLIC_URL=http://club-laptop.test:PORT/``) sent as the Host header, as a phone would.

The scenario runs in order on one data folder: the first start makes the director from DJANGO_SUPERUSER_*; the
director, on the laptop at 127.0.0.1, prints slips whose links name the public address; a phone opens one and plays;
Ctrl-C in the middle of the round, a result entered while the venue is stopped (its follow-up waits in the broker's
folder), a second start: nothing lost, the queued work done, the match goes on; then a backup restored into a fresh
folder serves the same event, and the printed links still open. Whatever the test's own environment names
(PostgreSQL, Redis), the venue keeps to its own data.
"""

from __future__ import annotations

import os
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest

ROOT = Path(__file__).resolve().parent.parent
PUBLIC_NAME = "club-laptop.test"
PHONE_ADDRESS = "127.0.0.2"
START_SECONDS = 180.0
SETTLE_SECONDS = 90.0
#: The test's own services are not the venue's.
DROPPED = (
    "DATABASE_URL",
    "CELERY_BROKER_URL",
    "CELERY_RESULT_BACKEND",
    "CACHE_URL",
    "DEBUG",
    "SECRET_KEY",
    "ALLOWED_HOSTS",
    "DJANGO_ALLOW_ASYNC_UNSAFE",
    "BGMATCH_WORKER_TESTS",
    "PUBLIC_URL",
)


def free_port() -> int:
    """A port free on every interface, from the venue tests' range when one is (any other otherwise)."""
    for port in [*range(8600, 8650), 0]:
        with socket.socket() as probe:
            try:
                probe.bind(("0.0.0.0", port))
            except OSError:
                continue
            return int(probe.getsockname()[1])
    raise AssertionError("no free port")


@dataclass
class Venue:
    """One ``python -m config.venue serve`` (what ``make venue`` runs) and everything it printed."""

    folder: Path
    port: int
    process: subprocess.Popen[str] | None = None
    lines: list[str] = field(default_factory=list)

    @property
    def public(self) -> str:
        return f"http://{PUBLIC_NAME}:{self.port}/"

    def env(self, **extra: str) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if k not in DROPPED}
        env.update(
            VENUE_DATA_DIR=str(self.folder),
            PUBLIC_URL=self.public,
            PORT=str(self.port),
            WEB_WORKERS="2",
            ANALYSIS_AUTO="0",
            **extra,
        )
        return env

    def start(self, **extra: str) -> None:
        self.lines = []
        self.process = subprocess.Popen(
            [sys.executable, "-m", "config.venue", "serve", "--port", str(self.port)],
            cwd=ROOT,
            env=self.env(**extra),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,  # its own process group, as a terminal's foreground job
        )
        reader = threading.Thread(target=self._read, args=(self.process,), daemon=True)
        reader.start()
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline:
            assert self.process.poll() is None, "the venue stopped while starting:\n" + self.output()
            try:
                if self.phone().get("/health/").status_code == 200:
                    return
            except httpx.TransportError:
                pass
            time.sleep(0.5)
        raise AssertionError("the venue did not answer in time:\n" + self.output())

    def _read(self, process: subprocess.Popen[str]) -> None:
        assert process.stdout is not None
        for line in process.stdout:
            self.lines.append(line.rstrip("\n"))

    def output(self) -> str:
        return "\n".join(self.lines[-80:])

    def interrupt(self) -> int:
        """Ctrl-C: SIGINT to the terminal's foreground process group; returns the exit status."""
        assert self.process is not None
        os.killpg(self.process.pid, signal.SIGINT)
        try:
            return self.process.wait(timeout=90)
        finally:
            self.process = None

    def phone(self) -> httpx.Client:
        """A device on the room's network: 127.0.0.2, asking for the public name."""
        return httpx.Client(
            base_url=f"http://{PHONE_ADDRESS}:{self.port}",
            headers={"Host": f"{PUBLIC_NAME}:{self.port}"},
            timeout=60,
        )

    def laptop(self) -> httpx.Client:
        """The director's browser on the laptop itself."""
        return httpx.Client(base_url=f"http://127.0.0.1:{self.port}", timeout=60)

    def command(self, *args: str) -> subprocess.CompletedProcess[str]:
        """``python -m config.venue ARGS`` (``make venue-restore`` runs ``restore``) on this venue's folder."""
        command = [sys.executable, "-m", "config.venue", *args]
        return subprocess.run(command, cwd=ROOT, env=self.env(), capture_output=True, text=True, timeout=120)

    def manage(self, code: str) -> str:
        """Python run by ``manage.py shell`` against the venue's own data (its database, key and broker): the last
        line it printed."""
        env = self.env()
        env.update(
            DEBUG="0",
            SECRET_KEY=(self.folder / "secret_key").read_text().strip(),
            DATABASE_URL=f"sqlite:///{self.folder / 'db.sqlite3'}",
            CELERY_BROKER_URL=f"filesystem://localhost{self.folder / 'broker'}",
        )
        result = subprocess.run(
            [sys.executable, "manage.py", "shell", "-c", code],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert result.returncode == 0, result.stdout + result.stderr
        return result.stdout.strip().splitlines()[-1]


SETUP = """
from django.contrib.auth import get_user_model
from common.actor import Actor
from tournaments import services
actor = Actor(user=get_user_model().objects.get(username="director"))
event = services.create_event(actor=actor, name="Club night")
division = services.create_division(
    event, actor=actor, settings=services.DivisionSettings(name="Open", format="swiss", rounds_planned=3)
)
for i in range(1, 9):
    services.register_player(division, actor=actor, name=f"P{i:02d}", rating=2010 - 10 * i)
services.start_division(division, actor=actor)
rnd = division.rounds.get()
print(event.slug, division.slug, rnd.bracket, rnd.number)
"""


def form_token(html: str) -> str:
    found = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html)
    assert found, "no CSRF token on the page"
    return found.group(1)


def log_in(laptop: httpx.Client) -> None:
    page = laptop.get("/accounts/login/")
    assert page.status_code == 200
    data = {"username": "director", "password": "a-club-night-2026", "csrfmiddlewaretoken": form_token(page.text)}
    answer = laptop.post("/accounts/login/", data=data)
    assert answer.status_code == 302, answer.text[:2000]


def enter(phone: httpx.Client, match_id: int, kind: str, side: int, seq: int, **fields: Any) -> httpx.Response:
    """POST one of the entry page's forms as the phone's browser does."""
    page = phone.get(f"/play/match/{match_id}/")
    assert page.status_code == 200
    data = {
        "kind": kind,
        "side": side,
        "expected_seq": seq,
        "idempotency_key": uuid.uuid4().hex,
        "csrfmiddlewaretoken": form_token(page.text),
        **fields,
    }
    return phone.post(f"/play/match/{match_id}/", data=data)


def match_seq(venue: Venue, match_id: int) -> int:
    return int(venue.manage(f"from games.models import Match; print(Match.objects.get(pk={match_id}).seq)"))


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """The venue's first start, with the director from DJANGO_SUPERUSER_*; what the scenario learns along the way."""
    venue = Venue(tmp_path_factory.mktemp("club") / "venue-data", free_port())
    venue.start(
        DJANGO_SUPERUSER_USERNAME="director",
        DJANGO_SUPERUSER_PASSWORD="a-club-night-2026",
        DJANGO_SUPERUSER_EMAIL="director@club.test",
    )
    state: dict[str, Any] = {"venue": venue}
    try:
        yield state
    finally:
        for running in (venue, state.get("restored")):
            if running is not None and running.process is not None:
                running.interrupt()


def test_make_venue_runs_the_venue_after_installing_what_running_needs() -> None:
    dry = subprocess.run(
        ["make", "-n", "--no-print-directory", "venue", "VENV=/nonexistent-venv-for-a-dry-run", "PORT=8123"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert dry.returncode == 0, dry.stderr
    assert "pip install -q -e ." in dry.stdout and "[dev]" not in dry.stdout
    assert dry.stdout.strip().splitlines()[-1].endswith("-m config.venue serve --port 8123")


def test_the_room_reaches_the_venue_on_the_public_address_with_debug_off(room: dict[str, Any]) -> None:
    venue: Venue = room["venue"]
    assert f"venue: players join at {venue.public}" in venue.lines, venue.output()
    assert any("▀" in line or "█" in line for line in venue.lines), "a QR code of the address is printed"
    assert "director account: director (created)" in venue.lines
    with venue.phone() as phone:
        assert phone.get("/").status_code == 200
        missing = phone.get("/no-such-page/")
        assert missing.status_code == 404
        assert "Traceback" not in missing.text and "DEBUG = True" not in missing.text
        assert "URLconf" not in missing.text
        assert phone.get("/", headers={"Host": f"elsewhere.test:{venue.port}"}).status_code == 400
    with venue.laptop() as laptop:
        assert laptop.get("/").status_code == 200  # the laptop's own browser, on the loopback
    assert (venue.folder / "static" / "css").is_dir(), "the static files are collected into the data folder"
    assert (venue.folder / "secret_key").stat().st_mode & 0o077 == 0
    assert venue.folder.stat().st_mode & 0o777 == 0o700, "the night's data is the laptop owner's alone"
    assert (venue.folder / "db.sqlite3").stat().st_mode & 0o077 == 0
    key = (venue.folder / "secret_key").read_text()
    assert "django-insecure" not in key and len(key.strip()) >= 50


def test_slips_printed_on_the_laptop_name_the_public_address_and_a_phone_enters_with_one(
    room: dict[str, Any],
) -> None:
    venue: Venue = room["venue"]
    event, division, bracket, number = venue.manage(SETUP).split()
    with venue.laptop() as laptop:
        log_in(laptop)
        dashboard = laptop.get(f"/manage/{event}/")
        assert dashboard.status_code == 200
        assert f"Join at <strong>{venue.public}</strong>" in dashboard.text
        slips = laptop.get(f"/manage/{event}/{division}/round/{bracket}/{number}/slips/")
        assert slips.status_code == 200, slips.text[:2000]
        display = laptop.get(f"/display/{event}/")
        assert f"Join at <strong>{venue.public}</strong>" in display.text
    links = sorted(set(re.findall(r"https?://[^\s\"<>]+/play/[^\s\"<>]+/", slips.text)))
    assert len(links) == 8, links  # 4 matches, a link per player
    assert all(link.startswith(venue.public + "play/") for link in links), links
    # Phones open the links of one match (a link's text starts with its match and side: "<match>.<side>.").
    seats: dict[int, dict[int, dict[str, str]]] = {}
    for link in links:
        with venue.phone() as phone:
            door = phone.get(link.removeprefix(venue.public.rstrip("/")))
            assert door.status_code == 302, door.text[:2000]
            found = re.fullmatch(r"/play/match/(\d+)/", door.headers["location"])
            assert found, door.headers["location"]
            side = int(link.split("/play/")[1].split(".")[1])
            seats.setdefault(int(found.group(1)), {})[side] = dict(phone.cookies)
        match_id, sides = next(iter(seats.items()))
        if len(sides) == 2:
            break
    with venue.phone() as phone:
        phone.cookies.update(sides[0])
        answer = enter(phone, match_id, "opening-roll", 0, 0, die1=3, die2=1)
        assert answer.status_code == 303, answer.text[:2000]
    link = next(link for link in links if link.startswith(f"{venue.public}play/{match_id}.1."))
    room.update(sides=sides, match_id=match_id, event=event, link=link)
    entered = venue.manage(
        f"from games.models import Match; m = Match.objects.get(pk={match_id}); "
        "print(m.seq, m.actions.order_by('seq').last().kind)"
    )
    assert entered == "1 opening-roll"


def test_sqlite_lock_contention_makes_a_write_wait_not_fail(room: dict[str, Any]) -> None:
    """A write lock held by another process for longer than SQLite's default wait (5 s): the phone's entry waits
    for it and is recorded, no 500."""
    venue: Venue = room["venue"]
    match_id = room["match_id"]
    held = threading.Event()

    def hold_the_lock() -> None:
        other = sqlite3.connect(venue.folder / "db.sqlite3", timeout=30, isolation_level=None)
        try:
            other.execute("BEGIN IMMEDIATE")
            held.set()
            time.sleep(7)
            other.execute("COMMIT")
        finally:
            other.close()

    holder = threading.Thread(target=hold_the_lock)
    holder.start()
    assert held.wait(30)
    with venue.phone() as phone:
        phone.cookies.update(room["sides"][0])
        answer = enter(phone, match_id, "play", 0, 1, play="8/5 6/5")
    holder.join()
    assert answer.status_code == 303, answer.text[:2000]
    assert match_seq(venue, match_id) == 2


def test_ctrl_c_in_the_middle_of_a_round_and_a_second_start_lose_nothing(room: dict[str, Any]) -> None:
    venue: Venue = room["venue"]
    match_id = room["match_id"]
    assert venue.interrupt() == 0, venue.output()
    assert "venue: stopped" in venue.lines, venue.output()
    ps = subprocess.run(["ps", "-eo", "pid,args"], capture_output=True, text=True, check=True).stdout
    assert str(venue.folder) not in ps, "a process of the venue outlived Ctrl-C"
    assert match_seq(venue, match_id) == 2, "the entries made before Ctrl-C are kept"
    # A result entered while the venue is down: its follow-up (standings) waits in the broker's folder.
    finished = venue.manage(
        "from common.actor import SYSTEM\n"
        "from games import services as games\n"
        "from tournaments.models import Pairing\n"
        f"p = Pairing.objects.filter(status='ready').exclude(match_id={match_id}).order_by('id').first()\n"
        "seq = p.match.seq\n"
        "while True:\n"
        "    r = games.record_game_result(p.match_id, actor=SYSTEM, winner=0, kind=1, cube_value=1, expected_seq=seq)\n"
        "    seq = r.match.seq\n"
        "    if r.state.is_over: break\n"
        "print(p.division_id, p.entry_a_id)"
    )
    division_id, winner = finished.split()
    assert list((venue.folder / "broker" / "queue").iterdir()), "the follow-up is queued"
    venue.start()  # no DJANGO_SUPERUSER_*, no terminal: the director exists, nothing is asked
    assert "director account: director (unchanged)" in venue.lines
    deadline = time.monotonic() + SETTLE_SECONDS
    counted = ""
    while time.monotonic() < deadline:
        counted = venue.manage(
            "from tournaments.models import Division, Standing\n"
            f"d = Division.objects.get(pk={division_id})\n"
            f"s = Standing.objects.filter(division=d, entry_id={winner}).first()\n"
            "print(d.standings_status, s.wins if s else None)"
        )
        if counted == "current 1":
            break
        time.sleep(1)
    assert counted == "current 1", "the queued work was done after the second start\n" + venue.output()
    # The standings' task queues the ratings' and the analysis's after it: the queue empties once they are taken.
    queue = venue.folder / "broker" / "queue"
    while list(queue.iterdir()) and time.monotonic() < deadline:
        time.sleep(1)
    assert not list(queue.iterdir()), "every queued message was taken\n" + venue.output()
    with venue.phone() as phone:  # the match goes on: the opponent's phone rolls, its session kept
        phone.cookies.update(room["sides"][1])
        answer = enter(phone, match_id, "roll", 1, 2, die1=6, die2=5)
        assert answer.status_code == 303, answer.text[:2000]
    assert match_seq(venue, match_id) == 3


def test_a_backup_restored_into_a_fresh_folder_serves_the_same_event(room: dict[str, Any], tmp_path: Path) -> None:
    venue: Venue = room["venue"]
    taken = venue.command("backup")
    assert taken.returncode == 0, taken.stderr
    backup = Path(taken.stdout.strip().removeprefix("venue: backup: "))
    assert backup.parent == venue.folder / "backups" and backup.exists()
    fresh = Venue(tmp_path / "venue-data", free_port())
    restored = fresh.command("restore", str(backup))
    assert restored.returncode == 0, restored.stderr
    room["restored"] = fresh
    fresh.start()
    with fresh.phone() as phone:
        page = phone.get(f"/events/{room['event']}/")
        assert page.status_code == 200 and "Club night" in page.text
        phone.cookies.update(room["sides"][1])  # the phone of side 1, as it was
        assert phone.get(f"/play/match/{room['match_id']}/").status_code == 200
        door = phone.get(room["link"].removeprefix(venue.public.rstrip("/")))
        assert door.status_code == 302, "an entry link printed before the backup still opens"
        assert door.headers["location"] == f"/play/match/{room['match_id']}/"
    assert fresh.interrupt() == 0


def test_a_restore_or_a_second_start_is_refused_while_the_venue_runs_and_a_file_that_is_no_backup_too(
    room: dict[str, Any], tmp_path: Path
) -> None:
    venue: Venue = room["venue"]
    assert venue.process is not None
    backup = sorted((venue.folder / "backups").glob("db-*.sqlite3"))[-1]
    running = venue.command("restore", str(backup))
    assert running.returncode == 2 and "a venue is already running" in running.stderr
    second = venue.command("serve", "--port", str(free_port()))
    assert second.returncode == 2 and "a venue is already running" in second.stderr
    with venue.phone() as phone:
        assert phone.get("/health/").status_code == 200, "the first goes on"
    junk = tmp_path / "notes.txt"
    junk.write_text("not a database")
    other = Venue(tmp_path / "other", 0)
    refused = other.command("restore", str(junk))
    assert refused.returncode == 2 and "is not an SQLite database" in refused.stderr
