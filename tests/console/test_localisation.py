"""The console's vocabulary in the page's language: numbers with the language's separators,
validation messages from the catalogue (every pydantic error type the forms meet), trace
stages and outcomes by name, and the login throttle's wait as ``Retry-After`` says it."""

from __future__ import annotations

from datetime import UTC, datetime
from types import SimpleNamespace

from fastapi.testclient import TestClient
from pydantic import BaseModel, Field, ValidationError

from tests.conftest import Tenant
from tests.console.helpers import csrf_of, make_user
from vigia.console.catalogue import LANGUAGES, MESSAGES, translator
from vigia.console.field_errors import TYPE_KEYS, field_errors, message
from vigia.console.login import throttled
from vigia.console.numbers import format_number
from vigia.console.rendering import ENV
from vigia.console.vocabulary_texts import OUTCOMES, STAGES


def test_numbers_use_the_separators_of_the_language() -> None:
    assert format_number(1234.5, "es") == "1.234,5" and format_number(1234.5, "en") == "1,234.5"
    assert format_number(1_000_000, "es") == "1.000.000"
    assert format_number(0.25, "es", 4) == "0,2500" and format_number(2, "en", 2) == "2.00"
    template = ENV.from_string("{{ 1234.5 | number }} · {{ 0.5 | number(2) }}")
    assert template.render(lang="es") == "1.234,5 · 0,50"
    assert template.render(lang="en") == "1,234.5 · 0.50"


def test_every_validation_text_is_in_every_language() -> None:
    keys = {*TYPE_KEYS.values(), "invalid.value", "form.item", "form.invalid"}
    for lang in LANGUAGES:
        assert keys - MESSAGES[lang].keys() == set(), lang


class _Sample(BaseModel):
    count: int = Field(ge=1, le=5000)
    label: str = Field(max_length=3)
    kind: str = Field(pattern="^[a-z]+$")


def test_a_validation_error_becomes_a_message_per_field_in_each_language() -> None:
    try:
        _Sample.model_validate({"count": 9999, "label": "larga", "kind": "X"})
    except ValidationError as error:
        found = field_errors(error)
    assert set(found) == {"count", "label", "kind"}
    es, en = translator("es"), translator("en")
    assert message(found["count"][0], es, "es") == "Tiene que ser 5.000 o menos."
    assert message(found["count"][0], en, "en") == "It must be 5,000 or less."
    assert message(found["label"][0], es, "es") == "Como máximo 3 caracteres."
    assert message(found["kind"][0], en, "en") == "It has characters that are not allowed here."


def test_trace_stages_and_outcomes_have_labels_and_unknown_ones_show_as_they_are() -> None:
    for lang in LANGUAGES:
        assert all(f"stage.{s}" in MESSAGES[lang] for s in STAGES), lang
        assert all(f"outcome.{o}" in MESSAGES[lang] for o in OUTCOMES), lang
    template = ENV.from_string(
        "{{ label('stage.', 'retrieval') }} / {{ label('stage.', 'nueva') }}"
    )
    assert template.render(t=translator("es")) == "búsqueda de pasajes / nueva"


def test_a_transcript_trace_names_its_stages_in_spanish() -> None:
    moment = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)
    message_row = SimpleNamespace(
        id=1, role="assistant", created_at=moment, content="Hola", run_id="r", moderation=None
    )
    stage = SimpleNamespace(name="input_guardrails", duration_ms=1.5, outcome="blocked")
    run = SimpleNamespace(
        status="blocked",
        duration_ms=3.0,
        usage=SimpleNamespace(total_tokens=1234),
        cost_usd=0.0,
        model="mock",
        env="draft",
        version=1,
        channel="console",
        stages=[stage],
    )
    html = ENV.get_template("transcript_fragment.html").render(
        t=translator("es"), lang="es", messages=[message_row], runs={"r": run}
    )
    assert "<td>guardrails de entrada</td>" in html and "<td>bloqueado</td>" in html
    assert "input_guardrails" not in html and "1.234 tokens" in html


def test_the_throttle_message_says_the_wait_in_the_unit_retry_after_gives() -> None:
    assert throttled("1") == ("login.throttled_seconds", 1)
    assert throttled("90") == ("login.throttled_seconds", 90)
    assert throttled("121") == ("login.throttled_minutes", 3)
    assert throttled("900") == ("login.throttled_minutes", 15)


def test_a_throttled_login_says_the_seconds_of_its_retry_after(
    client: TestClient, tenant: Tenant
) -> None:
    make_user("ana", tenant.workspace_id, "owner")
    token = csrf_of(client)
    for _ in range(10):
        refused = client.post(
            "/console/login", data={"username": "ana", "password": "mal", "csrf": token}
        )
        if refused.status_code == 429:
            break
    assert refused.status_code == 429
    wait = refused.headers["Retry-After"]
    assert f"Probá de nuevo en {wait} s." in refused.text and "minutos" not in refused.text
