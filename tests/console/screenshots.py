"""Regenerates docs/console: every console page (``tests.console.pages``) of a seeded
workspace (``tests.console.day``) at 1366×900 and 390×844, full page, as ``<page>.png`` and
``<page>-phone.png``. Run by ``scripts/console-screenshots`` (not a test: pytest collects
only ``test_*.py``).

It serves the app on a loopback port over a fresh SQLite database in a temporary folder,
deletes the PNGs of docs/console that it no longer writes, and prints what it wrote. It
stops with an error when a page answers another status than the one the list expects."""

from __future__ import annotations

import argparse
import json
import os
import secrets
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import ViewportSize, sync_playwright

DOCS = Path(__file__).resolve().parents[2] / "docs" / "console"
CHROMIUM = "/usr/bin/chromium"
DESKTOP = ViewportSize(width=1366, height=900)
PHONE = ViewportSize(width=390, height=844)


def _isolate(folder: str) -> None:
    """Points the app at ``folder`` before anything reads the settings, and prices the
    embedded model (free by default) like a hosted one, so the cost charts have bars."""
    os.environ["VIGIA_DATA_DIR"] = folder
    os.environ["VIGIA_PRICES"] = json.dumps({"embedded": {"input": 2.5, "output": 10.0}})
    os.environ["VIGIA_ADMIN_TOKEN"] = secrets.token_urlsafe(24)
    for name in ("VIGIA_DATABASE_URL", "VIGIA_REDIS_URL"):
        os.environ.pop(name, None)


def capture(target: Path) -> list[Path]:
    """Writes every page's two screenshots into ``target``; returns the files written."""
    from tests.conftest import serve_in_thread
    from tests.console.day import seed_day
    from tests.console.pages import tour
    from vigia.app import create_app
    from vigia.db.migrate import upgrade

    upgrade()
    written: list[Path] = []
    with serve_in_thread(create_app()) as server, sync_playwright() as playwright:
        day = seed_day(server)
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        context = browser.new_context(viewport=DESKTOP, locale="es-AR")
        page = context.new_page()
        for console_page, status in tour(page, server, day):
            if status != console_page.status:
                raise SystemExit(f"{console_page.name}: status {status}, not {console_page.status}")
            for suffix, size in (("", DESKTOP), ("-phone", PHONE)):
                page.set_viewport_size(size)
                path = target / f"{console_page.name}{suffix}.png"
                page.screenshot(path=str(path), full_page=True)
                written.append(path)
            page.set_viewport_size(DESKTOP)
        browser.close()
    return written


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=DOCS, help="folder (default docs/console)")
    out: Path = parser.parse_args().out
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="vigia-screenshots-") as folder:
        _isolate(folder)
        written = capture(out)
    for stale in sorted(set(out.glob("*.png")) - set(written)):
        stale.unlink()
        print(f"deleted {stale}")
    for path in written:
        print(path)
    sys.stdout.flush()


if __name__ == "__main__":
    main()
