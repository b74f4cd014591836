"""Every console page, in a seeded workspace, opened in a real browser (headless chromium)
logs no console error and throws no page error; and the list of pages
(``tests/console/pages.py``, which ``scripts/console-screenshots`` also photographs) keeps up
with the console's GET routes."""

from __future__ import annotations

from fastapi import FastAPI
from playwright.sync_api import Browser

from tests.console.conftest import PageErrors
from tests.console.day import seed_day
from tests.console.pages import NOT_PAGES, PAGES, console_get_routes, tour
from vigia.app import create_app

# Chromium reports every document answered with an error status; a refused form is answered
# 422 on purpose (scripts check the status), so that one line is expected on those pages.
REFUSED_FORM = (
    "console: Failed to load resource: the server responded with a status of 422 "
    "(Unprocessable Entity)"
)


def test_the_page_list_names_every_console_get_route() -> None:
    app = create_app()
    assert isinstance(app, FastAPI)
    listed = {console_page.route for console_page in PAGES}
    assert not listed & NOT_PAGES.keys()
    assert console_get_routes(app) == listed | NOT_PAGES.keys()


def test_every_console_page_opens_without_a_console_error(browser: Browser, server: str) -> None:
    day = seed_day(server)
    context = browser.new_context(viewport={"width": 1366, "height": 900}, locale="es-AR")
    page = context.new_page()
    errors = PageErrors()
    errors.watch(page)
    found: dict[str, tuple[int, list[str]]] = {}
    seen = 0
    for console_page, status in tour(page, server, day):
        found[console_page.name] = (status, errors.messages[seen:])
        seen = len(errors.messages)
    context.close()
    assert found == {
        console_page.name: (
            console_page.status,
            [REFUSED_FORM] if console_page.status == 422 else [],
        )
        for console_page in PAGES
    }
