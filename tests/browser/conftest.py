"""Playwright driving Debian's Chromium (Playwright cannot download its own here)."""

import os
from pathlib import Path

import pytest

from tests.support.require import require

CHROMIUM = Path(os.environ.get("FLOOR_CHROMIUM", "/usr/bin/chromium"))
# Flags for a root, headless run on a machine with no outside network.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="session")
def browser():
    require(CHROMIUM.exists(), f"Chromium at {CHROMIUM} (make test installs it)")
    # Playwright's sync API refuses to start inside a running event loop; Django's
    # async-unsafe guard must also let the live server's ORM calls through.
    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
        )
        yield browser
        browser.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(locale="es-ES")
    page = context.new_page()
    page.set_default_timeout(15_000)
    yield page
    context.close()
