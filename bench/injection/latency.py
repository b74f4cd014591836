"""How long the input guardrails take per request when the client resends its history.

A conversation of ``history + 1`` user messages is simulated over a set of messages (every
text new to the process): each request carries the previous ``history`` messages (already
checked, so cached) and one new message. The messages are a seeded random sample of the
set, so every part (history, cached requests, uncached ones) has the set's mix: dev's
prompts (``dev``; the file is ordered by source, so a run of it is one source: its first
100 after the history are all PurpleLlama attacks) or the public customer messages of
``customer_fpr`` (``customer``). Timed: ``check_messages`` on the
whole request, with the default settings (length + injection), through the product's own
caches (``TEXT_VECTORS``, the verdict cache). Also timed: the same requests with every cache
cleared first (what each request would cost if verdicts were not cached).
"""

from __future__ import annotations

import os
import random
import statistics
import time

from bench.injection.customer_fpr import messages
from bench.injection.data import read_split

from vigia.guardrails import verdict_cache as guarded
from vigia.guardrails.config import GuardrailsConfig
from vigia.guardrails.injection import _RESULTS, warm_up

HISTORY = 20
REQUESTS = 200


def _cold() -> None:
    from vigia.embeddings import TEXT_VECTORS

    guarded._VERDICTS.clear()
    _RESULTS.clear()
    TEXT_VECTORS._vectors.clear()


def latency_texts(kind: str, count: int, seed: int = 0) -> list[str]:
    """``count`` messages of the set ``kind`` (``dev`` or ``customer``), a seeded sample."""
    if kind == "dev":
        texts = [p.text for p in read_split("dev")]
    else:
        texts = [text for items in messages().values() for text, _ in items]
    return random.Random(seed).sample(texts, min(count, len(texts)))


def report(requests: int, kind: str = "dev") -> None:
    config = GuardrailsConfig()
    texts = latency_texts(kind, HISTORY + 2 * requests)
    warm_up()
    history = texts[:HISTORY]
    guarded.check_messages(history, config)  # the conversation so far, checked once
    warm, cpu, cold = [], [], []
    for new in texts[HISTORY : HISTORY + requests]:
        started, cpu_started = time.perf_counter(), time.process_time()
        guarded.check_messages([*history, new], config)
        warm.append((time.perf_counter() - started) * 1000)
        cpu.append((time.process_time() - cpu_started) * 1000)
        history = [*history[1:], new]
    for new in texts[HISTORY + requests : HISTORY + 2 * requests : 4]:
        _cold()
        started = time.perf_counter()
        guarded.check_messages([*history, new], config)
        cold.append((time.perf_counter() - started) * 1000)
    chars = statistics.median(len(t) for t in texts[HISTORY : HISTORY + requests])
    print(
        f"## input check with {HISTORY} resent messages + 1 new ({requests} requests over "
        f"{kind} messages, new message median {chars:.0f} chars)"
    )
    q = statistics.quantiles(warm, n=20)
    print(
        f"cached history: p50 {statistics.median(warm):.2f} ms | p95 {q[18]:.2f} ms per request"
        f" | CPU time p50 {statistics.median(cpu):.2f} ms"
        f" | load average {os.getloadavg()[0]:.1f} (2 cores)"
    )
    print(
        f"nothing cached ({len(cold)} requests, all {HISTORY + 1} messages embedded): "
        f"p50 {statistics.median(cold):.1f} ms"
    )
