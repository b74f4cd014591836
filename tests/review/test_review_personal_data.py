"""The output-review API shares the output checks: personal data written to slip past them
(a DNI with its letter, a NIE, a CNPJ, a card split by zero-width spaces, an e-mail cut
after its at-sign) is rejected with its kind named in the feedback."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tests.conftest import Tenant, make_tenant
from tests.review.test_output_review import INSTRUCTIONS, body, review, set_guardrails


@pytest.fixture
def external() -> Tenant:
    return make_tenant(
        name="tienda", slug="bot-externo", instructions=INSTRUCTIONS, kind="external"
    )


@pytest.mark.parametrize(
    ("reply", "named"),
    [
        ("El titular anterior tiene el DNI 12345678Z.", "DNI"),
        ("El titular anterior tiene el NIE X1234567L.", "NIE"),
        ("A loja anterior tem o CNPJ 11.222.333/0001-81.", "CNPJ"),
        ("La tarjeta anterior es 4111\u200b1111\u200b1111\u200b1111.", "cartão"),
        ("Escribile al titular anterior a juan.perez@. example.com hoy.", "e-mail"),
    ],
)
def test_personal_data_that_slipped_past_the_check_is_rejected(
    client: TestClient, external: Tenant, reply: str, named: str
) -> None:
    set_guardrails(external, grounding="off")
    out = review(client, external, body(reply))
    assert out["triggered"] == ["personal_data"] and out["action"] == "retry"
    assert named in out["considerations"]["feedback"]["problemas"][0]


def test_a_reply_with_ordinary_numbers_is_approved(client: TestClient, external: Tenant) -> None:
    set_guardrails(external, grounding="off")
    out = review(client, external, body("Tu pedido 12345678A sale el 17/05/2024 por 1.234,56 €."))
    assert out["verdict"] == "approved" and out["triggered"] == []
