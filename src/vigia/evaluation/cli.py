"""``vigia eval …`` and ``vigia agent export-promptfoo`` / ``publish --require-eval``."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer
from pydantic import ValidationError
from sqlalchemy.orm import Session

from vigia.agents.service import get_agent
from vigia.config import get_settings
from vigia.db.migrate import upgrade
from vigia.db.session import session_scope
from vigia.errors import Invalid, VigiaError
from vigia.eval_cases import promptfoo
from vigia.eval_cases import service as eval_cases
from vigia.eval_cases.schemas import EvalCaseIn, EvalRunOut
from vigia.evaluation.runner import EvaluationFailed, evaluate, publish_if_passing, require_env
from vigia.http.errors import validation_summary
from vigia.kit.cli_output import emit, fail
from vigia.kit.turn_status import TURN_STATUSES
from vigia.workspaces.service import find_workspace

app = typer.Typer(help="Evaluation cases of an agent, and running them", no_args_is_help=True)

Json = Annotated[bool, typer.Option("--json", help="Print one JSON object on stdout.")]
WorkspaceOpt = Annotated[str, typer.Option("--workspace", help="Workspace id or name.")]
T = TypeVar("T")


def _in_session(as_json: bool, action: Callable[[Session], T]) -> T:
    """``action(session)`` in one transaction on a migrated database; errors exit 1."""
    try:
        upgrade()
        with session_scope() as session:
            return action(session)
    except ValidationError as error:
        fail(Invalid(validation_summary(list(error.errors()))), as_json)
    except VigiaError as error:
        fail(error, as_json)


def _history(raw: str | None) -> list[Any]:
    if raw is None:
        return []
    try:
        value = json.loads(raw)
    except json.JSONDecodeError as error:
        raise Invalid(f"--history must be a JSON array of messages: {error.msg}") from None
    if not isinstance(value, list):
        raise Invalid("--history must be a JSON array of {role, content} messages")
    return value


@app.command("add")
def add(
    slug: str,
    workspace: WorkspaceOpt,
    input_text: Annotated[str, typer.Option("--input", help="The user's message.")],
    contains: Annotated[
        list[str] | None, typer.Option("--contains", help="The reply contains it (any case).")
    ] = None,
    not_contains: Annotated[
        list[str] | None, typer.Option("--not-contains", help="The reply lacks it (any case).")
    ] = None,
    regex: Annotated[str | None, typer.Option(help="A pattern found in the reply.")] = None,
    status: Annotated[str | None, typer.Option(help=", ".join(TURN_STATUSES))] = None,
    cites: Annotated[bool, typer.Option("--cites", help="The reply cites a document.")] = False,
    cites_document: Annotated[
        str | None, typer.Option("--cites-document", help="The reply cites this document.")
    ] = None,
    max_chars: Annotated[
        int | None, typer.Option("--max-chars", help="The reply has at most N characters.")
    ] = None,
    name: Annotated[str, typer.Option(help="A short name for the case.")] = "",
    history: Annotated[
        str | None,
        typer.Option(help='Earlier messages: [{"role": "user"|"assistant", "content": …}]'),
    ] = None,
    as_json: Json = False,
) -> None:
    """Adds an evaluation case to the agent."""

    def action(session: Session) -> dict[str, Any]:
        spec = EvalCaseIn.model_validate(
            {
                "name": name,
                "input": input_text,
                "history": _history(history),
                "assertions": {
                    k: v
                    for k, v in {
                        "contains": contains,
                        "not_contains": not_contains,
                        "regex": regex,
                        "status": status,
                        "cites": cites or None,
                        "cites_document": cites_document,
                        "max_chars": max_chars,
                    }.items()
                    if v is not None
                },
            }
        )
        ws = find_workspace(session, workspace)
        row = eval_cases.create_case(session, ws.id, get_agent(session, ws.id, slug).id, spec)
        return eval_cases.case_view(row).model_dump(mode="json")

    view = _in_session(as_json, action)
    emit(view, as_json, human=f"case {view['id']} added to {slug}")


@app.command("list")
def list_(slug: str, workspace: WorkspaceOpt, as_json: Json = False) -> None:
    """The agent's evaluation cases."""

    def action(session: Session) -> list[dict[str, Any]]:
        agent = get_agent(session, find_workspace(session, workspace).id, slug)
        return [
            eval_cases.case_view(r).model_dump(mode="json")
            for r in eval_cases.list_cases(session, agent.id)
        ]

    cases = _in_session(as_json, action)
    human = "\n".join(f"{c['id']}  {c['name'] or c['input'][:60]}" for c in cases) or "no cases"
    emit({"cases": cases}, as_json, human=human)


@app.command("delete")
def delete(slug: str, case_id: str, workspace: WorkspaceOpt, as_json: Json = False) -> None:
    """Deletes one of the agent's cases."""

    def action(session: Session) -> None:
        agent = get_agent(session, find_workspace(session, workspace).id, slug)
        eval_cases.delete_case(session, eval_cases.get_case(session, agent.id, case_id))

    _in_session(as_json, action)
    emit({"id": case_id, "deleted": True}, as_json, human=f"deleted {case_id}")


def _report_text(report: EvalRunOut) -> str:
    lines = [f"{report.agent} ({report.env}): {report.passed} passed, {report.failed} failed"]
    for case in report.cases:
        mark = "PASS" if case.passed else "FAIL"
        lines.append(f"  {mark} {case.id} {case.name}".rstrip())
        lines += [f"       {failure}" for failure in case.failures]
    return "\n".join(lines)


@app.command("run")
def run(
    slug: str,
    workspace: WorkspaceOpt,
    env: Annotated[str, typer.Option(help="draft or production")] = "draft",
    as_json: Json = False,
) -> None:
    """Runs every case through the engine; exits 1 when any case fails."""
    try:
        upgrade()
        report = evaluate(workspace, slug, require_env(env))
    except VigiaError as error:
        fail(error, as_json)
    emit(report.model_dump(mode="json"), as_json, human=_report_text(report))
    if report.failed:
        raise typer.Exit(code=1)


def export_promptfoo(
    slug: str,
    workspace: WorkspaceOpt,
    env: Annotated[str, typer.Option(help="production or draft")] = "production",
    base_url: Annotated[
        str | None, typer.Option("--base-url", help="OpenAI base URL of the server (…/v1).")
    ] = None,
    output: Annotated[
        Path | None, typer.Option("--output", help="File to write (default: stdout).")
    ] = None,
    as_json: Json = False,
) -> None:
    """Writes a promptfoo config for the agent's cases; the key comes from VIGIA_API_KEY."""
    url = base_url or get_settings().base_url
    text, count = _in_session(
        as_json,
        lambda s: promptfoo.export(s, workspace, slug, require_env(env), url),
    )
    if output is None:
        sys.stdout.write(text)
        return
    output.write_text(text, encoding="utf-8")
    emit({"path": str(output), "cases": count}, as_json, human=f"wrote {output} ({count} cases)")


def publish_gated(slug: str, workspace: str, as_json: bool) -> None:
    """``agent publish --require-eval``: publishes only a draft whose cases all pass."""
    try:
        upgrade()
        report, number = publish_if_passing(workspace, slug, by="cli")
    except EvaluationFailed as error:
        body: dict[str, Any] = {"detail": error.detail, "error": error.code}
        if error.report is not None:
            body |= error.report.model_dump(mode="json", include={"passed", "failed", "cases"})
        human = error.detail + ("\n" + _report_text(error.report) if error.report else "")
        if as_json:
            sys.stdout.write(json.dumps(body, ensure_ascii=False) + "\n")
        else:
            typer.echo(f"error: {human}", err=True)
        raise typer.Exit(code=1) from None
    except VigiaError as error:
        fail(error, as_json)
    emit(
        {"slug": slug, "version": number, "passed": report.passed},
        as_json,
        human=f"{slug} published as version {number} ({report.passed} cases pass)",
    )
