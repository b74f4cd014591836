"""The engine seams: input verdicts on the message, output verdicts per sentence."""

from __future__ import annotations

from vigia.agents.schemas import AgentConfig
from vigia.engine.turn import Turn, TurnRequest
from vigia.guardrails import hooks
from vigia.guardrails.config import GuardrailsConfig
from vigia.llm.protocol import Passage


def turn(message: str, guardrails: GuardrailsConfig | None = None, run_id: str = "r1") -> Turn:
    config = AgentConfig(
        instructions="Sos un asistente de seguros.",
        guardrails=guardrails or GuardrailsConfig(),
    )
    passage = Passage(
        text="La póliza de hogar cubre incendio y robo.",
        document_id="d1",
        document="hogar.md",
        score=1.0,
    )
    return Turn(TurnRequest("w", "a", message), run_id, config, 1, "c", True, passages=[passage])


def test_check_input_reports_each_input_check() -> None:
    verdicts = hooks.check_input(turn("¿Qué cubre la póliza de hogar?"))
    assert [v.name for v in verdicts] == ["length", "injection"]
    assert all(v.passed for v in verdicts)


def test_output_sentence_supported_by_a_passage_passes_with_its_citation_marker() -> None:
    t = turn("¿Qué cubre?", run_id="r-supported")
    verdicts = hooks.check_output_sentence(t, "La póliza de hogar cubre incendio y robo [1].", "")
    assert verdicts and all(v.passed for v in verdicts)


def test_output_sentence_with_unsupported_figures_or_personal_data_fails() -> None:
    t = turn("¿Qué cubre?", run_id="r-failing")
    fired = {
        v.name
        for v in hooks.check_output_sentence(t, "Llamá al +54 9 11 4567-8901 por $5.000.", "")
        if not v.passed
    }
    assert fired == {"personal_data", "grounding"}


def test_no_output_checks_run_when_all_are_off() -> None:
    off = GuardrailsConfig(grounding="off", personal_data="off", topics="off")
    assert hooks.check_output_sentence(turn("x", off), "Escribí a ana@mail.com.", "") == []
