"""The layers of docs/ARCHITECTURE.md hold: the import-linter contracts of pyproject.toml (``[tool.importlinter]``)
are kept.

``make lint`` runs the same check; this test makes ``make test`` alone catch a broken layer too (engine/ importing
Django, games/ importing tournaments/, common/ importing an app or config/, an app importing config/, an impure
pairing or tie-break module, an import cycle among the tournaments services, a tournaments module importing a higher
layer, or a new tournaments module with no place in the layers).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LINT = "import sys; from importlinter.cli import lint_imports; sys.exit(lint_imports(no_cache=True, no_logo=True))"


def test_every_import_linter_contract_is_kept() -> None:
    run = subprocess.run([sys.executable, "-c", LINT], cwd=ROOT, capture_output=True, text=True, timeout=300)
    report = run.stdout + run.stderr
    assert "BROKEN" not in report and run.returncode == 0, report
    assert "0 broken" in report and " kept" in report, report  # the contracts were read and checked
