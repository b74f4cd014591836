"""The console in a real browser (headless chromium): log in, open every section, create a
key, upload a document and find it, chat in the playground with a streamed, cited reply,
hand conversations off and answer them from the inbox — with no JavaScript error at all.
(The screenshots of docs/console.md come from scripts/console-screenshots.)"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import Browser, Page, expect

from tests.conftest import ADMIN_TOKEN, make_tenant
from tests.console.conftest import PageErrors
from tests.console.helpers import PASSWORD, make_user

# Waits on the embedded models' answers (search, playground) are sized to a busy 2-core
# machine running the suite on two workers; a passing page answers in a second or two.
MODEL_WAIT_MS = 90_000
SECTIONS = ["Agentes", "Conocimiento", "Claves", "Conversaciones", "Bandeja", "Uso", "Evaluación"]
MANUAL = (
    "# Garantía de Vigia Home\n\n"
    "La garantía del equipo Vigia Home cubre dos años desde la fecha de compra. "
    "Para usarla hay que presentar la factura original.\n\n"
    "## Envíos\n\nLos envíos a todo el país tardan entre tres y cinco días hábiles.\n"
)
ADMIN = {"Authorization": f"Bearer {ADMIN_TOKEN}"}


def _log_in(page: Page, server: str, name: str) -> None:
    page.goto(f"{server}/console")
    expect(page).to_have_url(re.compile(r"/console/login"))
    page.fill("input[name=username]", name)
    page.fill("input[name=password]", PASSWORD)
    page.press("input[name=password]", "Enter")
    expect(page.get_by_role("link", name="Agentes", exact=True)).to_be_visible()


def _section(page: Page, name: str) -> None:
    page.get_by_role("link", name=name, exact=True).click()
    expect(page.locator("h1")).to_contain_text(name)


def _create_key(page: Page) -> str:
    _section(page, "Claves")
    page.fill("input[name=name]", "web")
    page.get_by_role("button", name="Crear clave").click()
    secret = page.locator("[data-role=secret]").inner_text()
    assert secret.startswith("sk-vigia-")
    return secret


def _upload_and_search(page: Page, tmp_path: Path) -> None:
    _section(page, "Conocimiento")
    page.fill("input[name=name]", "manual")
    page.get_by_role("button", name="Crear").click()
    document = tmp_path / "garantia.md"
    document.write_text(MANUAL, encoding="utf-8")
    page.set_input_files("input[name=file]", str(document))
    page.get_by_role("button", name="Subir").click()
    expect(page.locator("#documents")).to_contain_text("garantia.md", timeout=60_000)
    page.fill("input[name=query]", "¿Cuánto dura la garantía?")
    page.get_by_role("button", name="Buscar").click()
    passages = page.locator("[data-role=passages]")
    expect(passages).to_contain_text("dos años", timeout=MODEL_WAIT_MS)
    expect(passages.locator("[data-role=score]").first).to_have_text(re.compile(r"0\.\d{3}"))


def _chat(page: Page, tenant_slug: str) -> None:
    """Gives the agent the manual, then asks the playground; the reply streams and cites."""
    _section(page, "Agentes")
    page.get_by_role("link", name=tenant_slug, exact=True).click()
    page.get_by_label("manual").check()
    page.get_by_role("button", name="Guardar borrador").click()
    expect(page.locator("[role=status]")).to_contain_text("Borrador guardado")
    message = page.locator("input[name=message]")
    expect(page.locator("#playground button[type=submit]")).to_be_enabled()  # script bound
    message.fill("¿Cuánto dura la garantía?")
    with page.expect_response(re.compile(r"/chat$")) as answered:
        message.press("Enter")
    assert answered.value.headers["content-type"].startswith("text/event-stream")
    reply = page.locator("[data-role=reply]").last
    expect(reply).to_contain_text("dos años", timeout=MODEL_WAIT_MS)
    expect(page.locator("[data-role=citations]").last).to_contain_text("[1] garantia.md")
    expect(page.locator("[data-role=status]").last).to_contain_text("ok")


def _take_over_from_conversations(page: Page) -> None:
    _section(page, "Conversaciones")
    expect(page.locator("table")).to_contain_text("Ninguna conversación.")  # tests hidden
    page.get_by_label("Incluir pruebas (playground y evaluación)").check()
    page.get_by_role("button", name="Filtrar").click()
    expect(page.locator("[data-role=channel]").first).to_have_text("Playground de la consola")
    page.locator("table a").first.click()
    expect(page.locator("[data-role=transcript]")).to_contain_text("dos años")
    page.locator("details.trace summary").first.click()
    expect(page.locator("details.trace").first).to_contain_text("búsqueda de pasajes")
    page.get_by_role("button", name="Derivar a una persona").click()
    expect(page).to_have_url(re.compile(r"/inbox\?c="))
    expect(page.locator("[data-role=inbox]")).to_contain_text("asistente")


def _customer_conversation(server: str, key: str) -> str:
    """A conversation a customer starts through the OpenAI-compatible API."""
    answer = httpx.post(
        f"{server}/v1/chat/completions",
        headers={"Authorization": f"Bearer {key}"},
        json={
            "model": "asistente",
            "messages": [{"role": "user", "content": "Quiero hablar con una persona"}],
        },
        timeout=30,
    )
    assert answer.status_code == 200, answer.text
    return str(answer.json()["sherlock"]["conversation_id"])


def _answer_from_inbox(page: Page, server: str, workspace: str, conversation: str) -> None:
    """The inbox shows a conversation handed off meanwhile, without reloading, and the
    operator's reply reaches the conversation that the API returns."""
    _section(page, "Bandeja")
    handed = httpx.post(
        f"{server}/admin/workspaces/{workspace}/conversations/{conversation}/handoff",
        headers=ADMIN,
    )
    assert handed.json() == {"id": conversation, "handoff": True}
    item = page.locator(f"[data-role=inbox] a[href$='c={conversation}']")
    expect(item).to_be_visible(timeout=10_000)  # polled in, no reload
    item.click()
    page.fill("textarea[name=content]", "Hola, soy Ana. Ya te ayudo con tu pedido.")
    page.get_by_role("button", name="Responder").click()
    expect(page.locator("[data-role=transcript]")).to_contain_text("Ya te ayudo")
    stored: dict[str, Any] = httpx.get(
        f"{server}/admin/workspaces/{workspace}/conversations/{conversation}", headers=ADMIN
    ).json()
    assert stored["handoff"] is True
    assert stored["messages"][-1]["role"] == "operator"
    assert stored["messages"][-1]["content"] == "Hola, soy Ana. Ya te ayudo con tu pedido."


def test_the_console_end_to_end(browser: Browser, server: str, tmp_path: Path) -> None:
    tenant = make_tenant()
    make_user("ana", tenant.workspace_id, "owner")
    errors = PageErrors()
    context = browser.new_context(viewport={"width": 1180, "height": 760}, locale="es-AR")
    page = context.new_page()
    errors.watch(page)
    _log_in(page, server, "ana")
    for name in SECTIONS:
        _section(page, name)
    key = _create_key(page)
    _upload_and_search(page, tmp_path)
    _chat(page, tenant.agent_slug)
    _take_over_from_conversations(page)
    conversation = _customer_conversation(server, key)
    _answer_from_inbox(page, server, tenant.workspace_id, conversation)
    context.close()
    assert errors.messages == []


def test_an_operator_in_the_browser_sees_only_conversations_and_the_inbox(
    browser: Browser, server: str
) -> None:
    tenant = make_tenant()
    make_user("oscar", tenant.workspace_id, "operator")
    errors = PageErrors()
    context = browser.new_context(viewport={"width": 390, "height": 760})
    page = context.new_page()
    errors.watch(page)
    page.goto(f"{server}/console")
    page.fill("input[name=username]", "oscar")
    page.fill("input[name=password]", PASSWORD)
    page.press("input[name=password]", "Enter")
    expect(page.locator("h1")).to_have_text("Bandeja")
    links = page.locator("nav.sections a").all_inner_texts()
    assert links == ["Conversaciones", "Bandeja"]
    response = page.goto(f"{server}/console/w/{tenant.workspace_id}/keys")
    assert response is not None and response.status == 403
    expect(page.locator("[data-role=error]")).to_have_text(
        "Tu rol en este espacio no permite hacer esto."
    )
    context.close()
    # the refused page itself is the only console error Chrome reports (its 403 status)
    assert [m for m in errors.messages if "403" not in m] == []
