"""Browser fixtures: Debian's chromium driven by Playwright, and the app on a loopback port."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from dataclasses import dataclass, field

import pytest
from playwright.sync_api import Browser, sync_playwright

from tests.conftest import serve_in_thread
from vigia.app import create_app

CHROMIUM = "/usr/bin/chromium"


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """One headless chromium per test module (scripts/test installs Debian's package).

    Not per session: while Playwright's sync API is running it keeps an event loop on the
    main thread, and later tests that call ``asyncio.run`` would find it running."""
    assert shutil.which(CHROMIUM), "chromium is required (scripts/test installs it)"
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield launched
        launched.close()


@pytest.fixture
def server() -> Iterator[str]:
    with serve_in_thread(create_app()) as url:
        yield url


@dataclass
class PageErrors:
    """Every uncaught exception and console error of the pages a test opened."""

    messages: list[str] = field(default_factory=list)

    def watch(self, page: object) -> None:
        page.on("pageerror", lambda error: self.messages.append(f"pageerror: {error}"))  # type: ignore[attr-defined]
        page.on(  # type: ignore[attr-defined]
            "console",
            lambda message: (
                self.messages.append(f"console: {message.text}")
                if message.type == "error"
                else None
            ),
        )
