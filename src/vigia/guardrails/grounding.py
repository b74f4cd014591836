"""Grounding: does each sentence of a reply say only what its sources (or instructions) say?

No packaged NLI model exists here (docs/guardrails.md), so support is measured with what is
fast and multilingual:

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
from vigia.language import NEGATIONS, STOPWORDS, content_terms, fold, line_sentences, stem, words

Status = Literal["supported", "unsupported", "uncertain", "skipped"]

LEXICAL_SUPPORTED = 0.6
SUPPORT_THRESHOLD = 0.50
UNCERTAIN_MARGIN = 0.03
TOP_WINDOWS = 2
JOINT_WINDOWS = 3
TERMS_PER_WINDOW = 8
WINDOW_WORDS = 40

_CITATION = re.compile(r"\s*\[\d+\]")
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
_NAME = re.compile(r"(?<![\w@.])[A-ZÁÉÍÓÚÂÊÔÃÕÇÑ][^\W\d_]*")
_OPENERS = frozenset(".!?:;¿¡\"'«(-–—•*#>|")
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
    vocabulary: frozenset[str] = field(default_factory=frozenset)
    """Every folded word (and its stem) of the grounding and echo texts: names must be here."""

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


def names_in(text: str) -> list[str]:
    """Words written with a capital inside a sentence (names of people, places, brands,
    products: "Visa", "Palermo", "WhatsApp"), not counting a sentence's first word."""
    out = []
    for match in _NAME.finditer(text):
        word = match.group(0)
        before = text[: match.start()].rstrip()
        if not before or before[-1] in _OPENERS or fold(word) in STOPWORDS or len(word) < 2:
            continue
        out.append(word)
    return out


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
    seen = {w for t in [*windows, *echo] for w in words(t)}
    vocabulary = frozenset(seen | {stem(w) for w in seen})
    return SupportIndex(windows, terms, nums, idf, negated, folded_replies, vocabulary)


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
    pending: list[tuple[int, str, float, list[int], bool, bool | None, str]] = []
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
        unknown = [n for n in names_in(text) if not _known(n, index)]
        if unknown:
            reason = f"names not in the sources: {', '.join(dict.fromkeys(unknown))}"
            results.append(ClaimSupport(sentence, "unsupported", 0.0, concrete, reason))
            continue
        if not index.windows:
            results.append(ClaimSupport(sentence, "unsupported", 0.0, concrete, "no sources"))
            continue
        total = sum(_weight(index, t) for t in terms) or 1.0
        coverage = [sum(_weight(index, t) for t in terms & ts) / total for ts in index.terms]
        ranked = sorted(range(len(coverage)), key=lambda j: -coverage[j])[:TOP_WINDOWS]
        best, joint = _joint_coverage(terms, index, total)
        # Polarity is compared for a one-fact claim only: in a longer one a negation belongs
        # to one of its clauses, not to the window that best matches the whole.
        claim_negated = (
            bool(NEGATIONS & set(words(text))) if len(terms) < TERMS_PER_WINDOW else None
        )
        if best >= LEXICAL_SUPPORTED:
            if claim_negated is not None and claim_negated != index.negated[ranked[0]]:
                results.append(
                    ClaimSupport(sentence, "unsupported", 0.3, concrete, "negation differs")
                )
            else:
                results.append(ClaimSupport(sentence, "supported", best, concrete))
            continue
        results.append(None)
        joined = " ".join(index.windows[j] for j in joint) if len(joint) > 1 else ""
        pending.append((i, text, best, ranked, concrete, claim_negated, joined))
    if pending:
        embedder = get_embedder("use")
        claim_vectors = TEXT_VECTORS.queries(embedder, [p[1] for p in pending])
        index.vectors([j for p in pending for j in p[3]])  # one batch for every window needed
        joined_texts = [p[6] for p in pending if p[6]]
        joined_vectors = dict(
            zip(joined_texts, TEXT_VECTORS.passages(embedder, joined_texts), strict=True)
        )
        for (i, _text, best, ranked, concrete, negated, joined), vector in zip(
            pending, claim_vectors, strict=True
        ):
            cosines = index.vectors(ranked) @ vector
            top = int(np.argmax(cosines))
            # A claim joining several source sentences is compared with them joined too.
            cosine = max(
                float(cosines[top]), float(joined_vectors[joined] @ vector) if joined else -1
            )
            score = 0.5 * best + 0.5 * cosine
            opposite = negated is not None and negated != index.negated[ranked[top]]
            if opposite and score >= SUPPORT_THRESHOLD:
                # Same topic, opposite polarity: "no cubre X" against "cubre X".
                results[i] = ClaimSupport(
                    claims[i], "unsupported", score, concrete, "negation differs"
                )
                continue
            results[i] = _decide(claims[i], score, concrete)
    return [r for r in results if r is not None]


def _known(name: str, index: SupportIndex) -> bool:
    folded = fold(name)
    return folded in index.vocabulary or stem(folded) in index.vocabulary


def _joint_coverage(terms: set[str], index: SupportIndex, total: float) -> tuple[float, list[int]]:
    """The weighted share of ``terms`` found in the few windows that cover most of them
    together (chosen greedily). A long claim may join facts from separate source sentences
    (one more window per ``TERMS_PER_WINDOW`` content words, at most ``JOINT_WINDOWS``); a
    short one must be found in one place ("day passes include lunch" is not supported by
    "day passes" in one sentence and "lunch" in another)."""
    left, covered, chosen = set(terms), 0.0, []
    for _ in range(min(JOINT_WINDOWS, 1 + len(terms) // TERMS_PER_WINDOW)):
        gains = [sum(_weight(index, t) for t in left & ts) for ts in index.terms]
        best = max(range(len(gains)), key=gains.__getitem__)
        if gains[best] <= 0:
            break
        covered += gains[best]
        chosen.append(best)
        left -= index.terms[best]
    return covered / total, sorted(chosen)


def _decide(sentence: str, score: float, concrete: bool) -> ClaimSupport:
    if score >= SUPPORT_THRESHOLD + UNCERTAIN_MARGIN:
        return ClaimSupport(sentence, "supported", score, concrete)
    if score < SUPPORT_THRESHOLD - UNCERTAIN_MARGIN:
        return ClaimSupport(sentence, "unsupported", score, concrete, "not found in the sources")
    return ClaimSupport(sentence, "uncertain", score, concrete, "weak support")
