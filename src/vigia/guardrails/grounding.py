"""Grounding: does each sentence of a reply say only what its sources (or instructions) say?

No packaged NLI model exists here (FACTS.md), so support is measured with what is fast and
multilingual:

- numbers: every figure of a claim (prices, hours, days, amounts) must appear in a source;
- lexical support: the IDF-weighted share of the claim's content words found in its best
  source window, and whether negations agree;
- semantic support: the cosine (USE v3) between the claim and its few lexically best
  windows, computed only when the lexical evidence alone is not conclusive, so a review of
  a 2 kB reply against 10 kB of sources stays within tens of milliseconds.

Sentences with nothing to check (questions, greetings, the agent's configured replies) are
skipped. Thresholds were set on ``bench/data/guardrails/grounding_dev.jsonl`` and measured
on the separate ``grounding_eval.jsonl`` (see docs/benchmarks.md).
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Literal

import numpy as np

from vigia.embeddings import TEXT_VECTORS, get_embedder
from vigia.language import NEGATIONS, content_terms, line_sentences, words

Status = Literal["supported", "unsupported", "uncertain", "skipped"]

LEXICAL_SUPPORTED = 0.6
SUPPORT_THRESHOLD = 0.50
UNCERTAIN_MARGIN = 0.03
TOP_WINDOWS = 2
WINDOW_WORDS = 40

_CITATION = re.compile(r"\s*\[\d+\]")
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
PLEASANTRIES = frozenset(
    content_terms(
        "hola gracias muchas saludos ayudar ayuda consulta favor cualquier otra duda escribir "
        "escribirnos contactarnos gusto placer dia buen buenos buenas tardes noches perdon "
        "disculpa disculpas claro seguro perfecto genial excelente entiendo entendido comprendo "
        "ola obrigado obrigada ajudar ajuda duvida prazer desculpe certo perfeito entendo "
        "hello hi thanks thank glad happy help question anything else welcome sorry sure great "
        "understand understood pleasure good morning afternoon evening"
    )
)
CONCRETE_WORDS = frozenset(
    content_terms(
        "lunes martes miercoles jueves viernes sabado domingo feriado feriados "
        "segunda terca quarta quinta sexta sabado domingo monday tuesday wednesday thursday "
        "friday saturday sunday weekend holiday gratis gratuito free todos todas siempre sempre "
        "always every nunca never reembolso refund horas hours dias days"
    )
)


@dataclass(frozen=True)
class ClaimSupport:
    """How well one reply sentence is supported."""

    sentence: str
    status: Status
    score: float
    concrete: bool = False
    reason: str = ""


@dataclass
class SupportIndex:
    """The texts a reply may rely on, split into windows with their terms and numbers."""

    windows: list[str]
    terms: list[frozenset[str]]
    numbers: frozenset[str]
    idf: dict[str, float]
    negated: list[bool]
    replies: frozenset[str] = field(default_factory=frozenset)

    def vectors(self, ids: list[int]) -> np.ndarray:
        """Embeddings of the windows ``ids`` (each window is embedded once per process:
        instructions and knowledge passages repeat across turns)."""
        return TEXT_VECTORS.passages(get_embedder("use"), [self.windows[i] for i in ids])


def numbers_in(text: str) -> set[str]:
    """Figures in ``text`` with their thousands separators removed (``1.500`` → ``1500``)."""
    found = set()
    for raw in _NUMBER.findall(text):
        digits = re.sub(r"[.,](?=\d{3}\b)", "", raw).replace(",", ".")
        found.add(digits.lstrip("0") or "0")
    return found


def _windows(text: str) -> Iterable[str]:
    for sentence in line_sentences(text):
        tokens = sentence.split()
        if len(tokens) <= WINDOW_WORDS:
            yield sentence
            continue
        step = WINDOW_WORDS * 3 // 4
        for start in range(0, len(tokens) - step // 3, step):
            yield " ".join(tokens[start : start + WINDOW_WORDS])


def build_index(
    texts: Iterable[str], replies: Iterable[str] = (), echo: Iterable[str] = ()
) -> SupportIndex:
    """Indexes the grounding texts (instructions, sources, passages) and configured replies.

    ``echo`` are texts whose figures a reply may repeat without them being claims of its own
    (the contact's message: "tu pedido 4567 …"); they support nothing else.
    """
    windows = [w for t in texts if t and t.strip() for w in _windows(t)]
    terms = [frozenset(content_terms(w)) for w in windows]
    df = Counter(t for ts in terms for t in ts)
    n = max(len(windows), 1)
    idf = {t: math.log((n + 1) / (c + 0.5)) + 1.0 for t, c in df.items()}
    nums = frozenset(x for w in [*windows, *echo] for x in numbers_in(w))
    negated = [bool(NEGATIONS & set(words(w))) for w in windows]
    folded_replies = frozenset(_key(r) for r in replies if r.strip())
    return SupportIndex(windows, terms, nums, idf, negated, folded_replies)


def _key(text: str) -> str:
    return " ".join(words(_CITATION.sub("", text)))


def _weight(index: SupportIndex, term: str) -> float:
    return index.idf.get(term, math.log(len(index.windows) + 2) + 1.0)


def is_claim(sentence: str, index: SupportIndex) -> bool:
    """False for questions, pleasantries and the agent's configured replies."""
    text = _CITATION.sub("", sentence).strip()
    if not text or text.endswith("?") or _key(text) in index.replies:
        return False
    if any(_key(text) in r or r in _key(text) for r in index.replies if len(r) > 20):
        return False
    meaningful = set(content_terms(text)) - PLEASANTRIES
    return len(meaningful) >= 2 or bool(numbers_in(text))


def assess_many(claims: list[str], index: SupportIndex) -> list[ClaimSupport]:
    """Assesses several sentences, embedding the ones that need it in one batch."""
    results: list[ClaimSupport | None] = []
    pending: list[tuple[int, str, float, list[int], bool, bool]] = []
    for i, sentence in enumerate(claims):
        text = _CITATION.sub("", sentence).strip()
        if not is_claim(text, index):
            results.append(ClaimSupport(sentence, "skipped", 1.0))
            continue
        terms = set(content_terms(text))
        concrete = bool(numbers_in(text)) or bool(terms & CONCRETE_WORDS)
        missing = numbers_in(text) - index.numbers
        if missing:
            results.append(
                ClaimSupport(
                    sentence,
                    "unsupported",
                    0.0,
                    True,
                    f"figures not in the sources: {', '.join(sorted(missing))}",
                )
            )
            continue
        if not index.windows:
            results.append(ClaimSupport(sentence, "unsupported", 0.0, concrete, "no sources"))
            continue
        total = sum(_weight(index, t) for t in terms) or 1.0
        coverage = [sum(_weight(index, t) for t in terms & ts) / total for ts in index.terms]
        ranked = sorted(range(len(coverage)), key=lambda j: -coverage[j])[:TOP_WINDOWS]
        best = coverage[ranked[0]]
        claim_negated = bool(NEGATIONS & set(words(text)))
        if best >= LEXICAL_SUPPORTED:
            if claim_negated != index.negated[ranked[0]]:
                results.append(
                    ClaimSupport(sentence, "unsupported", 0.3, concrete, "negation differs")
                )
            else:
                results.append(ClaimSupport(sentence, "supported", best, concrete))
            continue
        results.append(None)
        pending.append((i, text, best, ranked, concrete, claim_negated))
    if pending:
        claim_vectors = TEXT_VECTORS.queries(get_embedder("use"), [p[1] for p in pending])
        index.vectors([j for p in pending for j in p[3]])  # one batch for every window needed
        for (i, _text, best, ranked, concrete, negated), vector in zip(
            pending, claim_vectors, strict=True
        ):
            cosines = index.vectors(ranked) @ vector
            top = int(np.argmax(cosines))
            score = 0.5 * best + 0.5 * float(cosines[top])
            if negated != index.negated[ranked[top]] and score >= SUPPORT_THRESHOLD:
                # Same topic, opposite polarity: "no cubre X" against "cubre X".
                results[i] = ClaimSupport(
                    claims[i], "unsupported", score, concrete, "negation differs"
                )
                continue
            results[i] = _decide(claims[i], score, concrete)
    return [r for r in results if r is not None]


def _decide(sentence: str, score: float, concrete: bool) -> ClaimSupport:
    if score >= SUPPORT_THRESHOLD + UNCERTAIN_MARGIN:
        return ClaimSupport(sentence, "supported", score, concrete)
    if score < SUPPORT_THRESHOLD - UNCERTAIN_MARGIN:
        return ClaimSupport(sentence, "unsupported", score, concrete, "not found in the sources")
    return ClaimSupport(sentence, "uncertain", score, concrete, "weak support")
