"""The demo a newcomer gets: ``vigia demo`` loads sample knowledge, and its
``sample_question`` is answered with a citation through the real ``openai`` SDK.

End to end with the real embedded models (the answer's text matters here).
"""

from __future__ import annotations

from pathlib import Path

from openai import OpenAI

from tests.cli.test_cli import vigia
from vigia.demo import GREETING, SAMPLES


def test_sample_question_is_answered_with_a_citation(data_dir: Path, live_server: str) -> None:
    demo = vigia("demo")
    question = demo["sample_question"]
    assert isinstance(question, str) and question
    client = OpenAI(
        base_url=f"{live_server}/v1", api_key=str(demo["production_key"]), max_retries=0
    )
    completion = client.chat.completions.create(
        model=str(demo["agent"]), messages=[{"role": "user", "content": question}]
    )
    text = completion.choices[0].message.content or ""
    sherlock = (completion.model_extra or {})["sherlock"]
    assert sherlock["status"] == "ok"
    assert "[1]" in text and sherlock["citations"]
    assert sherlock["citations"][0]["document"].endswith((".md", ".pdf"))


def test_a_greeting_gets_the_demo_greeting_with_the_sample_question(
    data_dir: Path, live_server: str
) -> None:
    demo = vigia("demo")
    client = OpenAI(
        base_url=f"{live_server}/v1", api_key=str(demo["production_key"]), max_retries=0
    )
    completion = client.chat.completions.create(
        model=str(demo["agent"]), messages=[{"role": "user", "content": "Hola, buenas tardes"}]
    )
    text = completion.choices[0].message.content or ""
    assert (completion.model_extra or {})["sherlock"]["status"] == "ok"
    assert text == GREETING and str(demo["sample_question"]) in text


def test_demo_loads_its_sample_knowledge_once(data_dir: Path) -> None:
    vigia("demo")
    again = vigia("demo")
    listing = vigia("knowledge", "list", "--workspace", str(again["workspace"]))
    bases = listing["knowledge_bases"]
    assert isinstance(bases, list) and len(bases) == 1
    names = sorted(d["name"] for d in bases[0]["document_list"])
    assert names == sorted(p.name for p in SAMPLES.iterdir())


def test_demo_prints_a_console_owner_whose_password_changes_each_run(data_dir: Path) -> None:
    from fastapi.testclient import TestClient

    from tests.console.helpers import csrf_of
    from vigia.app import create_app

    first = vigia("demo")
    demo = vigia("demo")
    assert demo["console_url"] == "http://127.0.0.1:8000/console"
    assert demo["console_user"] == "demo" and demo["console_password"] != first["console_password"]
    with TestClient(create_app()) as client:
        token = csrf_of(client)
        for password, status in ((first["console_password"], 401), (demo["console_password"], 303)):
            response = client.post(
                "/console/login",
                data={"username": "demo", "password": str(password), "csrf": token},
                follow_redirects=False,
            )
            assert response.status_code == status
        agents = client.get(f"/console/w/{demo['workspace_id']}/agents")
        assert "asistente-demo" in agents.text
