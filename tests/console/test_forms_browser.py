"""Forms in a real browser (headless chromium): a refused agent form keeps every edit and
shows the problem in Spanish next to its field; an owner creates a user and changes their
role from the users page. No page logs a console error."""

from __future__ import annotations

from playwright.sync_api import Browser, Page, expect

from tests.conftest import make_tenant
from tests.console.conftest import PageErrors
from tests.console.helpers import PASSWORD, make_user
from vigia.db.session import session_scope
from vigia.users import roles
from vigia.users.service import find_user

INSTRUCTIONS = "Respondé en dos frases y citá siempre el manual."
REFUSED_POST = (
    "console: Failed to load resource: the server responded with a status of 422 "
    "(Unprocessable Entity)"
)


def _logged_in(browser: Browser, server: str, name: str, errors: PageErrors) -> Page:
    context = browser.new_context(viewport={"width": 1366, "height": 900}, locale="es-AR")
    page = context.new_page()
    errors.watch(page)
    page.goto(f"{server}/console")
    page.fill("input[name=username]", name)
    page.fill("input[name=password]", PASSWORD)
    page.press("input[name=password]", "Enter")
    page.wait_for_url("**/agents")
    return page


def test_a_form_error_keeps_the_edits_in_spanish_next_to_the_field(
    browser: Browser, server: str
) -> None:
    tenant = make_tenant()
    make_user("ana", tenant.workspace_id, "owner")
    errors = PageErrors()
    page = _logged_in(browser, server, "ana", errors)
    page.goto(f"{server}/console/w/{tenant.workspace_id}/agents/{tenant.agent_slug}")
    form = page.locator("form[action$='/draft']")
    form.locator("input[name=name]").fill("Asistente de ventas")
    form.locator("textarea[name=instructions]").fill(INSTRUCTIONS)
    form.locator("select[name=guardrail_injection]").select_option("log")
    form.locator("textarea[name=tools]").fill('[{"name": "pedido"}]')  # no url
    form.locator("button[type=submit]").click()
    page.wait_for_load_state()

    tools = page.locator("textarea[name=tools]")
    message = page.locator("label:has(textarea[name=tools]) .field-error")
    expect(message).to_have_text("n.º 1 · url: Falta completar este campo.")
    expect(tools).to_have_attribute("aria-invalid", "true")
    expect(tools).to_have_attribute("aria-describedby", "error-tools")
    expect(page.locator("#form-invalid")).to_contain_text("Hay datos para corregir")
    expect(page.locator("textarea[name=instructions]")).to_have_value(INSTRUCTIONS)
    expect(page.locator("input[name=name]")).to_have_value("Asistente de ventas")
    expect(page.locator("select[name=guardrail_injection]")).to_have_value("log")
    expect(tools).to_have_value('[{"name": "pedido"}]')
    assert "Field required" not in page.content()

    tools.fill("")  # fixed: the kept edits save as they are
    page.locator("form[action$='/draft'] button[type=submit]").click()
    expect(page.locator("p.notice[role=status]")).to_have_text("Borrador guardado.")
    expect(page.locator("textarea[name=instructions]")).to_have_value(INSTRUCTIONS)
    # chromium notes the refused post's 422 status; nothing else may be logged
    assert errors.messages == [REFUSED_POST]


def test_an_owner_creates_a_user_and_changes_the_role_from_the_ui(
    browser: Browser, server: str
) -> None:
    tenant = make_tenant()
    make_user("ana", tenant.workspace_id, "owner")
    errors = PageErrors()
    page = _logged_in(browser, server, "ana", errors)
    page.get_by_role("link", name="Usuarios").click()
    page.wait_for_url("**/users")
    create = page.locator("form[action$='/users']")
    create.locator("input[name=name]").fill("beto")
    create.locator("input[name=password]").fill("una clave larga")
    create.locator("select[name=role]").select_option("operator")
    create.locator("button[type=submit]").click()
    expect(page.locator("[data-role=users-done]")).to_have_text("Usuario creado: beto")

    row = page.locator("tr[data-user=beto]")
    expect(row.locator("select[name=role]")).to_have_value("operator")
    row.locator("select[name=role]").select_option("admin")
    row.get_by_role("button", name="Cambiar rol").click()
    expect(page.locator("[data-role=users-done]")).to_have_text("Rol cambiado: beto")
    expect(page.locator("tr[data-user=beto] select[name=role]")).to_have_value("admin")
    with session_scope() as session:
        user = find_user(session, "beto")
        assert user is not None
        assert roles.role_in(session, user.id, tenant.workspace_id) == "admin"
    assert errors.messages == []
