"""Decisions benchmark: accuracy, calibration, abstention and latency of ``/v1/decide``.

Fits on one part of the development data and reports on another held back:

- CLINC150: 10 examples per intent from ``train`` are the shots, 10 more per intent (and
  ``oos_train``) are the calibration set ``--fit`` uses; figures are on ``val`` and
  ``oos_val``, never used for fitting or for choosing option texts.
- Banking77 (``train`` only here): 10 shots and 20 held-out queries per intent; reported
  only, never fitted on (it checks that the CLINC-fitted constants transfer).

Zero-shot options are the intents' humanised names with a short description (CLINC150,
written once below without looking at held-out errors) or the names alone (Banking77).

Run: ``.venv/bin/python bench/decide_eval.py [--fit] [--encoders use|use,e5]``. Vectors
of the data are cached under ``bench/.out/``; ``--fit`` rewrites
``src/vigia/decide/calibration.json``.
"""

from __future__ import annotations

import argparse
import collections
import csv
import itertools
import json
import math
import os
import random
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
DATA = Path(os.environ.get("VIGIA_BENCH_DATA", ROOT.parent / "shared" / "data"))
OUT = ROOT / "bench" / ".out"
sys.path.insert(0, str(ROOT / "src"))

from vigia.decide import calibration as calib_module  # noqa: E402
from vigia.decide import fewshot, scoring, service  # noqa: E402
from vigia.decide.calibration import Calibration, get_calibration  # noqa: E402
from vigia.decide.encoder import TextEncoder  # noqa: E402
from vigia.decide.texts import humanise, option_text  # noqa: E402
from vigia.embeddings import get_embedder  # noqa: E402

SHOTS = 10
DEFAULT_RISK = 0.05

Pairs = list[tuple[str, str]]


def splits(seed: int = 7) -> dict[str, Pairs]:
    """The fixed partition of the development data (same seed, same parts)."""
    data = json.loads((DATA / "clinc150" / "train_val.json").read_text())
    rng = random.Random(seed)
    by_intent: dict[str, list[str]] = collections.defaultdict(list)
    for text, intent in data["train"]:
        by_intent[intent].append(text)
    parts: dict[str, Pairs] = collections.defaultdict(list)
    for intent in sorted(by_intent):
        texts = by_intent[intent][:]
        rng.shuffle(texts)
        parts["clinc_shots"] += [(t, intent) for t in texts[:SHOTS]]
        parts["clinc_calib"] += [(t, intent) for t in texts[SHOTS : 2 * SHOTS]]
    parts["clinc_val"] = [(t, i) for t, i in data["val"]]
    parts["clinc_oos_calib"] = [(t, i) for t, i in data["oos_train"]]
    parts["clinc_oos_val"] = [(t, i) for t, i in data["oos_val"]]
    banking: dict[str, list[str]] = collections.defaultdict(list)
    with (DATA / "banking77" / "train.csv").open(newline="") as handle:
        for row in csv.DictReader(handle):
            banking[row["category"]].append(row["text"].strip())
    for intent in sorted(banking):
        texts = banking[intent][:]
        rng.shuffle(texts)
        parts["banking_shots"] += [(t, intent) for t in texts[:SHOTS]]
        parts["banking_eval"] += [(t, intent) for t in texts[SHOTS : SHOTS + 20]]
    return dict(parts)


def cached_encoder(names: list[str], texts: list[str]) -> TextEncoder:
    """The product's encoder with every text's vector loaded from (or saved to) bench/.out."""
    OUT.mkdir(parents=True, exist_ok=True)
    encoder = TextEncoder({name: get_embedder(name) for name in names})
    for name in names:
        path = OUT / f"decide-vectors-{name}.npz"
        known: dict[str, np.ndarray] = {}
        if path.exists():
            stored = np.load(path)
            known = dict(zip(stored["texts"].tolist(), stored["vectors"], strict=True))
        for text, vector in known.items():
            encoder.cache.put((name, text), vector)
        missing = [t for t in dict.fromkeys(texts) if t not in known]
        if missing:
            started = time.perf_counter()
            print(f"embedding {len(missing)} texts with {name}…", file=sys.stderr)
            single = TextEncoder({name: encoder.encoders[name]}, encoder.cache)
            single.embed(missing)
            for text in missing:
                vector = encoder.cache.get((name, text))
                assert vector is not None
                known[text] = vector
            np.savez(path, texts=np.array(list(known)), vectors=np.stack(list(known.values())))
            print(f"  {time.perf_counter() - started:.0f} s", file=sys.stderr)
    return encoder


def matrix(encoder: TextEncoder, texts: list[str]) -> dict[str, np.ndarray]:
    return encoder.embed(texts)


# ---- metrics ----


def ece(confidences: np.ndarray, correct: np.ndarray, bins: int = 15) -> float:
    """Expected calibration error of top-label probabilities, equal-width bins."""
    edges = np.linspace(0, 1, bins + 1)
    total = 0.0
    for low, high in itertools.pairwise(edges):
        inside = (confidences > low) & (confidences <= high)
        if inside.any():
            total += inside.mean() * abs(correct[inside].mean() - confidences[inside].mean())
    return float(total)


def risk_curve(scores: np.ndarray, correct: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    order = np.argsort(-scores, kind="stable")
    wrong = np.cumsum(1 - correct[order])
    answered = np.arange(1, len(order) + 1)
    return answered / len(order), wrong / answered


def aurc(scores: np.ndarray, correct: np.ndarray) -> float:
    """Area under the risk-coverage curve (lower is better)."""
    return float(risk_curve(scores, correct)[1].mean())


def coverage_at(scores: np.ndarray, correct: np.ndarray, risk: float = 0.05) -> float:
    """Largest share of queries answerable (most confident first) with risk ≤ ``risk``."""
    coverage, risks = risk_curve(scores, correct)
    ok = np.nonzero(risks <= risk)[0]
    return float(coverage[ok[-1]]) if len(ok) else 0.0


def threshold_for(confidences: np.ndarray, correct: np.ndarray, risk: float) -> float:
    """Lowest confidence threshold whose answered part has risk ≤ ``risk``."""
    order = np.argsort(-confidences, kind="stable")
    risks = np.cumsum(1 - correct[order]) / np.arange(1, len(order) + 1)
    ok = np.nonzero(risks <= risk)[0]
    if not len(ok):
        return 1.0
    return float(confidences[order][ok[-1]])


# ---- fitting (vectorised over the calibration set) ----


def scores_for(
    weights: dict[str, float], states: dict[str, np.ndarray], options: dict[str, np.ndarray]
) -> np.ndarray:
    """Zero-shot scores: weighted cosine of every state to every option text."""
    total = np.zeros((len(next(iter(states.values()))), len(next(iter(options.values())))))
    for name, weight in weights.items():
        total += weight * (states[name].astype(np.float64) @ options[name].T.astype(np.float64))
    return total


def fewshot_logits(
    encoder: TextEncoder,
    weights: dict[str, float],
    l2: float,
    text_weight: float,
    option_texts: list[str],
    shots: Pairs,
    intents: list[str],
    queries: list[list[str]],
) -> list[np.ndarray]:
    """Logits of the product's examples classifier (fitted once) for each list of queries."""
    names = list(weights)
    rows = encoder.embed([*option_texts, *(t for t, _ in shots)], names)
    labels = np.array([*range(len(option_texts)), *(intents.index(i) for _, i in shots)])
    row_weights = np.array([text_weight] * len(option_texts) + [1.0] * len(shots))
    classifier = fewshot.fit(rows, labels, row_weights, len(option_texts), weights, l2)
    return [classifier.logits(encoder.embed(texts, names)) for texts in queries]


def log_softmax(logits: np.ndarray) -> np.ndarray:
    shifted = logits - logits.max(axis=1, keepdims=True)
    return shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))


def fit_temperature(scores: np.ndarray, labels: np.ndarray) -> float:
    """Temperature minimising the negative log-likelihood (golden-section on log T)."""

    def nll(log_t: float) -> float:
        return float(-log_softmax(scores / math.exp(log_t))[np.arange(len(labels)), labels].mean())

    low, high = math.log(1e-3), math.log(1.0)
    ratio = (math.sqrt(5) - 1) / 2
    for _ in range(60):
        a, b = high - ratio * (high - low), low + ratio * (high - low)
        if nll(a) < nll(b):
            high = b
        else:
            low = a
    return round(math.exp((low + high) / 2), 5)


def fit_ece_temperature(scores: np.ndarray, labels: np.ndarray, around: float) -> float:
    """Temperature minimising the 15-bin ECE of top-label probabilities (grid near ``around``)."""

    def error(temperature: float) -> float:
        probabilities = np.exp(log_softmax(scores / temperature))
        correct = (probabilities.argmax(1) == labels).astype(float)
        return ece(probabilities.max(1), correct)

    grid = [around * math.exp(step / 200) for step in range(-60, 61)]
    best: float = min(grid, key=error)
    return round(best, 5)


def fit_logistic(x: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    """Slope and intercept of a one-feature logistic regression (Newton's method)."""
    a, b = 0.0, 0.0
    for _ in range(100):
        p = 1 / (1 + np.exp(-(a * x + b)))
        grad = np.array([((p - y) * x).sum(), (p - y).sum()])
        w = p * (1 - p)
        hess = np.array([[(w * x * x).sum(), (w * x).sum()], [(w * x).sum(), w.sum()]])
        step = np.linalg.solve(hess + 1e-9 * np.eye(2), grad)
        a, b = a - step[0], b - step[1]
        if np.abs(step).max() < 1e-10:
            break
    return float(a), float(b)


def entropy_confidence(probabilities: np.ndarray) -> np.ndarray:
    return np.array([scoring.confidence(row) for row in probabilities])


def sub_question_confidences(
    scores: np.ndarray, labels: np.ndarray, temperature: float, sizes: list[int], seed: int
) -> tuple[np.ndarray, np.ndarray]:
    """Confidence and correctness on random sub-questions of k options (label −1: none fits)."""
    rng = np.random.default_rng(seed)
    confidences, correct = [], []
    for row, label in zip(scores, labels, strict=True):
        k = int(rng.choice(sizes))
        others = [i for i in range(scores.shape[1]) if i != label]
        chosen = list(rng.choice(others, size=k - (label >= 0), replace=False))
        if label >= 0:
            chosen.append(int(label))
        logits = row[chosen] / temperature
        probabilities = np.exp(logits - logits.max())
        probabilities /= probabilities.sum()
        confidences.append(scoring.confidence(probabilities))
        correct.append(label >= 0 and chosen[int(np.argmax(probabilities))] == label)
    return np.array(confidences), np.array(correct, dtype=float)


CLINC_DESCRIPTIONS = {
    "accept_reservations": "does a restaurant take reservations",
    "account_blocked": "my bank account is blocked or frozen",
    "alarm": "set an alarm to wake me up",
    "application_status": "status of my credit card application",
    "apr": "annual percentage rate on my card",
    "are_you_a_bot": "are you a real person or a bot",
    "balance": "how much money is in my bank account",
    "bill_balance": "how much do I owe on my bills",
    "bill_due": "when is my bill due",
    "book_flight": "book a plane ticket",
    "book_hotel": "book a hotel room",
    "calculator": "do a math calculation",
    "calendar": "what is on my calendar",
    "calendar_update": "add or remove an event in my calendar",
    "calories": "how many calories are in a food",
    "cancel": "cancel or stop what you are doing",
    "cancel_reservation": "cancel my restaurant reservation",
    "car_rental": "rent a car",
    "card_declined": "why was my card declined",
    "carry_on": "carry-on luggage rules for a flight",
    "change_accent": "change your voice accent",
    "change_ai_name": "change the assistant's name",
    "change_language": "change the language you speak",
    "change_speed": "talk faster or slower",
    "change_user_name": "change what you call me",
    "change_volume": "turn the volume up or down",
    "confirm_reservation": "confirm my reservation",
    "cook_time": "how long to cook a dish",
    "credit_limit": "what is my credit limit",
    "credit_limit_change": "raise my credit limit",
    "credit_score": "what is my credit score",
    "current_location": "where am I right now",
    "damaged_card": "my card is broken or damaged",
    "date": "what is today's date",
    "definition": "what does a word mean",
    "direct_deposit": "set up direct deposit of my paycheck",
    "directions": "directions to get to a place",
    "distance": "how far is a place",
    "do_you_have_pets": "do you have any pets",
    "exchange_rate": "currency exchange rate",
    "expiration_date": "when does my card expire",
    "find_phone": "help me find my lost phone",
    "flight_status": "is my flight on time or delayed",
    "flip_coin": "flip a coin heads or tails",
    "food_last": "how long does food keep in the fridge",
    "freeze_account": "freeze my bank account",
    "fun_fact": "tell me a fun fact",
    "gas": "how much gas is in my car tank",
    "gas_type": "what type of fuel my car needs",
    "goodbye": "goodbye, see you later",
    "greeting": "hello, how are you",
    "how_busy": "how busy or crowded is a place",
    "how_old_are_you": "how old are you",
    "improve_credit_score": "how to improve my credit score",
    "income": "how much money do I earn",
    "ingredient_substitution": "substitute one ingredient for another",
    "ingredients_list": "what ingredients are in a recipe",
    "insurance": "what health insurance benefits do I have",
    "insurance_change": "change my insurance plan",
    "interest_rate": "interest rate on my account",
    "international_fees": "fees for using my card abroad",
    "international_visa": "do I need a visa to travel to a country",
    "jump_start": "jump start a dead car battery",
    "last_maintenance": "when was my car last serviced",
    "lost_luggage": "the airline lost my luggage",
    "make_call": "call someone on the phone",
    "maybe": "maybe, I am not sure",
    "meal_suggestion": "suggest what to eat for dinner",
    "meaning_of_life": "what is the meaning of life",
    "measurement_conversion": "convert units of measurement",
    "meeting_schedule": "what meetings do I have scheduled",
    "min_payment": "minimum payment due on my card",
    "mpg": "fuel efficiency miles per gallon of my car",
    "new_card": "order a new credit card",
    "next_holiday": "when is the next holiday",
    "next_song": "skip to the next song",
    "no": "no, that is not right",
    "nutrition_info": "nutritional information of a food",
    "oil_change_how": "how to change the oil in my car",
    "oil_change_when": "when should I change my car oil",
    "order": "order or buy something online",
    "order_checks": "order new checks for my bank account",
    "order_status": "where is my order, track the package",
    "pay_bill": "pay my bill",
    "payday": "when do I get paid",
    "pin_change": "change my card PIN number",
    "play_music": "play music or a song",
    "plug_type": "what power plug adapter a country uses",
    "pto_balance": "how many vacation days do I have left",
    "pto_request": "request days off from work",
    "pto_request_status": "was my time off request approved",
    "pto_used": "how many vacation days have I used",
    "recipe": "recipe to cook a dish",
    "redeem_rewards": "redeem my credit card reward points",
    "reminder": "what are my reminders",
    "reminder_update": "set a reminder",
    "repeat": "repeat what you just said",
    "replacement_card_duration": "how long until my replacement card arrives",
    "report_fraud": "report a fraudulent charge on my card",
    "report_lost_card": "I lost my card or it was stolen",
    "reset_settings": "reset to factory settings",
    "restaurant_reservation": "make a restaurant reservation",
    "restaurant_reviews": "reviews and ratings of a restaurant",
    "restaurant_suggestion": "suggest a good restaurant",
    "rewards_balance": "how many reward points do I have",
    "roll_dice": "roll a dice",
    "rollover_401k": "roll over my 401k retirement account",
    "routing": "bank routing number",
    "schedule_maintenance": "schedule car maintenance service",
    "schedule_meeting": "schedule a meeting with someone",
    "share_location": "share my location with someone",
    "shopping_list": "what is on my shopping list",
    "shopping_list_update": "add or remove items on my shopping list",
    "smart_home": "turn on or off lights and smart home devices",
    "spelling": "how do you spell a word",
    "spending_history": "how much did I spend recently",
    "sync_device": "sync or pair with my phone",
    "taxes": "taxes I owe or my tax return",
    "tell_joke": "tell me a joke",
    "text": "send a text message",
    "thank_you": "thank you, thanks",
    "time": "what time is it",
    "timer": "set a timer",
    "timezone": "what time zone is a place in",
    "tire_change": "when to change my tires",
    "tire_pressure": "what is my tire pressure",
    "todo_list": "what is on my to-do list",
    "todo_list_update": "add or remove a task on my to-do list",
    "traffic": "how is the traffic on my route",
    "transactions": "recent transactions on my account",
    "transfer": "transfer money between accounts",
    "translate": "translate a phrase into another language",
    "travel_alert": "travel warnings or safety alerts for a country",
    "travel_notification": "tell my bank I am travelling abroad",
    "travel_suggestion": "suggest places to visit on a trip",
    "uber": "call an uber ride",
    "update_playlist": "add a song to my playlist",
    "user_name": "what is my name",
    "vaccines": "vaccines needed to travel to a country",
    "w2": "get my W-2 tax form",
    "weather": "what is the weather forecast",
    "what_are_your_hobbies": "what are your hobbies",
    "what_can_i_ask_you": "what can I ask you, what can you do",
    "what_is_your_name": "what is your name",
    "what_song": "what song is playing",
    "where_are_you_from": "where are you from",
    "whisper_mode": "switch to whisper mode, speak quietly",
    "who_do_you_work_for": "who do you work for",
    "who_made_you": "who made you, who created you",
    "yes": "yes, that is right",
}


def fit(
    encoder: TextEncoder, names: list[str], example_names: list[str], parts: dict[str, Pairs]
) -> Calibration:
    """Fits every constant on CLINC150 ``train`` (shots, calibration queries, oos_train).

    Zero-shot: encoder weights by accuracy, then the temperature minimising ECE on every
    labelled train query we hold (shots and calibration: zero-shot does not use the shots).
    Examples: encoder weights and L2 penalty by accuracy of the classifier fitted on the
    shots and scored on the calibration queries, then its temperature by NLL on them.
    """
    intents = sorted({i for _, i in parts["clinc_shots"]})
    option_texts = [option_text(i, CLINC_DESCRIPTIONS[i]) for i in intents]
    options = encoder.embed(option_texts, names)
    calib_texts = [t for t, _ in parts["clinc_calib"]]
    oos_texts = [t for t, _ in parts["clinc_oos_calib"]]
    labelled = parts["clinc_shots"] + parts["clinc_calib"]
    states = encoder.embed([t for t, _ in labelled], names)
    all_labels = np.array([intents.index(i) for _, i in labelled])
    labels = np.array([intents.index(i) for _, i in parts["clinc_calib"]])
    calib = encoder.embed(calib_texts, names)
    oos = encoder.embed(oos_texts, names)

    grid = [{names[0]: 1.0}]
    if len(names) == 2:
        grid = [{names[0]: a, names[1]: round(1 - a, 2)} for a in (0.1, 0.2, 0.3, 0.4, 0.5)]
    weights = max(
        grid, key=lambda w: float((scores_for(w, states, options).argmax(1) == all_labels).mean())
    )
    zero_all = scores_for(weights, states, options)
    temperature = fit_ece_temperature(zero_all, all_labels, fit_temperature(zero_all, all_labels))
    zero = scores_for(weights, calib, options)

    base = get_calibration()
    shots = parts["clinc_shots"]
    example_grid = [{example_names[0]: 1.0}]
    if len(example_names) == 2:
        example_grid = [
            {example_names[0]: a, example_names[1]: round(1 - a, 2)} for a in (0.3, 0.5)
        ]
    trials = {}
    for example_weights, l2 in itertools.product(example_grid, (1e-5, 1e-4)):
        logits = fewshot_logits(
            encoder,
            example_weights,
            l2,
            base.text_weight,
            option_texts,
            shots,
            intents,
            [calib_texts],
        )[0]
        accuracy = float((logits.argmax(1) == labels).mean())
        print(
            f"examples {example_weights} l2 {l2}: calibration accuracy {accuracy:.4f}",
            file=sys.stderr,
        )
        trials[(json.dumps(example_weights), l2)] = accuracy
    chosen_weights, l2 = max(trials, key=lambda k: trials[k])
    example_weights = json.loads(chosen_weights)
    few, oos_few = fewshot_logits(
        encoder,
        example_weights,
        l2,
        base.text_weight,
        option_texts,
        shots,
        intents,
        [calib_texts, oos_texts],
    )
    temperature_examples = fit_temperature(few, labels)

    # Binary asks are short questions: fitted on the intents' bare names as asks.
    asks = encoder.embed([humanise(i) for i in intents], names)
    ask_zero = scores_for(weights, calib, asks)
    ask_oos = scores_for(weights, oos, asks)
    rng = np.random.default_rng(11)
    negatives = np.array([rng.choice([j for j in range(len(intents)) if j != i]) for i in labels])
    oos_asks = rng.integers(0, len(intents), len(ask_oos))
    x = np.concatenate(
        [
            ask_zero[np.arange(len(labels)), labels],
            ask_zero[np.arange(len(labels)), negatives],
            ask_oos[np.arange(len(ask_oos)), oos_asks],
        ]
    )
    y = np.concatenate([np.ones(len(labels)), np.zeros(len(labels) + len(ask_oos))])
    slope, intercept = fit_logistic(x, y)
    p_yes = 1 / (1 + np.exp(-(slope * x + intercept)))
    binary_conf = entropy_confidence(np.stack([p_yes, 1 - p_yes], axis=1))
    binary_default = threshold_for(binary_conf, ((p_yes >= 0.5) == y).astype(float), DEFAULT_RISK)

    oos_zero = scores_for(weights, oos, options)
    with_oos = np.concatenate([labels, -np.ones(len(oos_zero), dtype=int)])
    defaults = {"binary": round(binary_default, 3)}
    for kind, sizes in (("choice", [*range(2, 21), len(intents)]), ("scale", list(range(2, 11)))):
        pooled_conf, pooled_correct = [], []
        for scores, temp in (
            (np.vstack([zero, oos_zero]), temperature),
            (np.vstack([few, oos_few]), temperature_examples),
        ):
            conf, correct = sub_question_confidences(scores, with_oos, temp, sizes, seed=5)
            pooled_conf.append(conf)
            pooled_correct.append(correct)
        defaults[kind] = round(
            threshold_for(
                np.concatenate(pooled_conf), np.concatenate(pooled_correct), DEFAULT_RISK
            ),
            3,
        )
    return replace(
        base,
        encoders=weights,
        temperature=temperature,
        temperature_examples=temperature_examples,
        binary_temperature=round(1 / slope, 5),
        binary_bias=round(-intercept / slope, 5),
        encoders_examples=example_weights,
        l2_examples=l2,
        default_min_confidence={k: defaults[k] for k in ("choice", "scale", "binary")},
    )


def evaluate(
    encoder: TextEncoder,
    calibration: Calibration,
    intents: list[str],
    texts: list[str],
    queries: Pairs,
    shots: Pairs | None,
    out_of_scope: Pairs = (),  # type: ignore[assignment]
) -> dict[str, float]:
    """Figures of one setting, computed through the product's own model code."""
    examples = [(t, intents.index(i)) for t, i in shots] if shots else []
    plan = service.Plan("choice", intents, texts, examples)
    rows = []
    for text, _ in [*queries, *out_of_scope]:
        rows.append(service.run_model(text, [plan], encoder, calibration)[0].probabilities)
    probabilities = np.array(rows)
    inside = probabilities[: len(queries)]
    labels = np.array([intents.index(i) for _, i in queries])
    correct = (inside.argmax(1) == labels).astype(float)
    confidence = entropy_confidence(probabilities)
    figures = {
        "accuracy": float(correct.mean()),
        "ece_15": ece(inside.max(1), correct),
        "aurc": aurc(confidence[: len(queries)], correct),
        "coverage_at_5pct_risk": coverage_at(confidence[: len(queries)], correct),
    }
    if out_of_scope:
        default = calibration.default_min_confidence["choice"]
        answered = confidence[: len(queries)] >= default
        figures["default_min_confidence"] = default
        figures["oos_recall_at_default"] = float((confidence[len(queries) :] < default).mean())
        figures["in_scope_coverage_at_default"] = float(answered.mean())
        figures["in_scope_accuracy_answered"] = float(correct[answered].mean())
        everyone = np.concatenate([correct, np.zeros(len(out_of_scope))])
        figures["aurc_with_oos"] = aurc(confidence, everyone)
    return figures


SPEC_QUESTIONS: dict[str, dict[str, object]] = {
    "equipo": {
        "type": "choice",
        "ask": "¿Qué equipo debe atender esto?",
        "options": {
            "facturacion": "Pagos, cobros, reembolsos",
            "envios": "Entregas",
            "ventas": None,
        },
    },
    "urgencia": {
        "type": "scale",
        "ask": "¿Qué tan urgente es?",
        "levels": ["baja", "media", "alta"],
    },
    "reembolso": {"type": "binary", "ask": "¿Pide un reembolso?"},
}


SPEC_EXAMPLES = {
    "equipo": [
        {"state": "Me cobraron dos veces", "answer": "facturacion"},
        {"state": "Quiero un reembolso", "answer": "facturacion"},
        {"state": "Mi paquete no llegó", "answer": "envios"},
        {"state": "¿Cuándo llega mi pedido?", "answer": "envios"},
        {"state": "¿Tienen descuentos por volumen?", "answer": "ventas"},
        {"state": "Quiero comprar diez unidades", "answer": "ventas"},
    ],
    "urgencia": [
        {"state": "Cuando puedan, una consulta", "answer": "baja"},
        {"state": "Necesito respuesta esta semana", "answer": "media"},
        {"state": "¡Es urgente, no puedo trabajar!", "answer": "alta"},
    ],
    "reembolso": [
        {"state": "Devuélvanme el dinero", "answer": True},
        {"state": "¿A qué hora abren?", "answer": False},
    ],
}


def with_examples(questions: dict[str, dict[str, object]]) -> dict[str, dict[str, object]]:
    """The spec's questions, each with a few labelled examples."""
    return {key: {**q, "examples": SPEC_EXAMPLES[key]} for key, q in questions.items()}


def latency(
    calibration: Calibration, messages: list[str], questions: dict[str, dict[str, object]]
) -> dict[str, float]:
    """p50/p95 of a 3-question request: model time and full HTTP round trip."""
    from fastapi.testclient import TestClient

    from vigia.app import create_app
    from vigia.config import get_settings
    from vigia.db.migrate import upgrade
    from vigia.db.session import session_scope
    from vigia.workspaces.service import create_key, create_workspace

    folder = tempfile.mkdtemp(prefix="vigia-bench-")
    os.environ["VIGIA_DATA_DIR"] = folder
    get_settings.cache_clear()
    upgrade(get_settings().sqlalchemy_url)
    with session_scope() as session:
        workspace = create_workspace(session, "bench")
        workspace.decide_quota_tokens = 10**12
        key = create_key(session, workspace, scopes=["decide"], rpm=10_000).secret
    service.get_calibration = lambda: calibration
    headers = {"Authorization": f"Bearer {key}"}
    model_ms, http_ms = [], []
    with TestClient(create_app()) as client:
        for index, message in enumerate(messages):
            body = {"state": {"canal": "chat", "mensaje": message}, "questions": questions}
            started = time.perf_counter()
            response = client.post("/v1/decide", json=body, headers=headers)
            elapsed = (time.perf_counter() - started) * 1000
            assert response.status_code == 200, response.text
            if index >= 5:  # the first requests embed the question texts once
                http_ms.append(elapsed)
                model_ms.append(response.json()["ms"])

    def pct(values: list[float], q: int) -> float:
        return float(np.percentile(values, q))

    return {
        "requests": len(http_ms),
        "model_ms_p50": pct(model_ms, 50),
        "model_ms_p95": pct(model_ms, 95),
        "http_ms_p50": pct(http_ms, 50),
        "http_ms_p95": pct(http_ms, 95),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fit", action="store_true", help="refit and rewrite calibration.json")
    parser.add_argument(
        "--encoders", default=None, help="zero-shot: use | e5 | use,e5 (default: shipped)"
    )
    parser.add_argument(
        "--examples-encoders",
        default=None,
        help="with examples: use | e5 | use,e5 (default: shipped)",
    )
    parser.add_argument("--latency-requests", type=int, default=200)
    args = parser.parse_args()
    calibration = get_calibration()
    names = args.encoders.split(",") if args.encoders else list(calibration.encoders)
    example_names = (
        args.examples_encoders.split(",")
        if args.examples_encoders
        else list(calibration.encoders_examples)
    )
    parts = splits()
    clinc = sorted({i for _, i in parts["clinc_shots"]})
    banking = sorted({i for _, i in parts["banking_shots"]})
    clinc_texts = [option_text(i, CLINC_DESCRIPTIONS[i]) for i in clinc]
    banking_texts = [humanise(i) for i in banking]
    everything = [t for pairs in parts.values() for t, _ in pairs] + clinc_texts + banking_texts
    encoder = cached_encoder(list(dict.fromkeys(names + example_names)), everything)
    if (
        args.fit
        or set(names) != set(calibration.encoders)
        or set(example_names) != set(calibration.encoders_examples)
    ):
        calibration = fit(encoder, names, example_names, parts)
        print("fitted:", json.dumps(calibration.to_json()))
    if args.fit:
        calib_module.CALIBRATION_FILE.write_text(json.dumps(calibration.to_json(), indent=2) + "\n")
        print(f"wrote {calib_module.CALIBRATION_FILE.relative_to(ROOT)}")
    report: dict[str, object] = {"model": calibration.model, "encoders": calibration.encoders}
    for name, shots in (("zero_shot", None), ("10_shot", "clinc_shots")):
        report[f"clinc150_{name}"] = evaluate(
            encoder,
            calibration,
            clinc,
            clinc_texts,
            parts["clinc_val"],
            parts[shots] if shots else None,
            parts["clinc_oos_val"],
        )
    for name, shots in (("zero_shot", None), ("10_shot", "banking_shots")):
        report[f"banking77_{name}"] = evaluate(
            encoder,
            calibration,
            banking,
            banking_texts,
            parts["banking_eval"],
            parts[shots] if shots else None,
        )
    messages = [t for t, _ in parts["clinc_val"][:: max(1, 3000 // args.latency_requests)]]
    report["latency_3_questions"] = latency(
        calibration, messages[: args.latency_requests + 5], SPEC_QUESTIONS
    )
    step = max(1, 3000 // args.latency_requests)
    others = [t for t, _ in parts["clinc_val"][step // 2 :: step]]  # states not yet embedded
    report["latency_3_questions_with_examples"] = latency(
        calibration, others[: args.latency_requests // 4 + 5], with_examples(SPEC_QUESTIONS)
    )
    report["cores"] = os.cpu_count() or 0
    print(json.dumps(report, indent=2, default=lambda v: round(v, 4)))
    for section, figures in report.items():
        if isinstance(figures, dict) and "accuracy" in figures:
            line = ", ".join(f"{k} {v:.4f}" for k, v in figures.items())
            print(f"{section}: {line}")


if __name__ == "__main__":
    main()
