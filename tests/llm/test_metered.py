"""The metering wrapper on the ``Model`` protocol: every call lands in the ledger, with the
usage the provider reported or, when it reports none, an estimate; also a call whose reader
stops early."""

from __future__ import annotations

from collections.abc import Iterator

from vigia.llm.function import replying
from vigia.llm.metered import MeteredModel, UsageLedger, metered
from vigia.llm.protocol import ModelEvent, ModelRequest, TextChunk, Usage
from vigia.llm.settings import ModelSettings
from vigia.llm.tokens import prompt_tokens

REQUEST = ModelRequest(
    instructions="Answer briefly.",
    message="What calls CALC-TAX?",
    settings=ModelSettings(provider="openai", name="gpt-4o", base_url="http://up.test/v1"),
)


class Silent:
    """A provider that reports no usage."""

    name = "silent"

    def stream(self, request: ModelRequest) -> Iterator[ModelEvent]:
        yield TextChunk("PAYCALC ")
        yield TextChunk("performs it.")


def test_reported_usage_is_recorded_under_the_configured_model() -> None:
    ledger = UsageLedger()
    model = MeteredModel(replying("PAYCALC performs it."), ledger, "worlds_prose")
    text = "".join(e.text for e in model.stream(REQUEST) if isinstance(e, TextChunk))
    assert text == "PAYCALC performs it."
    (call,) = ledger.calls
    assert (call.purpose, call.model) == ("worlds_prose", "gpt-4o")
    assert call.usage == Usage(prompt_tokens(REQUEST), call.usage.completion_tokens)
    assert ledger.prompt_tokens == prompt_tokens(REQUEST) and ledger.completion_tokens > 0
    assert ledger.models == ["gpt-4o"]


def test_a_provider_without_usage_is_estimated() -> None:
    ledger = UsageLedger()
    assert MeteredModel(Silent(), ledger, "judge").complete(REQUEST) == "PAYCALC performs it."
    (call,) = ledger.calls
    assert call.usage.prompt_tokens == prompt_tokens(REQUEST)
    assert call.usage.completion_tokens > 0


def test_a_call_read_only_in_part_is_still_recorded() -> None:
    ledger = UsageLedger()
    stream = MeteredModel(Silent(), ledger, "judge").stream(REQUEST)
    assert next(stream) == TextChunk("PAYCALC ")
    stream.close()  # type: ignore[attr-defined]
    (call,) = ledger.calls
    assert call.usage.completion_tokens > 0


def test_without_a_ledger_the_model_is_unchanged() -> None:
    model = replying("x")
    assert metered(model, None, "judge") is model
    assert isinstance(metered(model, UsageLedger(), "judge"), MeteredModel)
