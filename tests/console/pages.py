"""Every page of the console, reached in a seeded workspace (``tests.console.day``), and the
browser tour over them that the every-page test and ``scripts/console-screenshots`` share.

``PAGES`` names each GET page route at least once; ``NOT_PAGES`` names the GET routes that
are no page of their own. ``test_every_page_browser`` fails when a route is in neither."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass
from typing import Literal

from fastapi import FastAPI
from fastapi.routing import APIRoute
from playwright.sync_api import Page, expect

from tests.console.day import NO_WORKSPACE_PASSWORD, NO_WORKSPACE_USER, Day
from vigia.demo import SAMPLE_QUESTION
from vigia.http.errors import every_route

Who = Literal["nobody", "newcomer", "owner"]
W = "/console/w/{ws}"
# The embedded models answer in well under a second; the wait is sized to a busy 2-core
# machine running the suite on two workers (as in test_browser.py).
MODEL_WAIT_MS = 90_000


def _refuse_agent_form(page: Page) -> None:
    """Saves the agent's draft with an HTTP tool that has no url: answered 422."""
    form = page.locator("form[action$='/draft']")
    form.locator("textarea[name=tools]").fill('[{"name": "pedido"}]')
    form.locator("button[type=submit]").click()


def _search_knowledge(page: Page) -> None:
    """Tries the base's search; waits for the scored passages."""
    page.fill("input[name=query]", "¿Qué revisan los guardrails?")
    page.get_by_role("button", name="Buscar").click()
    passages = page.locator("[data-role=passages] [data-role=score]").first
    expect(passages).to_be_visible(timeout=MODEL_WAIT_MS)


def _ask_playground(page: Page) -> None:
    """Asks the playground a question the sample documents answer; waits for the cited reply."""
    expect(page.locator("#playground button[type=submit]")).to_be_enabled()  # script bound
    page.locator("input[name=message]").fill(SAMPLE_QUESTION)
    page.locator("input[name=message]").press("Enter")
    expect(page.locator("[data-role=citations]").last).to_be_visible(timeout=MODEL_WAIT_MS)


@dataclass(frozen=True)
class ConsolePage:
    """One page: its screenshot's name, the route it shows, its URL (``str.format`` over
    the ``Day``'s fields), who looks at it, and the status its document is answered with.

    ``submit`` runs on the page once loaded; the page is then the form's answer. ``then``
    runs last, on the page shown (what it does in place, without a new document)."""

    name: str
    route: str
    url: str
    who: Who = "owner"
    status: int = 200
    submit: Callable[[Page], None] | None = None
    then: Callable[[Page], None] | None = None


PAGES = (
    ConsolePage("login", "/console/login", "/console/login", who="nobody"),
    ConsolePage("no-workspace", "/console", "/console", who="newcomer"),
    ConsolePage("agents", f"{W}/agents", "/console/w/{workspace_id}/agents"),
    ConsolePage(
        "agent",
        f"{W}/agents/{{slug}}",
        "/console/w/{workspace_id}/agents/{agent}",
        then=_ask_playground,
    ),
    ConsolePage(
        "agent-draft", f"{W}/agents/{{slug}}", "/console/w/{workspace_id}/agents/{draft_agent}"
    ),
    ConsolePage(
        "agent-form-error",
        f"{W}/agents/{{slug}}",
        "/console/w/{workspace_id}/agents/{agent}",
        status=422,
        submit=_refuse_agent_form,
    ),
    ConsolePage(
        "agent-version",
        f"{W}/agents/{{slug}}/versions/{{number}}",
        "/console/w/{workspace_id}/agents/{agent}/versions/1",
    ),
    ConsolePage("knowledge", f"{W}/knowledge", "/console/w/{workspace_id}/knowledge"),
    ConsolePage(
        "knowledge-base",
        f"{W}/knowledge/{{kb_id}}",
        "/console/w/{workspace_id}/knowledge/{knowledge_base_id}",
        then=_search_knowledge,
    ),
    ConsolePage("keys", f"{W}/keys", "/console/w/{workspace_id}/keys"),
    ConsolePage("conversations", f"{W}/conversations", "/console/w/{workspace_id}/conversations"),
    ConsolePage(
        "conversation",
        f"{W}/conversations/{{conversation_id}}",
        "/console/w/{workspace_id}/conversations/{conversation_id}",
    ),
    ConsolePage(
        "conversation-blocked",
        f"{W}/conversations/{{conversation_id}}",
        "/console/w/{workspace_id}/conversations/{blocked_id}",
    ),
    ConsolePage("inbox", f"{W}/inbox", "/console/w/{workspace_id}/inbox?c={handed_off_id}"),
    ConsolePage("usage", f"{W}/usage", "/console/w/{workspace_id}/usage"),
    ConsolePage("evaluation", f"{W}/evaluation", "/console/w/{workspace_id}/evaluation"),
    ConsolePage(
        "evaluation-case",
        f"{W}/evaluation/{{slug}}/cases/{{case_id}}",
        "/console/w/{workspace_id}/evaluation/{agent}/cases/{case_id}",
    ),
    ConsolePage("users", f"{W}/users", "/console/w/{workspace_id}/users"),
)

NOT_PAGES = {
    W: "a redirect to the user's first section",
    f"{W}/conversations/{{conversation_id}}/messages": "the transcript fragment the inbox polls",
    f"{W}/inbox/items": "the inbox list fragment it polls",
    f"{W}/evaluation/{{slug}}/promptfoo": "a download (promptfooconfig.yaml)",
}


def console_get_routes(app: FastAPI) -> set[str]:
    """The paths of the app's GET routes under ``/console`` (static files are a mount)."""
    return {
        route.path
        for route in every_route(app.router.routes)
        if isinstance(route, APIRoute)
        and route.path.startswith("/console")
        and "GET" in (route.methods or set())
    }


def _credentials(day: Day, who: Who) -> tuple[str, str]:
    if who == "newcomer":
        return NO_WORKSPACE_USER, NO_WORKSPACE_PASSWORD
    return day.owner, day.owner_password


def _log_in(page: Page, server: str, name: str, password: str) -> None:
    page.goto(f"{server}/console/login")
    page.fill("input[name=username]", name)
    page.fill("input[name=password]", password)
    with page.expect_navigation():
        page.press("input[name=password]", "Enter")


def _open(page: Page, server: str, day: Day, console_page: ConsolePage) -> int:
    """Opens the page and returns its document's status."""
    response = page.goto(server + console_page.url.format(**asdict(day)))
    assert response is not None
    if console_page.submit is not None:
        with page.expect_navigation() as answered:
            console_page.submit(page)
        response = answered.value
        assert response is not None
    page.wait_for_load_state("load")
    if console_page.then is not None:
        console_page.then(page)
    return response.status


def tour(page: Page, server: str, day: Day) -> Iterator[tuple[ConsolePage, int]]:
    """Opens every page in order, logging in as whoever looks at it (cookies cleared in
    between); yields each page with the status its document was answered with."""
    who: Who = "nobody"
    page.context.clear_cookies()
    for console_page in PAGES:
        if console_page.who != who:
            page.context.clear_cookies()
            if console_page.who != "nobody":
                _log_in(page, server, *_credentials(day, console_page.who))
            who = console_page.who
        yield console_page, _open(page, server, day, console_page)
