"""Hand-written signs of prompt injection and jailbreaks in Spanish, Portuguese and English.

Each pattern runs on accent-folded, lower-cased text and names one attack family. They are
deliberately narrow: a trigger word alone ("ignora", "instrucciones", "sistema") is not an
attack; the pattern needs the word aimed at the assistant's own rules, prompt or role.
The classifier in ``injection.py`` uses the number of families matched as features.
"""

from __future__ import annotations

import base64
import binascii
import re

from vigia.language import fold

_RULES = (
    r"(?:instruc\w*|regras?|reglas?|rules?|directiv\w*|diretriz\w*|guidelines?|prompt\w*"
    r"|restricc\w*|restric\w*|restrictions?|politicas?|policies|policy|programac\w*"
    r"|programming|orient\w*|indicac\w*|consignas?|limit\w*|filtros?|filters?|guardrails?"
    r"|configurac\w*|configuration|system)"
)
_YOUR = (
    r"(?:tus|sus|suas|seus|teus|tuas|your|todas (?:tus |sus |las |as )?"
    r"|todos (?:tus |sus |los |os )?|all (?:of )?(?:your |the |previous |prior )?|any|previous"
    r"|prior|above|earlier)"
)
_BEFORE = (
    r"(?:anteriores?|previas?|previos?|de arriba|iniciales?|originales?|originais|above|previous"
    r"|prior|earlier|original|initial|acima)"
)
_OVERRIDE_VERB = (
    r"\b(?:ignor[ae]\w*|olvid[ae]\w*|olvidate|esquec[ae]\w*|esqueca|forget|disregard"
    r"|desconsider\w*|descart[ae]\w*|omit[ae]\w*|pasa por alto|pass[ae] por cima|override"
    r"|anul[ae]\w*"
    r"|bypass\w*|salt[ae]\w*|pul[ae]\w*|skip|desobedec\w*|desobedeca|disobey|romp[ae]\w*"
    r"|quebr[ae]\w*|break|no (?:hagas|sigas) caso|nao (?:obedeca|siga)|don't follow|do not follow"
    r"|deja de lado"
    r"|dej[aá] de lado|deixe de lado|put \w+ \w+ aside)"
)

FAMILIES: dict[str, re.Pattern[str]] = {
    "override": re.compile(
        rf"{_OVERRIDE_VERB}\W+(?:\w+\W+){{0,4}}?{_YOUR}\W*(?:\w+\W+){{0,2}}?{_RULES}"
        rf"|{_OVERRIDE_VERB}\W+(?:\w+\W+){{0,3}}?{_RULES}\W+(?:\w+\W+){{0,1}}?{_BEFORE}\b"
        r"|\b(?:ignor\w*|olvid\w*|esquec\w*|forget|disregard) (?:todo|tudo|everything)"
        r" (?:lo anterior|lo que te (?:dijeron|pidieron)|o que te (?:disseram|pediram)|above|before"
        r"|you were told)"
    ),
    "override_before": re.compile(
        rf"\b{_RULES}\W+(?:\w+\W+){{0,2}}?{_BEFORE}\b.{{0,40}}\b(?:ya no|no (?:aplican|valen"
        r"|cuentan|existen)|nao (?:valem|contam|se aplicam|existem)|no longer|don't (?:apply|count)"
        r"|do not apply|obsolet\w*|ignor\w*)"
        rf"|\b{_BEFORE} {_RULES} (?:ya no|no longer|don't|do not|nao|no) (?:\w+ )?(?:apply|count"
        r"|aplican|cuentan|valen|valem|contam|matter|importan|importam)"
        r"|\b(?:bypass|evade|circumvent|saltea\w*|saltate|salta|pul[ae]|burl[ae]\w*|evit[ae]"
        r"|esquiv\w*)"
        r" (?:las |los |as |os |the |tus |your |suas |seus )?(?:restricc\w*|restric\w*|restrictions"
        r"|filtros|filters|guardrails|controles|controls|safety|seguridad|seguranca)"
        rf"|\b(?:tus|sus|suas|seus|your) {_RULES} (?:no|nao|don't|do not) (?:existen|existem|exist"
        r"|aplican|se aplicam|apply|cuentan|valem|count)"
    ),
    "system_message": re.compile(
        r"\b(?:system message|system prompt|developer message|mensaje (?:de|del) sistema"
        r"|mensagem (?:de|do) sistema|prompt (?:de|del|do) sistema|instruc\w* (?:de|del|do) sistema"
        r"|(?:instruc\w*|reglas|regras|rules|directivas|diretrizes) (?:secret\w*|ocult\w*"
        r"|escondid\w*"
        r"|intern\w*|hidden|internal)|(?:secret|hidden|internal) (?:instructions|rules|directives"
        r"|guidelines)|(?:tu|su|seu|your) prompt|(?:primera|primeira) instruc\w* que (?:recibiste"
        r"|recebeu|te dieron"
        r"|te deram)|first instruction you (?:got|received|were given))"
    ),
    "persona": re.compile(
        r"\b(?:you are now|from now on you|a partir de ahora (?:sos|eres|seras|actuaras|vas a)"
        r"|de agora em diante (?:voce|vc|tu)|agora voce e|ahora (?:sos|eres)|pretend (?:to be|you)"
        r"|fing[ei] que (?:sos|eres|no tenes|no tienes|tus)|finja que (?:voce|vc|e|nao tem|suas)"
        r"|finja ser|finge ser|haz de cuenta que (?:sos|eres)|faz de conta que (?:voce|e)"
        r"|make believe you|act as (?:an? )?(?:unfiltered"
        r"|uncensored|evil|jailbroken|dan)|actua como (?:un )?(?:\w+ )?(?:sin (?:filtros|restricc))"
        r"|(?:are|sos|eres|es|e|como|as|called|llamad[oa]|chamad[oa]|modo|mode) dan\b|\bdan mode"
        r"|do anything now|developer mode|modo (?:desarrollador|desenvolvedor|dios|sin "
        r"restricciones|sem restricoes|libre|livre)|god mode|jailbr\w*|sin (?:ninguna )?"
        r"(?:restriccion|censura|filtro)\w*|sem (?:nenhuma )?(?:restric|censura|filtro)\w*"
        r"|without (?:any )?(?:restrictions|filters|censorship|rules|limits)"
        r"|(?:sin|sem|no|with no) (?:filtros?|filters?) (?:ni|nem|or|y|e|and) (?:restricc\w*"
        r"|restric\w*|restrictions|limites|limits)|(?:ia|ai|modelo|model) (?:sin|sem|with no"
        r"|without) (?:limites|limits)|(?:limitless|unrestricted|unfiltered|uncensored)"
        r" (?:ai|mode|model|assistant)|modo sin restricc\w*|modo sem restric\w*)\b"
    ),
    "extraction": re.compile(
        r"\b(?:revel\w*|mostr\w*|muestr\w*|reveal|show|print|imprim\w*|dime|decime|diz|diga"
        r"|tell me|repeat|repet\w*|copia\w*|copy|output|escrib\w*|escrev\w*|write|list\w*"
        r"|traduc\w*|traduz\w*|translate|resum\w*|summari[sz]e|dump|exib\w*|compart\w*|share)"
        r"\W+(?:\w+\W+){0,5}?(?:system prompt|prompt (?:de|do|del) sistema|prompt inicial"
        r"|initial prompt|hidden prompt|your prompt|tu prompt|seu prompt|(?:tus|sus|suas|seus"
        r"|your|teus|tuas) (?:\w+ )?(?:instruc\w*|reglas|regras|rules|directivas|diretrizes"
        r"|configurac\w*|guidelines)(?: (?:ocult\w*|secret\w*|intern\w*|hidden|system|de sistema"
        r"|del sistema|do sistema|originales?|originais|completas?|initial|iniciales?))?"
        r"|(?:everything|todo|tudo) (?:above|lo anterior|acima)|the text above"
        r"|el texto (?:de )?arriba"
        r"|o texto acima)"
    ),
    "fake_markup": re.compile(
        r"(?:<\|?(?:im_start|im_end|system|endoftext)\|?>|\[/?(?:system|inst|admin)\]|###\s*"
        r"(?:system|instruction|new instructions?|nuevas instrucciones|novas instrucoes)"
        r"|(?:^|\n)\W*(?:system|sistema|assistant|asistente|assistente)\s*:.{0,60}\b(?:usuario"
        r"|user|you|vos|tu|voce|must|debe\w*|deve\w*|new|nuev\w*|nov\w*|ignor\w*|now|ahora|agora"
        r"|permis\w*|permiss\w*|acceso|acesso|access|politica|policy|ordem|orden|order)\b"
        r"|end of (?:system )?prompt|fin del prompt"
        r"|---\s*(?:new|nuevas?|novas?) (?:instructions|instrucciones|instrucoes))"
    ),
    "authority": re.compile(
        r"\b(?:soy|sou|i am|i'm|como)\W+(?:\w+\W+){0,2}?(?:tu |seu |your |el |o |the )?"
        r"(?:administrador|admin|desarrollador|desenvolvedor|developer|creador|criador|creator"
        r"|programador|programmer|ingeniero de openai|openai|anthropic|dueno|dono|owner)\b"
        r".{0,80}\b(?:desactiv\w*|desativ\w*|disable|deshabilit\w*|quit\w*|remov\w*|tira|turn off"
        r"|apag\w*|sin|sem|without|ignor\w*|autoriz\w*|authoriz\w*|permit\w*|override|revel\w*)"
    ),
    "refusal_suppression": re.compile(
        r"\b(?:no (?:digas|me digas|respondas) que no (?:podes|puedes)|nunca (?:te niegues"
        r"|digas que no)"
        r"|nao (?:diga|me diga) que nao (?:pode|consegue)|never refuse|do not refuse|don't refuse"
        r"|never say (?:you can't|you cannot|no)|you (?:cannot|can't|must not) refuse"
        r"|no (?:podes|puedes) negarte|nao pode (?:se )?recusar|sin advertencias|sem avisos"
        r"|without (?:warnings|disclaimers))"
    ),
    "indirect": re.compile(
        r"\b(?:(?:ai|ia) (?:assistant|asistente|assistente)|(?:asistente|assistente|assistant"
        r"|modelo"
        r"|model|bot|chatbot|llm)) (?:que (?:lea|leia|procese|processe)|reading|that reads"
        r"|processing)"
        r"|\bnote to (?:the )?(?:ai|assistant|model)|\bnota (?:para|al?) (?:la |o )?(?:ia|asistente"
        r"|assistente|modelo)|instruc\w* (?:ocultas?|escondidas?)|hidden instructions?"
    ),
}


def families(text: str) -> list[str]:
    """The attack families whose pattern matches ``text`` (or its decoded base64 parts)."""
    folded = fold(text)
    found = [name for name, pattern in FAMILIES.items() if pattern.search(folded)]
    decoded = _decoded_base64(text)
    if decoded:
        inner = fold(decoded)
        found += [f"encoded_{n}" for n, p in FAMILIES.items() if p.search(inner)]
    if _spaced_letters(folded):
        found.append("obfuscated")
    return found


def _decoded_base64(text: str) -> str:
    parts = []
    for blob in re.findall(r"[A-Za-z0-9+/]{16,}={0,2}", text):
        try:
            raw = base64.b64decode(blob + "=" * (-len(blob) % 4), validate=True)
            decoded = raw.decode("utf-8")
        except (binascii.Error, UnicodeDecodeError, ValueError):
            continue
        if decoded.isprintable():
            parts.append(decoded)
    return " ".join(parts)


_SPACED = re.compile(r"\b(?:\w[ ._*-]){5,}\w\b")


def _spaced_letters(folded: str) -> bool:
    """Words spelled with separators between letters ("i g n o r a") to dodge filters."""
    for match in _SPACED.finditer(folded):
        joined = re.sub(r"[ ._*-]", "", match.group(0))
        if not joined.isdigit() and any(
            key in joined for key in ("ignor", "instruc", "prompt", "regla", "regra", "rule")
        ):
            return True
    return False
