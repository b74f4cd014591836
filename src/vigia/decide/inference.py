"""The decision model over one state: plans (what each question asks), probabilities.

``run_model`` reads a state once and answers every plan: zero-shot plans through the
reference-centred closeness and their calibrated maps (``scoring``), plans with examples
through the classifier fitted on them (``fewshot``). ``service`` turns the outcomes into
wire answers.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

import numpy as np
from numpy.typing import NDArray

from vigia.decide import fewshot, scoring
from vigia.decide.calibration import Calibration, get_calibration
from vigia.decide.encoder import TextEncoder, embed_states, get_text_encoder
from vigia.decide.reference import centred, get_reference
from vigia.decide.schemas import Question
from vigia.decide.texts import StateText, level_text, option_text, read_state, statement
from vigia.language import content_terms, detect_language

Kind = Literal["choice", "scale", "binary"]


@dataclass
class Plan:
    """One question as the model sees it: candidate keys and texts, labelled examples.

    Binary plans have one candidate (``yes``), whose text is the ask as a statement;
    ``ask`` keeps the ask as written.
    """

    kind: Kind
    keys: list[str]
    texts: list[str]
    examples: list[tuple[StateText, int]] = field(default_factory=list)
    ask: str = ""


@dataclass(frozen=True)
class Outcome:
    """The model's reading of one question: probabilities over its candidates.

    ``meaningless``: the state had nothing to read; the probabilities are uniform and the
    answer always abstains.
    """

    plan: Plan
    probabilities: NDArray[np.float64]
    learned: bool = False
    meaningless: bool = False


def plan_question(question: Question) -> Plan:
    """The candidates and examples of a ``/v1/decide`` question."""
    examples = question.examples or []
    if question.type == "choice":
        options = question.options or {}
        keys = list(options)
        texts = [option_text(key, description) for key, description in options.items()]
    elif question.type == "scale":
        keys = list(question.levels or [])
        texts = [level_text(question.ask, level) for level in keys]
    else:
        keys, texts = ["yes"], [statement(question.ask)]
    if question.type == "binary":
        labelled = [(read_state(e.state), 0 if e.answer is True else 1) for e in examples]
    else:
        labelled = [(read_state(e.state), keys.index(str(e.answer))) for e in examples]
    return Plan(question.type, keys, texts, labelled, question.ask)


def learns(plan: Plan) -> bool:
    """Whether a plan is decided by a classifier fitted on its examples.

    Choice and scale: any example. Binary: examples of both answers (else the zero-shot
    rule applies).
    """
    labels = {label for _, label in plan.examples}
    return len(labels) >= 2 if plan.kind == "binary" else bool(labels)


def classifier_for(
    plan: Plan, encoder: TextEncoder, calibration: Calibration
) -> fewshot.Classifier:
    """The plan's classifier: from the cache, else fitted on its texts and examples."""
    weights = calibration.encoders_examples
    classes = 2 if plan.kind == "binary" else len(plan.keys)
    labelled = [(state.prose, state.facts, label) for state, label in plan.examples]
    key = fewshot.fingerprint(
        weights,
        calibration.l2_examples,
        calibration.text_weight,
        calibration.facts_weight,
        classes,
        plan.texts,
        labelled,
    )
    classifier = fewshot.CLASSIFIERS.get(key)
    if classifier is None:
        rows = [StateText(text, "") for text in plan.texts] + [s for s, _ in plan.examples]
        labels = [*range(len(plan.texts)), *(label for _, label in plan.examples)]
        row_weights = [calibration.text_weight] * len(plan.texts) + [1.0] * len(plan.examples)
        classifier = fewshot.fit(
            embed_states(encoder, rows, list(weights), calibration.facts_weight),
            np.array(labels, dtype=np.int64),
            np.array(row_weights),
            classes,
            weights,
            calibration.l2_examples,
        )
        fewshot.CLASSIFIERS.put(key, classifier)
    return classifier


def uniform(plan: Plan) -> NDArray[np.float64]:
    """Every candidate as likely (binary: yes and no at one half)."""
    count = 2 if plan.kind == "binary" else len(plan.keys)
    return np.full(count, 1.0 / count)


def run_model(
    state: object,
    plans: list[Plan],
    encoder: TextEncoder | None = None,
    calibration: Calibration | None = None,
) -> list[Outcome]:
    """Probabilities for every plan (binary: ``[yes, no]``).

    ``state`` is a wire state (text, object, array) or a ``StateText``. A state with nothing
    to read answers uniform probabilities, flagged ``meaningless``. Zero-shot plans read
    the state with the zero-shot encoder only; plans with examples (and only then) also
    with the examples encoders.
    """
    calibration = calibration or get_calibration()
    text = state if isinstance(state, StateText) else read_state(state)
    if text.meaningless:
        return [Outcome(plan, uniform(plan), meaningless=True) for plan in plans]
    learning = [learns(plan) for plan in plans]
    names = [calibration.encoder]
    if any(learning):
        names += [n for n in calibration.encoders_examples if n not in names]
    encoder = encoder or get_text_encoder(tuple(names))
    vectors = embed_states(encoder, [text], names, calibration.facts_weight)
    language = detect_language(text.text)
    reader = ZeroShot(encoder, calibration, vectors[calibration.encoder][0], text, language)
    outcomes = []
    for plan, learned in zip(plans, learning, strict=True):
        if learned:
            logits = classifier_for(plan, encoder, calibration).logits(vectors)[0]
            probabilities = scoring.examples_probabilities(logits, language, calibration)
        else:
            probabilities = scoring.calibrated(reader.read(plan), calibration)
        outcomes.append(Outcome(plan, probabilities, learned))
    return outcomes


def read_zero_shot(
    state: object, plans: list[Plan], encoder: TextEncoder, calibration: Calibration
) -> list[scoring.Reading]:
    """What the zero-shot model reads for each plan, before calibration (for fitting)."""
    text = state if isinstance(state, StateText) else read_state(state)
    vector = embed_states(encoder, [text], [calibration.encoder], calibration.facts_weight)
    reader = ZeroShot(
        encoder, calibration, vector[calibration.encoder][0], text, detect_language(text.text)
    )
    return [reader.read(plan) for plan in plans]


class ZeroShot:
    """Reads plans without examples against one state (centred vectors, reference)."""

    def __init__(
        self,
        encoder: TextEncoder,
        calibration: Calibration,
        state_vector: NDArray[np.float32],
        text: StateText,
        language: str,
    ) -> None:
        self.encoder, self.name, self.language = encoder, calibration.encoder, language
        self.pair_weights = calibration.binary_pair
        self.centroids = calibration.label_centroids()
        self.reference = get_reference(encoder, calibration.encoder)
        self.state = centred(state_vector, self.reference.centre)
        self._text = text
        self._terms: set[str] | None = None

    def read(self, plan: Plan) -> scoring.Reading:
        """The plan's closenesses (choice, scale) or yes/no features (binary)."""
        vectors = self.encoder.embed(plan.texts, [self.name])[self.name]
        candidates = centred(vectors, self.reference.centre)
        if plan.kind == "binary":
            pair = scoring.pair_vector(self.state, candidates[0])
            features = scoring.binary_features(
                self.reference,
                self.state,
                candidates[0],
                scoring.word_overlap(self.terms, plan.ask),
                self.language,
                detect_language(plan.ask),
                scoring.pair_score(pair, self.pair_weights),
                scoring.familiarity(candidates[0], self.centroids),
            )
            return scoring.Reading(plan.kind, np.zeros(0), features, pair)
        closeness = self.reference.closeness(self.state, candidates)
        return scoring.Reading(plan.kind, closeness, scoring.language_features(self.language))

    @property
    def terms(self) -> set[str]:
        if self._terms is None:
            self._terms = set(content_terms(self._text.text))
        return self._terms
