"""Console pages: one Jinja environment, the request's language, the CSP on every page."""

from __future__ import annotations

from typing import Any

from fastapi import Request
from jinja2 import Environment, PackageLoader, StrictUndefined, pass_context, select_autoescape
from jinja2.runtime import Context
from markupsafe import Markup
from starlette.responses import HTMLResponse

from vigia.console.catalogue import LANGUAGES, translator
from vigia.console.security import CSP, csrf_token, keep_csrf
from vigia.console.template_helpers import install as install_helpers
from vigia.conversations.schemas import CHANNELS
from vigia.kit.turn_status import TURN_STATUSES

LANG_COOKIE = "vigia_lang"

ENV = Environment(
    loader=PackageLoader("vigia.console", "templates"),
    autoescape=select_autoescape(["html"]),
    undefined=StrictUndefined,
    trim_blocks=True,
    lstrip_blocks=True,
)


@pass_context
def csrf_field(context: Context) -> Markup:
    """The hidden ``csrf`` field every console form carries (``{{ csrf_field() }}``)."""
    return Markup('<input type="hidden" name="csrf" value="{}">').format(context["csrf"])


ENV.globals["csrf_field"] = csrf_field
install_helpers(ENV)
ENV.globals["turn_statuses"] = TURN_STATUSES
"""Every run status has a label ``trace.status_<status>`` in the catalogue."""
ENV.globals["conversation_channels"] = CHANNELS
"""Every conversation channel has a label ``channel.<channel>`` in the catalogue."""


def language_of(request: Request) -> str:
    """The language chosen with the switch (a cookie); Spanish by default."""
    lang = request.cookies.get(LANG_COOKIE, "")
    return lang if lang in LANGUAGES else LANGUAGES[0]


def is_htmx(request: Request) -> bool:
    return request.headers.get("hx-request") == "true"


def page(request: Request, template: str, *, status: int = 200, **context: Any) -> HTMLResponse:
    """Renders ``template`` with the request's language, CSRF token and the console's CSP."""
    lang = language_of(request)
    values = {
        "t": translator(lang),
        "lang": lang,
        "languages": LANGUAGES,
        "csrf": csrf_token(request),
        "path": request.url.path,
        **context,
    }
    response = HTMLResponse(
        ENV.get_template(template).render(values),
        status_code=status,
        headers={"Content-Security-Policy": CSP},
    )
    keep_csrf(request, response)
    return response
