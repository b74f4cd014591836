"""From guardrail verdicts to the review's verdict, severity, action and considerations.

The action follows the spec's table:

| outcome                                                        | attempt 1 | attempt 2      |
|----------------------------------------------------------------|-----------|----------------|
| approved, uncertain, only ``log`` checks fired, no output check | send      | send           |
| rejected by a ``block`` check, severity ``leve``               | retry     | send_with_tag  |
| rejected by a ``block`` check, severity ``grave``              | retry     | hold           |

Guidance texts are in Portuguese, like the spec's ``considerations`` keys and example.
"""

from __future__ import annotations

from dataclasses import dataclass

from vigia.guardrails.verdict import Severity, Verdict
from vigia.review.schemas import Action, Considerations, Feedback
from vigia.review.schemas import Verdict as ReviewVerdict

FIXED = {
    "grounding": "A resposta afirma algo que não está nas instruções.",
    "personal_data": "A resposta contém dados pessoais que não podem ser enviados ao contato.",
    "topics": "A resposta trata de um tema bloqueado para este agente.",
}
GUIDANCE = {
    "grounding": (
        "Use apenas o que está nas instruções e nas fontes; se a informação não estiver lá, "
        "diga que não tem essa informação ou ofereça falar com a equipe."
    ),
    "personal_data": "Remova da resposta e-mails, telefones, cartões e documentos de terceiros.",
    "topics": "Não trate do tema bloqueado; volte ao que o agente atende.",
}
KIND_NAMES = {
    "email": "e-mail",
    "phone": "telefone",
    "card": "cartão",
    "dni": "DNI",
    "cuit": "CUIT/CUIL",
    "cpf": "CPF",
    "cnpj": "CNPJ",
    "nie": "NIE",
    "rut": "RUT",
}


@dataclass(frozen=True)
class Decision:
    verdict: ReviewVerdict
    triggered: list[str]
    severity: Severity | None
    action: Action
    considerations: Considerations


def _severity(verdicts: list[Verdict]) -> Severity | None:
    if not verdicts:
        return None
    return "grave" if any(v.severity == "grave" for v in verdicts) else "leve"


def _unsupported(v: Verdict) -> list[str]:
    """The grounding check's unsupported sentences (none for another check)."""
    if "unsupported" in v.detail:
        return v.detail["unsupported"]
    return []


def _uncertain(v: Verdict) -> list[str]:
    if "uncertain" in v.detail:
        return v.detail["uncertain"]
    return []


def _kinds(v: Verdict) -> list[str]:
    if "kinds" in v.detail:
        return v.detail["kinds"]
    return []


def _topics(v: Verdict) -> list[str]:
    if "topics" in v.detail:
        return v.detail["topics"]
    return []


def _problem(v: Verdict) -> str:
    if v.name == "grounding":
        count = len(_unsupported(v))
        return f"{count} afirmação(ões) sem base nas instruções ou nas fontes."
    if v.name == "personal_data":
        kinds = [KIND_NAMES.get(k, k) for k in _kinds(v)]
        return f"Dados pessoais na resposta: {', '.join(kinds)}."
    if v.name == "topics":
        return f"Tema bloqueado: {', '.join(_topics(v))}."
    return v.reason


def decide(verdicts: list[Verdict], attempt: int, any_check: bool) -> Decision:
    """The review for ``verdicts`` of the output checks that ran on attempt ``attempt``."""
    fired = [v for v in verdicts if not v.passed]
    blocking = [v for v in fired if v.blocking]
    uncertain = any(_uncertain(v) for v in verdicts if v.passed)
    if fired:
        verdict: ReviewVerdict = "rejected"
    elif uncertain:
        verdict = "uncertain"
    else:
        verdict = "approved"
    severity = _severity(blocking or fired)
    action: Action = "send"
    if blocking and any_check and attempt == 1:
        action = "retry"
    elif blocking and any_check:
        action = "hold" if severity == "grave" else "send_with_tag"
    unsupported: list[str] = []
    for v in fired:
        if v.name == "grounding":
            unsupported += _unsupported(v)
    considerations = Considerations(
        fixed=[FIXED[v.name] for v in fired if v.name in FIXED],
        feedback=Feedback(
            problemas=[_problem(v) for v in fired],
            afirmacoes_sem_base=unsupported,
            orientacao=" ".join(GUIDANCE[v.name] for v in fired if v.name in GUIDANCE),
        ),
    )
    return Decision(verdict, [v.name for v in fired], severity, action, considerations)
