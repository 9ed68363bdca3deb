"""A real headless Chromium (Debian's /usr/bin/chromium) driven by Playwright: one browser for the whole run,
a fresh context (cookies, storage) per page. Turns play instantly (speed 0) unless the test chooses a speed
(`?speed=` in the address, or a click on a speed button) or is marked `animated`."""

import os
import shutil
from pathlib import Path

import pytest

CHROMIUM = os.environ.get("CHROMIUM_PATH") or shutil.which("chromium") or "/usr/bin/chromium"
ARTIFACTS = Path(__file__).resolve().parents[2] / "var" / "test-artifacts"  # git-ignored (var/)
CI = os.environ.get("CI", "").strip().lower() in {"1", "true", "yes"}


@pytest.fixture(scope="session")
def browser():
    if not Path(CHROMIUM).exists():
        message = f"no Chromium at {CHROMIUM}: apt-get install chromium (or set CHROMIUM_PATH)"
        if CI:
            pytest.fail(message)
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    # Playwright's sync API keeps an event loop on this thread; the test's own ORM calls are still
    # synchronous and single-threaded, which is what Django's guard is about.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"],
        )
        yield browser
        browser.close()


class ConsoleWatch:
    """Collects console errors and warnings and uncaught page errors of one page."""

    def __init__(self, page, name):
        self.errors = []
        page.on("console", lambda msg: msg.type in ("error", "warning") and self.errors.append(f"{name}: {msg.text}"))
        page.on("pageerror", lambda error: self.errors.append(f"{name}: {error}"))


# Before any script of the page: the speed a visitor has not chosen is "instant" (the screen reads the address's
# `?speed=` first, then this remembered choice, which a click on a speed button replaces).
INSTANT_TURNS = """try {
  if (localStorage.getItem("roboracer-speed") === null) localStorage.setItem("roboracer-speed", "0");
} catch (e) { /* about:blank has no storage */ }"""


@pytest.fixture
def new_page(browser, request):
    contexts = []
    animated = request.node.get_closest_marker("animated") is not None

    def make(name, viewport=None):
        context = browser.new_context(viewport=viewport or {"width": 1280, "height": 900})
        if not animated:
            context.add_init_script(INSTANT_TURNS)
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(20_000)
        return page, ConsoleWatch(page, name)

    yield make
    for context in contexts:
        context.close()
