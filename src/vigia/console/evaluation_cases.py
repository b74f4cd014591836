"""One evaluation case: its page with the case form filled in, saving an edit (what the
form cannot show, a multi-turn history or other assertions, is kept as stored), and
deleting the case once confirmed (docs/console.md "Evaluación")."""

from __future__ import annotations

from urllib.parse import urlencode

from fastapi import APIRouter, Request
from pydantic import ValidationError
from sqlalchemy.orm import Session
from starlette.responses import Response

from vigia.agents import service as agents
from vigia.agents.models import Agent
from vigia.console.access import Access, Configurer, Reader
from vigia.console.case_form import LIMITS, form_errors, hidden_assertions, spec_from, values_of
from vigia.console.field_errors import FieldErrors, one
from vigia.console.form_values import FormValues, typed
from vigia.console.rendering import page
from vigia.console.responses import Form, see_other, text
from vigia.eval_cases import service as eval_cases
from vigia.eval_cases.models import EvalCase
from vigia.http.deps import Db

router = APIRouter(prefix="/console/w/{ws}/evaluation/{slug}/cases", include_in_schema=False)


def _case(db: Session, access: Access, slug: str, case_id: str) -> tuple[Agent, EvalCase]:
    """The agent and its case; another workspace's or agent's case is not found."""
    agent = agents.get_agent(db, access.workspace.id, slug)
    return agent, eval_cases.get_case(db, agent.id, case_id)


def _label(case: EvalCase) -> str:
    """How the notices name a case: its name, or the start of its id."""
    return case.name or case.id[:8]


def _back(access: Access, slug: str, **notice: str) -> Response:
    """To the agent's cases, with the notice of what was done to which case."""
    return see_other(f"{access.base}/evaluation?" + urlencode({"agent": slug, **notice}))


def _page(
    request: Request,
    access: Access,
    agent: Agent,
    case: EvalCase,
    *,
    status: int = 200,
    errors: FieldErrors | None = None,
    values: FormValues | None = None,
) -> Response:
    """The case's page; an edit or a deletion that was refused shows its ``errors`` next to
    the fields, which keep the posted ``values``."""
    view = eval_cases.case_view(case)
    return page(
        request,
        "eval_case.html",
        status=status,
        access=access,
        section="evaluation",
        agent=agent,
        case=view,
        label=_label(case),
        kept=hidden_assertions(case),
        values=values if values is not None else values_of(case),
        errors=errors or {},
        limits=LIMITS,
    )


@router.get("/{case_id}")
def case_page(request: Request, slug: str, case_id: str, access: Reader, db: Db) -> Response:
    agent, case = _case(db, access, slug, case_id)
    return _page(request, access, agent, case)


@router.post("/{case_id}")
def save_case(
    request: Request, slug: str, case_id: str, access: Configurer, db: Db, form: Form
) -> Response:
    """Replaces the case with the form; its history and the assertions the form does not
    show stay as they were."""
    agent, case = _case(db, access, slug, case_id)
    try:
        spec = spec_from(form, kept=case)
    except ValidationError as error:
        errors = form_errors(error)
        return _page(request, access, agent, case, status=422, errors=errors, values=typed(form))
    eval_cases.replace_case(db, case, spec)
    return _back(access, slug, saved=_label(case))


@router.post("/{case_id}/delete")
def delete_case(
    request: Request, slug: str, case_id: str, access: Configurer, db: Db, form: Form
) -> Response:
    """Deletes the case once its box is checked to confirm."""
    agent, case = _case(db, access, slug, case_id)
    if text(form, "confirm") != "on":
        errors = one("confirm", "evaluation.delete_unconfirmed")
        return _page(request, access, agent, case, status=422, errors=errors)
    label = _label(case)
    eval_cases.delete_case(db, case)
    return _back(access, slug, deleted=label)
