"""GNU Backgammon as a separate program: one long-lived process per worker process, fed match after match.

:class:`Gnubg` starts ``gnubg -t -q -r -p gnubg_server.py`` (the path is settings.GNUBG_PATH), sends it one request
per match and reads one answer, each within settings.ANALYSIS_TIMEOUT seconds. A process that dies, hangs or
answers nonsense is killed, and the next request starts a fresh one; the error says what happened
(:class:`AnalysisUnavailableError` when gnubg cannot be started at all, :class:`AnalysisFailedError` otherwise).
Nothing here touches the database.
"""

from __future__ import annotations

import json
import logging
import os
import selectors
import shutil
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.conf import settings

log = logging.getLogger(__name__)

SERVER = Path(__file__).with_name("gnubg_server.py")
MARKER = "@@bgmatch "


class AnalysisFailedError(Exception):
    """gnubg crashed, hung past the time limit, or answered what cannot be read; the analysis may be retried."""


class AnalysisUnavailableError(AnalysisFailedError):
    """gnubg cannot be run here (not installed, not executable); retrying does not help until an operator acts."""


def gnubg_path() -> str:
    """The gnubg program to run: settings.GNUBG_PATH, looked up on PATH when it is a bare name."""
    configured = str(settings.GNUBG_PATH)
    if os.sep in configured:
        return configured
    return shutil.which(configured) or configured


_versions: dict[str, str] = {}


def gnubg_version(path: str | None = None) -> str:
    """The first line of ``gnubg --version`` ("GNU Backgammon 1.07.001 20230103").

    :raises AnalysisUnavailableError: with the reason when the program cannot be run.
    """
    path = path or gnubg_path()
    if path not in _versions:
        try:
            out = subprocess.run(
                [path, "--version"], capture_output=True, text=True, timeout=settings.ANALYSIS_TIMEOUT, check=False
            )
        except FileNotFoundError as exc:
            raise AnalysisUnavailableError(f"GNU Backgammon is not installed at {path} (set GNUBG_PATH)") from exc
        except PermissionError as exc:
            raise AnalysisUnavailableError(f"{path} cannot be run: {exc.strerror} (set GNUBG_PATH)") from exc
        except subprocess.TimeoutExpired as exc:
            raise AnalysisFailedError(f"{path} --version did not answer within {exc.timeout} s") from exc
        lines = out.stdout.strip().splitlines()
        if out.returncode != 0 or not lines or not lines[0].startswith("GNU Backgammon"):
            raise AnalysisUnavailableError(f"{path} is not GNU Backgammon (`{path} --version` exit {out.returncode})")
        _versions[path] = lines[0].strip()
    return _versions[path]


def availability() -> tuple[bool, str]:
    """(True, version) when gnubg can be run, else (False, the reason)."""
    try:
        return True, gnubg_version()
    except AnalysisFailedError as exc:
        return False, str(exc)


@dataclass
class Timings:
    """Where the time of the last request went, in seconds: starting gnubg (0 when the process was reused), the
    whole request as the caller saw it, and inside gnubg the .mat import, the analysis and the report."""

    start: float = 0.0
    request: float = 0.0
    inside: dict[str, float] = field(default_factory=dict)


@dataclass
class Gnubg:
    """One gnubg process, started on first use and restarted after any failure."""

    path: str
    timeout: float
    process: subprocess.Popen[str] | None = None
    timings: Timings = field(default_factory=Timings)
    _buffer: str = ""

    def analyse(self, mat_text: str, *, plies: int) -> dict[str, Any]:
        """gnubg's ``match()`` (analysis and statistics) for a .mat text analysed at ``plies``.

        :raises AnalysisUnavailableError: gnubg cannot be started.
        :raises AnalysisFailedError: it crashed, hung, or reported an error; the process is gone afterwards.
        """
        self.timings = Timings()
        if self.process is None or self.process.poll() is not None:
            began = time.perf_counter()
            self._start()
            self.timings.start = time.perf_counter() - began
        began = time.perf_counter()
        with tempfile.NamedTemporaryFile("w", suffix=".mat", encoding="utf-8", delete=False) as handle:
            handle.write(mat_text)
        try:
            answer = self._ask({"mat": handle.name, "plies": plies})
        finally:
            Path(handle.name).unlink(missing_ok=True)
        self.timings.request = time.perf_counter() - began
        if not answer.get("ok"):
            self.close()
            # What gnubg's Python raised goes to the worker's log, never to the analysis status visitors read.
            log.warning("GNU Backgammon's analysis failed: %s", answer.get("error"))
            raise AnalysisFailedError("GNU Backgammon could not analyse this match (its error is in the worker's log)")
        self.timings.inside = dict(answer.get("seconds") or {})
        return dict(answer["match"])

    def close(self) -> None:
        """Stop the process (if any)."""
        process, self.process, self._buffer = self.process, None, ""
        if process is None:
            return
        if process.poll() is None:
            process.kill()
        process.wait()
        for stream in (process.stdin, process.stdout):
            if stream is not None:
                stream.close()

    def _start(self) -> None:
        gnubg_version(self.path)  # refuses a missing or foreign program with the reason
        env = {**os.environ, "LC_ALL": "C", "LANG": "C"}
        try:
            self.process = subprocess.Popen(
                [self.path, "-t", "-q", "-r", "-p", str(SERVER)],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                text=True,
                env=env,
                start_new_session=True,
            )
        except OSError as exc:
            raise AnalysisUnavailableError(f"GNU Backgammon could not be started from {self.path}: {exc}") from exc
        ready = self._read_answer()
        if not ready.get("ready"):
            self.close()
            raise AnalysisFailedError("GNU Backgammon started but did not say it was ready")

    def _ask(self, request: dict[str, Any]) -> dict[str, Any]:
        assert self.process is not None and self.process.stdin is not None
        try:
            self.process.stdin.write(json.dumps(request) + "\n")
            self.process.stdin.flush()
        except (BrokenPipeError, OSError) as exc:
            self.close()
            log.warning("GNU Backgammon exited before the request was sent: %s", exc)
            raise AnalysisFailedError("GNU Backgammon exited before the match was sent to it") from exc
        return self._read_answer()

    def _read_answer(self) -> dict[str, Any]:
        """The next marked line of the process's output, within the time limit."""
        assert self.process is not None and self.process.stdout is not None
        deadline = time.monotonic() + self.timeout
        fd = self.process.stdout.fileno()
        with selectors.DefaultSelector() as selector:
            selector.register(fd, selectors.EVENT_READ)
            while True:
                line = self._line()
                if line is not None:
                    if line.startswith(MARKER):
                        try:
                            return dict(json.loads(line[len(MARKER) :]))
                        except ValueError as exc:
                            self.close()
                            log.warning("GNU Backgammon's answer cannot be read: %s", exc)
                            raise AnalysisFailedError("GNU Backgammon answered what cannot be read") from exc
                    continue
                left = deadline - time.monotonic()
                if left <= 0 or not selector.select(left):
                    self.close()
                    raise AnalysisFailedError(f"GNU Backgammon did not answer within {self.timeout:g} s; stopped it")
                chunk = os.read(fd, 1 << 16)
                if not chunk:
                    code = self.process.wait()
                    self.close()
                    raise AnalysisFailedError(f"GNU Backgammon exited (status {code}) without an answer")
                self._buffer += chunk.decode("utf-8", "replace")

    def _line(self) -> str | None:
        if "\n" not in self._buffer:
            return None
        line, self._buffer = self._buffer.split("\n", 1)
        return line


_local = threading.local()


def worker_gnubg() -> Gnubg:
    """This thread's long-lived gnubg (one per worker process and thread), for the current settings."""
    current: Gnubg | None = getattr(_local, "gnubg", None)
    path, timeout = gnubg_path(), float(settings.ANALYSIS_TIMEOUT)
    if current is None or current.path != path or current.timeout != timeout:
        if current is not None:
            current.close()
        current = Gnubg(path=path, timeout=timeout)
        _local.gnubg = current
    return current
