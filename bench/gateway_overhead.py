"""Added latency and throughput of non-streamed calls: Vigia vs LiteLLM proxy vs direct.

All three talk to the same local mock OpenAI-compatible upstream (vigia.llm.mock_upstream)
in one run. LiteLLM is installed by this script in its own venv (bench/.peers/litellm).
The Vigia agent has every guardrail off (the gateway's own cost); a second agent with the
default guardrails gives the figure a user with guardrails pays. Streaming: time to the
first byte of content through Vigia (which streams whole sentences) against the direct
upstream's first chunk and the end of its first sentence, on a mock that sends one word
every 20 ms.

    .venv/bin/python bench/gateway_overhead.py [--calls 300] [--concurrency 8]
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


def measure(
    url: str, headers: dict[str, str], model: str, calls: int, concurrency: int
) -> dict[str, float]:
    body = {**BODY, "model": model}
    with httpx.Client(headers=headers, timeout=30) as client:
        for _ in range(30):
            client.post(url, json=body).raise_for_status()
        latencies = []
        for _ in range(calls):
            t0 = time.perf_counter()
            client.post(url, json=body).raise_for_status()
            latencies.append((time.perf_counter() - t0) * 1000)
    latencies.sort()
    total = calls * 2

    def one(_: int) -> None:
        httpx.post(url, json=body, headers=headers, timeout=30).raise_for_status()

    clients = [httpx.Client(headers=headers, timeout=30) for _ in range(concurrency)]

    def worker(i: int) -> None:
        c = clients[i % concurrency]
        for _ in range(total // concurrency):
            c.post(url, json=body).raise_for_status()

    t0 = time.perf_counter()
    with ThreadPoolExecutor(concurrency) as pool:
        list(pool.map(worker, range(concurrency)))
    rps = (total // concurrency) * concurrency / (time.perf_counter() - t0)
    for c in clients:
        c.close()
    return {
        "p50": statistics.median(latencies),
        "p99": latencies[int(len(latencies) * 0.99) - 1],
        "rps": rps,
    }


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


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--calls", type=int, default=300)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--skip-litellm", action="store_true")
    parser.add_argument("--guarded-calls", type=int, default=100, help="default guardrails")
    parser.add_argument("--stream-calls", type=int, default=20)
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

        def run(*a: str) -> str:
            out = subprocess.run(
                [str(venv_bin / "vigia"), *a, "--json"],
                env=vigia_env,
                check=True,
                capture_output=True,
                text=True,
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
        key = json.loads(run("key", "create", "--workspace", "bench", "--rpm", "10000"))["key"]
        procs.append(
            start(
                [
                    str(venv_bin / "vigia"),
                    "serve",
                    "--port",
                    str(vigia_port),
                    "--log-level",
                    "warning",
                ],
                vigia_env,
                work / "vigia.log",
            )
        )
        wait_ready(f"http://127.0.0.1:{vigia_port}/healthz")

        results = {
            "direct (floor)": measure(
                f"{mock}/chat/completions", {}, "mock", args.calls, args.concurrency
            )
        }
        results["vigia"] = measure(
            f"http://127.0.0.1:{vigia_port}/v1/chat/completions",
            {"Authorization": f"Bearer {key}"},
            "mock",
            args.calls,
            args.concurrency,
        )
        vigia_auth = {"Authorization": f"Bearer {key}"}
        vigia_url = f"http://127.0.0.1:{vigia_port}/v1/chat/completions"
        guarded = measure(vigia_url, vigia_auth, "guarded", args.guarded_calls, args.concurrency)
        streams = {
            "direct (floor)": first_bytes(
                f"{slow}/chat/completions", {}, "mock", args.stream_calls
            ),
            "vigia": first_bytes(vigia_url, vigia_auth, "streamed", args.stream_calls),
        }
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
            results["litellm proxy"] = measure(
                f"http://127.0.0.1:{litellm_port}/v1/chat/completions",
                {"Authorization": f"Bearer {master}"},
                "mock",
                args.calls,
                args.concurrency,
            )
        floor = results["direct (floor)"]
        print(
            f"{args.calls} sequential calls (latency), {args.calls * 2} calls at concurrency "
            f"{args.concurrency} (throughput)"
        )
        print("| target | p50 ms | p99 ms | added p50 ms | added p99 ms | req/s |")
        print("|---|---|---|---|---|---|")
        for name, r in results.items():
            print(
                f"| {name} | {r['p50']:.2f} | {r['p99']:.2f} | {r['p50'] - floor['p50']:.2f} | "
                f"{r['p99'] - floor['p99']:.2f} | {r['rps']:.0f} |"
            )
        print(
            f"vigia, default guardrails ({args.guarded_calls} calls): p50 "
            f"{guarded['p50']:.2f} ms, added p50 {guarded['p50'] - floor['p50']:.2f} ms, "
            f"p99 {guarded['p99']:.2f} ms, {guarded['rps']:.0f} req/s"
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
            throughput = results["vigia"]["rps"] / results["litellm proxy"]["rps"]
            print(f"vigia added p50 / litellm added p50 = {ratio:.3f} (goal <= 0.15)")
            print(f"vigia req/s / litellm req/s = {throughput:.2f} (goal >= 4)")
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
