"""The inbox's open transcript in a real browser (headless chromium): three refreshes keep
the operator's scroll position and open trace, and a message that arrives meanwhile is
appended and announced without moving the view; an operator takes a conversation, the
customer reads the named reply through the API, and giving it back asks first."""

from __future__ import annotations

import httpx
from playwright.sync_api import Browser, Dialog, Page, expect

from tests.conftest import ADMIN_TOKEN, Tenant, make_tenant
from tests.console.conftest import PageErrors
from tests.console.helpers import PASSWORD, make_user

ADMIN = {"Authorization": f"Bearer {ADMIN_TOKEN}"}
FILLER = "Una respuesta larga del equipo para que la conversación no entre en la vista. " * 3


def _handed_off_conversation(server: str, key: str, workspace: str) -> str:
    """A customer's turn through the API (it has a trace), handed off, then many replies."""
    answer = httpx.post(
        f"{server}/v1/chat/completions",
        headers={"Authorization": f"Bearer {key}"},
        json={"model": "asistente", "messages": [{"role": "user", "content": "Hola"}]},
        timeout=30,
    )
    assert answer.status_code == 200, answer.text
    conversation = str(answer.json()["sherlock"]["conversation_id"])
    admin = f"{server}/admin/workspaces/{workspace}/conversations/{conversation}"
    assert httpx.post(f"{admin}/handoff", headers=ADMIN).status_code == 200
    for n in range(12):
        reply = httpx.post(f"{admin}/messages", headers=ADMIN, json={"content": f"{n}. {FILLER}"})
        assert reply.status_code == 201, reply.text
    return conversation


def _refreshed(page: Page) -> None:
    """Waits for one poll of the open transcript."""
    with page.expect_response(lambda r: r.url.endswith("/messages"), timeout=6_000):
        pass


def _operator_at_the_inbox(browser: Browser, server: str) -> tuple[Tenant, str, Page, PageErrors]:
    """Operator oscar, logged in, with a handed-off conversation open in the inbox."""
    tenant = make_tenant()
    make_user("oscar", tenant.workspace_id, "operator")
    conversation = _handed_off_conversation(server, tenant.production_key, tenant.workspace_id)
    errors = PageErrors()
    context = browser.new_context(viewport={"width": 1180, "height": 760}, locale="es-AR")
    page = context.new_page()
    errors.watch(page)
    page.goto(f"{server}/console")
    page.fill("input[name=username]", "oscar")
    page.fill("input[name=password]", PASSWORD)
    page.press("input[name=password]", "Enter")
    page.goto(f"{server}/console/w/{tenant.workspace_id}/inbox?c={conversation}")
    return tenant, conversation, page, errors


def test_the_inbox_keeps_the_scroll_and_open_trace_across_three_refreshes(
    browser: Browser, server: str
) -> None:
    tenant, conversation, page, errors = _operator_at_the_inbox(browser, server)
    transcript = page.locator("#transcript")
    messages = transcript.locator("[data-message-id]")
    shown = messages.count()
    page.locator("details.trace summary").first.click()
    position = transcript.evaluate("el => { el.scrollTop = 150; return el.scrollTop; }")
    assert position == 150  # the transcript does scroll

    _refreshed(page)
    added = httpx.post(
        f"{server}/admin/workspaces/{tenant.workspace_id}/conversations/{conversation}/messages",
        headers=ADMIN,
        json={"content": "Llegó mientras leías."},
    )
    assert added.status_code == 201
    _refreshed(page)
    notice = page.locator("[data-role=new-messages]")
    expect(notice).to_have_text("Mensajes nuevos: 1 (ver)")
    _refreshed(page)

    assert transcript.evaluate("el => el.scrollTop") == position
    expect(page.locator("details.trace").first).to_have_attribute("open", "")
    expect(messages).to_have_count(shown + 1)  # appended once, nothing duplicated
    expect(messages.last).to_contain_text("Llegó mientras leías.")
    notice.click()
    expect(notice).to_be_hidden()
    assert transcript.evaluate("el => el.scrollTop + el.clientHeight >= el.scrollHeight - 1")
    page.context.close()
    assert errors.messages == []


def test_an_operator_takes_a_conversation_and_the_customer_reads_the_named_reply(
    browser: Browser, server: str
) -> None:
    tenant, conversation, page, errors = _operator_at_the_inbox(browser, server)
    page.get_by_role("button", name="Tomar").click()
    expect(page.locator("#inbox-conversation [data-role=holder]")).to_have_text("Atiende: oscar")
    page.fill("textarea[name=content]", "Soy Oscar, ya lo reviso.")
    page.get_by_role("button", name="Responder").click()
    expect(page.locator("[data-role=transcript]")).to_contain_text("Soy Oscar, ya lo reviso.")
    customer = httpx.get(
        f"{server}/v1/conversations/{conversation}/messages",
        headers={"Authorization": f"Bearer {tenant.production_key}"},
    ).json()
    last = customer["messages"][-1]
    assert (last["author"], last["content"]) == ("oscar", "Soy Oscar, ya lo reviso.")
    asked: list[str] = []

    def confirm(dialog: Dialog) -> None:
        asked.append(dialog.message)
        dialog.accept()

    page.once("dialog", confirm)
    page.get_by_role("button", name="Devolver al agente").click()
    expect(page.locator("[data-role=released]")).to_contain_text("Conversación devuelta al agente")
    assert asked and asked[0].startswith("¿Devolver la conversación al agente?")
    page.context.close()
    assert errors.messages == []
