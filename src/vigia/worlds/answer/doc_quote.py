"""Which sentence of a documentation passage answers the question.

Each sentence is scored by the question's terms it shares (the words side), by how close
its meaning is to the question's (the multilingual encoder, so a Spanish question meets
an English sentence), and, when the question asks for a value — how many, how long, which
status or limit, what default — by whether it states one (a number, ``Defaults to``).
Headings are never quoted; the sentence after the best one is quoted with it, as it
usually explains it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from vigia.embeddings import Vectors
from vigia.language import fold
from vigia.search.text import code_terms
from vigia.worlds import embedding
from vigia.worlds.markdown import sentences
from vigia.worlds.source import shorten

DOC_QUOTE_CHARS = 320
MEANING = 1.0
VALUE = 0.5
MAX_SENTENCES = 24
# Questions that want a value back (folded: no accents), in English, Spanish and Portuguese.
_ASKS_VALUE = re.compile(
    r"\b(?:how (?:many|much|long|big|large|often)|what (?:size|status|code|limit|value)"
    r"|which (?:status|code|value)|status code|default|defaults|limit|maximum|minimum|timeout"
    r"|size|seconds|bytes"
    r"|cuant[oa]s?|que (?:codigo|estado|tamano|valor|limite|respuesta|error)|codigo de estado"
    r"|por defecto|limite|maximo|minimo|tamano|segundos"
    r"|quant[oa]s?|qual (?:e o )?(?:codigo|status|tamanho|valor|limite)|que (?:resposta|erro)"
    r"|padrao|tamanho|maximo|minimo|segundos)\b"
)
# A value stated: a number outside a link or a version, or a sentence saying the default.
_LINKS = re.compile(r"\(https?://[^)]*\)|https?://\S+|\[[^\]]*\]\([^)]*\)|#\d+|\b\d+\.\d+\.\d+")
_NUMBER = re.compile(r"(?<![\w.])\d+(?:[*x]\d+)?(?![\w.]\w)")
_STATES_DEFAULT = re.compile(r"\bdefaults? to\b|\bby default\b", re.I)


def asks_for_value(question: str) -> bool:
    """Whether the question wants a number, a status, a limit or a default back."""
    return bool(_ASKS_VALUE.search(fold(question)))


def states_value(sentence: str) -> bool:
    """Whether a sentence gives a number (not a link, issue or version) or a default."""
    plain = _LINKS.sub(" ", sentence)
    return bool(_NUMBER.search(plain) or _STATES_DEFAULT.search(plain))


def _closeness(texts: list[str], vector: Vectors | None) -> list[float]:
    """Cosine of each sentence to the question (0 without a question vector)."""
    if vector is None or not texts:
        return [0.0] * len(texts)
    similarity = embedding.passages(texts) @ np.asarray(vector, dtype=np.float32)
    return [max(0.0, float(s)) for s in similarity]


@dataclass(frozen=True)
class Quote:
    """The sentence of a passage that answers best: its line, its quote and its score."""

    line: int
    text: str
    score: float


def answer_in(
    text: str, first_line: int, query: str, vector: Vectors | None = None, question: str = ""
) -> Quote:
    """The sentence of ``text`` that answers ``query`` best (no quote when no sentence
    shares a term with it and none is close in meaning). Scores compare across passages:
    the share of the query's terms, the cosine to the question, the value bonus."""
    wanted = set(code_terms(query))
    found = sentences(text, first_line)[:MAX_SENTENCES]
    said = [i for i, (_n, s) in enumerate(found) if not s.startswith("#")]
    if not said:
        return Quote(first_line, "", 0.0)
    shared = {i: len(wanted & set(code_terms(found[i][1]))) for i in said}
    if not any(shared.values()) and vector is None:
        return Quote(first_line, "", 0.0)
    close = _closeness([found[i][1].replace("`", "") for i in said], vector)
    value = asks_for_value(question or query)
    scores = {
        i: shared[i] / max(len(wanted), 1)
        + MEANING * close[k]
        + (VALUE if value and states_value(found[i][1]) else 0.0)
        for k, i in enumerate(said)
    }
    top = max(said, key=lambda i: (scores[i], -i))
    number, quote = found[top]
    follows = found[top + 1][1] if top + 1 < len(found) else ""
    if follows and not follows.startswith(("#", "|")) and not quote.startswith("|"):
        quote = f"{quote} {follows}"  # the sentence after it usually explains it
    return Quote(number, shorten(quote.replace("`", ""), DOC_QUOTE_CHARS), scores[top])


def best_sentence(
    text: str, first_line: int, query: str, vector: Vectors | None = None, question: str = ""
) -> tuple[int, str]:
    """The line and quote of ``answer_in``."""
    found = answer_in(text, first_line, query, vector, question)
    return found.line, found.text
