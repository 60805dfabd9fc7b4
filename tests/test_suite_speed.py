"""No test depends on the machine's speed: every Hypothesis test runs without a deadline and without the too_slow
health check (tests/conftest.py loads that profile; a module's settings inherit it). ``test_position_id_round_trip``
failed twice on a loaded machine with its code unchanged (too_slow)."""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Iterator
from typing import Any

from hypothesis import HealthCheck

import tests


def hypothesis_tests() -> Iterator[tuple[str, Any]]:
    for module_info in pkgutil.walk_packages(tests.__path__, "tests."):
        if not module_info.name.rsplit(".", 1)[-1].startswith("test_"):
            continue
        source = module_info.module_finder.find_spec(module_info.name).origin  # type: ignore[union-attr]
        with open(source, encoding="utf-8") as handle:
            if "hypothesis" not in handle.read():
                continue
        module = importlib.import_module(module_info.name)
        for name, value in vars(module).items():
            if getattr(value, "is_hypothesis_test", False):
                yield f"{module_info.name}.{name}", value


def test_no_hypothesis_test_has_a_deadline_or_the_too_slow_check() -> None:
    found = dict(hypothesis_tests())
    assert "tests.engine.test_gnubg_id.test_position_id_round_trip" in found
    for name, test in found.items():
        settings = test._hypothesis_internal_use_settings
        assert settings.deadline is None, name
        assert HealthCheck.too_slow in settings.suppress_health_check, name
