"""Evaluación: an agent's test cases, adding one, running them against the draft or the
published version, and the promptfoo export of the same cases (docs/evals.md). One case's
page, its edit and its deletion are ``vigia.console.evaluation_cases``."""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter, Request
from pydantic import ValidationError
from sqlalchemy.orm import Session
from starlette.responses import Response

from vigia.agents import service as agents
from vigia.agents.models import Agent
from vigia.config import get_settings
from vigia.console.access import Access, Configurer, Reader
from vigia.console.case_form import LIMITS, form_errors, spec_from
from vigia.console.field_errors import FieldErrors
from vigia.console.form_values import FormValues, typed
from vigia.console.rendering import page
from vigia.console.responses import Form, see_other, text
from vigia.eval_cases import promptfoo
from vigia.eval_cases import service as eval_cases
from vigia.eval_cases.schemas import Env, EvalRunOut
from vigia.evaluation.runner import evaluate
from vigia.http.deps import Db

router = APIRouter(prefix="/console/w/{ws}/evaluation", include_in_schema=False)
YAML = "application/yaml"


def _page(
    request: Request,
    access: Access,
    db: Session,
    agent: Agent | None,
    *,
    status: int = 200,
    report: EvalRunOut | None = None,
    errors: FieldErrors | None = None,
    typed: FormValues | None = None,
    saved: str = "",
    deleted: str = "",
) -> Response:
    """The page; a new case that did not validate shows its ``errors`` next to the fields,
    which keep what was ``typed`` (``saved``, ``deleted``: the name of a case just edited
    or deleted, for the notice)."""
    cases = [eval_cases.case_view(c) for c in eval_cases.list_cases(db, agent.id)] if agent else []
    return page(
        request,
        "evaluation.html",
        status=status,
        access=access,
        section="evaluation",
        agents=agents.list_agents(db, access.workspace.id),
        agent=agent,
        cases=cases,
        report=report,
        errors=errors or {},
        typed=typed or FormValues(),
        limits=LIMITS,
        saved=saved[:120],
        deleted=deleted[:120],
    )


@router.get("")
def evaluation_page(
    request: Request,
    access: Reader,
    db: Db,
    agent: str = "",
    saved: str = "",
    deleted: str = "",
) -> Response:
    """The cases of ``agent`` (the first agent when none is chosen); ``saved`` or
    ``deleted`` name a case just edited or deleted, for the notice."""
    rows = agents.list_agents(db, access.workspace.id)
    chosen = agents.get_agent(db, access.workspace.id, agent) if agent else next(iter(rows), None)
    return _page(request, access, db, chosen, saved=saved, deleted=deleted)


@router.post("/{slug}/cases")
def add_case(request: Request, slug: str, access: Configurer, db: Db, form: Form) -> Response:
    """A case from the form: an input, texts the reply must contain, an expected status."""
    agent = agents.get_agent(db, access.workspace.id, slug)
    try:
        spec = spec_from(form)
    except ValidationError as error:
        errors = form_errors(error)
        return _page(request, access, db, agent, status=422, errors=errors, typed=typed(form))
    eval_cases.create_case(db, access.workspace.id, agent.id, spec)
    return see_other(f"{access.base}/evaluation?agent={slug}")


@router.post("/{slug}/run")
def run_cases(request: Request, slug: str, access: Configurer, db: Db, form: Form) -> Response:
    """Runs every case as a real turn and shows the result of each."""
    agent = agents.get_agent(db, access.workspace.id, slug)
    env: Env = "production" if text(form, "env") == "production" else "draft"
    db.commit()  # the runner works in its own transactions
    report = evaluate(access.workspace.id, slug, env)
    return _page(request, access, db, agent, report=report)


@router.get("/{slug}/promptfoo")
def export(
    request: Request,
    slug: str,
    access: Reader,
    db: Db,
    env: Literal["production", "draft"] = "production",
) -> Response:
    """The cases as ``promptfooconfig.yaml`` for this server's ``/v1`` (no key inside)."""
    root = get_settings().public_base_url or str(request.base_url)
    yaml, _ = promptfoo.export(db, access.workspace.id, slug, env, root.rstrip("/") + "/v1")
    return Response(
        yaml,
        media_type=YAML,
        headers={"Content-Disposition": 'attachment; filename="promptfooconfig.yaml"'},
    )
