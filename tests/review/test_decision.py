"""Every row of the spec's action table, from the verdicts of the output checks."""

from __future__ import annotations

import pytest

from vigia.guardrails.verdict import GroundingDetail, Verdict
from vigia.review.decision import decide


def grounding(unsupported: list[str], uncertain: list[str]) -> GroundingDetail:
    return {"unsupported": unsupported, "uncertain": uncertain, "reasons": [], "judge": "embedded"}


CLEAN = Verdict("grounding", passed=True, detail=grounding([], []))
UNCERTAIN = Verdict("grounding", passed=True, detail=grounding([], ["x"]))
GRAVE = Verdict(
    "grounding",
    passed=False,
    blocking=True,
    severity="grave",
    detail=grounding(["Abrimos el domingo."], []),
)
LEVE = Verdict(
    "grounding",
    passed=False,
    blocking=True,
    severity="leve",
    detail=grounding(["Trabajamos con telas de Italia."], []),
)
LOGGED = Verdict(
    "personal_data",
    passed=False,
    blocking=False,
    severity="grave",
    detail={"kinds": ["email"], "sentences": ["Escribí a ana@mail.com."]},
)


@pytest.mark.parametrize(
    ("verdicts", "attempt", "active", "verdict", "action"),
    [
        ([CLEAN], 1, True, "approved", "send"),
        ([CLEAN], 2, True, "approved", "send"),
        ([UNCERTAIN], 1, True, "uncertain", "send"),
        ([UNCERTAIN], 2, True, "uncertain", "send"),
        ([LOGGED], 1, True, "rejected", "send"),
        ([LOGGED], 2, True, "rejected", "send"),
        ([], 2, False, "approved", "send"),
        ([GRAVE], 1, True, "rejected", "retry"),
        ([LEVE], 1, True, "rejected", "retry"),
        ([LEVE], 2, True, "rejected", "send_with_tag"),
        ([GRAVE], 2, True, "rejected", "hold"),
        ([LEVE, LOGGED], 2, True, "rejected", "send_with_tag"),
    ],
)
def test_action_table(
    verdicts: list[Verdict], attempt: int, active: bool, verdict: str, action: str
) -> None:
    decision = decide(verdicts, attempt, active)
    assert (decision.verdict, decision.action) == (verdict, action)


def test_considerations_name_the_unsupported_claims_and_each_fired_guardrail() -> None:
    decision = decide([GRAVE, LOGGED], 1, True)
    assert decision.triggered == ["grounding", "personal_data"]
    assert decision.severity == "grave"
    assert len(decision.considerations.fixed) == 2
    assert decision.considerations.feedback.afirmacoes_sem_base == ["Abrimos el domingo."]
    assert "e-mail" in decision.considerations.feedback.problemas[1]
