"""Fits the injection head on ``train.jsonl`` and chooses its thresholds on ``dev.jsonl``.

Rows: every training prompt as a whole (its clipped text and its patterns), plus every
segment of the benign prompts long enough to have several (a benign document is benign in
every paragraph; an attack's paragraphs are not all attacks, so theirs are left out). Row
weights balance the sources: each (source, label) stratum weighs ``sqrt(size)`` in all, so a
large source (1,273 Spanish questions) counts more than a small one, but far less than in
proportion. Segment rows share half the mean weight of a benign prompt.

Fragments: a run of 1–4 words cut from each benign prompt (where, and how long, is fixed by a
checksum of the prompt) is one more benign row. Every benign text in the data is a question,
an instruction or a document, while the attacks include short triggers, so without them the
head reads any short message ("hola", "gracias", "ok") as an attack.
"""

from __future__ import annotations

import collections
import re
import zlib
from collections.abc import Callable, Sequence

import numpy as np
from bench.injection.data import Prompt
from numpy.typing import NDArray

from vigia.embeddings import Vectors
from vigia.guardrails.injection import InjectionHead, embedding_texts, feature_rows
from vigia.guardrails.injection_text import pattern_features
from vigia.logistic import fit_binary

Embed = Callable[[list[str]], Vectors]
L2 = 1e-4
SEGMENT_WEIGHT = 0.5
FRAGMENT_WORDS = 4
_WORD = re.compile(r"[^\W_]+(?:['’-][^\W_]+)*")
FPR_BY_SENSITIVITY = {"low": 0.01, "medium": 0.03, "high": 0.08}
MODEL = "vigia-injection-1.0.0"


def rows_of(prompts: Sequence[Prompt], embed: Embed) -> list[NDArray[np.float32]]:
    """Each prompt's feature rows (whole first, then its segments)."""
    embed(list(dict.fromkeys(t for p in prompts for t in embedding_texts(p.text))))
    return [feature_rows(p.text, embed(embedding_texts(p.text))) for p in prompts]


def fragment(text: str) -> str:
    """A run of 1–4 words of ``text``, chosen by its checksum (the same text, the same run)."""
    found = _WORD.findall(text)
    if not found:
        return ""
    checksum = zlib.crc32(text.encode("utf-8"))
    size = 1 + checksum % FRAGMENT_WORDS
    start = (checksum // FRAGMENT_WORDS) % max(1, len(found) - size + 1)
    return " ".join(found[start : start + size])


def fragment_rows(prompts: Sequence[Prompt], embed: Embed) -> NDArray[np.float32]:
    """The feature rows of the benign prompts' fragments."""
    texts = [f for p in prompts if p.label == 0 and (f := fragment(p.text))]
    patterns = np.stack([pattern_features(t) for t in texts])
    return np.hstack([embed(texts), patterns]).astype(np.float32)


def stratum_weights(prompts: Sequence[Prompt]) -> NDArray[np.float64]:
    """``1 / sqrt(stratum size)`` per prompt, scaled to a mean of 1."""
    sizes = collections.Counter((p.source, p.label) for p in prompts)
    weights = np.array([1.0 / np.sqrt(sizes[(p.source, p.label)]) for p in prompts])
    return weights * len(weights) / weights.sum()


def fit_head(
    prompts: Sequence[Prompt],
    rows: Sequence[NDArray[np.float32]],
    fragments: NDArray[np.float32],
    l2: float = L2,
) -> tuple[NDArray[np.float64], float]:
    """Weights and bias of the logistic head (``fragments``: ``fragment_rows(prompts)``)."""
    weights = stratum_weights(prompts)
    labels = np.array([p.label for p in prompts], dtype=np.float64)
    benign_weight = float(weights[labels == 0].mean()) * SEGMENT_WEIGHT
    x = [r[0] for r in rows]
    extra = [s for p, r in zip(prompts, rows, strict=True) if p.label == 0 for s in r[1:]]
    extra += list(fragments)
    matrix = np.vstack([np.stack(x), *([np.stack(extra)] if extra else [])])
    y = np.concatenate([labels, np.zeros(len(extra))])
    w = np.concatenate([weights, np.full(len(extra), benign_weight)])
    return fit_binary(matrix, y, l2, w)


def threshold_for(benign: NDArray[np.float64], max_fpr: float) -> float:
    """The lowest threshold (``score >= t`` fires) whose false-positive rate is ≤ ``max_fpr``:
    halfway between the last benign score allowed above it and the first one kept below."""
    ranked = np.sort(benign)[::-1]
    allowed = int(np.floor(max_fpr * len(ranked) + 1e-9))
    if allowed >= len(ranked):
        return float(ranked[-1])
    below = float(ranked[allowed])
    above = float(ranked[allowed - 1]) if allowed > 0 else min(1.0, below + 1e-3)
    return (below + above) / 2 if above > below else float(np.nextafter(below, 1.0))


def head_json(
    weights: NDArray[np.float64],
    bias: float,
    thresholds: dict[str, float],
    notes: dict[str, object],
) -> dict[str, object]:
    """The packaged head file's content."""
    return {
        "model": MODEL,
        "encoder": "use-m3 (clipped text and segments, vigia.guardrails.injection_text)",
        "features": ["use-m3 x512", *_pattern_names()],
        "l2": L2,
        "thresholds": thresholds,
        "notes": notes,
        "bias": bias,
        "weights": [float(w) for w in weights],
    }


def _pattern_names() -> list[str]:
    from vigia.guardrails.injection_text import PATTERN_NAMES

    return [f"pattern:{name}" for name in PATTERN_NAMES]


def score_all(head: InjectionHead, rows: Sequence[NDArray[np.float32]]) -> NDArray[np.float64]:
    """The head's score of each prompt (its highest row), as the product computes it."""
    return np.array([head.score_rows(r) for r in rows])
