"""An upstream whose answer spells a lone UTF-16 surrogate or NUL (``"\\ud800"``,
``"\\u0000"``: JSON allows the escapes, no UTF-8 response or PostgreSQL text can hold them)
is relayed with U+FFFD in their place, streamed or not, and the turn is stored; it used to
end a stream with a 500. The upstream is a fake over real HTTP: only its escapes matter."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterator

import pytest
from fastapi.testclient import TestClient
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import Route

from tests.conftest import Tenant, make_tenant, serve_in_thread
from tests.upstream_hosts import allow_upstream
from vigia.agents.models import Agent
from vigia.agents.schemas import AgentPatch
from vigia.agents.service import publish, update_draft
from vigia.db.session import session_scope
from vigia.guardrails.config import GuardrailsConfig
from vigia.llm.settings import ModelSettings

ANSWER = "hola \ud800 mundo\x00 fin"  # json.dumps writes both as \u escapes
MENDED = "hola \ufffd mundo\ufffd fin"
USAGE = {"prompt_tokens": 3, "completion_tokens": 4, "total_tokens": 7}


async def _completions(request: Request) -> Response:
    body = await request.json()
    base = {"id": "c", "created": 1, "model": body["model"]}
    if not body.get("stream"):
        message = {"role": "assistant", "content": ANSWER}
        choice = {"index": 0, "finish_reason": "stop", "message": message}
        reply = {**base, "object": "chat.completion", "usage": USAGE, "choices": [choice]}
        return Response(json.dumps(reply), media_type="application/json")

    async def events() -> AsyncIterator[str]:
        chunk = {**base, "object": "chat.completion.chunk"}
        delta = {"index": 0, "delta": {"content": ANSWER}, "finish_reason": "stop"}
        yield f"data: {json.dumps({**chunk, 'choices': [delta]})}\n\n"
        yield f"data: {json.dumps({**chunk, 'choices': [], 'usage': USAGE})}\n\n"
        yield "data: [DONE]\n\n"

    return StreamingResponse(events(), media_type="text/event-stream")


@pytest.fixture
def upstream_tenant() -> Iterator[Tenant]:
    app = Starlette(routes=[Route("/v1/chat/completions", _completions, methods=["POST"])])
    with serve_in_thread(app) as url:
        tenant = make_tenant(name="surrogates", instructions="Sos un asistente.")
        allow_upstream(tenant.workspace_id, url)
        with session_scope() as session:
            agent = session.get(Agent, tenant.agent_id)
            assert agent is not None
            model = ModelSettings(provider="openai", name="gpt-4o-mini", base_url=url + "/v1")
            # Grounding off: the answer is no sentence of the instructions.
            patch = AgentPatch(model=model, guardrails=GuardrailsConfig(grounding="off"))
            update_draft(session, agent, patch)
            publish(session, agent)
        yield tenant


def _post(client: TestClient, tenant: Tenant, stream: bool) -> tuple[int, str]:
    """The status and the text of a chat completion's answer."""
    response = client.post(
        "/v1/chat/completions",
        json={
            "model": "asistente",
            "stream": stream,
            "messages": [{"role": "user", "content": "hola"}],
        },
        headers={"Authorization": f"Bearer {tenant.production_key}"},
    )
    return response.status_code, response.text


def test_a_json_answer_is_mended(client: TestClient, upstream_tenant: Tenant) -> None:
    status, text = _post(client, upstream_tenant, stream=False)
    assert status == 200, text
    assert json.loads(text)["choices"][0]["message"]["content"] == MENDED


def test_a_streamed_answer_is_mended(client: TestClient, upstream_tenant: Tenant) -> None:
    status, body = _post(client, upstream_tenant, stream=True)
    assert status == 200
    lines = [line[6:] for line in body.splitlines() if line.startswith("data: {")]
    chunks = [json.loads(line) for line in lines]
    text = "".join(c["choices"][0]["delta"].get("content") or "" for c in chunks if c["choices"])
    assert text == MENDED
    assert body.rstrip().endswith("data: [DONE]")
    conversation = chunks[-1]["sherlock"]["conversation_id"]
    stored = client.get(
        f"/v1/conversations/{conversation}/messages",
        headers={"Authorization": f"Bearer {upstream_tenant.production_key}"},
    )
    assert stored.status_code == 200, stored.text
    assert MENDED in stored.text
