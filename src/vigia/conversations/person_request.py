"""Whether a customer's message asks to be served by a person (es, pt, en).

A rule, not a model: a request (a verb of wanting, asking, passing or talking, or a bare
"X, please") aimed at a person of the team (persona, humano, agente, operador, asesor,
atendente, representative, someone from the team…). Mentions of people that ask for no one
("la persona que me atendió", "are you human?", "persona jurídica") and negated requests
("no quiero hablar con nadie", "I don't need an agent") do not match. Measured in
docs/benchmarks.md (bench/handoff_trigger.py).
"""

from __future__ import annotations

import re
import unicodedata

# Who the customer may ask for: a person of the team, in each language.
_PERSON = (
    r"(?:una |un |alguna |algun |el |la |uma |um |algum |alguma |o |a |an |the |some |a real |"
    r"a live |uma pessoa |una persona |your |tu |su |seu |sua )?"
    r"(?:persona(?: real| humana| de verdad| del equipo)?|ser humano|humano|humana|"
    r"agente(?: humano| real| de atencion)?|operador(?:a)?|asesor(?:a)?|representante|"
    r"ejecutivo(?: de cuenta| de atencion)?|encargado|supervisor(?:a)?|"
    r"alguien (?:del equipo|de la empresa|de soporte|de atencion|real|de carne y hueso|"
    r"que no sea un bot|de verdad)|"
    r"pessoa(?: real| de verdade| da equipe)?|atendente(?: humano| real)?|"
    r"alguem (?:da equipe|da empresa|do suporte|do atendimento|de verdade|real)|"
    r"human(?: being| agent)?|person|real person|live (?:agent|person|chat agent)|agent|"
    r"representative|rep|operator|customer (?:service|support)(?: agent| rep)?|"
    r"(?:someone|somebody) (?:from|at|in|on) (?:the|your) (?:team|company|staff|support)|"
    r"(?:someone|somebody) real|actual (?:human|person)|member of (?:the|your) (?:staff|team))"
    r"\b(?! mas\b| a mais\b| more\b| extra\b)"
)
_REQUEST = (
    # es
    r"(?:hablar|conversar|chatear|comunicarme|contactar|contactarme|atenderme|"
    r"ser atendid[oa]) (?:con|por|a) |"
    r"(?:pasame|pasenme|paseme|comunicame|comuniquenme|derivame|deriveme|derivenme|"
    r"conectame|transferime|transfiereme|comunicarme|pasarme|derivarme|conectarme|"
    r"transferirme|me (?:pasas|pasan|pasa|comunicas|"
    r"comunican|derivas|derivan|conectas|transferis|transfieres)) (?:con|a) |"
    r"(?:quiero|quisiera|necesito|prefiero|pido|solicito|busco|llamen a|llamame a) |"
    r"(?:que me atienda|que me atiendan|que me atenda|atencion con) |"
    # pt
    r"(?:falar|conversar|ser atendid[oa]) (?:com|por) |"
    r"(?:me (?:passa|passe|passar|transfere|transfira|transferir|coloca|coloque|encaminha|"
    r"encaminhe|encaminhar)|"
    r"passa(?:-me)?|transfere(?:-me)?) (?:para|pra|com) |"
    r"(?:quero|queria|preciso de|gostaria de|prefiro) |"
    # en
    r"(?:talk|speak|chat) (?:to|with) |(?:connect|transfer|put) me (?:through )?(?:to|with) |"
    r"(?:get|give|find) me |(?:i want|i need|i'd like|i would like|can i have|"
    r"can i get|may i have|let me have) "
)
_REQUEST_PERSON = re.compile(rf"(?:{_REQUEST}){_PERSON}")
# "Is there a person I can talk to?": a person offered to the customer.
_AVAILABLE = re.compile(
    rf"\b(?:hay|is there|tem|existe) (?:{_PERSON}) "
    r"(?:con quien (?:hablar|pueda)|i can (?:talk|speak)|para (?:falar|conversar)|"
    r"com quem (?:falar|eu possa))"
)
_BARE = re.compile(
    rf"^(?:{_PERSON})(?: please| por favor| por favor!| pls)?[.!?]*$|"
    rf"^(?:por favor|please)[,]? (?:{_PERSON})[.!?]*$"
)
_NEGATION = re.compile(
    r"\b(?:no|not|don't|dont|do not|never|nunca|nao|sin|without|nem|ni)\b(?:\W+\w+){0,3}\W*$"
)
_SPACE = re.compile(r"[^\w'?!.]+")


def _normal(text: str) -> str:
    folded = unicodedata.normalize("NFKD", text.lower())
    plain = "".join(c for c in folded if not unicodedata.combining(c))
    return _SPACE.sub(" ", plain).strip()


def asks_for_person(message: str) -> bool:
    """Whether ``message`` asks to be handed to a person of the team."""
    text = _normal(message[:2000])
    if _BARE.match(text) or _AVAILABLE.search(text):
        return True
    for match in _REQUEST_PERSON.finditer(text):
        if not _NEGATION.search(text[: match.start()]):
            return True
    return False
