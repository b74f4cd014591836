"""Added latency and throughput of non-streamed calls: Vigia vs LiteLLM proxy vs direct.

All three talk to the same local mock OpenAI-compatible upstream (vigia.llm.mock_upstream)
in one run. LiteLLM is installed by this script in its own venv (bench/.peers/litellm).
The Vigia agent has every guardrail off (the gateway's own cost); a second agent with the
default guardrails gives the figure a user with guardrails pays. Streaming: time to the
first byte of content through Vigia (which streams whole sentences) against the direct
upstream's first chunk and the end of its first sentence, on a mock that sends one word
every 20 ms.

The targets take turns in blocks of 25 sequential calls (latency) and of 200 concurrent
calls (throughput, each target's median round), so a load swing on this shared machine
reaches all of them alike.

    .venv/bin/python bench/gateway_overhead.py [--calls 300] [--concurrency 8]
        [--baseline-src <another tree>/src]   # before/after in one run
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
PEERS = ROOT / "bench" / ".peers"
LITELLM_VERSION = "1.108.7"
BODY = {"messages": [{"role": "user", "content": "¿Qué cubre la póliza?"}]}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait_ready(url: str, timeout_s: float = 120) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:
            if httpx.get(url, timeout=2).status_code < 500:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.2)
    raise RuntimeError(f"{url} did not come up")


def litellm_bin() -> Path:
    venv = PEERS / "litellm"
    binary = venv / "bin" / "litellm"
    if not binary.exists():
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        subprocess.run(
            [str(venv / "bin" / "pip"), "install", "-q", f"litellm[proxy]=={LITELLM_VERSION}"],
            check=True,
        )
    return binary


def start(cmd: list[str], env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    handle = log.open("wb")
    return subprocess.Popen(cmd, env=env, stdout=handle, stderr=subprocess.STDOUT)


Target = tuple[str, dict[str, str], str]
"""A chat completions URL, its headers and the model to name."""


def latencies(targets: dict[str, Target], calls: int, block: int = 25) -> dict[str, list[float]]:
    """Milliseconds per sequential call on keep-alive clients, the targets taking turns in
    blocks of ``block`` calls (each block after 5 unmeasured calls: a server still busy
    after its last answer, LiteLLM's logging, slows the next one's first calls)."""
    clients = {name: httpx.Client(headers=h, timeout=30) for name, (_, h, _) in targets.items()}
    seen: dict[str, list[float]] = {name: [] for name in targets}
    try:
        for name, (url, _, model) in targets.items():  # warm-up
            for _ in range(30):
                clients[name].post(url, json={**BODY, "model": model}).raise_for_status()
        for start in range(0, calls, block):
            for name, (url, _, model) in targets.items():
                for n in range(-5, min(block, calls - start)):
                    t0 = time.perf_counter()
                    clients[name].post(url, json={**BODY, "model": model}).raise_for_status()
                    if n >= 0:
                        seen[name].append((time.perf_counter() - t0) * 1000)
    finally:
        for client in clients.values():
            client.close()
    return seen


def throughput(target: Target, calls: int, concurrency: int) -> float:
    """Requests per second of ``calls`` calls from ``concurrency`` keep-alive clients."""
    url, headers, model = target
    body = {**BODY, "model": model}
    clients = [httpx.Client(headers=headers, timeout=30) for _ in range(concurrency)]

    def worker(i: int) -> None:
        for _ in range(calls // concurrency):
            clients[i].post(url, json=body).raise_for_status()

    t0 = time.perf_counter()
    with ThreadPoolExecutor(concurrency) as pool:
        list(pool.map(worker, range(concurrency)))
    rps = (calls // concurrency) * concurrency / (time.perf_counter() - t0)
    for c in clients:
        c.close()
    return rps


def measure(
    targets: dict[str, Target], calls: int, concurrency: int, rounds: int = 3
) -> dict[str, dict[str, float]]:
    """p50/p99 ms (latency, in turns) and median req/s over ``rounds`` alternating
    throughput rounds of ``2 * calls / rounds`` calls per target."""
    seen = latencies(targets, calls)
    rates: dict[str, list[float]] = {name: [] for name in targets}
    for _ in range(rounds):
        for name, target in targets.items():
            rates[name].append(throughput(target, calls * 2 // rounds, concurrency))
    results = {}
    for name, values in seen.items():
        values.sort()
        results[name] = {
            "p50": statistics.median(values),
            "p99": values[int(len(values) * 0.99) - 1],
            "rps": statistics.median(rates[name]),
        }
    return results


def first_bytes(url: str, headers: dict[str, str], model: str, calls: int) -> dict[str, float]:
    """Median ms to the first content chunk and to the end of the first sentence (a chunk
    holding a full stop) of a streamed completion."""
    body = {**BODY, "model": model, "stream": True}
    first, sentence = [], []
    with httpx.Client(headers=headers, timeout=30) as client:
        for n in range(calls + 3):
            t0 = time.perf_counter()
            seen_first = None
            with client.stream("POST", url, json=body) as response:
                response.raise_for_status()
                for line in response.iter_lines():
                    if not line.startswith("data: {"):
                        continue
                    choices = json.loads(line[6:]).get("choices") or [{}]
                    content = choices[0].get("delta", {}).get("content") or ""
                    if not content:
                        continue
                    at = (time.perf_counter() - t0) * 1000
                    seen_first = seen_first if seen_first is not None else at
                    if "." in content:
                        if n >= 3:  # the first three warm up
                            first.append(seen_first)
                            sentence.append(at)
                        break
    return {"first": statistics.median(first), "sentence": statistics.median(sentence)}


def set_up(vigia: Path, vigia_env: dict[str, str], mock: str, slow: str) -> str:
    """The bench workspace in ``vigia_env``'s data dir: the agent on the mock with every
    guardrail off, one with the default guardrails, one on the slow mock; returns a key."""

    def run(*a: str) -> str:
        out = subprocess.run(
            [str(vigia), *a, "--json"], env=vigia_env, check=True, capture_output=True, text=True
        )
        return out.stdout

    run("workspace", "create", "bench")
    run("agent", "create", "mock", "--workspace", "bench")
    patch = {
        "model": {"provider": "openai", "name": "mock", "base_url": mock},
        "guardrails": {
            "injection": "off",
            "length": "off",
            "topics": "off",
            "grounding": "off",
            "personal_data": "off",
        },
    }
    run("workspace", "tool-hosts", "bench", "127.0.0.1")  # the mock's loopback address
    run("agent", "update", "mock", "--workspace", "bench", "--set", json.dumps(patch))
    run("agent", "publish", "mock", "--workspace", "bench")
    agents = {
        "guarded": {"model": patch["model"]},  # the default guardrails
        "streamed": {**patch, "model": {**patch["model"], "base_url": slow}},
    }
    for slug, agent_config in agents.items():
        run("agent", "create", slug, "--workspace", "bench")
        run("agent", "update", slug, "--workspace", "bench", "--set", json.dumps(agent_config))
        run("agent", "publish", slug, "--workspace", "bench")
    key: str = json.loads(run("key", "create", "--workspace", "bench", "--rpm", "10000"))["key"]
    return key


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--calls", type=int, default=300)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--skip-litellm", action="store_true")
    parser.add_argument("--guarded-calls", type=int, default=100, help="default guardrails")
    parser.add_argument("--stream-calls", type=int, default=20)
    parser.add_argument(
        "--baseline-src",
        type=Path,
        help="another tree's src/: a second Vigia runs it on data of its own, taking turns "
        "with the others (before/after in one run)",
    )
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="vigia-bench-"))
    procs: list[subprocess.Popen[bytes]] = []
    env = {**os.environ, "OMP_NUM_THREADS": "1"}
    try:
        mock_port, vigia_port, litellm_port = free_port(), free_port(), free_port()
        procs.append(
            start(
                [sys.executable, "-m", "vigia.llm.mock_upstream", "--port", str(mock_port)],
                env,
                work / "mock.log",
            )
        )
        mock = f"http://127.0.0.1:{mock_port}/v1"
        wait_ready(f"http://127.0.0.1:{mock_port}/v1/chat/completions")
        slow_port = free_port()
        slow_cmd = [sys.executable, "-m", "vigia.llm.mock_upstream", "--port", str(slow_port)]
        procs.append(start([*slow_cmd, "--delay", "0.02"], env, work / "slow.log"))
        slow = f"http://127.0.0.1:{slow_port}/v1"
        wait_ready(f"{slow}/chat/completions")

        venv_bin = Path(sys.executable).parent
        vigia_env = {**env, "VIGIA_DATA_DIR": str(work / "vigia")}
        key = set_up(venv_bin / "vigia", vigia_env, mock, slow)
        serve = [str(venv_bin / "vigia"), "serve", "--log-level", "warning", "--port"]
        procs.append(start([*serve, str(vigia_port)], vigia_env, work / "vigia.log"))
        wait_ready(f"http://127.0.0.1:{vigia_port}/healthz")
        baseline_port, baseline_key = free_port(), ""
        if args.baseline_src:
            baseline_env = {
                **vigia_env,
                "VIGIA_DATA_DIR": str(work / "baseline"),
                "PYTHONPATH": str(args.baseline_src.resolve()),
            }
            baseline_key = set_up(venv_bin / "vigia", baseline_env, mock, slow)
            procs.append(start([*serve, str(baseline_port)], baseline_env, work / "base.log"))
            wait_ready(f"http://127.0.0.1:{baseline_port}/healthz")

        vigia_auth = {"Authorization": f"Bearer {key}"}
        vigia_url = f"http://127.0.0.1:{vigia_port}/v1/chat/completions"
        targets: dict[str, Target] = {
            "direct (floor)": (f"{mock}/chat/completions", {}, "mock"),
            "vigia": (vigia_url, vigia_auth, "mock"),
        }
        if args.baseline_src:
            baseline_url = f"http://127.0.0.1:{baseline_port}/v1/chat/completions"
            baseline_auth = {"Authorization": f"Bearer {baseline_key}"}
            targets["vigia (baseline)"] = (baseline_url, baseline_auth, "mock")
        if not args.skip_litellm:
            master = "sk-" + secrets.token_hex(24)
            config = work / "litellm.yaml"
            config.write_text(
                "model_list:\n  - model_name: mock\n    litellm_params:\n"
                f"      model: openai/mock\n      api_base: {mock}\n      api_key: x\n"
            )
            lenv = {**env, "LITELLM_MASTER_KEY": master, "LITELLM_LOCAL_MODEL_COST_MAP": "True"}
            procs.append(
                start(
                    [
                        str(litellm_bin()),
                        "--config",
                        str(config),
                        "--host",
                        "127.0.0.1",
                        "--port",
                        str(litellm_port),
                    ],
                    lenv,
                    work / "litellm.log",
                )
            )
            wait_ready(f"http://127.0.0.1:{litellm_port}/health/liveliness", timeout_s=240)
            litellm_url = f"http://127.0.0.1:{litellm_port}/v1/chat/completions"
            targets["litellm proxy"] = (litellm_url, {"Authorization": f"Bearer {master}"}, "mock")
        results = measure(targets, args.calls, args.concurrency)
        guarded = measure(
            {
                "direct (floor)": targets["direct (floor)"],
                "guarded": (vigia_url, vigia_auth, "guarded"),
            },
            args.guarded_calls,
            args.concurrency,
        )
        streams = {
            "direct (floor)": first_bytes(
                f"{slow}/chat/completions", {}, "mock", args.stream_calls
            ),
            "vigia": first_bytes(vigia_url, vigia_auth, "streamed", args.stream_calls),
        }
        floor = results["direct (floor)"]
        print(
            f"{args.calls} sequential calls per target in blocks of 25 (latency); 3 alternating "
            f"rounds of {args.calls * 2 // 3} calls at concurrency {args.concurrency}, median "
            "(throughput)"
        )
        print("| target | p50 ms | p99 ms | added p50 ms | added p99 ms | req/s |")
        print("|---|---|---|---|---|---|")
        for name, r in results.items():
            print(
                f"| {name} | {r['p50']:.2f} | {r['p99']:.2f} | {r['p50'] - floor['p50']:.2f} | "
                f"{r['p99'] - floor['p99']:.2f} | {r['rps']:.0f} |"
            )
        g, g_floor = guarded["guarded"], guarded["direct (floor)"]
        print(
            f"vigia, default guardrails ({args.guarded_calls} calls, in turns with the "
            f"floor): p50 {g['p50']:.2f} ms, added p50 {g['p50'] - g_floor['p50']:.2f} ms, "
            f"p99 {g['p99']:.2f} ms, {g['rps']:.0f} req/s"
        )
        print("streamed, one word per 20 ms (median ms):")
        for name, r in streams.items():
            print(
                f"  {name}: first content byte {r['first']:.1f}, "
                f"end of first sentence {r['sentence']:.1f}"
            )
        if "litellm proxy" in results:
            ratio = (results["vigia"]["p50"] - floor["p50"]) / (
                results["litellm proxy"]["p50"] - floor["p50"]
            )
            times = results["vigia"]["rps"] / results["litellm proxy"]["rps"]
            print(f"vigia added p50 / litellm added p50 = {ratio:.3f} (goal <= 0.15)")
            print(f"vigia req/s / litellm req/s = {times:.2f} (goal >= 4)")
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
