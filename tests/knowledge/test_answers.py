"""Grounded answers end to end: a policy PDF attached to an agent, asked through
POST /v1/chat/completions, answered by the embedded model with page and heading citations.
These run the real embedding model (USE), loaded once per process."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.chat_calls import stream_lines
from tests.conftest import Tenant, make_tenant
from tests.knowledge.documents import policy_pdf
from vigia.agents.schemas import AgentConfig, AgentPatch, Replies
from vigia.agents.service import get_agent, publish, update_draft
from vigia.db.session import session_scope
from vigia.engine.stages.retrieval import retrieve
from vigia.engine.turn import Turn, TurnRequest
from vigia.knowledge import service
from vigia.llm.embedded import compose
from vigia.llm.protocol import ModelRequest, Passage
from vigia.workspaces.service import find_workspace

QUESTION = "¿Qué cubre la cobertura todo riesgo del auto?"


def _attach_policy(tenant: Tenant, *, publish_it: bool) -> str:
    """Uploads the policy into a new base, lists it in the draft, optionally publishes."""
    with session_scope() as session:
        workspace = find_workspace(session, tenant.workspace_id)
        kb = service.create_knowledge_base(session, workspace, "Pólizas")
        service.add_document(session, kb, "Condiciones generales auto.pdf", policy_pdf())
        agent = get_agent(session, tenant.workspace_id, tenant.agent_slug)
        update_draft(session, agent, AgentPatch(knowledge_bases=[kb.id]))
        if publish_it:
            publish(session, agent)
        return kb.id


def _chat(client: TestClient, key: str, model: str, text: str) -> dict[str, Any]:
    response = client.post(
        "/v1/chat/completions",
        headers={"Authorization": f"Bearer {key}"},
        json={"model": model, "messages": [{"role": "user", "content": text}]},
    )
    assert response.status_code == 200, response.text
    return dict(response.json())


def test_answer_cites_the_right_page_and_clause(client: TestClient, tenant: Tenant) -> None:
    _attach_policy(tenant, publish_it=True)
    body = _chat(client, tenant.production_key, tenant.agent_slug, QUESTION)
    content = body["choices"][0]["message"]["content"]
    citations = body["sherlock"]["citations"]
    assert "accidente, incendio o robo" in content and content.rstrip().endswith("[1]")
    assert len(citations) == 1
    cited = citations[0]
    assert cited["n"] == 1
    assert cited["document"] == "Condiciones generales auto.pdf"
    assert (cited["page"], cited["heading"]) == (2, "Cláusula 4 · Cobertura todo riesgo")
    assert "accidente, incendio o robo" in cited["snippet"]
    assert 0 < cited["score"] <= 1 and cited["url"] is None and cited["document_id"]


def test_the_version_decides_which_knowledge_is_searched(
    client: TestClient, tenant: Tenant
) -> None:
    _attach_policy(tenant, publish_it=False)
    production = _chat(client, tenant.production_key, tenant.agent_slug, QUESTION)
    assert production["sherlock"]["citations"] == []
    draft = _chat(client, tenant.draft_key, tenant.agent_slug, QUESTION)
    assert draft["sherlock"]["citations"][0]["page"] == 2


def test_streaming_brings_citations_in_the_last_chunk(client: TestClient, tenant: Tenant) -> None:
    _attach_policy(tenant, publish_it=True)
    lines = stream_lines(client, tenant.production_key, tenant.agent_slug, QUESTION)
    chunks = [json.loads(line[6:]) for line in lines if line != "data: [DONE]"]
    text = "".join(c["choices"][0]["delta"].get("content") or "" for c in chunks if c["choices"])
    assert "[1]" in text
    assert chunks[-1]["sherlock"]["citations"][0]["heading"] == "Cláusula 4 · Cobertura todo riesgo"


def test_nothing_relevant_gives_the_no_answer_reply_without_citations(
    client: TestClient, tenant: Tenant
) -> None:
    _attach_policy(tenant, publish_it=True)
    body = _chat(
        client, tenant.production_key, tenant.agent_slug, "¿Cuál es la capital de Australia?"
    )
    assert body["choices"][0]["message"]["content"] == Replies().no_answer
    assert body["sherlock"]["citations"] == []


def _turn(tenant: Tenant, kb_ids: list[str], message: str) -> Turn:
    # a draft turn: the draft reads its bases' documents as uploaded (no publish needed)
    request = TurnRequest(
        workspace_id=tenant.workspace_id, agent_id=tenant.agent_id, message=message, env="draft"
    )
    config = AgentConfig(knowledge_bases=kb_ids, top_k=3)
    return Turn(request, "run", config, 1, "conversation", True)


def test_retrieve_searches_only_the_turns_workspace(tenant: Tenant) -> None:
    kb_id = _attach_policy(tenant, publish_it=False)
    other = make_tenant(name="otra", slug="otro")
    with session_scope() as session:
        own = retrieve(session, _turn(tenant, [kb_id], QUESTION)).passages
        foreign = retrieve(session, _turn(other, [kb_id], QUESTION)).passages
    assert len(own) == 3 and own[0].heading == "Cláusula 4 · Cobertura todo riesgo"
    assert foreign == []


PASSAGES = [
    Passage(
        text="El Asegurado debe denunciar el siniestro dentro de los tres días hábiles de "
        "ocurrido. En caso de robo total, además debe presentar la denuncia policial.",
        document_id="d1",
        document="poliza.pdf",
        score=0.5,
        page=3,
        heading="Cláusula 6 · Denuncia del siniestro",
    ),
    Passage(
        text="Los daños causados por granizo están cubiertos sin franquicia en garaje cerrado.",
        document_id="d1",
        document="poliza.pdf",
        score=0.5,
        page=3,
        heading="Cláusula 5 · Granizo",
    ),
]


@pytest.mark.parametrize(
    ("question", "expected", "cite"),
    [
        ("¿Cuántos días tengo para denunciar un siniestro?", "tres días hábiles", 1),
        ("¿Está cubierto el granizo si el auto está en el garaje?", "granizo", 2),
    ],
)
def test_compose_answers_in_the_passages_words_citing_each_sentence(
    question: str, expected: str, cite: int
) -> None:
    answer = compose(ModelRequest(instructions="", message=question, passages=PASSAGES))
    assert expected in answer
    assert answer.endswith(f"[{cite}]")
    sentences = [s for s in answer.split(f"[{cite}]") if s.strip()]
    assert all(any(s.strip() in p.text for p in PASSAGES) for s in sentences)


def test_compose_is_deterministic() -> None:
    request = ModelRequest(
        instructions="", message="¿Qué plazo hay para denunciar?", passages=PASSAGES
    )
    assert compose(request) == compose(request)


def test_compose_without_relevant_passages_gives_the_configured_reply() -> None:
    # Retrieval scores unrelated passages about 0.1 (no shared terms, low cosine).
    unrelated = [dataclasses.replace(p, score=0.1) for p in PASSAGES]
    request = ModelRequest(
        instructions="",
        message="¿Quién ganó el mundial de 1986?",
        passages=unrelated,
        no_answer="Eso no figura en la póliza.",
    )
    assert compose(request) == "Eso no figura en la póliza."
