"""Questions with ``examples`` (few-shot) for fitting and reporting the examples path.

- choice: the dataset's bare labels with 10 examples each (CLINC150, Banking77, and on the
  fit side SIB-200 per language);
- binary: "is it about X?" asks (the dev task's phrasings and languages) with 5 examples of
  X (true) and 5 of other labels (false); asked of 5 states of X and 5 of other labels;
- scale: the urgency levels with 5 examples per level.

Fit questions draw examples and queries from the fit parts; reported ones draw examples
from the shots and queries from the reported parts.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from bench.decide.datasets import SHOTS, Pairs
from bench.decide.tasks import INTENT_ASKS, LANGUAGES, SCALE, TOPIC_ASKS, TOPICS
from bench.decide.urgency import urgency_rows

from vigia.decide import inference
from vigia.decide.texts import StateText, humanise, statement

BINARY_LABELS = 15
PER_SIDE = 5


@dataclass
class FewShot:
    """One question with examples and the states it is asked about (right candidate index)."""

    dataset: str
    plan: inference.Plan
    queries: list[tuple[str, int]]


def _by_label(pairs: Pairs) -> dict[str, list[str]]:
    grouped: dict[str, list[str]] = {}
    for text, label in pairs:
        grouped.setdefault(label, []).append(text)
    return grouped


def _name(label: str, lang: str) -> str:
    return TOPICS[label][lang] if label in TOPICS else humanise(label)


def choice_question(dataset: str, shots: Pairs, queries: Pairs, lang: str = "en") -> FewShot:
    """A choice over the bare labels, the shots as examples."""
    labels = sorted({label for _, label in shots})
    names = [_name(label, lang) for label in labels]
    examples = [(StateText(t, ""), labels.index(label)) for t, label in shots]
    plan = inference.Plan("choice", names, names, examples)
    return FewShot(dataset, plan, [(t, labels.index(label)) for t, label in queries])


def binary_questions(
    dataset: str, shots: Pairs, queries: Pairs, seed: int, lang: str | None = None
) -> list[FewShot]:
    """Yes/no asks about one label each, with examples of both answers."""
    rng = random.Random(seed)
    shot_texts, query_texts = _by_label(shots), _by_label(queries)
    labels = sorted(set(shot_texts) & set(query_texts))
    out = []
    for label in rng.sample(labels, min(BINARY_LABELS, len(labels))):
        others = [other for other in labels if other != label]
        ask_lang = lang or rng.choice(LANGUAGES)
        asks = TOPIC_ASKS if label in TOPICS else INTENT_ASKS
        ask = rng.choice(asks[ask_lang]).format(_name(label, ask_lang))
        examples = [(StateText(t, ""), 0) for t in rng.sample(shot_texts[label], PER_SIDE)]
        examples += [
            (StateText(rng.choice(shot_texts[rng.choice(others)]), ""), 1) for _ in range(PER_SIDE)
        ]
        asked = [
            (t, 0) for t in rng.sample(query_texts[label], min(PER_SIDE, len(query_texts[label])))
        ]
        asked += [(rng.choice(query_texts[rng.choice(others)]), 1) for _ in range(PER_SIDE)]
        plan = inference.Plan("binary", ["yes"], [statement(ask)], examples, ask)
        out.append(FewShot(dataset, plan, asked))
    return out


def scale_questions(dataset: str, pool: Pairs, seed: int) -> list[FewShot]:
    """Urgency with 5 examples per level (one question per language), the rest asked."""
    rng = random.Random(seed)
    rows = urgency_rows(pool, seed)
    out = []
    for lang in LANGUAGES:
        ask, levels = SCALE[lang]
        examples, asked, taken = [], [], [0, 0, 0]
        for text, level in rng.sample(rows, len(rows)):
            if taken[level] < PER_SIDE:
                examples.append((StateText(text, ""), level))
                taken[level] += 1
            else:
                asked.append((text, level))
        texts = [f"{statement(ask)}: {level}" for level in levels]
        out.append(FewShot(dataset, inference.Plan("scale", levels, texts, examples, ask), asked))
    return out


def fewshot_questions(parts: dict[str, Pairs], fit: bool) -> list[FewShot]:
    """Every question with examples, from the fit parts or for the report."""
    clinc_queries = parts["clinc_calib" if fit else "clinc_val"]
    banking_queries = parts["banking_fit" if fit else "banking_eval"]
    out = [
        choice_question("clinc150", parts["clinc_shots"], clinc_queries),
        choice_question("banking77", parts["banking_shots"], banking_queries),
    ]
    out += binary_questions("clinc150", parts["clinc_shots"], clinc_queries, 31 + fit)
    out += binary_questions("banking77", parts["banking_shots"], banking_queries, 41 + fit)
    out += scale_questions("banking77", banking_queries, 51 + fit)
    out += scale_questions("clinc150", clinc_queries, 61 + fit)
    for lang in LANGUAGES:
        rows = parts[f"sib_{lang}_train" if fit else f"sib_{lang}_dev"]
        grouped = _by_label(parts[f"sib_{lang}_train"])
        rng = random.Random(17)
        shots: Pairs = []
        for label, texts in sorted(grouped.items()):
            shots += [(t, label) for t in rng.sample(texts, SHOTS)]
        chosen = {t for t, _ in shots}
        asked = [(t, label) for t, label in rows if t not in chosen]
        out.append(choice_question("sib200", shots, asked, lang))
        out += binary_questions("sib200", shots, asked, 71 + fit, lang)
    return out
