"""Schemathesis against the live ASGI app, in process (no network): every operation of every
surface, called with valid credentials, must never answer 5xx and must pass every check
Schemathesis has (``--checks all``): responses as documented (status, content type, headers,
schema, error shapes included), invalid data refused, valid data accepted, auth enforced,
unexpected methods answered 405 with ``Allow``.

Schemathesis' own engine runs the cases (what ``schemathesis run`` does, in this process;
its pytest plugin's fixture loader does not run on this pytest), one run per surface, each
with that surface's credentials: an API key with every scope, the admin token, a worlds
session cookie (and no cookie for login/logout). Bounded: a fixed seed, deterministic
generation, one pass of the coverage phase (boundary values, valid and invalid) and of the
fuzzing phase (a fixed number of cases per operation): 50 to 600 cases per surface, about
a minute in all. A timeout per request and a wall-clock limit per run keep a slow machine
from stalling; a failure prints the ``curl`` that reproduces it."""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from fastapi import FastAPI
from fastapi.testclient import TestClient
from schemathesis.engine import Status, events
from schemathesis.engine.recorder import ScenarioRecorder

from tests.conftest import ADMIN_TOKEN, make_tenant
from vigia.app import create_app
from vigia.db.session import session_scope
from vigia.users.roles import grant
from vigia.users.service import create_user
from vigia.worlds.catalog import add_world
from vigia.worlds.ingest.indexer import index_world

PAYROLL = Path(__file__).parent / "worlds" / "payroll"
PASSWORD = "correct horse battery"
SEED = 20261130
REQUEST_TIMEOUT_S = 30
RUN_LIMIT_S = 60
# Every check runs. A schema-valid request may still be refused with a 4xx: JSON Schema
# cannot say "no lone surrogate or NUL", "a tool message needs its tool_call_id" or "at
# least one question", so ``positive_data_acceptance`` also accepts 400 and 422 (in the
# surface's documented shape, which ``response_schema_conformance`` checks).
# A schema-violating request may also be refused with 413: a generated body past the
# request-size limit (2 MiB for JSON) is refused before anyone reads it, which
# ``negative_data_rejection`` does not count as a refusal by default.
CHECKS: dict[str, Any] = {
    "enabled": True,
    "positive_data_acceptance": {
        "expected-statuses": ["2xx", "3xx", "400", "401", "403", "404", "409", "422", "429"]
    },
    "negative_data_rejection": {
        "expected-statuses": [
            *("400", "401", "403", "404", "405", "406", "409", "413", "415", "422"),
            *("428", "429", "5xx"),  # 5xx: ``not_a_server_error`` fails those on its own
        ]
    },
}


@dataclass(frozen=True)
class Surface:
    """One run: the operations it leaves out (a path regex) and the fuzzing cases of each."""

    other_paths: str
    fuzzing_cases: int


SURFACES = {
    "keys": Surface(r"^/(?!v1/|api/)", fuzzing_cases=25),
    "admin": Surface(r"^/(?!admin/)", fuzzing_cases=6),
    # With the session cookie; logging out would end it for the cases after.
    "worlds": Surface(r"^/(v1|api|admin|auth)/", fuzzing_cases=12),
    "login": Surface(r"^/(?!auth/)", fuzzing_cases=20),
}
# Operations whose bodies nest a whole agent configuration: their coverage phase alone would
# be ~700 cases, so they get the fuzzing phase only.
FUZZING_ONLY = r"^(POST .*/agents|PATCH .*/agents/\{slug\})$"


@dataclass
class Live:
    """The app under test, each surface's credentials, and path values that exist."""

    app: FastAPI
    headers: dict[str, dict[str, str]]
    paths: dict[str, str]


def _session_cookie(app: FastAPI, workspace_id: str) -> str:
    """World ``v1`` (the default version) of the workspace, indexed; a user with a role there
    logged in: its session cookie."""
    with session_scope() as session:
        index_world(session, add_world(session, "v1", PAYROLL, workspace_id))
        grant(session, create_user(session, "ada", PASSWORD).id, workspace_id, "viewer")
    with TestClient(app) as client:
        response = client.post("/auth/login", json={"username": "ada", "password": PASSWORD})
        assert response.status_code == 200, response.text
        return str(response.cookies["sherpa_session"])


@pytest.fixture
def live() -> Live:
    tenant = make_tenant(rpm=10_000)
    app = create_app()
    admin = {"Authorization": f"Bearer {ADMIN_TOKEN}"}
    with TestClient(app) as client:
        external = client.post(
            f"/admin/workspaces/{tenant.workspace_id}/agents",
            json={"slug": "externo", "kind": "external"},
            headers=admin,
        )
        assert external.status_code == 201, external.text
    return Live(
        app,
        headers={
            "keys": {"Authorization": f"Bearer {tenant.production_key}"},
            "admin": admin,
            "worlds": {"Cookie": f"sherpa_session={_session_cookie(app, tenant.workspace_id)}"},
            "login": {},
        },
        paths={
            "workspace": tenant.workspace_name,
            "slug": tenant.agent_slug,
            "agentId": str(external.json()["id"]),
        },
    )


def _config(surface: Surface, live: Live, headers: dict[str, str]) -> dict[str, Any]:
    return {
        "seed": SEED,
        "cache": {"enabled": False},  # no state carried between runs, nothing written
        "request-timeout": REQUEST_TIMEOUT_S,
        "headers": headers,
        "generation": {
            "deterministic": True,
            "database": "none",
            "max-examples": surface.fuzzing_cases,
        },
        "phases": {"stateful": {"enabled": False}},
        "checks": CHECKS,
        "parameters": {f"path.{name}": value for name, value in live.paths.items()},
        # Operation filters live in the config: the engine ignores ``schema.include`` once
        # any operation has settings of its own.
        "operations": [
            {"include-path-regex": surface.other_paths, "enabled": False},
            {"include-name-regex": FUZZING_ONLY, "phases": {"coverage": {"enabled": False}}},
            # Its "file: null" is sent as a file holding the text ``null``: a valid upload.
            {
                "include-name": "POST /personal/files",
                "checks": {"negative_data_rejection": {"enabled": False}},
            },
        ],
    }


def _failures(recorder: ScenarioRecorder) -> list[str]:
    """One paragraph per failed check: what failed and the ``curl`` that reproduces it."""
    found = []
    for checks in recorder.checks.values():
        for check in checks:
            if check.status == Status.SUCCESS:
                continue
            info = check.failure_info
            if info is None:
                found.append(f"{recorder.label} [{check.name}] the check itself crashed")
            else:
                found.append(
                    f"{recorder.label} [{check.name}] {info.failure.title}: "
                    f"{info.failure.message}\n{info.code_sample}"
                )
    return found


def _run(surface: Surface, live: Live, headers: dict[str, str]) -> tuple[int, list[str]]:
    """The number of cases sent and the failures found."""
    config = schemathesis.Config.from_dict(_config(surface, live, headers))
    schema = schemathesis.openapi.from_asgi("/openapi.json", live.app, config=config)
    stream = schemathesis.engine.from_schema(schema).execute()
    deadline = time.monotonic() + RUN_LIMIT_S
    cases, failures = 0, []
    for event in stream:
        if isinstance(event, events.FatalError):
            raise event.exception
        if isinstance(event, events.NonFatalError):
            failures.append(f"{event.label}: {event.info.title}: {event.info.message}")
        if isinstance(event, events.ScenarioFinished):
            cases += len(event.recorder.cases)
            failures += _failures(event.recorder)
        if time.monotonic() > deadline:
            stream.stop()
    return cases, failures


@pytest.mark.parametrize("name", list(SURFACES))
def test_no_server_error_and_responses_match_the_schema(name: str, live: Live) -> None:
    cases, failures = _run(SURFACES[name], live, live.headers[name])
    assert cases > 0
    assert not failures, "\n\n".join(dict.fromkeys(failures))


def test_every_operation_is_in_a_run(client: TestClient) -> None:
    """The runs' path filters leave no documented operation out (a new surface needs one)."""
    paths = client.get("/openapi.json").json()["paths"]
    left_out = [
        path
        for path in paths
        if all(re.search(surface.other_paths, path) for surface in SURFACES.values())
    ]
    assert len(paths) > 40
    assert not left_out
