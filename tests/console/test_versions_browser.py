"""Agent versions and keys in a real browser (headless chromium): an owner rolls production
back from the version's page and a production key answers as that version did again; a new
key's copy button puts the secret on the clipboard. No page logs an error."""

from __future__ import annotations

import httpx
from playwright.sync_api import Browser, Page, expect

from tests.conftest import ADMIN_TOKEN, Tenant, make_tenant
from tests.console.conftest import PageErrors
from tests.console.helpers import PASSWORD, make_user

ADMIN = {"Authorization": f"Bearer {ADMIN_TOKEN}"}
HOURS_9 = "Horarios de la tienda. La tienda abre a las 9 de la mañana de lunes a viernes."
HOURS_10 = "Horarios de la tienda. La tienda abre a las 10 de la mañana de lunes a viernes."


def _answer(server: str, key: str) -> str:
    response = httpx.post(
        f"{server}/v1/chat/completions",
        headers={"Authorization": f"Bearer {key}"},
        json={"model": "asistente", "messages": [{"role": "user", "content": "¿A qué hora abre?"}]},
        timeout=30,
    )
    assert response.status_code == 200, response.text
    return str(response.json()["choices"][0]["message"]["content"])


def _two_versions(server: str, tenant: Tenant) -> None:
    """v2 reads the 9 o'clock document, v3 (in production) the 10 o'clock one."""
    agent = f"{server}/admin/workspaces/{tenant.workspace_id}/agents/{tenant.agent_slug}"
    bases = f"{server}/admin/workspaces/{tenant.workspace_id}/knowledge-bases"
    kb = httpx.post(bases, json={"name": "Tienda"}, headers=ADMIN).json()["id"]
    assert httpx.patch(agent, json={"knowledge_bases": [kb]}, headers=ADMIN).status_code == 200
    for text in (HOURS_9, HOURS_10):
        uploaded = httpx.post(
            f"{bases}/{kb}/documents",
            files={"file": ("horarios.txt", text.encode(), "text/plain")},
            headers=ADMIN,
            timeout=30,
        )
        assert uploaded.status_code in (200, 201), uploaded.text
        assert httpx.post(f"{agent}/publish", headers=ADMIN).status_code == 200


def _logged_in(browser: Browser, server: str, errors: PageErrors) -> Page:
    context = browser.new_context(viewport={"width": 1366, "height": 900}, locale="es-AR")
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server)
    page = context.new_page()
    errors.watch(page)
    page.goto(f"{server}/console")
    page.fill("input[name=username]", "ana")
    page.fill("input[name=password]", PASSWORD)
    page.press("input[name=password]", "Enter")
    page.wait_for_url("**/agents")
    return page


def test_an_owner_rolls_production_back_from_the_version_page(
    browser: Browser, server: str
) -> None:
    tenant = make_tenant()
    make_user("ana", tenant.workspace_id, "owner")
    _two_versions(server, tenant)
    assert "a las 10" in _answer(server, tenant.production_key)
    errors = PageErrors()
    page = _logged_in(browser, server, errors)
    page.goto(f"{server}/console/w/{tenant.workspace_id}/agents/{tenant.agent_slug}")
    versions = page.locator("#versions li")
    expect(versions).to_have_count(3)
    expect(versions.first).to_contain_text("Producción")
    page.locator("#versions a", has_text="v2").click()
    expect(page.locator("#version-config")).to_be_visible()
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Volver a publicar").click()
    expect(page.get_by_role("status")).to_contain_text("Se volvió a publicar la versión v2")
    expect(versions).to_have_count(4)
    expect(versions.first).to_contain_text("v4")
    expect(versions.first).to_contain_text("ana")
    assert "a las 9" in _answer(server, tenant.production_key)
    assert "a las 10" in _answer(server, tenant.draft_key)
    assert errors.messages == []


def test_a_new_key_is_copied_with_its_button(browser: Browser, server: str) -> None:
    tenant = make_tenant()
    make_user("ana", tenant.workspace_id, "owner")
    errors = PageErrors()
    page = _logged_in(browser, server, errors)
    page.goto(f"{server}/console/w/{tenant.workspace_id}/keys")
    page.fill("form[action$='/keys'] input[name=name]", "web")
    page.get_by_role("button", name="Crear clave").click()
    secret = page.locator("[data-role=secret]").inner_text()
    copy = page.locator("button[data-copy=issued-secret]")
    expect(copy).to_have_text("Copiar")
    copy.click()
    expect(copy).to_have_text("Copiada")
    assert page.evaluate("navigator.clipboard.readText()") == secret
    row = page.locator("tr", has_text="web")
    expect(row).to_contain_text("nunca")
    assert errors.messages == []
