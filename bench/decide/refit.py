"""The whole refit (``--fit``): the zero-shot maps (``fitting``) and the examples' map.

The examples' map is the log inverse temperature of the few-shot classifier's logits,
linear in ``EXAMPLES_FEATURES``, by NLL over choice, binary and scale questions with
examples (CLINC150, Banking77, SIB-200 es/pt/en: ``examples.py``), with its default
thresholds per type. It reads every fit state with e5 and depends on no zero-shot map.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np
from bench.decide.datasets import Pairs
from bench.decide.examples import FewShot, fewshot_questions
from bench.decide.fitting import (
    EXAMPLES_FEATURES,
    default_threshold,
    fit_inverse_temperature,
    fit_maps,
    read_fit,
)
from bench.decide.tasks import Task

from vigia.decide import inference, scoring
from vigia.decide.calibration import TYPES, Calibration, Linear
from vigia.decide.encoder import TextEncoder, embed_states
from vigia.decide.texts import StateText
from vigia.language import detect_language


def fit(
    encoder: TextEncoder,
    base: Calibration,
    tasks: list[Task],
    parts: dict[str, Pairs],
    exclude: str = "",
) -> tuple[Calibration, dict[str, Any]]:
    """A calibration fitted on the ``fit`` tasks (and few-shot fit sets); fit-set figures."""
    calibration, _ = fit_maps(read_fit(encoder, base, tasks), base, parts)
    linear, examples_defaults = fit_examples(encoder, calibration, parts, exclude)
    calibration = replace(
        calibration,
        examples=linear,
        default_min_confidence_examples={kind: examples_defaults[kind] for kind in TYPES},
    )
    fitted = [t.name for t in tasks if t.split == "fit"]
    return calibration, {"fit_sets": fitted}


def fewshot_logits(
    encoder: TextEncoder, calibration: Calibration, question: FewShot
) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """The product classifier's logits for the question's states, right answers, languages."""
    classifier = inference.classifier_for(question.plan, encoder, calibration)
    names = list(calibration.encoders_examples)
    states = [StateText(t, "") for t, _ in question.queries]
    vectors = embed_states(encoder, states, names, calibration.facts_weight)
    truth = np.array([label for _, label in question.queries])
    return classifier.logits(vectors), truth, [detect_language(t) for t, _ in question.queries]


def fit_examples(
    encoder: TextEncoder, calibration: Calibration, parts: dict[str, Pairs], exclude: str = ""
) -> tuple[Linear, dict[str, float]]:
    """The examples' inverse-temperature map (choice, binary and scale questions pooled) and
    the default thresholds with examples, per type."""
    read = []
    rows: list[tuple[np.ndarray, dict[str, float], int]] = []
    for question in fewshot_questions(parts, fit=True):
        if question.dataset == exclude:
            continue
        logits, truth, languages = fewshot_logits(encoder, calibration, question)
        read.append((question, logits, truth, languages))
        for row, label, lang in zip(logits, truth, languages, strict=True):
            features = scoring.choice_features(row, scoring.language_features(lang))
            rows.append((row, features, int(label)))
    linear = fit_inverse_temperature(rows, EXAMPLES_FEATURES)
    with_map = replace(calibration, examples=linear)
    groups: dict[str, dict[str, list[tuple[np.ndarray, np.ndarray]]]] = {}
    for question, logits, truth, languages in read:
        confidences, correct = [], []
        for row, label, lang in zip(logits, truth, languages, strict=True):
            p = scoring.examples_probabilities(row, lang, with_map)
            best = scoring.median_index(p) if question.plan.kind == "scale" else int(np.argmax(p))
            confidences.append(round(scoring.confidence(p), 4))
            correct.append(best == label)
        kind_groups = groups.setdefault(question.plan.kind, {})
        kind_groups.setdefault(question.dataset, []).append(
            (np.array(confidences), np.array(correct, dtype=float))
        )
    return linear, {kind: default_threshold(found) for kind, found in groups.items()}
