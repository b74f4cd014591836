"""What the input check costs for one new 300-character message, and what the model holds.

Measurement only. Loads the injection classifier (resident memory before and after, from
``/proc/self/status``), then times ``check_messages`` (default settings: length + injection)
on requests of 20 resent messages (cached verdicts) plus one new message of exactly 300
characters (dev prompts and public customer messages, joined and cut to 300), each text new
to the process. Also times the same requests when the new message is a resent one (every
verdict cached). One ONNX Runtime thread; run with ``OMP_NUM_THREADS=1``.

Run: ``OMP_NUM_THREADS=1 .venv/bin/python -m bench.injection.new_message [--requests 200]``.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time

from bench.injection.latency import latency_texts

from vigia.guardrails import injection
from vigia.guardrails import verdict_cache as guarded
from vigia.guardrails.config import GuardrailsConfig

HISTORY = 20
CHARS = 300


def _rss_mib() -> float:
    with open("/proc/self/status", encoding="ascii") as status:
        for row in status:
            if row.startswith("VmRSS:"):
                return int(row.split()[1]) / 1024
    return 0.0


def messages_of(chars: int, count: int) -> list[str]:
    """``count`` distinct messages of exactly ``chars`` characters."""
    pool = latency_texts("dev", 2000, seed=1) + latency_texts("customer", 2000, seed=2)
    rng = random.Random(3)
    out: list[str] = []
    while len(out) < count:
        text = ""
        while len(text) < chars:
            text += rng.choice(pool) + " "
        out.append(text[:chars])
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=200)
    args = parser.parse_args()
    before = _rss_mib()
    started = time.perf_counter()
    injection.warm_up()
    load_s = time.perf_counter() - started
    after = _rss_mib()
    config = GuardrailsConfig()
    texts = messages_of(CHARS, HISTORY + args.requests)
    history = texts[:HISTORY]
    guarded.check_messages(history, config)
    new, resent = [], []
    for message in texts[HISTORY:]:
        t0 = time.perf_counter()
        guarded.check_messages([*history, message], config)
        new.append((time.perf_counter() - t0) * 1000)
        t0 = time.perf_counter()
        guarded.check_messages([*history, message], config)
        resent.append((time.perf_counter() - t0) * 1000)
    print(
        f"model load {load_s:.2f} s, resident memory {before:.0f} -> {after:.0f} MiB "
        f"(+{after - before:.0f} MiB)"
    )
    q = statistics.quantiles(new, n=20)
    print(
        f"{HISTORY} cached + 1 new {CHARS}-character message ({args.requests} requests): "
        f"p50 {statistics.median(new):.2f} ms, p95 {q[18]:.2f} ms"
    )
    print(f"the same requests resent (all cached): p50 {statistics.median(resent):.2f} ms")
    print(f"load average {os.getloadavg()[0]:.1f} (2 cores)")


if __name__ == "__main__":
    main()
