"""Fits the injection head on ``train.jsonl`` and chooses its thresholds on ``dev.jsonl``.

Rows: every training prompt as a whole (its clipped text and its patterns), plus every
segment of the benign prompts long enough to have several (a benign document is benign in
every paragraph). An attack's segments are not all attacks, so they are not labelled as such;
instead (``Recipe.mil``, multiple-instance learning) a first head picks each long attack's
highest-scoring segment (in BIPIA, the one holding the inserted instruction) and the head is
fitted again with those segments as attack rows. Row
weights balance the sources: each (source, label) stratum weighs ``sqrt(size)`` in all, so a
large source (1,273 Spanish questions) counts more than a small one, but far less than in
proportion. Segment rows share half the mean weight of a benign prompt.

Fragments: a run of 1–4 words cut from each benign prompt (where, and how long, is fixed by a
checksum of the prompt) is one more benign row. Every benign text in the data is a question,
an instruction or a document, while the attacks include short triggers, so without them the
head reads any short message ("hola", "gracias", "ok") as an attack.

Two heads are fitted the same way (1.2.0): ``SHIPPED`` over USE + patterns, the product's
first stage, and ``SECOND`` over USE + e5 + patterns, read only for first scores in ``BAND``
(``vigia.guardrails.injection_cascade``). ``views.py`` adds the e5 and hashed n-gram columns.

Data: ``train.jsonl`` and the team's ``injection_team_train.txt`` (239 es/pt/en customer
messages and attacks, source ``team``; ``injection_eval.txt`` stays held out). Recipes are
compared by grouped cross-validation on train only (``bench/injection/cv.py``).
"""

from __future__ import annotations

import collections
import re
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
from bench.injection.data import Prompt
from bench.injection.views import OFFSETS, Views
from numpy.typing import NDArray

from vigia.embeddings import Vectors
from vigia.guardrails.injection import InjectionHead, embedding_texts, feature_rows
from vigia.guardrails.injection_text import SEGMENT_CHARS, pattern_features
from vigia.kit.logistic import fit_binary

Embed = Callable[[list[str]], Vectors]
L2 = 1e-4
SEGMENT_WEIGHT = 0.5
FRAGMENT_WORDS = 4
_WORD = re.compile(r"[^\W_]+(?:['’-][^\W_]+)*")
FPR_BY_SENSITIVITY = {"low": 0.01, "medium": 0.03, "high": 0.08}
MODEL = "vigia-injection-1.2.0"
DIGITS = 6
VECTOR = 512


def message_length(text: str) -> float:
    """The message's length on a log scale: 0 for one character, 1 for 10,000 or more."""
    return float(min(1.0, np.log(max(1, len(text))) / np.log(10_000)))


def rows_of(
    prompts: Sequence[Prompt], embed: Embed, size: int = SEGMENT_CHARS
) -> list[NDArray[np.float32]]:
    """Each prompt's feature rows (whole first, then its segments of ``size`` characters)."""
    embed(list(dict.fromkeys(t for p in prompts for t in embedding_texts(p.text, size))))
    return [feature_rows(p.text, embed(embedding_texts(p.text, size)), size) for p in prompts]


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
    return fragment_rows_of([f for p in prompts if p.label == 0 and (f := fragment(p.text))], embed)


def fragment_rows_of(texts: list[str], embed: Embed) -> NDArray[np.float32]:
    """The feature rows (vector + patterns) of short texts."""
    patterns = np.stack([pattern_features(t) for t in texts])
    return np.hstack([embed(texts), patterns]).astype(np.float32)


def stratum_weights(prompts: Sequence[Prompt], exponent: float = 0.5) -> NDArray[np.float64]:
    """``stratum size ** -exponent`` per prompt, scaled to a mean of 1 (0.5: each (source,
    label) stratum weighs ``sqrt(size)`` in all; 1: every stratum weighs the same)."""
    sizes = collections.Counter((p.source, p.label) for p in prompts)
    weights = np.array([float(sizes[(p.source, p.label)]) ** -exponent for p in prompts])
    return weights * len(weights) / weights.sum()


@dataclass(frozen=True)
class Recipe:
    """How the head is fitted: which rows, which extra features, which data and weights.

    ``doc``: two document features on every row (the row is a segment; the message's log
    length), so that a sentence inside a long text is judged apart from a short request.
    ``split``: segment rows get a weight vector of their own (the embedding times the
    segment indicator), a second head for segments. ``mil``: rounds of multiple-instance
    labelling: the highest-scoring segment of each long attack becomes a positive row.
    ``team``: the team's ``injection_team_train.txt`` prompts are one more source.
    ``offtopic``: one more column, how far each segment is from the rest of its message
    (``offtopic_column``).
    """

    doc: bool = False
    split: bool = False
    mil: int = 0
    team: bool = False
    exponent: float = 0.5
    l2: float = L2
    segment_chars: int = SEGMENT_CHARS
    use: float = 1.0
    e5: float = 0.0
    words: float = 0.0
    chars: float = 0.0
    offtopic: bool = False

    @property
    def extras(self) -> bool:
        """Whether the recipe reads columns beyond USE and patterns (``views.py``)."""
        return bool(self.e5 or self.words or self.chars)

    def columns(self, base: NDArray[np.float32]) -> NDArray[np.float32]:
        """The views the recipe reads of full rows, each times its scale."""
        if not self.extras and self.use == 1.0:
            return base[:, : OFFSETS["patterns"][1]]
        parts = []
        for name in ("use", "patterns", "e5", "words", "chars"):
            scale = 1.0 if name == "patterns" else float(getattr(self, name))
            if scale:
                start, end = OFFSETS[name]
                parts.append(base[:, start:end] * np.float32(scale))
        return np.hstack(parts).astype(np.float32)

    def rows(self, base: NDArray[np.float32], text: str) -> NDArray[np.float32]:
        """The recipe's rows of one message from its base rows (vector + patterns)."""
        columns = self.columns(base)
        out = [columns]
        if self.doc or self.split:
            segment = np.zeros((len(base), 1), dtype=np.float32)
            segment[1:] = 1.0
            out += [segment, np.full((len(base), 1), message_length(text), dtype=np.float32)]
            if self.split:
                out.append(columns[:, :VECTOR] * segment)
        if self.offtopic:
            out.append(offtopic_column(base))
        return out[0] if len(out) == 1 else np.hstack(out).astype(np.float32)


OFFTOPIC_SEGMENTS = 3


def offtopic_column(base: NDArray[np.float32]) -> NDArray[np.float32]:
    """1 − each segment row's USE cosine to the mean of the message's other segments; 0 on
    the whole-message row and for messages of fewer than ``OFFTOPIC_SEGMENTS`` segments."""
    column = np.zeros((len(base), 1), dtype=np.float32)
    if len(base) - 1 < OFFTOPIC_SEGMENTS:
        return column
    start, end = OFFSETS["use"]
    column[1:, 0] = 1.0 - cosines_to_rest(base[1:, start:end])
    return column


def cosines_to_rest(vectors: NDArray[np.floating]) -> NDArray[np.float64]:
    """Each vector's cosine to the mean of the other vectors."""
    unit = vectors.astype(np.float64)
    unit /= np.linalg.norm(unit, axis=1, keepdims=True)
    rest = unit.sum(axis=0)[None, :] - unit
    rest /= np.linalg.norm(rest, axis=1, keepdims=True)
    return np.asarray(np.sum(unit * rest, axis=1), dtype=np.float64)


SHIPPED = Recipe(team=True, mil=1)
"""The recipe of the packaged head, chosen by ``bench/injection/cv.py`` on train only."""

RECIPES: dict[str, Recipe] = {
    "base": Recipe(segment_chars=500),  # vigia-injection-1.0.0
    "team": Recipe(team=True, segment_chars=500),
    "doc": Recipe(doc=True, segment_chars=500),
    "doc-mil": Recipe(doc=True, mil=1, segment_chars=500),
    "split-mil": Recipe(doc=True, split=True, mil=1, segment_chars=500),
    "exp0.75": Recipe(exponent=0.75, segment_chars=500),
    "exp1": Recipe(exponent=1.0, segment_chars=500),
    "seg250": Recipe(),
    "seg250-mil": Recipe(mil=1),
    "seg250-doc-mil": Recipe(doc=True, mil=1),
    "seg250-split-mil": Recipe(doc=True, split=True, mil=1),
    "seg250-team": Recipe(team=True),
    "seg250-exp1": Recipe(exponent=1.0),
    "seg250-l2-3": Recipe(l2=1e-3),
    "seg250-l2-5": Recipe(l2=3e-5),
    "seg150": Recipe(segment_chars=150),
    "seg150-mil": Recipe(mil=1, segment_chars=150),
    "shipped": SHIPPED,  # seg250, MIL, team prompts
    "e5": Recipe(team=True, mil=1, use=0.0, e5=1.0),
    "e5x2": Recipe(team=True, mil=1, use=0.0, e5=2.0),
    "use-e5": Recipe(team=True, mil=1, e5=1.0),
    "use-e5x2": Recipe(team=True, mil=1, e5=2.0),
    "use-e5-words0.3": Recipe(team=True, mil=1, e5=1.0, words=0.3),
    "use-e5-chars0.3": Recipe(team=True, mil=1, e5=1.0, chars=0.3),
    "use-words0.3": Recipe(team=True, mil=1, words=0.3),
    "use-chars0.3": Recipe(team=True, mil=1, chars=0.3),
    "use-chars1": Recipe(team=True, mil=1, chars=1.0),
    "offtopic": Recipe(team=True, mil=1, offtopic=True),
    "use-e5-offtopic": Recipe(team=True, mil=1, e5=1.0, offtopic=True),
}
"""Recipes compared in cross-validation (``doc`` and ``split`` need features the product
does not compute: they are for comparison only)."""

SECOND = RECIPES["use-e5"]
"""The second stage's recipe (USE + e5 + patterns), chosen by cross-validation on train."""
BAND = (0.3, 0.85)
"""First-stage scores the second stage reads again (``python -m bench.injection.cascade``)."""


@dataclass
class TrainingSet:
    """Prompts with their base feature rows and the rows of their benign fragments."""

    prompts: list[Prompt]
    rows: list[NDArray[np.float32]]
    fragments: list[tuple[int, NDArray[np.float32], str]] = field(default_factory=list)

    @classmethod
    def build(
        cls,
        prompts: Sequence[Prompt],
        embed: Embed,
        size: int = SEGMENT_CHARS,
        views: Views | None = None,
    ) -> TrainingSet:
        """``views``: full rows (the e5 and hashed columns too), else USE and patterns."""
        texts = {i: f for i, p in enumerate(prompts) if p.label == 0 and (f := fragment(p.text))}
        found = fragment_rows_of(list(texts.values()), embed)
        rows = rows_of(prompts, embed, size)
        if views is not None:
            found = np.hstack([found, views.single(list(texts.values()))])
            rows = [
                np.hstack([r, views.columns(p.text)]) for r, p in zip(rows, prompts, strict=True)
            ]
        frags = [(i, row, t) for (i, t), row in zip(texts.items(), found, strict=True)]
        return cls(list(prompts), rows, frags)

    def subset(self, keep: NDArray[np.intp]) -> TrainingSet:
        index = {int(i): n for n, i in enumerate(keep)}
        frags = [(index[i], r, t) for i, r, t in self.fragments if i in index]
        return TrainingSet([self.prompts[i] for i in keep], [self.rows[i] for i in keep], frags)

    def plus(self, other: TrainingSet) -> TrainingSet:
        shift = len(self.prompts)
        frags = self.fragments + [(i + shift, r, t) for i, r, t in other.fragments]
        return TrainingSet(self.prompts + other.prompts, self.rows + other.rows, frags)


@dataclass(frozen=True)
class FitRows:
    """What a head is fitted on before any attack segment is added: whole prompts, then
    benign segments and fragments (``matrix``, ``y``, ``w``); each prompt's own rows and
    stratum weight, and which attacks are long enough to have segments."""

    rows: list[NDArray[np.floating]]
    weights: NDArray[np.float64]
    matrix: NDArray[np.floating]
    y: NDArray[np.float64]
    w: NDArray[np.float64]
    long_attacks: list[int]

    @classmethod
    def build(cls, recipe: Recipe, data: TrainingSet) -> FitRows:
        prompts = data.prompts
        weights = stratum_weights(prompts, recipe.exponent)
        labels = np.array([p.label for p in prompts], dtype=np.float64)
        rows = [recipe.rows(r, p.text) for p, r in zip(prompts, data.rows, strict=True)]
        benign_weight = float(weights[labels == 0].mean()) * SEGMENT_WEIGHT
        x = [r[0] for r in rows]
        extra = [s for p, r in zip(prompts, rows, strict=True) if p.label == 0 for s in r[1:]]
        extra += [recipe.rows(row[None, :], text)[0] for _, row, text in data.fragments]
        return cls(
            rows=rows,
            weights=weights,
            matrix=np.vstack([np.stack(x), np.stack(extra)]),
            y=np.concatenate([labels, np.zeros(len(extra))]),
            w=np.concatenate([weights, np.full(len(extra), benign_weight)]),
            long_attacks=[i for i, p in enumerate(prompts) if p.label == 1 and len(rows[i]) > 1],
        )

    def best_segments(self, coef: NDArray[np.float64]) -> list[NDArray[np.floating]]:
        """Each long attack's segment that ``coef`` ranks highest (multiple-instance)."""
        return [
            self.rows[i][1 + int(np.argmax(self.rows[i][1:] @ coef))] for i in self.long_attacks
        ]

    def with_segments(
        self, best: list[NDArray[np.floating]]
    ) -> tuple[NDArray[np.floating], NDArray[np.float64], NDArray[np.float64]]:
        """The fitting rows, labels and weights with ``best`` added as attacks."""
        if not best:
            return self.matrix, self.y, self.w
        return (
            np.vstack([self.matrix, np.stack(best)]),
            np.concatenate([self.y, np.ones(len(best))]),
            np.concatenate([self.w, self.weights[self.long_attacks] * SEGMENT_WEIGHT]),
        )


def fit_recipe(recipe: Recipe, data: TrainingSet, embed: Embed | None = None) -> InjectionHead:
    """The head ``recipe`` fits on ``data`` (weights over ``recipe.rows``)."""
    fit = FitRows.build(recipe, data)
    coef, bias = fit_binary(fit.matrix, fit.y, recipe.l2, fit.w)
    for _ in range(recipe.mil):
        matrix, y, w = fit.with_segments(fit.best_segments(coef))
        coef, bias = fit_binary(matrix, y, recipe.l2, w)
    return InjectionHead("fitting", coef, bias, {})


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


def _rounded(weights: NDArray[np.float64]) -> list[float]:
    return [float(f"{w:.{DIGITS}g}") for w in weights]


def head_json(
    first: InjectionHead,
    second: InjectionHead,
    band: tuple[float, float],
    thresholds: dict[str, float],
    notes: dict[str, object],
) -> dict[str, object]:
    """The packaged head file's content: the first stage's head and the second stage's
    (``vigia.guardrails.injection_cascade``), weights to ``DIGITS`` significant digits."""
    scales = {"use": SECOND.use, "patterns": 1.0, "e5": SECOND.e5}
    scales |= {"words": SECOND.words, "chars": SECOND.chars}
    return {
        "model": MODEL,
        "encoder": "use-m3 (clipped text and segments, vigia.guardrails.injection_text)",
        "features": ["use-m3 x512", *_pattern_names()],
        "l2": L2,
        "thresholds": thresholds,
        "notes": notes,
        "bias": first.bias,
        "weights": _rounded(first.weights),
        "second_stage": {
            "encoders": "use-m3 and multilingual-e5-small (query side, e5_texts)",
            "band": list(band),
            "scales": {name: scale for name, scale in scales.items() if scale},
            "bias": second.bias,
            "weights": _rounded(second.weights),
        },
    }


def _pattern_names() -> list[str]:
    from vigia.guardrails.injection_text import PATTERN_NAMES

    return [f"pattern:{name}" for name in PATTERN_NAMES]


def score_all(head: InjectionHead, rows: Sequence[NDArray[np.float32]]) -> NDArray[np.float64]:
    """The head's score of each prompt (its highest row), as the product computes it."""
    return np.array([head.score_rows(r) for r in rows])
