"""Guardrail figures: injection detection, grounding accuracy and output-review latency.

    .venv/bin/python bench/guardrails_eval.py [--calls 100] [--parts injection grounding latency]

- Injection: ``bench/injection/dev_run.py`` (the shipped classifier on ``injection/dev.jsonl``,
  pooled and per language and source) and the check's latency with resent history
  (``input_latency``).
- Grounding: ``grounding_eval.jsonl`` (labelled (reply, sources) pairs; thresholds were set
  on ``grounding_dev.jsonl``) and WiCE dev (``VIGIA_BENCH_DATA``/grounding, default
  ``../shared/data``). Balanced accuracy of "reply has an unsupported sentence".
- Review latency: sequential ``POST …/output-review`` calls through the ASGI app on a fresh
  SQLite database, each with a ~2 kB reply and ~10 kB of sources never seen before (cold
  embedding caches), after one warm-up call.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "bench" / "data" / "guardrails"
WICE = Path(os.environ.get("VIGIA_BENCH_DATA", ROOT.parent / "shared" / "data")) / "grounding"
sys.path.insert(0, str(ROOT))


def injection() -> None:
    from bench.injection.dev_run import main

    sys.argv = sys.argv[:1]
    main()


def input_latency(requests: int, kind: str) -> None:
    from bench.injection.latency import report

    report(requests, kind)


def _balanced(cases: Sequence[tuple[bool, Sequence[str]]], label: str) -> None:
    """Balanced accuracy of "has an unsupported sentence" over (unsupported?, statuses)."""
    tp = sum(1 for bad, st in cases if bad and "unsupported" in st)
    fn = sum(1 for bad, st in cases if bad and "unsupported" not in st)
    fp = sum(1 for bad, st in cases if not bad and "unsupported" in st)
    tn = sum(1 for bad, st in cases if not bad and "unsupported" not in st)
    uncertain = sum(1 for _, st in cases if "uncertain" in st)
    tpr, tnr = tp / (tp + fn), tn / (tn + fp)
    print(
        f"## grounding {label}: {len(cases)} | balanced accuracy {(tpr + tnr) / 2:.3f}"
        f" (TPR {tpr:.3f}, TNR {tnr:.3f}; {uncertain} with an uncertain sentence)"
    )


def grounding() -> None:
    """The team's (reply, sources) pairs, then WiCE dev claims against their evidence
    sentences (partially supported counts as not supported; halves by position in the
    file: A = even lines, where the rules were tuned, B = odd lines)."""
    from vigia.guardrails.grounding import assess_many, build_index
    from vigia.language import line_sentences

    for name in ("grounding_dev.jsonl", "grounding_eval.jsonl"):
        rows = [json.loads(line) for line in (DATA / name).read_text().splitlines() if line]
        cases = []
        for row in rows:
            claims = assess_many(line_sentences(row["reply"]), build_index([row["sources"]]))
            cases.append((row["label"] == "unsupported", [c.status for c in claims]))
        _balanced(cases, f"{name} pairs")
    wice = [json.loads(line) for line in (WICE / "wice_dev.jsonl").read_text().splitlines()]
    started = time.perf_counter()
    cases = []
    for row in wice:
        claim = assess_many([row["claim"]], build_index(row["evidence"]))[0]
        cases.append((row["label"] != "supported", [claim.status]))
    per_claim_ms = (time.perf_counter() - started) * 1000 / len(wice)
    _balanced(cases, f"WiCE dev claims ({per_claim_ms:.0f} ms per claim)")
    _balanced(cases[0::2], "WiCE dev half A claims")
    _balanced(cases[1::2], "WiCE dev half B claims")


def _review_payloads(calls: int) -> list[dict[str, object]]:
    rows = [json.loads(line) for line in (DATA / "grounding_eval.jsonl").read_text().splitlines()]
    sources = sorted({r["sources"] for r in rows})
    replies = [r["reply"] for r in rows]
    rng = random.Random(7)
    payloads = []
    for i in range(calls + 1):
        text = ""
        n = 0
        while len(text) < 10_000:
            for source in rng.sample(sources, len(sources)):
                text += f"[{i}-{n}] {source}\n\n"  # the prefix makes every call's sources new
                n += 1
                if len(text) >= 10_000:
                    break
        reply = ""
        for r in rng.sample(replies, len(replies)):
            reply += r + " "
            if len(reply) >= 2_000:
                break
        payloads.append(
            {
                "turnKey": f"bench-{i}",
                "attempt": 1,
                "message": "¿Me ayudás con mi consulta?",
                "reply": reply.strip()[:8000],
                "sources": text[:20_000],
            }
        )
    return payloads


def review_latency(calls: int) -> None:
    folder = tempfile.mkdtemp(prefix="vigia-bench-")
    os.environ["VIGIA_DATA_DIR"] = folder
    os.environ.setdefault("VIGIA_ADMIN_TOKEN", "bench-admin-token-0123456789abcdef")
    from fastapi.testclient import TestClient
    from tests.conftest import make_tenant

    from vigia.app import create_app
    from vigia.config import get_settings
    from vigia.db import session as db_session
    from vigia.db.migrate import upgrade

    get_settings.cache_clear()  # the embedder read the settings before VIGIA_DATA_DIR was set
    db_session.engine_for.cache_clear()
    assert get_settings().data_dir == Path(folder)
    upgrade()
    tenant = make_tenant(name="bench", slug="bot", kind="external", rpm=10_000)
    payloads = _review_payloads(calls)
    url = f"/api/external/v1/agents/{tenant.agent_id}/output-review"
    headers = {"Authorization": f"Bearer {tenant.production_key}"}
    timings: list[float] = []
    cpu: list[float] = []
    actions: dict[str, int] = {}
    with TestClient(create_app()) as client:
        client.post(url, json=payloads[0], headers=headers).raise_for_status()  # warm-up
        for payload in payloads[1:]:
            t0, c0 = time.perf_counter(), time.process_time()
            response = client.post(url, json=payload, headers=headers)
            timings.append((time.perf_counter() - t0) * 1000)
            cpu.append((time.process_time() - c0) * 1000)
            response.raise_for_status()
            action = response.json()["action"]
            actions[action] = actions.get(action, 0) + 1
    reply_kb = statistics.mean(len(str(p["reply"]).encode()) for p in payloads) / 1000
    sources_kb = statistics.mean(len(str(p["sources"]).encode()) for p in payloads) / 1000
    q = statistics.quantiles(timings, n=100)
    print(f"## review latency: {calls} calls, reply {reply_kb:.1f} kB, sources {sources_kb:.1f} kB")
    print(
        f"p50 {statistics.median(timings):.1f} ms | p95 {q[94]:.1f} ms | max {max(timings):.1f} ms"
        f" | actions {actions}"
    )
    print(
        f"CPU time of the process per call: p50 {statistics.median(cpu):.1f} ms"
        f" | load average {os.getloadavg()[0]:.2f} (2 cores; other work inflates wall time)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--calls", type=int, default=100)
    parser.add_argument(
        "--latency-set",
        choices=["dev", "customer"],
        default="dev",
        help="messages of input_latency: dev's prompts or public customer messages",
    )
    parser.add_argument(
        "--parts",
        nargs="+",
        choices=["injection", "input_latency", "grounding", "latency"],
        default=["injection", "input_latency", "grounding", "latency"],
    )
    args = parser.parse_args()
    if "injection" in args.parts:
        injection()
    if "input_latency" in args.parts:
        input_latency(args.calls, args.latency_set)
    if "grounding" in args.parts:
        grounding()
    if "latency" in args.parts:
        review_latency(args.calls)


if __name__ == "__main__":
    main()
