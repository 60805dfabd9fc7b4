"""Where the shared match-log corpus lives (beside the project, read in place, never copied)."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

CORPUS = Path(__file__).resolve().parents[3] / "shared" / "corpus" / "mat"
MANIFEST = CORPUS / "MANIFEST.tsv"


def corpus_rows() -> list[dict[str, str]]:
    """MANIFEST.tsv rows (empty when the corpus is not beside the project)."""
    if not MANIFEST.exists():
        return []
    with MANIFEST.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle, delimiter="\t", quoting=csv.QUOTE_NONE))


def corpus_params() -> list[object]:
    rows = corpus_rows()
    if not rows:
        return [pytest.param(None, marks=pytest.mark.skip(reason=f"the shared match-log corpus is missing: {CORPUS}"))]
    return [pytest.param(row, id=row["file"]) for row in rows]
