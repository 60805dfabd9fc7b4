"""Fixtures for the tournaments tests: eager Celery (tasks run in-process at commit, as with no broker). The
director and the factory of divisions are in tests/conftest.py, shared with the web pages' tests."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def eager_tasks(eager_tasks: None) -> None:
    """Every test here runs its tasks in-process (tests/conftest.py), except those marked ``worker``."""
