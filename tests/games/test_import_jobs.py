"""``import_matches --jobs N``: the files checked in N worker processes store the same rows and print the same
report as with one job, in file order; a file refused in the middle (by the check or by the services) stores
nothing of itself and never undoes the others.
"""

from __future__ import annotations

import functools
import io
import os
import re
import sys
from pathlib import Path
from typing import Any

import pytest

from games.management.commands import import_matches as command
from games.models import Action, Game, Match
from tests.games.test_commands import CLEAN, CORRUPT, GNUBG_LOG, run

pytestmark = pytest.mark.django_db

MATCH_FIELDS = (
    "source", "player1__display_name", "player2__display_name", "length", "variant", "crawford", "status",
    "entry_mode", "score1", "score2", "seq", "state", "winner__display_name",
)  # fmt: skip
IGNORED = {"id", "match_id", "created_at"}  # the rows' and the match's ids, the time of the import


def _files(tmp_path: Path) -> list[str]:
    """Valid logs, with in the middle: a file the check refuses, one the services refuse alone (120 points),
    one the services refuse in its batch (a player's name too long), an unreadable one and a missing one."""
    text = CLEAN.read_text()
    made = []
    for n, content in enumerate(
        [
            text.replace("Carol", "Carol 0"),
            text.replace("5 point match", "120 point match"),
            text.replace("Carol", "Carol " + "x" * 120),
            text.replace("Dave", "Dave 3"),
            "not a match log at all\n",
            text[: text.index(" Game 2")],  # in progress, with a note
        ]
    ):
        path = tmp_path / f"log{n}.mat"
        path.write_text(content)
        made.append(str(path))
    corpus = [str(GNUBG_LOG)] if GNUBG_LOG.is_file() else []
    return [*made[:2], str(CORRUPT[0]), *made[2:4], *corpus, made[4], str(tmp_path / "missing.mat"), made[5]]


def _stored(after_pk: int) -> list[tuple[Any, ...]]:
    """The matches stored with an id past ``after_pk``, in order, each with its log's rows and its games."""
    stored = []
    for match in Match.objects.filter(pk__gt=after_pk).order_by("pk"):
        fields = Match.objects.filter(pk=match.pk).values_list(*MATCH_FIELDS).get()
        actions = [
            {k: v for k, v in row.items() if k not in IGNORED}
            for row in Action.objects.filter(match=match).order_by("seq").values()
        ]
        games = [
            {k: v for k, v in row.items() if k not in IGNORED}
            for row in Game.objects.filter(match=match).order_by("number").values()
        ]
        stored.append((fields, actions, games))
    return stored


def _without_ids(text: str) -> str:
    return re.sub(r" in [\d.]+ s\b", " in S s", re.sub(r"match #\d+", "match #N", text))


def _checked_where(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """Make every check write the id of the process it runs in to a file (the workers are forked after this)."""
    record = tmp_path / "checked_in.txt"
    check_one = command.check_one

    @functools.wraps(check_one)  # the same module and name: the workers are given it by name
    def recorded(name: str) -> Any:
        with record.open("a") as out:
            out.write(f"{os.getpid()}\n")
        return check_one(name)

    monkeypatch.setattr(command, "check_one", recorded)
    return record


def test_several_jobs_store_the_same_rows_and_print_the_same_report_as_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = _files(tmp_path)
    record = _checked_where(monkeypatch, tmp_path)
    out1, err1, error1 = run("import_matches", "--jobs", "1", *files)
    assert set(record.read_text().split()) == {str(os.getpid())}
    one_job = _stored(0)
    assert len(one_job) == len(files) - 5  # the corrupt, refused, unreadable and missing files stored nothing
    assert "Carol 0" in {fields[1] for fields, _, _ in one_job} and "Dave 3" in {f[2] for f, _, _ in one_job}
    assert not Match.objects.filter(length=120).exists()
    assert not Match.objects.filter(player1__display_name__startswith="Carol xx").exists()

    record.unlink()
    monkeypatch.setattr(command, "AHEAD", 2)  # the workers run ahead of the files being stored, but not far
    last = Match.objects.order_by("-pk").first()
    assert last is not None
    out3, err3, error3 = run("import_matches", "--jobs", "3", *files)
    processes = record.read_text().split()
    assert len(processes) == len(files) and str(os.getpid()) not in processes and len(set(processes)) > 1
    assert _stored(last.pk) == one_job
    assert _without_ids(out3) == _without_ids(out1) and _without_ids(err3) == _without_ids(err1)
    assert out3.splitlines()[-1].startswith(f"{len(files) - 5} imported, 3 invalid, 2 unreadable in ")
    assert error1 is not None and error3 is not None and _without_ids(str(error3)) == _without_ids(str(error1))
    lines = out3.splitlines()
    assert [line.split(":")[0].split(" ", 1)[1] for line in lines[:-1]] == files  # in file order


def test_standard_input_among_files_checked_by_workers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    other = tmp_path / "other.mat"
    other.write_text(CLEAN.read_text().replace("Carol", "Carol 9"))
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(CLEAN.read_bytes())))
    out, _, error = run("import_matches", "--jobs", "2", str(other), "-", str(CORRUPT[0]), "-")
    lines = out.splitlines()
    assert lines[0].startswith(f"imported {other}: match #") and lines[1].startswith("imported -: match #")
    assert lines[2].startswith(f"invalid {CORRUPT[0]}: game ")
    assert lines[3].startswith("unreadable -: ")  # standard input was read once, in its place
    assert error is not None
    assert list(Match.objects.order_by("pk").values_list("source", flat=True)) == [str(other), "(standard input)"]


@pytest.mark.parametrize("jobs", ["0", "-2", "two"])
def test_a_number_of_jobs_below_one_is_refused_before_any_file_is_read(jobs: str) -> None:
    _, _, error = run("import_matches", "--jobs", jobs, str(CLEAN))
    assert error is not None and f"expected a number of processes, 1 or more, or 'auto', not {jobs!r}" in str(error)
    assert not Match.objects.exists()


@pytest.mark.parametrize("given", [None, "auto"])
def test_by_default_the_files_are_checked_by_one_worker_per_cpu_the_command_may_use(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, given: str | None
) -> None:
    asked: list[int] = []
    checked_files = command.checked_files

    def recorded(names: list[str], *, jobs: int) -> Any:
        asked.append(jobs)
        return checked_files(names, jobs=jobs)

    monkeypatch.setattr(command, "checked_files", recorded)
    record = _checked_where(monkeypatch, tmp_path)
    files = [str(CLEAN), str(tmp_path / "other.mat")]
    Path(files[1]).write_text(CLEAN.read_text().replace("Carol", "Carol 9"))
    options = ["--jobs", given] if given else []
    for cpus, processes in (({0, 3, 5}, 3), ({4}, 1)):  # three CPUs of six, then one
        monkeypatch.setattr(os, "sched_getaffinity", lambda pid, cpus=cpus: cpus, raising=False)
        out, _, error = run("import_matches", *options, *files)
        assert error is None and out.splitlines()[1].startswith(f"imported {files[1]}: match #")
        assert asked.pop() == processes
        workers = set(record.read_text().split())
        assert (workers == {str(os.getpid())}) == (processes == 1)  # one CPU: checked in the command's process
        record.unlink()
