"""Browser tests: Playwright driving Debian's Chromium (/usr/bin/chromium, or BGMATCH_CHROMIUM) headless against
pytest-django's live server. Playwright's own browsers are never downloaded.

Every test here is marked ``browser`` and runs only with RUN_BROWSER_TESTS=1 (.ci/run sets it and installs
Chromium when it is missing). Screenshots of the main pages go to BGMATCH_TEST_ARTIFACTS (a folder CI keeps and
git ignores), else to pytest's temporary folder. Console errors on any page fail the test.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from config.celery import app as celery_app

# Playwright's sync API runs an event loop in this thread; the ORM calls the tests make between page actions are
# ordinary blocking calls, which Django would otherwise refuse while a loop is running.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

VIEWPORTS = {
    "phone": {"width": 390, "height": 844},
    "small-phone": {"width": 360, "height": 740},
    "desktop": {"width": 1280, "height": 800},
    "laptop": {"width": 1366, "height": 768},  # the most common laptop screen
    "display": {"width": 1920, "height": 1080},  # the venue display's TV or projector
}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/web/browser" in str(item.fspath):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(autouse=True)
def eager_tasks() -> Iterator[None]:
    """The live server runs the follow-up tasks in-process, as `make run` does."""
    old = celery_app.conf.task_always_eager, celery_app.conf.task_eager_propagates
    celery_app.conf.task_always_eager, celery_app.conf.task_eager_propagates = True, True
    try:
        yield
    finally:
        celery_app.conf.task_always_eager, celery_app.conf.task_eager_propagates = old


@pytest.fixture(scope="session")
def chromium() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    executable = os.environ.get("BGMATCH_CHROMIUM", "/usr/bin/chromium")
    if not Path(executable).exists():
        pytest.fail(f"Chromium not found at {executable}: install Debian's chromium package (.ci/run does)")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, headless=True, args=["--no-sandbox"])
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture(scope="session")
def artifacts(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = os.environ.get("BGMATCH_TEST_ARTIFACTS")
    path = Path(folder) if folder else tmp_path_factory.mktemp("screenshots")
    path.mkdir(parents=True, exist_ok=True)
    return path


class Pages:
    """Opens pages in fresh browser contexts (one per visitor) and collects console errors from all of them."""

    def __init__(self, browser: Any, base_url: str, artifacts: Path, prefix: str) -> None:
        self.browser, self.base_url, self.artifacts, self.prefix = browser, base_url, artifacts, prefix
        self.errors: list[str] = []
        self.allowed: list[str] = []
        self.contexts: list[Any] = []

    def open(self, path: str, *, viewport: str = "desktop") -> Any:
        # A phone is tapped: ``locator.tap()`` needs a touch screen.
        touch = viewport not in ("desktop", "laptop", "display")
        context = self.browser.new_context(viewport=VIEWPORTS[viewport], base_url=self.base_url, has_touch=touch)
        context.set_default_timeout(10_000)  # a step that has not happened in 10 s will not: fail fast
        self.contexts.append(context)
        page = context.new_page()
        page.on("console", lambda msg: msg.type == "error" and self.errors.append(f"{page.url}: {msg.text}"))
        page.on("pageerror", lambda exc: self.errors.append(f"{page.url}: {exc}"))
        page.goto(path)
        return page

    def allow(self, text: str) -> None:
        """Expect a console error containing ``text``: a refusal answered with a 4xx page, which Chromium logs as
        "Failed to load resource: the server responded with a status of 400 (Bad Request)"."""
        self.allowed.append(text)

    def unexpected(self) -> list[str]:
        return [error for error in self.errors if not any(text in error for text in self.allowed)]

    def shot(self, page: Any, name: str) -> None:
        # A full-page screenshot resizes the viewport for a moment; Chromium then scrolls a focused text field back
        # into view on the next mouse press, under the pointer, and the click lands elsewhere. Unfocus it first.
        page.evaluate("() => document.activeElement && document.activeElement.blur && document.activeElement.blur()")
        page.screenshot(path=str(self.artifacts / f"{self.prefix}-{name}.png"), full_page=True)

    def close(self) -> None:
        for context in self.contexts:
            context.close()


@pytest.fixture
def pages(request: pytest.FixtureRequest, chromium: Any, live_server: Any, artifacts: Path) -> Iterator[Pages]:
    prefix = request.node.name.replace("[", "-").replace("]", "").replace("/", "-")
    visitor = Pages(chromium, live_server.url, artifacts, prefix)
    try:
        yield visitor
        assert not visitor.unexpected(), "console errors:\n" + "\n".join(visitor.unexpected())
    finally:
        visitor.close()
