"""Chooses the lens for a question (English, Spanish, Portuguese) and says why.

Four kinds of question: ``impact`` (what a change affects, who depends on something),
``troubleshoot`` (a symptom to diagnose), and two kinds answered by the qa lens: ``fact``
(it names something of the code base: a program, field, file, transaction…) and
``business`` (it names nothing of the code, only what the system does; retrieval by
meaning matters most). Reading or writing something is a fact ("which paragraph reads the
user security file"), calling or using it is a dependency (impact).
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass

from vigia.language import fold
from vigia.worlds.answer.names import code_like

IMPACT = [
    (r"\bimpact\w*|\bimpacto\w*", "it asks about impact"),
    (r"\bwhat (?:changes|breaks|happens|is affected)\b.*\bif\b", "it asks what changes if"),
    (
        r"\bif (?:we|i|you|someone) (?:change|modify|remove|rename|alter|resize|delete)"
        r"|\bsi (?:cambio|cambiamos|modifico|modificamos|elimino|borro|altero|renombro"
        r"|se cambia|se modifica)\b"
        r"|\bse (?:eu )?(?:mudar|alterar|modificar|remover|apagar|renomear|mudo|altero)\b"
        r"|\bse .{1,60}\b(?:mudar|mudarem|for alterad\w*|for modificad\w*)\b",
        "it describes a change",
    ),
    (
        r"\b(?:who|what|which(?: \w+)?) (?:calls?|uses?|performs?|copies|copy|"
        r"references?|depends? on|includes?|invokes?)\b|\b(?:who|what) runs?\b"
        r"|\b(?:que|cual|cuales|quien|quienes)(?: programas?| parrafos?)?(?: lo| la| los| las)?"
        r" (?:llama|llaman|invoca|invocan|usa|usan|utiliza|utilizan|incluye|incluyen)\b"
        r"|\b(?:quem|que|qual|quais)(?: programas?)?(?: o| a| os| as)?"
        r" (?:chama|chamam|invoca|invocam|usa|usam|utiliza|utilizam|inclui|incluem)\b",
        "it asks what depends on something",
    ),
    (
        r"\b(?:callers?|chamador\w*|llamador\w*|affected|afectad\w*|afetad\w*|depends? on|"
        r"depende de|ripple|blast radius|where is .+ used|recompil\w*|volver a ejecutar|"
        r"re-?run|executar novamente)\b",
        "it asks for dependants",
    ),
]
TROUBLESHOOT = [
    (
        r"\b(?:wrong|incorrect\w*|bad|fails?|failing|failed|abends?|abended|crash\w*|bug|"
        r"broken|not working|too (?:high|low|much)|negative|missing|mismatch|symptom|s0c\d|"
        r"is zero|are zero|returns zero|off by|doesn't|does not|never|instead of|shows|"
        r"where should i look|"
        r"falla\w*|fallo|incorrect[oa]s?|nunca|en lugar de|en vez de|no funciona|devuelve|"
        r"se cae|donde esta el problema|donde debo mirar|"
        r"falha\w*|errad[oa]s?|incorret[oa]s?|em vez de|ao inves de|nao funciona|responde|"
        r"onde olhar|onde esta o problema|sob carga)\b",
        "it describes a symptom",
    ),
    (r"\b(?:why (?:is|does|do|did|are)|por que|por qu[eé])\b", "it asks why something happens"),
    (
        r"\b(?:returns?|returning|gives?|gets?|got|answers?|ends?|sets?|devuelve\w*|retorna\w*"
        r"|da|dá|responde\w*|termina\w*)\b[^.?!]{0,30}\b(?:return |error |status |abend )?"
        r"(?:code|rc|codigo(?: de (?:retorno|error|erro))?|sqlcode|resp)\s*'?-?\d{1,4}\b"
        r"|\b(?:abend\w*|abends?|abended)\b[^.?!]{0,20}\b[a-z0-9]{4}\b"
        r"|\b(?:return code|codigo de retorno|codigo de error|codigo de erro|sqlcode)\s*'?-?\d"
        r"|\bwhy\s*\?",
        "it reports a return code or abend code",
    ),
    (
        r"\b(?:says?|saying|displays?|shows?|appears?|aparece\w*|muestra\w*|mostra\w*|exibe\w*"
        r"|sale|dice|diz|recibo|recebo|get|getting|message|mensaje|mensagem)\b[^.?!]{0,40}"
        r"[\"'“‘«][^\"'”’»]{3,80}[\"'”’»]",
        "it quotes a message on the screen",
    ),
]


@dataclass(frozen=True)
class Route:
    """The chosen lens, the kind of question and a human reason."""

    lens: str
    reason: str
    kind: str = "fact"


def choose_lens(message: str, named: Collection[str] | None = None) -> Route:
    """``impact`` for change and dependency questions, ``troubleshoot`` for symptoms,
    ``qa`` otherwise (``fact`` when the question names something of the code base —
    ``named``, else anything written like a code name — ``business`` when it does not)."""
    text = fold(message)
    # Names such as TX-BAD-STATE or ERR-CODE say nothing about the kind of question.
    plain = re.sub(r"\b[\w]+(?:-[\w]+)+\b", " ", text)
    for pattern, why in IMPACT:
        match = re.search(pattern, plain)
        if match:
            return Route("impact", f"impact: {why} (matched “{match.group(0)}”)", "impact")
    for pattern, why in TROUBLESHOOT:
        match = re.search(pattern, plain)
        if match:
            reason = f"troubleshoot: {why} (matched “{match.group(0)}”)"
            return Route("troubleshoot", reason, "troubleshoot")
    names = sorted(named) if named is not None else sorted(code_like(message))
    if names:
        shown = ", ".join(names[:3])
        return Route("qa", f"qa: a question about facts of {shown}; no change or symptom", "fact")
    return Route(
        "qa",
        "qa: a business question (it names no program, field or file): searched by meaning",
        "business",
    )
