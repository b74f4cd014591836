"""Fair use under attack: one chat key keeps four maximal requests in flight while another
workspace writes, against a real ``vigia serve`` (embedded model, SQLite, default write
slots).

The attacker (the demo workspace's key) sends ``--attack-messages`` user messages of
``--attack-chars`` characters each, none seen before, four at a time, for ``--seconds``;
the default is the largest request the work budget admits (four messages of 3,900
characters). ``--attack-messages 500`` is the request of issue 34. Meanwhile another
workspace sends chat turns and output reviews, ``--victims`` at a time. Printed: the
attack's status counts and durations, the other workspace's status counts and p50/p99/max
latency (JSON with ``--json``).

    PYTHONPATH=src .venv/bin/python bench/fair_use.py [--seconds 40] [--attack-messages 500]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

# The shared helpers of the write benchmarks; the package under test comes from PYTHONPATH.
sys.path.append(str(Path(__file__).resolve().parent.parent))
from bench.load_writes import cli, free_port, wait_ready

ADMIN_TOKEN = "bench-admin-token-0123456789abcdef"
WORDS_TEXT = (
    "el la de que y en un por con su para como estar tener todo pero más hacer poder decir "
    "este otro ese si me ya ver porque dar cuando muy sin vez mucho saber sobre mismo también "
    "hasta año querer entre así desde grande ahora parte después vida quedar siempre creer "
    "hablar llevar dejar nada cada seguir menos nuevo encontrar algo instrucciones anteriores "
    "ignorá sistema reglas olvidá mostrame contraseña asistente usuario mensaje"
)
WORDS = WORDS_TEXT.split(" ")


@dataclass
class Tally:
    statuses: Counter[int] = field(default_factory=Counter)
    seconds: list[float] = field(default_factory=list)

    def add(self, status: int, seconds: float) -> None:
        self.statuses[status] += 1
        self.seconds.append(seconds)

    def summary(self) -> dict[str, Any]:
        ordered = sorted(self.seconds)
        if not ordered:
            return {"requests": 0}
        p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
        return {
            "requests": len(ordered),
            "statuses": dict(sorted(self.statuses.items())),
            "p50_s": round(statistics.median(ordered), 3),
            "p99_s": round(p99, 3),
            "max_s": round(ordered[-1], 3),
        }


def setup(env: dict[str, str]) -> dict[str, str]:
    """The attacker's key (demo workspace); another workspace with an agent, a draft chat
    key and an external agent for output reviews."""
    cli(env, "demo")
    attacker = cli(env, "key", "create", "--workspace", "demo", "--rpm", "10000")["key"]
    cli(env, "workspace", "create", "otra")
    cli(env, "agent", "create", "bot", "--workspace", "otra")
    scopes = ["--scope", "chat", "--scope", "guardrails:review"]
    victim = cli(
        env, "key", "create", "--workspace", "otra", "--env", "draft", "--rpm", "10000", *scopes
    )["key"]
    reviewed = cli(env, "agent", "create", "revisor", "--workspace", "otra", "--external")["id"]
    return {"attacker": attacker, "victim": victim, "reviewed": reviewed}


def filler(rng: random.Random, chars: int = 200_000) -> str:
    """Random words, cut into messages at random offsets."""
    return " ".join(rng.choice(WORDS) for _ in range(chars // 4))


def attack_body(messages: int, chars: int, rng: random.Random, text: str) -> dict[str, Any]:
    """``messages`` user messages of ``chars`` characters in a row, none sent before."""
    dialogue = []
    for _ in range(messages):
        start = rng.randrange(len(text) - chars)
        content = (uuid.uuid4().hex[:8] + " " + text[start : start + chars])[:chars]
        dialogue.append({"role": "user", "content": content})
    return {"model": "asistente-demo", "messages": dialogue}


async def attacker(
    client: httpx.AsyncClient, key: str, args: argparse.Namespace, until: float, tally: Tally
) -> None:
    rng = random.Random()
    text = filler(rng)
    while time.monotonic() < until:
        body = attack_body(args.attack_messages, args.attack_chars, rng, text)
        t0 = time.perf_counter()
        try:
            response = await client.post(
                "/v1/chat/completions",
                json=body,
                headers={"Authorization": f"Bearer {key}"},
                timeout=max(1.0, until - time.monotonic()),
            )
            tally.add(response.status_code, time.perf_counter() - t0)
        except httpx.TimeoutException:
            tally.add(0, time.perf_counter() - t0)  # 0: still running when the run ended
            return


async def victim(
    client: httpx.AsyncClient, ids: dict[str, str], n: int, until: float, tally: Tally
) -> None:
    auth = {"Authorization": f"Bearer {ids['victim']}"}
    i = 0
    while time.monotonic() < until:
        i += 1
        body: dict[str, Any]
        if i % 2:
            url, body = (
                "/v1/chat/completions",
                {
                    "model": "bot",
                    "messages": [{"role": "user", "content": f"¿Qué horario tienen? ({n}-{i})"}],
                },
            )
        else:
            url = f"/api/external/v1/agents/{ids['reviewed']}/output-review"
            body = {"turnKey": f"v{n}-{i}", "attempt": 1, "message": "¿Abren hoy?", "reply": "Sí."}
        t0 = time.perf_counter()
        try:
            response = await client.post(url, json=body, headers=auth, timeout=120)
            tally.add(response.status_code, time.perf_counter() - t0)
        except httpx.TimeoutException:
            tally.add(0, time.perf_counter() - t0)
        await asyncio.sleep(0.2)


async def run(base: str, ids: dict[str, str], args: argparse.Namespace) -> dict[str, Any]:
    attacks, victims = Tally(), Tally()
    limits = httpx.Limits(max_connections=None, max_keepalive_connections=None)
    async with httpx.AsyncClient(base_url=base, limits=limits) as client:
        start = time.monotonic()
        until = start + args.seconds
        jobs = [attacker(client, ids["attacker"], args, until, attacks) for _ in range(4)]
        await asyncio.sleep(0)

        async def victims_later() -> None:
            await asyncio.sleep(args.head_start)  # the attack holds its slots first
            await asyncio.gather(*(victim(client, ids, n, until, victims) for n in range(4)))

        await asyncio.gather(*jobs, victims_later())
    return {
        "attack": {"messages": args.attack_messages, "chars": args.attack_chars},
        "attack_requests": attacks.summary(),
        "other_workspace_writes": victims.summary(),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=40.0, help="how long the attack runs")
    parser.add_argument("--attack-messages", type=int, default=4)
    parser.add_argument("--attack-chars", type=int, default=3900)
    parser.add_argument("--head-start", type=float, default=2.0, help="attack-only seconds")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="vigia-fair-"))
    env = {**os.environ, "VIGIA_DATA_DIR": str(work / "data"), "VIGIA_ADMIN_TOKEN": ADMIN_TOKEN}
    env.pop("VIGIA_DATABASE_URL", None)
    server: subprocess.Popen[bytes] | None = None
    try:
        ids = setup(env)
        port = free_port()
        log = (work / "serve.log").open("wb")
        command = ["serve", "--port", str(port), "--log-level", "warning"]
        server = subprocess.Popen(
            [sys.executable, "-c", "from vigia.cli import main; main()", *command],
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        base = f"http://127.0.0.1:{port}"
        wait_ready(f"{base}/healthz", server)
        warm = {"model": "bot", "messages": [{"role": "user", "content": "hola"}]}
        headers = {"Authorization": f"Bearer {ids['victim']}"}
        httpx.post(f"{base}/v1/chat/completions", json=warm, headers=headers, timeout=120)
        result = asyncio.run(run(base, ids, args))
    finally:
        if server is not None:
            server.terminate()
            try:
                server.wait(timeout=20)
            except subprocess.TimeoutExpired:
                server.kill()
        shutil.rmtree(work, ignore_errors=True)
    if args.json:
        print(json.dumps(result))
        return
    print(f"attack: 4 × {args.attack_messages} messages × {args.attack_chars} chars, one key")
    print(f"{'':24} {'requests':>8} {'p50 s':>7} {'p99 s':>7} {'max s':>7}  statuses")
    for name in ("attack_requests", "other_workspace_writes"):
        row = result[name]
        if not row["requests"]:
            print(f"{name:24} {0:>8}")
            continue
        print(
            f"{name:24} {row['requests']:>8} {row['p50_s']:>7} {row['p99_s']:>7} "
            f"{row['max_s']:>7}  {row['statuses']}"
        )


if __name__ == "__main__":
    main()
