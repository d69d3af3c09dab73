"""Fixtures of the page tests: static files without collectstatic, a Chromium browser (a
private MEDIA_ROOT and an empty cache come from ``tests/arena/conftest.py``).

Playwright's sync API runs an event loop in this thread, so Django would refuse ORM calls
from it ("async unsafe") in the tests that drive the browser and set up data; the tests
only touch the database between browser steps, never concurrently with it.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

# Bot files the tests play (one fails at import): data, not modules to collect.
collect_ignore_glob = ["bots/*"]

REPO = Path(__file__).resolve().parents[3]
SCREENSHOTS = REPO / "test-artifacts" / "screenshots"
CHROMIUM = os.environ.get("ARENA_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 375, "height": 740}


@pytest.fixture(scope="session")
def _static_root(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("static")


@pytest.fixture(autouse=True)
def _plain_static_storage(settings, _static_root: Path) -> None:
    """``{% static %}`` without a collectstatic manifest (the live server serves the finders).

    An empty STATIC_ROOT keeps WhiteNoise from warning that the directory is missing.
    """
    settings.STATIC_ROOT = _static_root
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }


def _unavailable(reason: str) -> None:
    """No browser: a failure in CI (the suite must not silently lose its browser tests)."""
    if os.environ.get("CI") == "true":
        pytest.fail(f"browser tests cannot run: {reason}", pytrace=False)
    pytest.skip(f"browser tests cannot run: {reason}")


@pytest.fixture(scope="module")
def browser():
    """Chromium for one test module: its event loop is gone before other modules run."""
    try:
        from playwright.sync_api import Error, sync_playwright
    except ImportError as exc:
        _unavailable(f"the playwright package is missing ({exc})")
    if not shutil.which(CHROMIUM) and not Path(CHROMIUM).exists():
        _unavailable(f"no Chromium at {CHROMIUM} (install Debian's chromium package)")
    playwright = sync_playwright().start()
    try:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    except Error as exc:
        playwright.stop()
        _unavailable(f"Chromium at {CHROMIUM} did not start: {exc.message.splitlines()[0]}")
    yield chromium
    chromium.close()
    playwright.stop()


class Tab:
    """One browser page with what the tests need around it: console errors, screenshots."""

    def __init__(self, page, base_url: str) -> None:
        self.page = page
        self.base_url = base_url
        self.errors: list[str] = []
        page.on("console", self._console)
        page.on("pageerror", lambda exc: self.errors.append(f"pageerror: {exc}"))

    def _console(self, message) -> None:
        if message.type == "error":
            self.errors.append(f"console.error on {self.page.url}: {message.text}")

    def goto(self, path: str):
        response = self.page.goto(self.base_url + path)
        assert response is not None and response.ok, (path, response and response.status)
        return response

    def screenshot(self, name: str) -> Path:
        """A full-page screenshot for people to look at (``test-artifacts/screenshots``).

        Chromium now and then refuses one ("Unable to capture screenshot", seen once in a CI
        run with two test processes; never in a run of its own): it is taken again once,
        after the next frame. It asserts nothing about the page, which the tests check.
        """
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        path = SCREENSHOTS / f"{name}.png"
        from playwright.sync_api import Error  # only here: a tab exists, so it is installed

        try:
            self.page.screenshot(path=str(path), full_page=True)
        except Error as exc:
            if "Unable to capture screenshot" not in str(exc):
                raise
            self.page.evaluate("() => new Promise((done) => requestAnimationFrame(done))")
            self.page.screenshot(path=str(path), full_page=True)
        return path

    def assert_fits(self) -> None:
        """Nothing sticks out sideways: wide tables scroll inside their own wrapper."""
        width = self.page.viewport_size["width"]
        overflow = self.page.evaluate("document.documentElement.scrollWidth") - width
        culprits = self.page.evaluate(
            """(width) => Array.from(document.querySelectorAll('body *'))
                .filter((el) => el.getBoundingClientRect().right > width + 1)
                .filter((el) => !el.closest('.table-wrap, pre, .prose table'))
                .slice(0, 5).map((el) => el.tagName + '#' + el.id + '.' + el.className)""",
            width,
        )
        assert overflow <= 1, f"{self.page.url} is {overflow}px too wide: {culprits}"

    def assert_no_console_errors(self) -> None:
        assert not self.errors, "\n".join(self.errors)


@pytest.fixture
def tab(browser, live_server) -> Iterator[Tab]:
    context = browser.new_context(viewport=DESKTOP)
    context.set_default_timeout(15_000)
    opened = Tab(context.new_page(), live_server.url)
    yield opened
    context.close()
    opened.assert_no_console_errors()


@pytest.fixture
def phone_tab(browser, live_server) -> Iterator[Tab]:
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    context.set_default_timeout(15_000)
    opened = Tab(context.new_page(), live_server.url)
    yield opened
    context.close()
    opened.assert_no_console_errors()


def log_in(tab: Tab, username: str, password: str) -> None:
    tab.goto("/accounts/login/")
    tab.page.fill("#id_username", username)
    tab.page.fill("#id_password", password)
    tab.page.click("#login-form button[type=submit]")
    tab.page.wait_for_selector(".username")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The live server's WhiteNoise starts before any fixture can point STATIC_ROOT at a
    real directory, and says so once; the finders serve the files, so the note is noise."""
    here = Path(__file__).parent
    quiet = pytest.mark.filterwarnings("ignore:No directory at:UserWarning")
    for item in items:
        if here in Path(str(item.path)).parents:
            item.add_marker(quiet)
