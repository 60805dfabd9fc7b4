"""``python manage.py import_matches FILE... [--event SLUG]`` (DESIGN.md contract C).

Each file is validated exactly as ``python -m engine check`` validates it (the same reader, the same replay and
the same messages) and, when valid, stored with its full action log through ``services.import_log``: with the
states the check computed (the log is replayed once) and its rows written with one COPY, in one transaction per
file, so a refused file stores nothing and never undoes the files before it. A directory stands for the ``*.mat``
and ``*.txt`` files under it; ``-`` reads one log from standard input.

Output, one line per file::

    imported FILE: match #12, Alice vs Bob, 7-point, 7-4 (finished)
    invalid FILE: game 3, move 12: <the check command's message>
    unreadable FILE: <the check command's message>

then ``N imported, M invalid, K unreadable in S s``. Exit status 0 when every file was imported, 1 otherwise.
With ``--event SLUG`` each imported match is attached to that event (games.hooks.import_target); an unknown event
is refused before any file is read.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from engine.errors import FormatError
from engine.formats.check import check_file, check_text
from engine.formats.mat import read_mat
from engine.formats.matlog import LogReplay, replay_record
from games import services
from games.access import SYSTEM
from games.errors import ApplicationError
from games.hooks import import_target
from games.models import Match

PROGRESS_EVERY = 50
LOG_SUFFIXES = (".mat", ".txt")
STDIN = "-"


@dataclass(frozen=True, slots=True)
class Outcome:
    """What became of one file: ``imported``, ``invalid`` or ``unreadable``, and the line to print."""

    status: str
    line: str
    note: str | None = None


class Command(BaseCommand):
    help = "Validate .mat match logs as `python -m engine check` does and store each valid one with its action log."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "files", nargs="+", metavar="FILE", help="a .mat/.txt match log, a directory of them, or - for stdin"
        )
        parser.add_argument("--event", metavar="SLUG", help="attach the matches to this event")
        parser.add_argument("--quiet", action="store_true", help="print only the files that were not imported")

    def handle(self, *args: Any, **options: Any) -> None:
        attach = None
        if options["event"] is not None:
            attach = import_target(options["event"], SYSTEM)
            if attach is None:
                raise CommandError(f"there is no event {options['event']!r}: give the address (slug) of an event")
        quiet = options["quiet"]
        names = list(_expand(options["files"]))
        counts = {"imported": 0, "invalid": 0, "unreadable": 0}
        started = time.monotonic()
        for done, name in enumerate(names, start=1):
            outcome = import_one(name, attach=attach)
            counts[outcome.status] += 1
            if outcome.status != "imported" or not quiet:
                self.stdout.write(outcome.line)
            if outcome.note and not quiet:
                self.stderr.write(f"note: {name}: {outcome.note}")
            if not quiet and len(names) > PROGRESS_EVERY and done % PROGRESS_EVERY == 0 and done < len(names):
                self.stderr.write(f"... {done} of {len(names)} files in {time.monotonic() - started:.1f} s")
        summary = (
            f"{counts['imported']} imported, {counts['invalid']} invalid, {counts['unreadable']} unreadable "
            f"in {time.monotonic() - started:.1f} s"
        )
        if not quiet:
            self.stdout.write(summary)
        if counts["invalid"] or counts["unreadable"]:
            raise CommandError(f"not every file was imported: {summary}")


def _expand(arguments: list[str]) -> Iterator[str]:
    """The files named: a directory stands for its ``*.mat`` and ``*.txt`` files (recursively, sorted)."""
    for name in arguments:
        path = Path(name)
        if name != STDIN and path.is_dir():
            found = (p for p in path.rglob("*") if p.is_file() and p.suffix.lower() in LOG_SUFFIXES)
            yield from sorted(str(p) for p in found)
        else:
            yield name


def import_one(name: str, *, attach: Callable[[Match], None] | None = None) -> Outcome:
    """Check one file as ``python -m engine check`` does, and store it if it is valid (its own transaction)."""
    try:
        data = sys.stdin.buffer.read() if name == STDIN else Path(name).read_bytes()
    except OSError:
        return _unreadable(name, check_file(Path(name), shown_as=name)[0])
    try:
        record = read_mat(data)
    except FormatError:
        return _unreadable(name, check_text(data, shown_as=name)[0])  # the check command's own words
    try:
        services.check_match_size(games=len(record.games))  # before the replay: a huge log costs nothing
    except ApplicationError as exc:
        return Outcome("invalid", f"invalid {name}: {exc.message}")
    replay = replay_record(record)
    if replay.fault is not None:
        where = f"game {replay.fault.game}" + (f", move {replay.fault.move}" if replay.fault.move is not None else "")
        return Outcome("invalid", f"invalid {name}: {where}: {replay.fault.message}")
    try:
        match = _store(name, replay, attach)
    except ApplicationError as exc:
        return Outcome("invalid", f"invalid {name}: {exc.message}")
    return Outcome("imported", f"imported {name}: {describe(match)}", _note(replay))


def _unreadable(name: str, report: dict[str, Any]) -> Outcome:
    return Outcome("unreadable", f"unreadable {name}: {report['error']['message']}")


def _store(name: str, replay: LogReplay, attach: Callable[[Match], None] | None) -> Match:
    return services.import_log(replay, source=_source(name), attach=attach)  # the check's states: no second replay


def _source(name: str) -> str:
    """The file as named on the command line (its last 200 characters: the model's limit)."""
    source = "(standard input)" if name == STDIN else name
    limit = Match._meta.get_field("source").max_length or 200
    return source if len(source) <= limit else "..." + source[-(limit - 3) :]


def _note(replay: LogReplay) -> str | None:
    """Why an imported match is still open: the log stops before anyone reached the match length."""
    if replay.winner is not None or replay.record.match_length == 0:
        return None
    score = replay.score
    return f"the log ends at {score[0]}-{score[1]} before anyone won: the match is stored as in progress"


def describe(match: Match) -> str:
    """``match #12, Alice vs Bob, 7-point, 7-4 (finished)``."""
    length = "money" if match.length == 0 else f"{match.length}-point"
    status = match.get_status_display().lower()
    return (
        f"match #{match.pk}, {match.player1.display_name} vs {match.player2.display_name}, {length}, "
        f"{match.score1}-{match.score2} ({status})"
    )
