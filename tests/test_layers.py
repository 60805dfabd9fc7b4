"""The layers of docs/ARCHITECTURE.md hold: the import-linter contracts of pyproject.toml (``[tool.importlinter]``)
are kept.

``make lint`` runs the same check; this test makes ``make test`` alone catch a broken layer too (engine/ importing
Django, games/ importing tournaments/, common/ importing an app or config/, an app importing config/, an impure
pairing or tie-break module, an import cycle among the tournaments services, a tournaments module importing a higher
layer, or a new tournaments module with no place in the layers).
"""

from __future__ import annotations

import ast
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


#: A manager's or a query set's methods that write rows.
WRITES = {"create", "bulk_create", "bulk_update", "update", "delete", "get_or_create", "update_or_create"}
#: The calls that may be given one of games' model classes: they read it (a relation to it, a type check, an
#: unsaved instance checked as a form would, one of its fields). Any other (a bulk writer) may write its rows.
READERS = {"ForeignKey", "OneToOneField", "ManyToManyField", "isinstance", "issubclass", "_build", "_field"}


def games_model_writes(path: Path) -> list[str]:
    """The places in ``path`` that write one of games' models directly: ``Model.objects.<write>(...)`` (through any
    chain of query set methods), or the model given to a call that is not one of the :data:`READERS`."""
    tree = ast.parse(path.read_text(), str(path))
    names = {
        alias.asname or alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module == "games.models"
        for alias in node.names
    }
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr in WRITES:
            base: ast.expr = func.value
            while isinstance(base, (ast.Attribute, ast.Call)):
                base = base.func if isinstance(base, ast.Call) else base.value
            if isinstance(base, ast.Name) and base.id in names:
                found.append(f"{path.relative_to(ROOT)}:{node.lineno} {base.id}...{func.attr}")
        called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        if called not in READERS and any(isinstance(arg, ast.Name) and arg.id in names for arg in node.args):
            found.append(f"{path.relative_to(ROOT)}:{node.lineno} {called}")
    return found


def test_tournaments_writes_games_models_only_through_the_games_services() -> None:
    """Matches, their logs, games, players and entry links are written by games.services (one write path, one
    rule for the caches): tournaments/ never inserts, updates or deletes their rows itself."""
    found = [place for path in sorted((ROOT / "tournaments").rglob("*.py")) for place in games_model_writes(path)]
    assert not found, found
