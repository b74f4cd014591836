"""What the budget check costs a turn with 0 and with 100,000 runs in the month.

Each tree (this one and, with ``--baseline-src``, another) runs in a child process on a
SQLite database of its own: migrated to ``0027`` (the last revision without the spend
ledger), a workspace with a pausing budget, ``budget_state`` timed; then ``--runs`` priced
runs of this month are inserted, the database is upgraded to the tree's head (this tree's
0028 fills the ledger from those runs: that upgrade is timed too) and ``budget_state`` is
timed again. Median of ``--calls`` calls, each in its own read transaction as a turn has.

    .venv/bin/python bench/budget_state.py [--runs 100000] [--calls 300]
        [--baseline-src <another tree>/src]   # before/after in one run
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path
from typing import Any

LEDGERLESS_REVISION = "0027_conversation_assignment"
BATCH = 5_000


def _time_budget_state(workspace_id: str, calls: int) -> float:
    """Median milliseconds of one ``budget_state`` in a fresh session."""
    from vigia.db.session import session_scope
    from vigia.engine import budget_state
    from vigia.workspaces.limits import budget_row

    samples = []
    for _ in range(calls):
        started = time.perf_counter()
        with session_scope() as session:
            workspace = budget_row(session, workspace_id)
            assert workspace is not None
            state = budget_state(session, workspace)
        samples.append((time.perf_counter() - started) * 1000)
    assert state.spent_usd >= 0
    return statistics.median(samples)


def _insert_runs(workspace_id: str, count: int) -> None:
    from sqlalchemy import insert

    from vigia.db.base import new_id, table_of, utcnow
    from vigia.db.session import session_scope
    from vigia.engine.models import Run

    start = utcnow().replace(day=1, hour=0, minute=0, second=0, microsecond=0)
    for first in range(0, count, BATCH):
        rows = [
            {
                "id": new_id(),
                "workspace_id": workspace_id,
                "cost_usd": 0.0001,
                "created_at": start + timedelta(seconds=n),
            }
            for n in range(first, min(first + BATCH, count))
        ]
        with session_scope() as session:
            session.execute(insert(table_of(Run)), rows)


def child(runs: int, calls: int) -> dict[str, Any]:
    """Measures this process's tree (``PYTHONPATH``) on the database of ``VIGIA_DATA_DIR``."""
    from alembic import command

    from vigia.db.migrate import alembic_config, upgrade
    from vigia.db.session import get_engine, session_scope
    from vigia.workspaces.service import create_workspace, set_budget

    url = str(get_engine().url)
    command.upgrade(alembic_config(url), LEDGERLESS_REVISION)
    with session_scope() as session:
        workspace = create_workspace(session, "bench")
        set_budget(session, workspace, 1_000_000.0, "pause")
        workspace_id = workspace.id
    upgrade(url)
    empty_ms = _time_budget_state(workspace_id, calls)
    get_engine().dispose()
    command.downgrade(alembic_config(url), LEDGERLESS_REVISION)
    _insert_runs(workspace_id, runs)
    started = time.perf_counter()
    upgrade(url)
    upgrade_s = time.perf_counter() - started
    get_engine().dispose()
    return {
        "empty_ms": empty_ms,
        "full_ms": _time_budget_state(workspace_id, calls),
        "upgrade_s": upgrade_s,
    }


def measure(src: Path, runs: int, calls: int, work: Path) -> dict[str, Any]:
    data = Path(tempfile.mkdtemp(dir=work))
    env = {**os.environ, "PYTHONPATH": str(src.resolve()), "VIGIA_DATA_DIR": str(data)}
    env.pop("VIGIA_DATABASE_URL", None)
    command = [sys.executable, __file__, "--child", "--runs", str(runs), "--calls", str(calls)]
    done = subprocess.run(command, env=env, check=True, capture_output=True, text=True)
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=100_000)
    parser.add_argument("--calls", type=int, default=300)
    parser.add_argument("--baseline-src", type=Path)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child(args.runs, args.calls)))
        return
    trees = {"vigia": Path(__file__).resolve().parent.parent / "src"}
    if args.baseline_src:
        trees["vigia (baseline)"] = args.baseline_src
    print(f"budget_state median of {args.calls} calls; {args.runs} runs this month (SQLite)")
    print(f"{'tree':<18} {'0 runs ms':>10} {f'{args.runs} runs ms':>16} {'upgrade s':>10}")
    with tempfile.TemporaryDirectory() as work:
        for name, src in trees.items():
            r = measure(src, args.runs, args.calls, Path(work))
            print(
                f"{name:<18} {r['empty_ms']:>10.3f} {r['full_ms']:>16.3f} {r['upgrade_s']:>10.2f}"
            )


if __name__ == "__main__":
    main()
