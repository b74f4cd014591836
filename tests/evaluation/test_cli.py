"""`vigia eval …`, `vigia agent export-promptfoo` and `agent publish --require-eval` (CLI.md)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import yaml
from typer.testing import CliRunner, Result

from tests.conftest import Tenant
from tests.eval_cases.helpers import (
    HOURS_QUESTION,
    HOURS_REPLY,
    blocked_case,
    failing_case,
    passing_case,
)
from tests.upstream_hosts import allow_upstream
from vigia.agents.models import Agent
from vigia.agents.schemas import AgentPatch
from vigia.agents.service import update_draft
from vigia.cli import app
from vigia.db.session import session_scope
from vigia.errors import UpstreamError
from vigia.eval_cases.models import EvalCase
from vigia.llm.function import FunctionModel
from vigia.llm.protocol import ModelRequest
from vigia.llm.registry import override_model
from vigia.llm.settings import ModelSettings


def vigia(*args: str) -> tuple[int, dict[str, Any]]:
    """Runs the CLI with --json; returns the exit code and the one JSON object printed."""
    result: Result = CliRunner().invoke(app, [*args, "--json"])
    lines = result.stdout.strip().splitlines()
    assert len(lines) == 1, f"one JSON object on stdout, got: {result.output!r}"
    return result.exit_code, json.loads(lines[0])


def _published_version(tenant: Tenant) -> int | None:
    with session_scope() as session:
        agent = session.get(Agent, tenant.agent_id)
        assert agent is not None
        return agent.published_version


def test_eval_add_prints_the_id_and_stores_the_case(tenant: Tenant) -> None:
    code, case = vigia(
        "eval", "add", tenant.agent_slug, "--workspace", tenant.workspace_name,
        "--input", HOURS_QUESTION, "--contains", "lunes", "--contains", "viernes",
        "--not-contains", "sábado", "--regex", r"\d+ horas", "--status", "ok", "--cites",
    )  # fmt: skip
    assert code == 0 and case["id"]
    assert case["assertions"] == {
        "contains": ["lunes", "viernes"],
        "not_contains": ["sábado"],
        "regex": r"\d+ horas",
        "status": "ok",
        "cites": True,
        "cites_document": None,
        "max_chars": None,
    }
    code, listed = vigia("eval", "list", tenant.agent_slug, "--workspace", tenant.workspace_name)
    assert [c["id"] for c in listed["cases"]] == [case["id"]]


def test_eval_add_refuses_bad_input_and_stores_nothing(tenant: Tenant) -> None:
    base = ["eval", "add", tenant.agent_slug, "--workspace", tenant.workspace_name]
    code, error = vigia(*base, "--input", "hola")
    assert code == 1
    assert error == {
        "detail": "assertions: Value error, a case needs at least one assertion",
        "error": "invalid",
    }
    code, error = vigia(*base, "--input", "hola", "--status", "ok", "--history", "[nope")
    assert code == 1 and error["detail"].startswith("--history must be a JSON array")
    with session_scope() as session:
        assert session.query(EvalCase).count() == 0


def test_eval_run_prints_each_case_and_exits_1_when_one_fails(tenant: Tenant) -> None:
    ids = [passing_case(tenant), failing_case(tenant), blocked_case(tenant)]
    args = ["eval", "run", tenant.agent_slug, "--workspace", tenant.workspace_name]
    code, report = vigia(*args, "--env", "production")
    assert code == 1
    assert (report["passed"], report["failed"]) == (2, 1)
    assert [(c["id"], c["passed"]) for c in report["cases"]] == [
        (ids[0], True),
        (ids[1], False),
        (ids[2], True),
    ]
    assert report["cases"][0]["reply"] == HOURS_REPLY
    assert report["cases"][1]["failures"] == ["reply does not contain 'sábados'"]
    code, _ = vigia(
        "eval", "delete", tenant.agent_slug, ids[1], "--workspace", tenant.workspace_name
    )
    assert code == 0
    code, report = vigia(*args)
    assert code == 0 and report["env"] == "draft" and (report["passed"], report["failed"]) == (2, 0)


def test_eval_run_refuses_an_unknown_env(tenant: Tenant) -> None:
    args = ["eval", "run", tenant.agent_slug, "--workspace", tenant.workspace_name]
    assert vigia(*args, "--env", "staging") == (
        1,
        {"detail": "env must be 'draft' or 'production'", "error": "invalid"},
    )


def test_a_turn_that_fails_fails_its_case(tenant: Tenant) -> None:
    allow_upstream(tenant.workspace_id, "http://x.test")
    with session_scope() as session:
        agent = session.get(Agent, tenant.agent_id)
        assert agent is not None
        model = ModelSettings(provider="openai", name="flaky", base_url="http://x.test")
        update_draft(session, agent, AgentPatch(model=model))
    passing_case(tenant)

    def fail(_request: ModelRequest) -> str:
        raise UpstreamError("the upstream answered 500")

    with override_model(FunctionModel(fail), name="flaky"):
        code, report = vigia("eval", "run", tenant.agent_slug, "--workspace", tenant.workspace_name)
    assert code == 1
    assert report["cases"][0]["status"] == "error"
    assert report["cases"][0]["failures"] == ["the turn failed: the upstream answered 500"]


def test_publish_require_eval_refuses_a_failing_draft(tenant: Tenant) -> None:
    passing_case(tenant)
    failing_case(tenant)
    args = ["agent", "publish", tenant.agent_slug, "--workspace", tenant.workspace_name]
    code, error = vigia(*args, "--require-eval")
    assert code == 1
    assert error["error"] == "evaluation_failed"
    assert error["detail"] == "1 of 2 evaluation cases fail on the draft"
    assert [c["passed"] for c in error["cases"]] == [True, False]
    assert _published_version(tenant) == 1


def test_publish_require_eval_publishes_when_every_case_passes(tenant: Tenant) -> None:
    passing_case(tenant)
    blocked_case(tenant)
    args = ["agent", "publish", tenant.agent_slug, "--workspace", tenant.workspace_name]
    code, published = vigia(*args, "--require-eval")
    assert code == 0
    assert published == {"slug": tenant.agent_slug, "version": 2, "passed": 2}
    assert _published_version(tenant) == 2


def test_publish_require_eval_refuses_an_agent_without_cases(tenant: Tenant) -> None:
    args = ["agent", "publish", tenant.agent_slug, "--workspace", tenant.workspace_name]
    code, error = vigia(*args, "--require-eval")
    assert code == 1 and error["error"] == "evaluation_failed"
    assert "has no evaluation cases" in error["detail"]
    assert _published_version(tenant) == 1


def test_publish_require_eval_checks_the_draft_not_production(tenant: Tenant) -> None:
    """The published version answers the hours; a draft that lost them must not be published."""
    passing_case(tenant)
    with session_scope() as session:
        agent = session.get(Agent, tenant.agent_id)
        assert agent is not None
        update_draft(session, agent, AgentPatch(instructions="Sos un asistente de seguros."))
    args = ["agent", "publish", tenant.agent_slug, "--workspace", tenant.workspace_name]
    code, error = vigia(*args, "--require-eval")
    assert code == 1 and error["cases"][0]["failures"] == [
        "reply does not contain 'lunes a viernes'"
    ]
    code, report = vigia(
        "eval",
        "run",
        tenant.agent_slug,
        "--workspace",
        tenant.workspace_name,
        "--env",
        "production",
    )
    assert code == 0 and report["passed"] == 1


def test_export_promptfoo_writes_the_file_or_prints_it(tenant: Tenant, tmp_path: Path) -> None:
    passing_case(tenant)
    target = tmp_path / "promptfooconfig.yaml"
    base = ["agent", "export-promptfoo", tenant.agent_slug, "--workspace", tenant.workspace_name]
    code, written = vigia(*base, "--base-url", "http://127.0.0.1:9/v1", "--output", str(target))
    assert code == 0 and written == {"path": str(target), "cases": 1}
    config = yaml.safe_load(target.read_text())
    assert config["providers"][0]["config"] == {
        "apiBaseUrl": "http://127.0.0.1:9/v1",
        "apiKeyEnvar": "VIGIA_API_KEY",
    }
    printed = CliRunner().invoke(app, [*base, "--env", "draft"])
    assert printed.exit_code == 0
    assert yaml.safe_load(printed.stdout)["providers"][0]["config"]["apiBaseUrl"] == (
        "http://127.0.0.1:8000/v1"
    )
    assert "Vigia agent asistente (draft)" in printed.stdout


def test_cases_of_an_external_agent_cannot_run_or_export(tenant: Tenant) -> None:
    code, _ = vigia("agent", "create", "bot", "--workspace", tenant.workspace_name, "--external")
    assert code == 0
    where = ["bot", "--workspace", tenant.workspace_name]
    code, _ = vigia("eval", "add", *where, "--input", "hola", "--status", "ok")
    assert code == 0
    for command in (["eval", "run", *where], ["agent", "export-promptfoo", *where]):
        code, error = vigia(*command)
        assert code == 1 and error["error"] == "invalid"
        assert error["detail"].startswith("agent 'bot' is external")
