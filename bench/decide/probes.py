"""Probes of issue 12, third round: what was tried for zero-shot scale and for calibration.

Nothing here is shipped; the figures in ``docs/benchmarks.md`` come from these functions.

- ``scale_probe``: Spearman correlation of several zero-shot scorings with the urgency
  level (fit and report parts of each dataset), an ordered logit fitted on the one scoring
  with signal (pooled and leaving one dataset out), and e5's cost per state.
- ``calibration_probe``: the shipped binary map refitted with extra transferable features
  in its stacked stage (state length, language interactions), and choice maps with
  language and spread features, each also fitted without SIB-200.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import numpy as np
from bench.decide.datasets import Pairs
from bench.decide.fitting import (
    BINARY_FEATURES,
    CHOICE_FEATURES,
    Readings,
    choice_rows,
    fit_binary_map,
    fit_inverse_temperature,
    label_folds,
    read_task,
)
from bench.decide.metrics import ece
from bench.decide.tasks import Task

from vigia.decide import scoring
from vigia.decide.calibration import Calibration
from vigia.decide.encoder import TextEncoder
from vigia.decide.reference import REFERENCE_STATES, centred, get_reference
from vigia.decide.texts import level_text, statement
from vigia.kit.logistic import fit_binary

Array = np.ndarray
# Generic yes/no asks per level, and a direct yes/no ask of the scale's quality.
LEVEL_ASKS: dict[str, Callable[[str, str, str], str]] = {
    "level text as ask": lambda ask, level, lang: level_text(ask, level),
    "ask + level": lambda ask, level, lang: f"{statement(ask)} {level}?",
    "is it <level> urgency": lambda ask, level, lang: {
        "en": f"Is it {level} urgency?",
        "es": f"¿Es de urgencia {level}?",
        "pt": f"É de urgência {level}?",
    }[lang],
}
DIRECT_ASKS = {
    "is it urgent?": {"en": "Is it urgent?", "es": "¿Es urgente?", "pt": "É urgente?"},
    "is this an emergency?": {
        "en": "Is this an emergency?",
        "es": "¿Es una emergencia?",
        "pt": "É uma emergência?",
    },
}
# Written for the urgency task (they restate the rule of ``urgency.py``): not generic.
SITUATIONS = {
    "en": (
        "Just a question, nothing is wrong, no hurry.",
        "Something is wrong and must be fixed right now.",
    ),
    "es": ("Solo una consulta, no pasa nada, sin prisa.", "Algo va mal y hay que arreglarlo ya."),
    "pt": (
        "Só uma dúvida, está tudo bem, sem pressa.",
        "Algo deu errado e precisa ser resolvido agora.",
    ),
}


def spearman(a: list[float], b: list[int]) -> float:
    """Rank correlation (ties share their mean rank)."""

    def ranks(values: Array) -> Array:
        order = np.argsort(values, kind="stable")
        ranked = np.empty(len(values))
        ranked[order] = np.arange(len(values))
        for value in np.unique(values):
            same = values == value
            ranked[same] = ranked[same].mean()
        return ranked

    return float(np.corrcoef(ranks(np.asarray(a, float)), ranks(np.asarray(b, float)))[0, 1])


def _slope(values: Array) -> float:
    return scoring.trend(np.asarray(values, dtype=np.float64))


def _binary_task(task: Task, asks: list[str]) -> Task:
    rows = [
        (state, {"type": "binary", "ask": ask}, True)
        for (state, _, _), ask in zip(task.rows, asks, strict=True)
    ]
    return Task(task.name, "binary", task.dataset, task.split, rows, task.langs)  # type: ignore[arg-type]


def scale_scores(
    encoder: TextEncoder, calibration: Calibration, task: Task
) -> dict[str, list[float]]:
    """Per scoring, one number per row that should grow with the level."""
    scores: dict[str, list[float]] = {}
    levels_of = [wire["levels"] for _, wire, _ in task.rows]
    asks = [str(wire["ask"]) for _, wire, _ in task.rows]
    shipped = read_task(encoder, calibration, task)
    scores["USE trend (shipped level texts)"] = [
        scoring.trend(r.closeness) for r in shipped.readings
    ]
    for name, make in LEVEL_ASKS.items():
        logits, pairs = np.zeros((len(task.rows), 3)), np.zeros((len(task.rows), 3))
        for k in range(3):
            texts = [
                make(a, lv[k], lang)
                for a, lv, lang in zip(asks, levels_of, task.langs, strict=True)
            ]
            read = read_task(encoder, calibration, _binary_task(task, texts))
            logits[:, k] = [calibration.binary(r.features) for r in read.readings]
            pairs[:, k] = [r.features["pair"] for r in read.readings]
        scores[f"USE binary map, {name}"] = [_slope(row) for row in logits]
        scores[f"USE pair only, {name}"] = [_slope(row) for row in pairs]
    for name, by_lang in DIRECT_ASKS.items():
        read = read_task(encoder, calibration, _binary_task(task, [by_lang[x] for x in task.langs]))
        scores[f"USE binary map, direct ask '{name}'"] = [
            calibration.binary(r.features) for r in read.readings
        ]
    states = [str(state).strip() for state, _, _ in task.rows]
    for name in ("use", "e5"):
        reference = (
            get_reference(encoder, "use").centre
            if name == "use"
            else encoder.embed(REFERENCE_STATES, [name])[name].astype(np.float64).mean(axis=0)
        )
        vectors = centred(encoder.embed(states, [name])[name], reference)
        if name == "e5":
            level_scores = []
            for vector, ask, levels in zip(vectors, asks, levels_of, strict=True):
                texts = [level_text(ask, level) for level in levels]
                level_scores.append(
                    _slope(centred(encoder.embed(texts, [name])[name], reference) @ vector)
                )
            scores["e5 trend (shipped level texts)"] = level_scores
        anchors = {
            lang: centred(encoder.embed(list(pair), [name])[name], reference)
            for lang, pair in SITUATIONS.items()
        }
        scores[f"{name} situation anchors (urgency-specific)"] = [
            float(v @ (anchors[lang][1] - anchors[lang][0]))
            for v, lang in zip(vectors, task.langs, strict=True)
        ]
    return scores


def fit_ordered(x: Array, y: Array) -> tuple[float, float, float]:
    """Slope (≥ 0), offset and spacing of a 3-level ordered logit, NLL on a grid."""
    best = (math.inf, 0.0, 0.0, 1.0)
    for spacing in (0.25 * math.exp(i / 5) for i in range(21)):
        for slope in np.linspace(0, 40, 81):
            for offset in np.linspace(-3, 3, 25):
                cuts = spacing * np.array([-0.5, 0.5])
                below = 1 / (1 + np.exp(-(cuts[None, :] - (slope * x + offset)[:, None])))
                p = np.diff(np.hstack([np.zeros((len(x), 1)), below, np.ones((len(x), 1))]), axis=1)
                nll = -float(np.log(np.maximum(p[np.arange(len(x)), y], 1e-12)).mean())
                if nll < best[0]:
                    best = (nll, float(slope), float(offset), spacing)
    return best[1], best[2], best[3]


def ordered_figures(params: tuple[float, float, float], x: Array, y: Array) -> dict[str, float]:
    """Accuracy of the median level, mean top probability and the highest confidence."""
    slope, offset, spacing = params
    p = [scoring.ordered_probabilities(slope * v + offset, 3, spacing) for v in x]
    median = np.array([scoring.median_index(row) for row in p])
    return {
        "accuracy": float((median == y).mean()),
        "mean_top": float(np.mean([row.max() for row in p])),
        "max_confidence": float(max(scoring.confidence(row) for row in p)),
    }


def scale_probe(
    encoder: TextEncoder, calibration: Calibration, tasks: list[Task]
) -> dict[str, Any]:
    """Correlations per scoring and task; the ordered logit on the situation anchors."""
    scale = [t for t in tasks if t.kind == "scale"]
    labels = {t.name: np.array([w["levels"].index(a) for _, w, a in t.rows]) for t in scale}
    scores = {t.name: scale_scores(encoder, calibration, t) for t in scale}
    report: dict[str, Any] = {
        "spearman": {
            name: {t.name: spearman(scores[t.name][name], list(labels[t.name])) for t in scale}
            for name in scores[scale[0].name]
        }
    }
    anchor = "e5 situation anchors (urgency-specific)"
    fits = {"pooled": [t for t in scale if t.split == "fit"]}
    fits |= {
        f"without {d}": [t for t in fits["pooled"] if t.dataset != d]
        for d in ("banking77", "clinc150")
    }
    ordinal: dict[str, Any] = {}
    for name, fitted in fits.items():
        x = np.concatenate([scores[t.name][anchor] for t in fitted])
        params = fit_ordered(x, np.concatenate([labels[t.name] for t in fitted]))
        ordinal[name] = {
            "params": params,
            **{
                t.name: ordered_figures(params, np.array(scores[t.name][anchor]), labels[t.name])
                for t in scale
                if t.split == "report"
                and (name == "pooled" or t.dataset not in {f.dataset for f in fitted})
            },
        }
    report["ordinal_e5_situation"] = ordinal
    e5 = encoder.encoders["e5"]
    inner = getattr(e5, "_embedder", e5)
    timings = []
    for text in [s for s, _, _ in scale[1].rows[:60]]:
        started = time.perf_counter()
        inner.queries([f"{text} (timing)"])
        timings.append((time.perf_counter() - started) * 1000)
    report["e5_ms_per_state_p50"] = float(np.percentile(timings, 50))
    return report


def _words(state: str) -> float:
    return math.log(1 + len(state.split()))


EXTRA_BINARY: dict[str, Callable[[dict[str, float], str], list[float]]] = {
    "none": lambda f, s: [],
    "log_words": lambda f, s: [_words(s)],
    "long (> 12 words)": lambda f, s: [float(len(s.split()) > 12)],
    "language × pair, language × ask_z": lambda f, s: [
        f["lang_es"] * f["pair"],
        f["lang_pt"] * f["pair"],
        f["lang_es"] * f["ask_z"],
        f["lang_pt"] * f["ask_z"],
    ],
}


def _binary_matrix(
    parts: list[Readings], pair: Array | None, weights: Array, extra: str
) -> tuple[Array, Array, Array]:
    rows, y, datasets = [], [], []
    values = iter(pair) if pair is not None else None
    for part in parts:
        for reading, label, (state, _, _) in zip(
            part.readings, part.labels, part.task.rows, strict=True
        ):
            assert reading.pair is not None
            features = {
                **reading.features,
                "pair": float(next(values)) if values else float(reading.pair @ weights),
            }
            names = (*BINARY_FEATURES[1:], "pair")
            rows.append([features[n] for n in names] + EXTRA_BINARY[extra](features, state))
            y.append(1.0 - label)
            datasets.append(part.task.dataset)
    return np.array(rows), np.array(y), np.array(datasets)


def _ece_rows(p: Array, y: Array) -> tuple[Array, Array]:
    return np.maximum(p, 1 - p), ((p >= 0.5) == (y == 1)).astype(float)


def calibration_probe(
    encoder: TextEncoder, calibration: Calibration, tasks: list[Task], parts: dict[str, Pairs]
) -> dict[str, Any]:
    """Binary and choice maps with extra features: ECE and accuracy per report set."""
    read = {t.name: read_task(encoder, calibration, t) for t in tasks if t.kind != "scale"}
    fit_binary_parts = [read[t.name] for t in tasks if t.kind == "binary" and t.split == "fit"]
    _, pair_weights, unseen = fit_binary_map(fit_binary_parts, label_folds(fit_binary_parts, parts))
    weights = np.array(pair_weights)
    report_binary = [read[t.name] for t in tasks if t.kind == "binary" and t.split == "report"]
    report: dict[str, Any] = {"binary": {}, "choice": {}}
    for extra in EXTRA_BINARY:
        x, y, datasets = _binary_matrix(fit_binary_parts, unseen, weights, extra)
        for held in ("", "sib200"):
            keep = datasets != held
            coef, intercept = fit_binary(x[keep], y[keep], l2=1e-4)
            figures: dict[str, dict[str, Any]] = {}
            for part in report_binary:
                if held and part.task.dataset != held:
                    continue
                xr, yr, _ = _binary_matrix([part], None, weights, extra)
                top, correct = _ece_rows(1 / (1 + np.exp(-(xr @ coef + intercept))), yr)
                figures[part.task.name] = {
                    "accuracy": float(correct.mean()),
                    "ece": ece(top, correct),
                    "top": top,
                    "correct": correct,
                }
            sib = [f for n, f in figures.items() if "sib200" in n]
            top, correct = (
                np.concatenate([f["top"] for f in sib]),
                np.concatenate([f["correct"] for f in sib]),
            )
            figures["binary_sib200_dev_pooled"] = {
                "accuracy": float(correct.mean()),
                "ece": ece(top, correct),
            }
            clean = {
                n: {k: v for k, v in f.items() if k in ("accuracy", "ece")}
                for n, f in figures.items()
            }
            count = len(BINARY_FEATURES)  # the scalar features and ``pair`` come first
            clean["weights"] = {
                "pair": round(float(coef[count - 1]), 3),
                "extra": [round(float(w), 3) for w in coef[count:]],
            }
            report["binary"][f"{extra}{' (fit without sib200)' if held else ''}"] = clean
    fit_choice = [read[t.name] for t in tasks if t.kind == "choice" and t.split == "fit"]
    report_choice = [read[t.name] for t in tasks if t.kind == "choice" and t.split == "report"]
    for extra_features in ((), ("lang_es", "lang_pt"), ("spread",)):
        for held in ("", "sib200"):
            linear = fit_inverse_temperature(
                choice_rows([p for p in fit_choice if p.task.dataset != held]),
                (*CHOICE_FEATURES, *extra_features),
            )
            mapped = replace(calibration, choice=linear)
            eces: dict[str, float] = {}
            pooled: list[tuple[float, float]] = []
            for part in report_choice:
                if held and part.task.dataset != held:
                    continue
                p = [scoring.calibrated(r, mapped) for r in part.readings]
                rows = [
                    (float(q.max()), float(np.argmax(q) == label))
                    for q, label in zip(p, part.labels, strict=True)
                ]
                eces[part.task.name] = ece(
                    np.array([a for a, _ in rows]), np.array([b for _, b in rows])
                )
                pooled += rows if "sib200" in part.task.name else []
            eces["sib200_dev_pooled"] = ece(
                np.array([a for a, _ in pooled]), np.array([b for _, b in pooled])
            )
            report["choice"][
                f"+{'+'.join(extra_features) or 'none'}{' (fit without sib200)' if held else ''}"
            ] = eces
    return report
