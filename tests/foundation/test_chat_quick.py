from fastapi.testclient import TestClient

from tests.conftest import Tenant


def test_chat_answers_from_instructions(client: TestClient, tenant: Tenant) -> None:
    r = client.post(
        "/v1/chat/completions",
        headers={"Authorization": f"Bearer {tenant.production_key}"},
        json={"model": tenant.agent_slug, "messages": [{"role": "user", "content": "¿Atienden de lunes a viernes?"}]},
    )
    assert r.status_code == 200, r.text
    body = r.json()
    print(body)
    assert "lunes a viernes" in body["choices"][0]["message"]["content"]
