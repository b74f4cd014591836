"""Admin routes: an agent's evaluation cases, running them, and the promptfoo export.

``{workspace}`` is the workspace's id or name. Every route needs the admin token.
"""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Query, Request, Response
from sqlalchemy.orm import Session

from vigia.agents.service import get_agent
from vigia.config import get_settings
from vigia.eval_cases import promptfoo
from vigia.eval_cases import service as eval_cases
from vigia.eval_cases.models import EvalCase
from vigia.eval_cases.schemas import (
    EvalCaseDeletedOut,
    EvalCaseIn,
    EvalCaseListOut,
    EvalCaseOut,
    EvalRunIn,
    EvalRunOut,
)
from vigia.evaluation.runner import evaluate
from vigia.http.deps import Admin, Db
from vigia.workspaces.service import find_workspace

router = APIRouter(prefix="/admin/workspaces/{workspace}/agents/{slug}", tags=["evaluation"])
YAML = "application/yaml"


def _agent_ids(db: Session, workspace: str, slug: str) -> tuple[str, str]:
    ws = find_workspace(db, workspace)
    return ws.id, get_agent(db, ws.id, slug).id


def _case(db: Session, workspace: str, slug: str, case_id: str) -> EvalCase:
    return eval_cases.get_case(db, _agent_ids(db, workspace, slug)[1], case_id)


@router.get("/eval-cases")
def list_cases(workspace: str, slug: str, _: Admin, db: Db) -> EvalCaseListOut:
    agent_id = _agent_ids(db, workspace, slug)[1]
    return EvalCaseListOut(
        cases=[eval_cases.case_view(r) for r in eval_cases.list_cases(db, agent_id)]
    )


@router.post("/eval-cases", status_code=201)
def create_case(workspace: str, slug: str, body: EvalCaseIn, _: Admin, db: Db) -> EvalCaseOut:
    workspace_id, agent_id = _agent_ids(db, workspace, slug)
    return eval_cases.case_view(eval_cases.create_case(db, workspace_id, agent_id, body))


@router.get("/eval-cases/{case_id}")
def get_case(workspace: str, slug: str, case_id: str, _: Admin, db: Db) -> EvalCaseOut:
    return eval_cases.case_view(_case(db, workspace, slug, case_id))


@router.put("/eval-cases/{case_id}")
def replace_case(
    workspace: str, slug: str, case_id: str, body: EvalCaseIn, _: Admin, db: Db
) -> EvalCaseOut:
    """Replaces the case's input, history and assertions."""
    row = eval_cases.replace_case(db, _case(db, workspace, slug, case_id), body)
    return eval_cases.case_view(row)


@router.delete("/eval-cases/{case_id}")
def delete_case(workspace: str, slug: str, case_id: str, _: Admin, db: Db) -> EvalCaseDeletedOut:
    eval_cases.delete_case(db, _case(db, workspace, slug, case_id))
    return EvalCaseDeletedOut(id=case_id, deleted=True)


@router.post("/evaluate")
def run_cases(workspace: str, slug: str, body: EvalRunIn, _: Admin) -> EvalRunOut:
    """Runs every case through the engine against ``env`` (stored as runs on channel eval)."""
    return evaluate(workspace, slug, body.env)


@router.get(
    "/promptfoo",
    response_class=Response,
    responses={
        200: {
            "content": {
                YAML: {
                    "schema": {
                        "type": "object",
                        "properties": {
                            "description": {"type": "string"},
                            "providers": {"type": "array"},
                            "prompts": {"type": "array"},
                            "tests": {"type": "array"},
                        },
                    }
                }
            },
            "description": "promptfooconfig.yaml",
        }
    },
)
def export_promptfoo(
    workspace: str,
    slug: str,
    request: Request,
    _: Admin,
    db: Db,
    env: Literal["production", "draft"] = "production",
    base_url: Annotated[str | None, Query(max_length=500)] = None,
) -> Response:
    """The agent's cases as a promptfoo config; ``base_url`` defaults to this server's ``/v1``."""
    default = get_settings().public_base_url or str(request.base_url)
    url = base_url or default.rstrip("/") + "/v1"
    text, _count = promptfoo.export(db, workspace, slug, env, url)
    return Response(
        text,
        media_type=YAML,
        headers={"Content-Disposition": 'attachment; filename="promptfooconfig.yaml"'},
    )
