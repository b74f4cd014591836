"""Contract tests with the real ``openai`` package against a live Vigia server.

The agent runs on the embedded default model; the texts asserted come from its instructions.
"""

from __future__ import annotations

import asyncio

import httpx
import openai
import pytest
from openai.types.chat import ChatCompletionMessageParam

from tests.conftest import ADMIN_TOKEN, Tenant, make_tenant

QUESTION = "¿Atienden de lunes a viernes?"
ADMIN = {"Authorization": f"Bearer {ADMIN_TOKEN}"}


def sdk(base: str, key: str) -> openai.OpenAI:
    return openai.OpenAI(base_url=base + "/v1", api_key=key, max_retries=0)


def test_models_lists_the_workspace_agents(live_server: str, tenant: Tenant) -> None:
    models = sdk(live_server, tenant.production_key).models.list()
    assert [m.id for m in models.data] == [tenant.agent_slug]
    assert models.data[0].object == "model"
    assert models.data[0].owned_by == "vigia"


def test_models_retrieve_returns_the_agent(live_server: str, tenant: Tenant) -> None:
    model = sdk(live_server, tenant.production_key).models.retrieve(tenant.agent_slug)
    assert model.id == tenant.agent_slug and model.object == "model"
    assert model.owned_by == "vigia" and model.created > 0
    assert (model.model_extra or {})["name"] == tenant.agent_slug


def test_models_retrieve_refuses_what_the_key_cannot_see(live_server: str, tenant: Tenant) -> None:
    other = make_tenant(name="otro", slug="ajeno")
    admin = f"{live_server}/admin/workspaces/{tenant.workspace_name}"
    httpx.post(f"{admin}/agents", json={"slug": "segundo"}, headers=ADMIN).raise_for_status()
    httpx.post(f"{admin}/agents", json={"slug": "externo", "kind": "external"}, headers=ADMIN)
    channel = httpx.post(f"{admin}/keys", json={"agent": "segundo", "env": "draft"}, headers=ADMIN)
    cases = [
        (tenant.production_key, "nope"),  # unknown
        (tenant.production_key, other.agent_slug),  # another workspace's agent
        (tenant.production_key, "externo"),  # reviewed through output-review, not chat
        (tenant.production_key, "segundo"),  # never published: drafts only
        (channel.json()["key"], tenant.agent_slug),  # a channel key sees its agent only
    ]
    for key, slug in cases:
        with pytest.raises(openai.NotFoundError) as missing:
            sdk(live_server, key).models.retrieve(slug)
        assert missing.value.body == {"detail": f"model '{slug}' not found"}, slug
    draft = sdk(live_server, channel.json()["key"]).models.retrieve("segundo")
    assert draft.id == "segundo"


def test_draft_key_version_is_the_number_its_publish_would_get(
    live_server: str, tenant: Tenant
) -> None:
    client = sdk(live_server, tenant.draft_key)
    r = client.chat.completions.create(
        model=tenant.agent_slug, messages=[{"role": "user", "content": QUESTION}]
    )
    sherlock = (r.model_extra or {})["sherlock"]
    assert sherlock["version"] == 2 and sherlock["env"] == "draft"
    stream = client.chat.completions.create(
        model=tenant.agent_slug, messages=[{"role": "user", "content": QUESTION}], stream=True
    )
    assert (list(stream)[-1].model_extra or {})["sherlock"]["version"] == 2
    published = httpx.post(
        f"{live_server}/admin/workspaces/{tenant.workspace_name}/agents/{tenant.agent_slug}/publish",
        headers=ADMIN,
    ).json()
    assert published["version"] == 2


def test_chat_json_has_the_spec_shape(live_server: str, tenant: Tenant) -> None:
    r = sdk(live_server, tenant.production_key).chat.completions.create(
        model=tenant.agent_slug, messages=[{"role": "user", "content": QUESTION}], temperature=0.3
    )
    assert r.id.startswith("chatcmpl-")
    assert r.object == "chat.completion"
    assert r.model == tenant.agent_slug
    assert "lunes a viernes" in (r.choices[0].message.content or "")
    assert r.choices[0].finish_reason == "stop"
    assert (
        r.usage is not None
        and r.usage.total_tokens == r.usage.prompt_tokens + r.usage.completion_tokens
    )
    extra = r.model_extra or {}
    sherlock = extra["sherlock"]
    for field in (
        "conversation_id",
        "run_id",
        "status",
        "citations",
        "cost_usd",
        "version",
        "handoff",
    ):
        assert field in sherlock
    assert sherlock["status"] == "ok" and sherlock["version"] == 1 and sherlock["handoff"] is False


def test_streaming_sends_role_sentences_then_usage_and_sherlock(
    live_server: str, tenant: Tenant
) -> None:
    stream = sdk(live_server, tenant.production_key).chat.completions.create(
        model=tenant.agent_slug, messages=[{"role": "user", "content": QUESTION}], stream=True
    )
    chunks = list(stream)
    assert chunks[0].choices[0].delta.role == "assistant"
    text = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
    assert "lunes a viernes" in text
    last = chunks[-1]
    assert last.choices[0].finish_reason == "stop"
    assert last.usage is not None and last.usage.completion_tokens > 0
    assert (last.model_extra or {})["sherlock"]["status"] == "ok"


def test_stream_options_include_usage_sends_usage_once_on_an_empty_choices_chunk(
    live_server: str, tenant: Tenant
) -> None:
    stream = sdk(live_server, tenant.production_key).chat.completions.create(
        model=tenant.agent_slug,
        messages=[{"role": "user", "content": QUESTION}],
        stream=True,
        stream_options={"include_usage": True},
    )
    chunks = list(stream)
    assert chunks[-1].choices == [] and chunks[-1].usage is not None
    assert chunks[-2].choices[0].finish_reason == "stop"
    assert all(c.usage is None for c in chunks[:-1])
    assert (chunks[-1].model_extra or {})["sherlock"]["status"] == "ok"


def test_streamed_and_json_runs_are_counted_alike(live_server: str, tenant: Tenant) -> None:
    client = sdk(live_server, tenant.production_key)
    plain = client.chat.completions.create(
        model=tenant.agent_slug, messages=[{"role": "user", "content": QUESTION}]
    )
    streamed = list(
        client.chat.completions.create(
            model=tenant.agent_slug, messages=[{"role": "user", "content": QUESTION}], stream=True
        )
    )
    assert plain.usage is not None and streamed[-1].usage is not None
    assert plain.usage.prompt_tokens == streamed[-1].usage.prompt_tokens
    assert plain.usage.completion_tokens == streamed[-1].usage.completion_tokens


def test_conversation_continues_by_header_and_by_body(live_server: str, tenant: Tenant) -> None:
    client = sdk(live_server, tenant.production_key)
    first = client.chat.completions.create(
        model=tenant.agent_slug, messages=[{"role": "user", "content": QUESTION}]
    )
    cid = (first.model_extra or {})["sherlock"]["conversation_id"]
    by_header = client.chat.completions.create(
        model=tenant.agent_slug,
        messages=[{"role": "user", "content": "¿Y los sábados?"}],
        extra_headers={"X-Sherlock-Conversation": cid},
    )
    by_body = client.chat.completions.create(
        model=tenant.agent_slug,
        messages=[{"role": "user", "content": "Gracias"}],
        extra_body={"conversation_id": cid},
    )
    assert (by_header.model_extra or {})["sherlock"]["conversation_id"] == cid
    assert (by_body.model_extra or {})["sherlock"]["conversation_id"] == cid
    fresh = client.chat.completions.create(
        model=tenant.agent_slug, messages=[{"role": "user", "content": QUESTION}]
    )
    assert (fresh.model_extra or {})["sherlock"]["conversation_id"] != cid
    history = httpx.get(
        f"{live_server}/admin/workspaces/{tenant.workspace_name}/conversations/{cid}",
        headers={"Authorization": "Bearer test-admin-token-0123456789abcdef"},
    ).json()["messages"]
    assert [m["role"] for m in history] == ["user", "assistant"] * 3
    assert [m["content"] for m in history if m["role"] == "user"] == [
        QUESTION,
        "¿Y los sábados?",
        "Gracias",
    ]


def test_async_client_json_and_stream(live_server: str, tenant: Tenant) -> None:
    async def main() -> tuple[str, str]:
        client = openai.AsyncOpenAI(
            base_url=live_server + "/v1", api_key=tenant.production_key, max_retries=0
        )
        r = await client.chat.completions.create(
            model=tenant.agent_slug, messages=[{"role": "user", "content": QUESTION}]
        )
        stream = await client.chat.completions.create(
            model=tenant.agent_slug, messages=[{"role": "user", "content": QUESTION}], stream=True
        )
        text = "".join([c.choices[0].delta.content or "" async for c in stream if c.choices])
        await client.close()
        return r.choices[0].message.content or "", text

    plain, streamed = asyncio.run(main())
    assert plain == streamed and "lunes a viernes" in plain


def test_error_statuses_and_bodies(live_server: str, tenant: Tenant) -> None:
    messages: list[ChatCompletionMessageParam] = [{"role": "user", "content": QUESTION}]
    with pytest.raises(openai.AuthenticationError) as missing:
        sdk(live_server, "sk-vigia-not-a-key").chat.completions.create(
            model=tenant.agent_slug, messages=messages
        )
    assert missing.value.status_code == 401 and missing.value.body == {"detail": "invalid API key"}
    with pytest.raises(openai.NotFoundError) as unknown:
        sdk(live_server, tenant.production_key).chat.completions.create(
            model="nope", messages=messages
        )
    assert unknown.value.body == {"detail": "model 'nope' not found"}
    with pytest.raises(openai.UnprocessableEntityError) as bad:
        sdk(live_server, tenant.production_key).chat.completions.create(
            model=tenant.agent_slug, messages=[{"role": "assistant", "content": "hola"}]
        )
    assert isinstance(bad.value.body, dict) and isinstance(bad.value.body["detail"], str)
    raw = httpx.post(
        f"{live_server}/v1/chat/completions",
        content=b"{not json",
        headers={"X-API-Key": tenant.production_key, "Content-Type": "application/json"},
    )
    assert raw.status_code == 422 and isinstance(raw.json()["detail"], str)
