"""Worlds benchmark: answer quality on the payroll test world and on a public COBOL code
base (genapp), and indexing speed.

    .venv/bin/python bench/worlds_eval.py [--set payroll|genapp|speed|all] [--lines 57000]

- ``payroll``: the team's 33 questions over ``tests/worlds/payroll`` (``bench/data/worlds/
  payroll.jsonl``). Correct when the router picks the expected lens, every required citation
  (``path:line``) is among the answer's sources and every required name is in the answer.
- ``genapp``: the public dev set (``--data``, default ``../shared/data/worlds``): the genapp
  folder registered as a world, each question sent to ``POST /chat`` with ``knowledge:
  true`` through the app in-process (ASGI). The README's rule: a case passes when one of its
  ``files`` is a substring of some ``sources[].doc_id`` and every one of its ``words``
  appears, case-insensitively, in the ``headline``. Reported per kind and language.
- ``zopeneditor`` (held-out COBOL) and ``starlette`` (held-out Markdown docs): questions in
  genapp's format over a fetched folder (``--zopeneditor``, ``--starlette``), same rule.
- ``speed``: a fresh index (with embeddings, no cache) of a code base of ``--lines`` lines
  made of copies of genapp and payroll, then a no-change re-index; load average reported.

Quality runs keep passage vectors on disk (``bench/.out/embeddings``) so that reruns on the
shared machine do not embed the same texts again; the speed run never uses that cache.
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse
import json
import shutil
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
PAYROLL = ROOT / "tests" / "worlds" / "payroll"
PAYROLL_QUESTIONS = ROOT / "bench" / "data" / "worlds" / "payroll.jsonl"
ZOPENEDITOR_QUESTIONS = ROOT / "bench" / "data" / "worlds" / "zopeneditor.jsonl"
STARLETTE_QUESTIONS = ROOT / "bench" / "data" / "worlds" / "starlette-docs.jsonl"
DATA = ROOT.parent / "shared" / "data" / "worlds"
OUT = ROOT / "bench" / ".out"
PASSWORD = "bench password 1234"
CPU_SECONDS = 0.0


def _rows(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def _setup(data_dir: Path, database_url: str | None = None) -> None:
    os.environ["VIGIA_DATA_DIR"] = str(data_dir)
    if database_url:
        os.environ["VIGIA_DATABASE_URL"] = database_url
    else:
        os.environ.pop("VIGIA_DATABASE_URL", None)
    from vigia.config import get_settings
    from vigia.db.migrate import upgrade
    from vigia.db.session import engine_for

    get_settings.cache_clear()
    engine_for.cache_clear()
    upgrade()


def _disk_cache() -> None:
    """Keeps passage vectors of quality runs under ``bench/.out`` (bench only)."""
    try:
        from vigia.worlds import embedding
    except ImportError:  # the product before dense retrieval had no world vectors
        return
    embedding.use_disk_cache(OUT / "embeddings")


def _team() -> str:
    """The id of workspace ``bench``, which owns the bench's worlds (created once)."""
    from vigia.db.session import session_scope
    from vigia.errors import NotFound
    from vigia.workspaces.service import create_workspace, find_workspace

    with session_scope() as session:
        try:
            return find_workspace(session, "bench").id
        except NotFound:
            return create_workspace(session, "bench").id


def _index(world_id: str, folder: Path) -> tuple[int, int, float, float]:
    from vigia.db.session import session_scope
    from vigia.worlds.catalog import add_world, get_world
    from vigia.worlds.ingest.indexer import index_world

    global CPU_SECONDS
    team = _team()
    cpu = time.process_time()
    with session_scope() as session:
        first = index_world(session, add_world(session, world_id, folder, team))
    CPU_SECONDS = time.process_time() - cpu
    with session_scope() as session:
        again = index_world(session, get_world(session, world_id))
    return first.files, first.lines, first.seconds, again.seconds


def run_payroll(verbose: bool) -> tuple[int, int]:
    """The team's payroll questions, asked of the lenses in-process."""
    from vigia.db.session import session_scope
    from vigia.worlds.answer.lenses.common import LensInput
    from vigia.worlds.answer.lenses.router import choose_lens
    from vigia.worlds.chat.turn import LENSES

    files, lines, seconds, _ = _index("payroll", PAYROLL)
    print(f"payroll world: {files} files, {lines} lines, indexed in {seconds:.2f} s")
    by_lens: dict[str, list[bool]] = defaultdict(list)
    for row in _rows(PAYROLL_QUESTIONS):
        route = choose_lens(row["question"])
        with session_scope() as session:
            answer = LENSES[route.lens](LensInput(session, "payroll", row["question"], []))
        cited = {f"{path}:{line}" for path, line in answer.sources}
        problems = []
        if route.lens != row["lens"]:
            problems.append(f"routed to {route.lens}")
        if missing := [c for c in row["cites"] if c not in cited]:
            problems.append(f"missing citations {missing}")
        if absent := [m for m in row["mentions"] if m not in answer.headline]:
            problems.append(f"missing names {absent}")
        by_lens[row["lens"]].append(not problems)
        if verbose or problems:
            mark = "ok" if not problems else "XX"
            print(f"  [{mark}] {row['lens']:12} {row['question']}  {'; '.join(problems)}")
    for lens, results in by_lens.items():
        print(f"  {lens:12} {sum(results)}/{len(results)}")
    total = [ok for results in by_lens.values() for ok in results]
    print(f"payroll overall {sum(total)}/{len(total)}")
    return sum(total), len(total)


def passes(case: dict[str, Any], envelope: dict[str, Any]) -> tuple[bool, str]:
    """The README's scoring rule, with what was missing."""
    doc_ids = [s["doc_id"] for s in envelope.get("sources", [])]
    cited = any(f in d for f in case["files"] for d in doc_ids)
    headline = envelope.get("headline", "").lower()
    absent = [w for w in case["words"] if w.lower() not in headline]
    problems = []
    if not cited:
        problems.append(f"cites none of {case['files']}")
    if absent:
        problems.append(f"does not name {absent}")
    return not problems, "; ".join(problems)


LENS_OF = {"fact": "qa", "business": "qa", "impact": "impact", "troubleshoot": "troubleshoot"}


def routed_kind(envelope: dict[str, Any]) -> str:
    """The kind of question the router saw, from the envelope's lens and reason."""
    if envelope["lens"] != "qa":
        return str(envelope["lens"])
    return "business" if "business" in envelope["route"]["reason"] else "fact"


def run_genapp(data: Path, verbose: bool) -> tuple[int, int]:
    """The public dev set through ``POST /chat`` (knowledge on), in-process."""
    return run_public("genapp", data / "genapp", data / "genapp.jsonl", verbose)


def run_public(name: str, folder: Path, questions: Path, verbose: bool) -> tuple[int, int]:
    """Questions (genapp's format) about the code base in ``folder``, through ``POST /chat``
    (knowledge on), in-process, scored by the README's rule."""
    from fastapi.testclient import TestClient

    from vigia.app import create_app
    from vigia.db.session import session_scope
    from vigia.users.service import create_user

    files, lines, seconds, _ = _index(name, folder)
    print(f"{name} world: {files} files, {lines} lines, indexed in {seconds:.2f} s")
    from vigia.users.roles import grant

    with session_scope() as session:
        grant(session, create_user(session, "bench", PASSWORD).id, _team(), "viewer")
    cases = _rows(questions)
    routed: list[tuple[bool, bool]] = []
    by: dict[str, dict[str, list[bool]]] = {"kind": defaultdict(list), "lang": defaultdict(list)}
    started = time.perf_counter()
    with TestClient(create_app()) as client:
        login = client.post("/auth/login", json={"username": "bench", "password": PASSWORD})
        login.raise_for_status()
        for case in cases:
            response = client.post(
                "/chat", json={"message": case["question"], "version": name, "knowledge": True}
            )
            envelope: dict[str, Any]
            if response.status_code != 200:  # refused (a guardrail): a failed case
                refusal = response.json().get("detail")
                envelope = {
                    "lens": "refused",
                    "route": {"reason": ""},
                    "headline": str(refusal),
                    "sources": [],
                }
            else:
                envelope = response.json()
            ok, why = passes(case, envelope)
            kind = routed_kind(envelope)
            routed.append((LENS_OF[case["kind"]] == envelope["lens"], kind == case["kind"]))
            by["kind"][case["kind"]].append(ok)
            by["lang"][case["lang"]].append(ok)
            if verbose or not ok:
                print(
                    f"  [{'ok' if ok else 'XX'}] {case['id']} {case['kind']:12} {case['lang']}"
                    f" lens={envelope['lens']:12} {case['question']}"
                )
                if not ok:
                    print(f"       {why}")
                if verbose or not ok:
                    print(f"       headline: {envelope['headline'][:600]}")
                    print(f"       sources: {[s['doc_id'] for s in envelope['sources']][:8]}")
    elapsed = time.perf_counter() - started
    for axis in ("kind", "lang"):
        shown = ", ".join(f"{k} {sum(v)}/{len(v)}" for k, v in sorted(by[axis].items()))
        print(f"  by {axis}: {shown}")
    lens_right = sum(lens for lens, _ in routed)
    kind_right = sum(kind for _, kind in routed)
    print(
        f"  router: lens right {lens_right}/{len(routed)}, "
        f"kind right (fact/business/impact/troubleshoot) {kind_right}/{len(routed)}"
    )
    total = [ok for results in by["kind"].values() for ok in results]
    print(
        f"{name} overall {sum(total)}/{len(total)} ({sum(total) / len(total):.2f}); "
        f"{elapsed / len(total) * 1000:.0f} ms per question"
    )
    return sum(total), len(total)


def _replicate(sources: list[Path], target_lines: int, into: Path) -> int:
    """Copies of the source folders' code files until ``target_lines`` lines are reached."""
    files = [
        (folder, path)
        for folder in sources
        for path in sorted(folder.rglob("*"))
        if path.is_file() and path.suffix.lower() in (".cbl", ".cpy", ".jcl", ".md")
    ]
    total, copy = 0, 0
    while total < target_lines:
        for folder, path in files:
            if total >= target_lines:
                break
            target = into / f"copy{copy:03d}" / folder.name / path.relative_to(folder)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, target)
            total += path.read_text(encoding="utf-8", errors="replace").count("\n")
        copy += 1
    return total


def run_speed(data: Path, lines: int, tmp: Path) -> None:
    """Fresh index of a ``lines``-line code base (embeddings included), then a re-index."""
    from vigia.worlds import embedding

    big = tmp / "big"
    _replicate([data / "genapp", PAYROLL], lines, big)
    embedding.embedder().passages(["load the encoder before the clock starts"])
    before = os.getloadavg()
    files, total, seconds, again = _index("big", big)
    after = os.getloadavg()
    print(
        f"speed: {files} files, {total:,} lines indexed in {seconds:.1f} s wall "
        f"({total / seconds:,.0f} lines/s), {CPU_SECONDS:.1f} s CPU; no-change re-index "
        f"{again:.2f} s; load average before {before[0]:.1f}, after {after[0]:.1f} "
        f"({os.cpu_count()} cores)"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--set",
        choices=["payroll", "genapp", "zopeneditor", "starlette", "speed", "all"],
        default="all",
    )
    parser.add_argument(
        "--zopeneditor",
        type=Path,
        default=OUT / "zopeneditor",
        help="IBM/zopeneditor-sample at 41f7055: its COBOL, COPYBOOK, COPYLIB, COPYLIB-MVS, "
        "JCL, JCLLIB and JCLPROC folders (not part of --set all)",
    )
    parser.add_argument(
        "--starlette",
        type=Path,
        default=OUT / "starlette-docs",
        help="encode/starlette at cb8f84f: its docs folder and LICENSE.md, a Markdown world "
        "(not part of --set all)",
    )
    parser.add_argument("--data", type=Path, default=DATA, help="folder with genapp/")
    parser.add_argument("--lines", type=int, default=57_000, help="size of the speed world")
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument(
        "--database-url",
        default=os.environ.get("VIGIA_TEST_DATABASE_URL"),
        help="an empty PostgreSQL database (default: SQLite in a temporary folder); "
        "scripts/with-postgres sets VIGIA_TEST_DATABASE_URL",
    )
    args = parser.parse_args()
    if args.database_url and args.set == "all":
        parser.error("on PostgreSQL run one --set at a time (each needs an empty database)")
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        if args.set in ("speed", "all"):
            _setup(tmp / "speed", args.database_url)
            run_speed(args.data, args.lines, tmp)
        if args.set in ("payroll", "genapp", "zopeneditor", "starlette", "all"):
            _setup(tmp / "quality", args.database_url)
            _disk_cache()
        if args.set in ("payroll", "all"):
            run_payroll(args.verbose)
        if args.set in ("genapp", "all"):
            run_genapp(args.data, args.verbose)
        if args.set == "zopeneditor":
            run_public("zopeneditor", args.zopeneditor, ZOPENEDITOR_QUESTIONS, args.verbose)
        if args.set == "starlette":
            run_public("starlette", args.starlette, STARLETTE_QUESTIONS, args.verbose)
    return 0


if __name__ == "__main__":
    sys.exit(main())
