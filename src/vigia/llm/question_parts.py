"""The parts of a question that asks two things at once: "¿Cómo creo una clave y qué alcances
puede tener?" is "¿Cómo creo una clave" and "qué alcances puede tener?".

A part starts where "and" (y / e / and) is followed by a question word (Spanish, Portuguese,
English); a message without one is a single part. The embedded answerer quotes a sentence
for each part (``vigia.llm.embedded``): the sentence that best answers the whole message
usually answers only its first part.
"""

from __future__ import annotations

import re

_QUESTION_WORDS = (
    "qué|que|cómo|como|cuál|cual|cuáles|cuales|cuándo|cuando|dónde|donde|quién|quien|"
    "quiénes|quienes|cuánto|cuanto|cuántos|cuantos|cuánta|cuanta|cuántas|cuantas|por qué|"
    "qual|quais|quando|onde|quem|quanto|quantos|quanta|quantas|o que|por que|"
    "what|how|which|when|where|who|why"
)
_PART = re.compile(rf",?\s+(?:y|e|and)\s+(?=(?:{_QUESTION_WORDS})\b)", re.IGNORECASE)
MAX_PARTS = 3


def question_parts(message: str) -> list[str]:
    """The parts of ``message`` in order (itself alone when it asks one thing); at most
    ``MAX_PARTS``, the last holding the rest."""
    parts = [p.strip() for p in _PART.split(message.strip(), maxsplit=MAX_PARTS - 1)]
    return [p for p in parts if p] or [message]
