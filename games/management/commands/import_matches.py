"""``python manage.py import_matches FILE... [--event SLUG]`` (docs/ARCHITECTURE.md contract C).

Each file is validated exactly as ``python -m engine check`` validates it (the same reader, the same replay and
the same messages) and, when valid, stored with its full action log through ``services.import_matches``: with
the states the check computed (the log is replayed once). The valid files are stored in batches (``Batch``), each
in one transaction with the same statements whatever its size (the logs' rows in one COPY); a file the services
refuse stores nothing and never undoes the others, as if every file had its own transaction. A directory stands
for the ``*.mat`` and ``*.txt`` files under it; ``-`` reads one log from standard input.

Output, one line per file::

    imported FILE: match #12, Alice vs Bob, 7-point, 7-4 (finished)
    invalid FILE: game 3, move 12: <the check command's message>
    unreadable FILE: <the check command's message>

then ``N imported, M invalid, K unreadable in S s``. Exit status 0 when every file was imported, 1 otherwise.
With ``--event SLUG`` each imported match is attached to that event (games.hooks.import_target); an unknown event
is refused before any file is read.

With ``--jobs N`` the files are checked in N worker processes, forked from this one, while this process stores
the files checked before them: the workers only read, replay and prepare (no database); the results come back in
file order and are stored and reported exactly as with one job, so the output, the stored rows and the exit
status do not depend on N. By default (``--jobs auto``) N is the number of CPUs the command may use
(:func:`available_cpus`); ``--jobs 1``, a single CPU and a single file check the files in this process
(bench/README.md, "Import": two workers took the corpus in 0.64 of one process's time on an idle 2-CPU machine, and
in 0.79 to 0.87 of it, by the medians, with both CPUs busy with other work).
"""

from __future__ import annotations

import argparse
import gc
import multiprocessing
import os
import sys
import time
from collections import deque
from collections.abc import Callable, Generator, Iterator
from contextlib import closing
from dataclasses import dataclass
from multiprocessing.pool import AsyncResult
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import DatabaseError

from common.actor import SYSTEM
from common.errors import ApplicationError
from engine.errors import FormatError
from engine.formats.check import check_file, check_text
from engine.formats.mat import read_mat
from engine.formats.matlog import LogReplay, replay_record
from games import services
from games.hooks import import_target
from games.models import Match

PROGRESS_EVERY = 50
#: The valid files, or their actions, stored together in one transaction (Batch).
BATCH_FILES = 50
BATCH_ACTIONS = 20_000
LOG_SUFFIXES = (".mat", ".txt")
STDIN = "-"
#: ``--jobs auto``: one worker process per CPU the command may use (:func:`available_cpus`).
AUTO = "auto"
#: The files a worker process may have checked ahead of the ones being stored (what is held in memory at most,
#: beside the batch).
AHEAD = BATCH_FILES


@dataclass(frozen=True, slots=True)
class Outcome:
    """What became of one file: ``imported``, ``invalid`` or ``unreadable``, and the line to print."""

    status: str
    line: str
    note: str | None = None


class Command(BaseCommand):
    help = "Validate .mat match logs as `python -m engine check` does and store each valid one with its action log."

    def check(self, *args: Any, **kwargs: Any) -> None:
        """No system check before an import (``--skip-checks`` is what it always does): Django's checks of the
        project's set-up (the URLs and every view they load, the admin, the settings) took more of the command's
        start-up than the rest of it together (about 0.7 s of CPU) and say nothing of the files; ``manage.py
        check`` and the servers run them."""

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "files", nargs="+", metavar="FILE", help="a .mat/.txt match log, a directory of them, or - for stdin"
        )
        parser.add_argument("--event", metavar="SLUG", help="attach the matches to this event")
        parser.add_argument("--quiet", action="store_true", help="print only the files that were not imported")
        parser.add_argument(
            "--jobs",
            type=_jobs,
            default=AUTO,
            metavar="N",
            help="check the files in N worker processes while the checked ones are stored (default auto: one per "
            "CPU the command may use; 1: in this process)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        attach = None
        if options["event"] is not None:
            attach = import_target(options["event"], SYSTEM)
            if attach is None:
                raise CommandError(f"there is no event {options['event']!r}: give the address (slug) of an event")
        # What is loaded by now (Django, the apps) lives as long as the command: kept out of the collector's full
        # passes, which otherwise scan it again and again while the logs are replayed (about a fifth of the work).
        gc.freeze()
        try:
            self._import(options, attach)
        finally:
            gc.unfreeze()

    def _import(self, options: dict[str, Any], attach: Callable[[Match], None] | None) -> None:
        quiet = options["quiet"]
        names = list(_expand(options["files"]))
        counts = {"imported": 0, "invalid": 0, "unreadable": 0}
        started = time.monotonic()

        def report(outcomes: list[tuple[str, Outcome]]) -> None:
            for name, outcome in outcomes:
                counts[outcome.status] += 1
                done = sum(counts.values())
                if outcome.status != "imported" or not quiet:
                    self.stdout.write(outcome.line)
                if outcome.note and not quiet:
                    self.stderr.write(f"note: {name}: {outcome.note}")
                if not quiet and len(names) > PROGRESS_EVERY and done % PROGRESS_EVERY == 0 and done < len(names):
                    self.stderr.write(f"... {done} of {len(names)} files in {time.monotonic() - started:.1f} s")

        batch = Batch(attach)
        jobs = available_cpus() if options["jobs"] == AUTO else options["jobs"]
        with closing(checked_files(names, jobs=jobs)) as checked_in_order:
            for name, checked in checked_in_order:
                batch.add(name, checked)
                if batch.full():
                    report(batch.store())
        report(batch.store())
        summary = (
            f"{counts['imported']} imported, {counts['invalid']} invalid, {counts['unreadable']} unreadable "
            f"in {time.monotonic() - started:.1f} s"
        )
        if not quiet:
            self.stdout.write(summary)
        if counts["invalid"] or counts["unreadable"]:
            raise CommandError(f"not every file was imported: {summary}")


def _jobs(text: str) -> int | str:
    if text == AUTO:
        return AUTO
    try:
        jobs = int(text)
    except ValueError:
        jobs = 0
    if jobs < 1:
        raise argparse.ArgumentTypeError(f"expected a number of processes, 1 or more, or {AUTO!r}, not {text!r}")
    return jobs


def available_cpus() -> int:
    """The CPUs this process may run on (its affinity where the system tells it, else the machine's count)."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def checked_files(names: list[str], *, jobs: int) -> Generator[tuple[str, Outcome | Checked], None, None]:
    """Each file named, in order, with what its check made of it (:func:`check_one`): checked in ``jobs`` worker
    processes, at most ``AHEAD`` files checked ahead of the one handed on, or here for one job or one file (or
    where processes cannot be forked). Standard input is read and checked here, in its place in the order."""
    jobs = min(jobs, len(names))
    if jobs <= 1 or "fork" not in multiprocessing.get_all_start_methods():
        for name in names:
            yield name, check_one(name)
        return
    # Forked: the workers have what is loaded here (no start-up of their own) and never use the database
    # connection they inherit; a worker ends with os._exit, which leaves the connection alone.
    with multiprocessing.get_context("fork").Pool(jobs) as pool:  # left early (an error): the workers stop
        pending: deque[tuple[str, _Done | AsyncResult[Outcome | Checked]]] = deque()
        for name in names:
            pending.append((name, _Done(check_one(name)) if name == STDIN else pool.apply_async(check_one, (name,))))
            if len(pending) > AHEAD:
                first, result = pending.popleft()
                yield first, result.get()
        while pending:
            first, result = pending.popleft()
            yield first, result.get()
        pool.close()
        pool.join()  # their CPU time counts in this process's children's


@dataclass(frozen=True, slots=True)
class _Done:
    """A file checked here, among those the workers check."""

    checked: Outcome | Checked

    def get(self) -> Outcome | Checked:
        return self.checked


def _expand(arguments: list[str]) -> Iterator[str]:
    """The files named: a directory stands for its ``*.mat`` and ``*.txt`` files (recursively, sorted)."""
    for name in arguments:
        path = Path(name)
        if name != STDIN and path.is_dir():
            found = (p for p in path.rglob("*") if p.is_file() and p.suffix.lower() in LOG_SUFFIXES)
            yield from sorted(str(p) for p in found)
        else:
            yield name


@dataclass(frozen=True, slots=True)
class Checked:
    """A file that passed the check, ready to store."""

    name: str
    wanted: services.MatchToImport
    note: str | None


class Batch:
    """The files checked since the last store, in order: the valid ones are stored together (one transaction,
    the same statements whatever their number: services.import_matches) once there are ``BATCH_FILES`` of them
    or ``BATCH_ACTIONS`` actions, or at the end. Should the services refuse one of them, each valid file of the
    batch is stored again on its own, in its own transaction, so that the one refused stores nothing and the
    others are kept, as if every file had been stored alone."""

    def __init__(self, attach: Callable[[Match], None] | None) -> None:
        self.attach = attach
        self.files: list[tuple[str, Outcome | Checked]] = []
        self.actions = 0
        self.valid = 0

    def add(self, name: str, checked: Outcome | Checked) -> None:
        self.files.append((name, checked))
        if isinstance(checked, Checked):
            self.valid += 1
            self.actions += checked.wanted.actions

    def full(self) -> bool:
        return self.valid >= BATCH_FILES or self.actions >= BATCH_ACTIONS

    def store(self) -> list[tuple[str, Outcome]]:
        """Store the batch's valid files; every file's outcome, in order. The batch is emptied."""
        files, self.files, self.actions, self.valid = self.files, [], 0, 0
        valid = [checked for _, checked in files if isinstance(checked, Checked)]
        try:
            matches = iter(services.import_matches([checked.wanted for checked in valid], attach=self.attach))
        except (ApplicationError, DatabaseError):
            stored = iter([_store_alone(checked, self.attach) for checked in valid])
        else:
            stored = iter(_imported(match, checked) for match, checked in zip(matches, valid, strict=True))
        return [(name, next(stored) if isinstance(checked, Checked) else checked) for name, checked in files]


def check_one(name: str) -> Outcome | Checked:
    """Check one file as ``python -m engine check`` does: what to store, or why it is not stored."""
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
        wanted = services.MatchToImport.of_log(replay, source=_source(name))  # the check's states: no second replay
    except ApplicationError as exc:
        return Outcome("invalid", f"invalid {name}: {exc.message}")
    return Checked(name, wanted, _note(replay))


def _store_alone(checked: Checked, attach: Callable[[Match], None] | None) -> Outcome:
    try:
        match = services.import_matches([checked.wanted], attach=attach)[0]
    except ApplicationError as exc:
        return Outcome("invalid", f"invalid {checked.name}: {exc.message}")
    return _imported(match, checked)


def _imported(match: Match, checked: Checked) -> Outcome:
    return Outcome("imported", f"imported {checked.name}: {describe(match)}", checked.note)


def _unreadable(name: str, report: dict[str, Any]) -> Outcome:
    return Outcome("unreadable", f"unreadable {name}: {report['error']['message']}")


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
