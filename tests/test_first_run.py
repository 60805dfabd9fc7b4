"""The newcomer's path: ``make run`` installs only what running needs (the developer tools come with ``make test``)
and loads the demo without a broker warning or a line per task; the licence is in the repository and in the
package metadata."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _make_dry_run(target: str) -> str:
    # A fresh virtualenv path, so that make lists every step it would take from nothing.
    venv = "VENV=/nonexistent-venv-for-a-dry-run"
    # --no-print-directory: under `make test` this make is a sub-make, which would print its directory around the steps.
    result = subprocess.run(
        ["make", "-n", "--no-print-directory", target, venv], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_make_run_installs_only_what_running_needs() -> None:
    run, test = _make_dry_run("run"), _make_dry_run("test")
    assert "pip install -q -e ." in run and "[dev]" not in run
    assert "pip install -q -e '.[dev]'" in test
    assert run.strip().splitlines()[-2].startswith("echo"), "the address and the login are printed last"
    assert "demo / demo" in run


def test_loading_the_demo_prints_no_broker_warning_and_no_task_lines(tmp_path: Path) -> None:
    drop = ("CELERY_BROKER_URL", "DATABASE_URL", "BGMATCH_WORKER_TESTS", "DJANGO_SETTINGS_MODULE")
    env = {k: v for k, v in os.environ.items() if k not in drop}
    env.update(DATABASE_URL=f"sqlite:///{tmp_path / 'first-look.sqlite3'}", DEBUG="1")
    for command in (["migrate", "--noinput", "-v", "0"], ["load_demo", "--login"]):
        result = subprocess.run(
            [sys.executable, "manage.py", *command], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
        )
        assert result.returncode == 0, result.stderr
        assert result.stderr == "", result.stderr[:2000]
    # Two lines: where the demo is, and what GNU Backgammon made of it (or how to get it when it is missing).
    demo, analysis = result.stdout.strip().splitlines()
    assert demo == "demo event: /events/demo-open/ (director login: demo / demo)"
    assert analysis.startswith("analysis: ") and (
        "matches analysed by GNU Backgammon" in analysis or "apt-get install gnubg" in analysis
    )


def test_the_licence_is_the_agpl_3_or_later_and_the_package_says_so() -> None:
    licence = (ROOT / "LICENSE").read_text()
    assert licence.startswith("GNU AFFERO GENERAL PUBLIC LICENSE\nVersion 3, 19 November 2007")
    assert "13. Remote Network Interaction; Use with the GNU General Public License." in licence
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["license"] == "AGPL-3.0-or-later"
    notice = (ROOT / "NOTICE.md").read_text()
    for vendored in ("static/vendor/htmx/htmx.min.js", "engine/data/Kazaross-XG2.xml"):
        assert vendored in notice and (ROOT / vendored).exists()
