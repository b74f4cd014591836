"""Model time of decide requests against their read cost (``vigia.decide.cost``).

Each shape runs with an empty vector cache and classifier cache (the first request with
those texts, the worst case) and prints the cost module's estimate next to the model time
it took, so the prices and ``BUDGET_MS`` can be checked on the machine at hand::

    OMP_NUM_THREADS=1 .venv/bin/python bench/decide_cost.py            # every shape
    OMP_NUM_THREADS=1 .venv/bin/python bench/decide_cost.py --largest  # the budget's edge

``--largest`` times requests sized to just under ``BUDGET_MS`` (the largest accepted).
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from typing import Any

from vigia.decide import cost, fewshot
from vigia.decide.calibration import get_calibration
from vigia.decide.encoder import TextEncoder
from vigia.decide.inference import plan_question, run_model
from vigia.decide.schemas import DecideRequest
from vigia.decide.texts import read_state
from vigia.embeddings import VectorCache, get_embedder

SENTENCE = "Me cobraron dos veces la tarjeta y quiero mi dinero de vuelta, nadie responde. "
WORDS = SENTENCE.split()


def prose(chars: int, seed: int) -> str:
    """Spanish-looking prose of ``chars`` characters (a shuffled sentence, repeated)."""
    rng = random.Random(seed)
    words: list[str] = []
    while sum(len(w) + 1 for w in words) < chars:
        words.extend(rng.sample(WORDS, len(WORDS)))
    return " ".join(words)[:chars]


def choice(options: int, description: int, seed: int) -> dict[str, Any]:
    return {
        "type": "choice",
        "ask": "¿Qué equipo?",
        "options": {
            f"opcion_{seed}_{i}": prose(description, seed * 1000 + i) if description else None
            for i in range(options)
        },
    }


def with_examples(count: int, chars: int, seed: int, options: int = 4) -> dict[str, Any]:
    question = choice(options, 0, seed)
    keys = list(question["options"])
    question["examples"] = [
        {"state": prose(chars, seed * 7919 + i), "answer": keys[i % len(keys)]}
        for i in range(count)
    ]
    return question


def shapes() -> dict[str, Callable[[], dict[str, Any]]]:
    return {
        "1 × 256 bare options": lambda: {"state": SENTENCE, "questions": {"q": choice(256, 0, 1)}},
        "64 × 256 bare options": lambda: {
            "state": SENTENCE,
            "questions": {f"q{s}": choice(256, 0, s) for s in range(64)},
        },
        "1 × 64 options of 2,000 chars": lambda: {
            "state": SENTENCE,
            "questions": {"q": choice(64, 2000, 2)},
        },
        "32,000-char state, 1 binary": lambda: {
            "state": prose(32_000, 3),
            "questions": {"q": {"type": "binary", "ask": "¿Pide un reembolso?"}},
        },
        "16 examples of 200 chars": lambda: {
            "state": SENTENCE,
            "questions": {"q": with_examples(16, 200, 4)},
        },
        "64 examples of 40 chars": lambda: {
            "state": SENTENCE,
            "questions": {"q": with_examples(64, 40, 5)},
        },
        "4 examples of 2,000 chars": lambda: {
            "state": SENTENCE,
            "questions": {"q": with_examples(4, 2000, 6)},
        },
    }


def _fitting(build: Callable[[int], dict[str, Any]], limit: int = 16_384) -> dict[str, Any]:
    """The largest ``build(n)`` whose estimate is within the budget (bisection on ``n``)."""
    low, high = 1, limit
    while low < high:
        middle = (low + high + 1) // 2
        if _estimate(build(middle)) <= cost.BUDGET_MS:
            low = middle
        else:
            high = middle - 1
    return build(low)


def _estimate(body: dict[str, Any]) -> float:
    request = DecideRequest.model_validate(body)
    plans = [plan_question(q) for q in request.questions.values()]
    return cost.estimate_ms(read_state(request.state), plans)


def _options(total: int, description: int, state: str = SENTENCE) -> dict[str, Any]:
    """``total`` options (at least 2) spread evenly over as few questions as fit."""
    total = max(total, 2)
    count = -(-total // 256)
    sizes = [total // count + (1 if s < total % count else 0) for s in range(count)]
    questions = {f"q{s}": choice(n, description, s) for s, n in enumerate(sizes)}
    return {"state": state, "questions": questions}


def largest() -> dict[str, Callable[[], dict[str, Any]]]:
    """Requests just under the budget, one per kind of cost."""
    return {
        "bare options": lambda: _fitting(lambda n: _options(n, 0)),
        "options of 2,000 chars": lambda: _fitting(lambda n: _options(n, 2000)),
        "32,000-char state + options": lambda: _fitting(
            lambda n: _options(n, 200, prose(32_000, 3))
        ),
        "examples of 40 chars, 128 options": lambda: _fitting(
            lambda n: {"state": SENTENCE, "questions": {"q": with_examples(n, 40, 5, 128)}}, 2048
        ),
        "examples of 400 chars": lambda: _fitting(
            lambda n: {"state": SENTENCE, "questions": {"q": with_examples(n, 400, 6)}}, 2048
        ),
    }


def run(name: str, body: dict[str, Any]) -> None:
    request = DecideRequest.model_validate(body)
    plans = [plan_question(q) for q in request.questions.values()]
    estimate = cost.estimate_ms(read_state(request.state), plans)
    options = sum(len(plan.keys) for plan in plans)
    examples = sum(len(plan.examples) for plan in plans)
    encoder = TextEncoder({n: get_embedder(n) for n in ("use", "e5")}, cache=VectorCache())
    fewshot.CLASSIFIERS.clear()
    started = time.perf_counter()
    run_model(request.state, plans, encoder, get_calibration())
    seconds = time.perf_counter() - started
    verdict = "refused" if estimate > cost.BUDGET_MS else "accepted"
    print(
        f"{name:34s} {len(plans):3d} q {options:6d} options {examples:5d} examples: "
        f"estimate {estimate / 1000:6.2f} s ({verdict}), model {seconds:6.2f} s",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--largest", action="store_true", help="requests at the budget's edge")
    args = parser.parse_args()
    warm = TextEncoder({n: get_embedder(n) for n in ("use", "e5")})
    run_model(
        "hola",
        [
            plan_question(
                DecideRequest.model_validate(
                    {"state": "x", "questions": {"q": with_examples(2, 10, 0)}}
                ).questions["q"]
            )
        ],
        warm,
    )
    for name, build in (largest() if args.largest else shapes()).items():
        run(name, build())


if __name__ == "__main__":
    main()
