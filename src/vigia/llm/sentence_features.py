"""What the answer-sentence selector sees of a message and each candidate sentence.

One row per candidate sentence, the same at fitting time (``python -m
training.answer_selector``) and at answer time (``vigia.llm.reading``):

- the cosine between the message's and the sentence's USE vectors; the share of the
  message's content words the sentence holds, plain and weighted by their rarity among the
  candidates (IDF), and of its word pairs and its four-letter runs; the share of the
  sentence's own words that merely repeat the message, and how many new words it brings;
  the same overlap and cosine for its neighbours in the passage (questions are often built
  from one sentence and answered by the next); its place in the passage; the passage's
  retrieval score and rank; its length; how far its cosine and overlap fall below the best
  candidate's;
- the kind of question (when, who, how many, where…, from its first words, Spanish and
  Portuguese) crossed with what the sentence holds that the message does not: a number, a
  year, a month, a capitalised name, a percentage.

Nothing here is fitted or tied to one data set: the weights live in the selector's JSON.
The vectors themselves (``[q * s, |q - s|]``, 1,024 columns) were tried as features and left
out: fitted on 12 articles they learned those articles' topics (docs/knowledge.md).
"""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from vigia.language import STOPWORDS, content_terms, fold, word_set, words

QUESTION_KINDS = ("when", "who", "how_many", "where", "why", "how", "which", "what", "other")
ANSWER_SHAPES = ("number", "year", "month", "name", "percent")

# Folded question words and the kind they ask for; ``que``/``qual`` followed by one of
# ``_KIND_NOUNS`` asks for that noun's kind ("¿en qué año…?" is a when).
_KIND_WORDS = {
    "cuando": "when",
    "quando": "when",
    "quien": "who",
    "quienes": "who",
    "quem": "who",
    "cuanto": "how_many",
    "cuanta": "how_many",
    "cuantos": "how_many",
    "cuantas": "how_many",
    "quanto": "how_many",
    "quanta": "how_many",
    "quantos": "how_many",
    "quantas": "how_many",
    "donde": "where",
    "adonde": "where",
    "onde": "where",
    "aonde": "where",
    "porque": "why",
    "como": "how",
    "cual": "which",
    "cuales": "which",
    "qual": "which",
    "quais": "which",
    "que": "what",
}
_KIND_NOUNS = {
    "ano": "when",
    "anos": "when",
    "fecha": "when",
    "data": "when",
    "dia": "when",
    "siglo": "when",
    "seculo": "when",
    "epoca": "when",
    "decada": "when",
    "periodo": "when",
    "mes": "when",
    "cantidad": "how_many",
    "quantidade": "how_many",
    "porcentaje": "how_many",
    "porcentagem": "how_many",
    "numero": "how_many",
    "tan": "how_many",
    "ciudad": "where",
    "cidade": "where",
    "pais": "where",
    "lugar": "where",
    "region": "where",
    "regiao": "where",
    "estado": "where",
    "persona": "who",
    "pessoa": "who",
}
_OPENING_WORDS = 4
_MONTHS = word_set(
    """
    enero febrero marzo abril mayo junio julio agosto septiembre setiembre octubre noviembre
    diciembre janeiro fevereiro marco maio junho julho setembro outubro novembro dezembro
    january february march april june july august september october november december
    """
)
_YEAR = re.compile(r"\b(1[0-9]{3}|20[0-9]{2})\b")
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
_CAPITALISED = re.compile(r"(?<![\w])[A-ZÁÉÍÓÚÂÊÔÃÕÇÑÜ][\w'-]+")
_PERCENT = re.compile(r"%|\bpor ciento\b|\bpor cento\b|\bpercent\b")

SCALAR_NAMES = (
    "cosine",
    "overlap_idf",
    "overlap",
    "pairs_overlap",
    "letters_overlap",
    "restates",
    "new_words",
    "previous_overlap_idf",
    "next_overlap_idf",
    "previous_cosine",
    "next_cosine",
    "first_in_passage",
    "last_in_passage",
    "place_in_passage",
    "passage_score",
    "passage_rank",
    "passage_best_overlap_idf",
    "log_chars",
    "cosine_below_best",
    "overlap_idf_below_best",
)
FEATURE_NAMES = (
    *SCALAR_NAMES,
    *(f"kind:{k}" for k in QUESTION_KINDS),
    *(f"kind:{k}*{shape}" for k in QUESTION_KINDS for shape in ANSWER_SHAPES),
)

Matrix = NDArray[np.float32]


@dataclass(frozen=True)
class Candidates:
    """Candidate sentences in reading order: each one's text, passage (0-based), place in
    its passage (0-based) and that passage's retrieval score."""

    texts: Sequence[str]
    passages: Sequence[int]
    places: Sequence[int]
    passage_scores: Sequence[float]


def question_kind(message: str) -> str:
    """What the message asks for, from its first words (``other`` for none)."""
    found = words(message)[:_OPENING_WORDS]
    for i, word in enumerate(found):
        kind = _KIND_WORDS.get(word)
        if kind is None:
            continue
        following = found[i + 1] if i + 1 < len(found) else ""
        if word == "que" and i > 0 and found[i - 1] == "por":
            return "why"
        if kind in ("what", "which") and following in _KIND_NOUNS:
            return _KIND_NOUNS[following]
        return kind
    return "other"


def answer_shapes(message: str, sentence: str) -> list[float]:
    """Whether ``sentence`` holds a number, a year, a month, a capitalised name or a
    percentage that ``message`` does not (in ``ANSWER_SHAPES`` order)."""
    asked = set(words(message)) | set(_NUMBER.findall(message))
    numbers = [n for n in _NUMBER.findall(sentence) if n not in asked]
    years = [y for y in _YEAR.findall(sentence) if y not in asked]
    months = [w for w in words(sentence) if w in _MONTHS and w not in asked]
    names = [
        m.group() for m in _CAPITALISED.finditer(sentence) if m.start() > 0
    ]  # the sentence's first word is capitalised anyway
    names = [n for n in names if fold(n) not in asked]
    percent = bool(_PERCENT.search(sentence.casefold())) and not _PERCENT.search(message.casefold())
    return [float(bool(found)) for found in (numbers, years, months, names)] + [float(percent)]


def _overlaps(wanted: set[str], held: list[set[str]]) -> tuple[list[float], list[float]]:
    """Per candidate, the IDF-weighted and the plain share of ``wanted`` it holds."""
    if not wanted or not held:
        return [0.0] * len(held), [0.0] * len(held)
    counts = {w: sum(w in h for h in held) for w in wanted}
    weight = {w: math.log(1 + len(held) / (1 + n)) for w, n in counts.items()}
    total = sum(weight.values())
    weighted = [sum(weight[w] for w in h & wanted) / total for h in held]
    plain = [len(h & wanted) / len(wanted) for h in held]
    return weighted, plain


def _pairs(terms: list[str]) -> set[tuple[str, str]]:
    return set(itertools.pairwise(terms))


def _letters(text: str) -> set[str]:
    """The four-letter runs of ``text``'s content words (variants a stemmer misses)."""
    return {
        w[i : i + 4]
        for w in words(text)
        if w not in STOPWORDS and len(w) >= 4
        for i in range(len(w) - 3)
    }


def _share(wanted: set[Any], held: set[Any]) -> float:
    return len(wanted & held) / len(wanted) if wanted else 0.0


def _neighbour(values: list[float], candidates: Candidates, step: int) -> list[float]:
    """Each candidate's neighbour's value ``step`` sentences away in the same passage, or 0."""
    found = []
    for i in range(len(values)):
        j = i + step
        inside = 0 <= j < len(values) and candidates.passages[j] == candidates.passages[i]
        found.append(values[j] if inside else 0.0)
    return found


def scalar_features(message: str, candidates: Candidates, cosines: list[float]) -> Matrix:
    """One row per candidate, columns as ``FEATURE_NAMES``, given each one's cosine."""
    ordered = content_terms(message)
    wanted, pairs, letters = set(ordered), _pairs(ordered), _letters(message)
    sequences = [content_terms(t) for t in candidates.texts]
    terms = [set(t) for t in sequences]
    weighted, plain = _overlaps(wanted, terms)
    sizes: dict[int, int] = {}
    best_overlap: dict[int, float] = {}
    for p, w in zip(candidates.passages, weighted, strict=True):
        sizes[p] = sizes.get(p, 0) + 1
        best_overlap[p] = max(best_overlap.get(p, 0.0), w)
    kind = question_kind(message)
    kinds = [float(k == kind) for k in QUESTION_KINDS]
    top_cosine, top_overlap = max(cosines), max(weighted)
    previous_w, next_w = _neighbour(weighted, candidates, -1), _neighbour(weighted, candidates, 1)
    previous_c, next_c = _neighbour(cosines, candidates, -1), _neighbour(cosines, candidates, 1)
    rows = []
    for i, text in enumerate(candidates.texts):
        p, place = candidates.passages[i], candidates.places[i]
        size = sizes[p]
        own = terms[i]
        shapes = answer_shapes(message, text)
        rows.append(
            [
                cosines[i],
                weighted[i],
                plain[i],
                _share(pairs, _pairs(sequences[i])),
                _share(letters, _letters(text)),
                len(own & wanted) / len(own) if own else 0.0,
                math.log1p(len(own - wanted)),
                previous_w[i],
                next_w[i],
                previous_c[i],
                next_c[i],
                float(place == 0),
                float(place == size - 1),
                place / (size - 1) if size > 1 else 0.0,
                candidates.passage_scores[i],
                math.log1p(p),
                best_overlap[p],
                math.log1p(len(text)),
                cosines[i] - top_cosine,
                weighted[i] - top_overlap,
                *kinds,
                *(k * s for k in kinds for s in shapes),
            ]
        )
    return np.asarray(rows, dtype=np.float32)


def features(message: str, candidates: Candidates, query: Matrix, vectors: Matrix) -> Matrix:
    """One row per candidate, columns as ``FEATURE_NAMES``; ``query`` is the message's unit
    vector, ``vectors`` the candidates' (in context), one row each."""
    cosines = (vectors @ query).astype(np.float32)
    return scalar_features(message, candidates, cosines.tolist())
