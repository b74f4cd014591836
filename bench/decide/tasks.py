"""The dev tasks of the decisions benchmark, as ``/v1/decide`` questions with bare labels.

Every task is a list of rows ``(state, question, answer)`` where ``question`` is a wire
question (``schemas.Question``), so the product reads them exactly as a caller's:

- **choice**: the options are the datasets' own label names, humanised (``book_flight`` →
  ``book flight``); SIB-200 topic names in the language of the text (translated once, the
  7 bare words below). Never descriptions.
- **binary**: from the intent and topic sets: each state is asked about its true label
  and about another label drawn at random (so half the rows are yes), as a yes/no ask in
  English, Spanish or Portuguese (two phrasings per language, picked at random). Fit
  parts are drawn ``FIT_DRAWS`` times per state, with more phrasings (``FIT_*_ASKS``):
  more asks and other labels to learn the binary similarity from; reported parts once.
- **scale**: urgency ``low < medium < high`` (es ``baja/media/alta``, pt
  ``baixa/média/alta``), levels derived from the intent labels of Banking77 and CLINC150 by
  the fixed mapping in ``urgency.py``; equal counts per level.

``split`` says whether the rows may be fitted on (``fit``) or are only reported
(``report``). ``dataset`` names the source, for held-out (leave-one-dataset-out) figures.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Literal

from bench.decide.datasets import Pairs
from bench.decide.urgency import urgency_rows

from vigia.decide.texts import humanise

Kind = Literal["choice", "scale", "binary"]

TOPICS = {
    "science/technology": {
        "en": "science/technology", "es": "ciencia/tecnología", "pt": "ciência/tecnologia"
    },
    "travel": {"en": "travel", "es": "viajes", "pt": "viagens"},
    "politics": {"en": "politics", "es": "política", "pt": "política"},
    "sports": {"en": "sports", "es": "deportes", "pt": "esportes"},
    "health": {"en": "health", "es": "salud", "pt": "saúde"},
    "entertainment": {"en": "entertainment", "es": "entretenimiento", "pt": "entretenimento"},
    "geography": {"en": "geography", "es": "geografía", "pt": "geografia"},
}  # fmt: skip
CHOICE_ASKS = {"en": "What is this about?", "es": "¿De qué trata?", "pt": "Do que se trata?"}
TOPIC_ASKS = {
    "en": ["Is this text about {}?", "Is it about {}?"],
    "es": ["¿Este texto trata de {}?", "¿Se trata de {}?"],
    "pt": ["Este texto fala de {}?", "Trata-se de {}?"],
}
INTENT_ASKS = {
    "en": ["Does the user want {}?", "Is the request about {}?"],
    "es": ["¿El usuario quiere {}?", "¿La petición es sobre {}?"],
    "pt": ["O usuário quer {}?", "O pedido é sobre {}?"],
}
# More phrasings for the fit parts only (the reported parts keep the two above), so that
# the learned binary similarity does not learn two templates per language.
FIT_TOPIC_ASKS = {
    "en": ["Does this text talk about {}?", "Is the subject {}?"],
    "es": ["¿El tema es {}?", "¿Habla de {}?"],
    "pt": ["O assunto é {}?", "Fala sobre {}?"],
}
FIT_INTENT_ASKS = {
    "en": ["Is the user asking for {}?", "Does this concern {}?", "Is it a request for {}?"],
    "es": ["¿El usuario pide {}?", "¿Tiene que ver con {}?", "¿Es una solicitud de {}?"],
    "pt": ["O usuário pede {}?", "Tem a ver com {}?", "É um pedido de {}?"],
}
LANGUAGES = ("en", "es", "pt")
FIT_DRAWS = 3

Row = tuple[str, dict[str, Any], str | bool]


@dataclass
class Task:
    """Rows of one kind from one dataset and split; ``lang`` is the language of the asks."""

    name: str
    kind: Kind
    dataset: str
    split: Literal["fit", "report"]
    rows: list[Row] = field(default_factory=list)
    langs: list[str] = field(default_factory=list)  # per row: language of the ask / labels
    out_of_scope: list[str] = field(default_factory=list)  # states no option fits


def choice_task(
    name: str, dataset: str, split: Literal["fit", "report"], pairs: Pairs, lang: str = "en"
) -> Task:
    """A choice over the dataset's bare label names (topics in the text's language)."""
    labels = sorted({label for _, label in pairs})
    names = {label: TOPICS[label][lang] if label in TOPICS else humanise(label) for label in labels}
    question = {
        "type": "choice",
        "ask": CHOICE_ASKS[lang],
        "options": {names[label]: None for label in labels},
    }
    rows: list[Row] = [(text, question, names[label]) for text, label in pairs]
    return Task(name, "choice", dataset, split, rows, [lang] * len(rows))


def binary_task(
    name: str,
    dataset: str,
    split: Literal["fit", "report"],
    pairs: Pairs,
    seed: int,
    lang: str | None = None,
    draws: int = 1,
) -> Task:
    """Each state asked twice per draw: about its true label (yes) and about another label
    drawn at random (no), so the task is exactly half yes; asks in ``lang`` or in one of
    the three languages drawn per row."""
    rng = random.Random(seed)
    labels = sorted({label for _, label in pairs})
    task = Task(name, "binary", dataset, split)
    topic_asks, intent_asks = TOPIC_ASKS, INTENT_ASKS
    if split == "fit":
        topic_asks = {lang: TOPIC_ASKS[lang] + FIT_TOPIC_ASKS[lang] for lang in LANGUAGES}
        intent_asks = {lang: INTENT_ASKS[lang] + FIT_INTENT_ASKS[lang] for lang in LANGUAGES}
    for text, label in pairs:
        for _ in range(draws):
            other = rng.choice([candidate for candidate in labels if candidate != label])
            for asked, yes in ((label, True), (other, False)):
                ask_lang = lang or rng.choice(LANGUAGES)
                if asked in TOPICS:
                    template, words = rng.choice(topic_asks[ask_lang]), TOPICS[asked][ask_lang]
                else:
                    template, words = rng.choice(intent_asks[ask_lang]), humanise(asked)
                task.rows.append((text, {"type": "binary", "ask": template.format(words)}, yes))
                task.langs.append(ask_lang)
    return task


SCALE = {
    "en": ("How urgent is it?", ["low", "medium", "high"]),
    "es": ("¿Qué tan urgente es?", ["baja", "media", "alta"]),
    "pt": ("Qual é a urgência?", ["baixa", "média", "alta"]),
}


def scale_task(
    name: str, dataset: str, split: Literal["fit", "report"], pairs: Pairs, seed: int
) -> Task:
    """Urgency (3 ordered levels) of the states whose intent has a derived level."""
    rng = random.Random(seed)
    task = Task(name, "scale", dataset, split)
    for text, level in urgency_rows(pairs, seed):
        lang = rng.choice(LANGUAGES)
        ask, levels = SCALE[lang]
        task.rows.append((text, {"type": "scale", "ask": ask, "levels": levels}, levels[level]))
        task.langs.append(lang)
    return task


def all_tasks(parts: dict[str, Pairs]) -> list[Task]:
    """Every dev task: fit parts and reported parts."""
    tasks = [
        choice_task("clinc150_fit", "clinc150", "fit", parts["clinc_shots"] + parts["clinc_calib"]),
        choice_task("clinc150_val", "clinc150", "report", parts["clinc_val"]),
        choice_task("banking77_fit", "banking77", "fit", parts["banking_fit"]),
        choice_task("banking77_eval", "banking77", "report", parts["banking_eval"]),
        choice_task("slurp_devel", "slurp", "report", parts["slurp_devel"]),
    ]
    tasks[1].out_of_scope = [t for t, _ in parts["clinc_oos_val"]]
    for lang in LANGUAGES:
        for split, role in (("train", "fit"), ("dev", "report")):
            pairs = parts[f"sib_{lang}_{split}"]
            tasks.append(choice_task(f"sib200_{lang}_{split}", "sib200", role, pairs, lang))  # type: ignore[arg-type]
    Source = tuple[str, str, str, Pairs, str | None]
    binary_sources: list[Source] = [
        ("clinc150_fit", "clinc150", "fit", parts["clinc_shots"] + parts["clinc_calib"], None),
        ("clinc150_val", "clinc150", "report", parts["clinc_val"], None),
        ("banking77_fit", "banking77", "fit", parts["banking_fit"], None),
        ("banking77_eval", "banking77", "report", parts["banking_eval"], None),
        ("slurp_devel", "slurp", "report", parts["slurp_devel"], None),
    ] + [
        (f"sib200_{lang}_{split}", "sib200", role, parts[f"sib_{lang}_{split}"], lang)
        for lang in LANGUAGES
        for split, role in (("train", "fit"), ("dev", "report"))
    ]
    for seed, (name, dataset, role, pairs, ask_lang) in enumerate(binary_sources):
        draws = FIT_DRAWS if role == "fit" else 1
        task = binary_task(f"binary_{name}", dataset, role, pairs, 100 + seed, ask_lang, draws)  # type: ignore[arg-type]
        tasks.append(task)
    tasks += [
        scale_task("urgency_banking77_fit", "banking77", "fit", parts["banking_fit"], 201),
        scale_task("urgency_banking77_eval", "banking77", "report", parts["banking_eval"], 202),
        scale_task("urgency_clinc150_fit", "clinc150", "fit", parts["clinc_calib"], 203),
        scale_task("urgency_clinc150_val", "clinc150", "report", parts["clinc_val"], 204),
    ]
    return tasks


def texts_of(tasks: list[Task]) -> list[str]:
    """Every state of the tasks (what must be embedded)."""
    return list(
        dict.fromkeys(t for task in tasks for t in [*(r[0] for r in task.rows), *task.out_of_scope])
    )
