"""Evaluación: an agent's test cases, adding one, running them against the draft or the
published version, and the promptfoo export of the same cases (docs/evals.md)."""

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
from vigia.console.field_errors import FieldErrors, field_errors
from vigia.console.form_limits import Bounds, bounds
from vigia.console.form_values import FormValues, typed
from vigia.console.rendering import page
from vigia.console.responses import Form, see_other, text
from vigia.eval_cases import promptfoo
from vigia.eval_cases import service as eval_cases
from vigia.eval_cases.schemas import MAX_TEXT, Env, EvalCaseIn, EvalRunOut
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
) -> Response:
    """The page; a new case that did not validate shows its ``errors`` next to the fields,
    which keep what was ``typed``."""
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
        limits={
            "name": bounds(EvalCaseIn, "name"),
            "input": bounds(EvalCaseIn, "input"),
            "contains": Bounds(max_length=MAX_TEXT),
        },
    )


@router.get("")
def evaluation_page(request: Request, access: Reader, db: Db, agent: str = "") -> Response:
    """The cases of ``agent`` (the first agent when none is chosen)."""
    rows = agents.list_agents(db, access.workspace.id)
    chosen = agents.get_agent(db, access.workspace.id, agent) if agent else next(iter(rows), None)
    return _page(request, access, db, chosen)


@router.post("/{slug}/cases")
def add_case(request: Request, slug: str, access: Configurer, db: Db, form: Form) -> Response:
    """A case from the form: an input, a text the reply must contain, an expected status."""
    agent = agents.get_agent(db, access.workspace.id, slug)
    assertions: dict[str, object] = {}
    if text(form, "contains").strip():
        assertions["contains"] = [text(form, "contains").strip()]
    if text(form, "status"):
        assertions["status"] = text(form, "status")
    if text(form, "cites") == "on":
        assertions["cites"] = True
    try:
        spec = EvalCaseIn.model_validate(
            {"name": text(form, "name"), "input": text(form, "input"), "assertions": assertions}
        )
    except ValidationError as error:
        errors = field_errors(
            error,
            {("assertions", "contains"): "contains", ("assertions", "status"): "status"},
            {("assertions", ""): "invalid.assertions"},
        )
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
