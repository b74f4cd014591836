"""Worlds benchmark: answer quality of the three lenses over the payroll test world, and
indexing speed.

    .venv/bin/python bench/worlds_eval.py [--copies 30]

A question counts as answered correctly when the router picks the expected lens, every
required citation (``path:line``) is among the answer's sources, and every required entity
name appears in the answer. Indexing speed is measured on the payroll world and on a
synthetic world made of ``--copies`` copies of it (fresh index, then a no-change re-index).
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAYROLL = ROOT / "tests" / "worlds" / "payroll"


@dataclass(frozen=True)
class Question:
    lens: str
    text: str
    cites: tuple[str, ...] = ()
    mentions: tuple[str, ...] = field(default_factory=tuple)


QUESTIONS = [
    # qa
    Question(
        "qa",
        "What is the purpose of the WS-TAX-RATE field?",
        ("copy/TAXTBL.cpy:13", "src/tax/TAXCALC.cbl:47"),
        ("LOOKUP-BRACKET", "CALC-TAX"),
    ),
    Question(
        "qa",
        "What does the CALC-TAX paragraph do?",
        ("src/tax/TAXCALC.cbl:55",),
        ("WS-TAX-RATE", "TX-FED-TAX"),
    ),
    Question(
        "qa",
        "What does program OTCALC do?",
        ("src/payroll/OTCALC.cbl:2",),
        ("PAYCALC.CALC-OVERTIME",),
    ),
    Question("qa", "Where is WS-OT-THRESHOLD defined?", ("copy/PAYWORK.cpy:14",), ("PAYWORK",)),
    Question("qa", "What is the EMPREC copybook?", ("copy/EMPREC.cpy:1",), ("PAYMAIN", "PAYCALC")),
    Question(
        "qa",
        "What does the PAYWEEK job run?",
        ("jcl/PAYWEEK.jcl:1",),
        ("PAYVALID", "PAYMAIN", "PAYRPT", "CHKPRINT"),
    ),
    Question(
        "qa", "How is WS-GROSS-PAY computed?", ("src/payroll/PAYCALC.cbl:51",), ("CALC-GROSS",)
    ),
    Question(
        "qa",
        "What does CALC-GROSS do?",
        ("src/payroll/PAYCALC.cbl:38",),
        ("CALC-OVERTIME", "WS-GROSS-PAY"),
    ),
    Question("qa", "What is TX-BAD-STATE?", ("copy/TAXPARM.cpy:15",), ("STTAX",)),
    Question(
        "qa", "What does READ-CURRENT-RATE do?", ("src/db/EMPUPDT.cbl:20",), ("HV-HOURLY-RATE",)
    ),
    Question("qa", "What is the state tax rate for CA?", ("docs/tax-rules.md:26",)),
    Question(
        "qa",
        "Which copybooks does PAYCALC copy?",
        ("src/payroll/PAYCALC.cbl:2",),
        ("PAYWORK", "TAXPARM", "DEDREC", "EMPREC", "TIMEREC", "PAYREC"),
    ),
    # impact
    Question(
        "impact",
        "What calls CALC-TAX?",
        ("src/tax/TAXCALC.cbl:22",),
        ("PAYCALC.CALC-TAX-WITHHOLDING", "PAYWEEK.STEP020"),
    ),
    Question(
        "impact",
        "What changes if copybook TAXPARM changes?",
        (
            "src/payroll/PAYCALC.cbl:13",
            "src/tax/TAXCALC.cbl:15",
            "src/tax/STTAX.cbl:10",
            "src/online/PAYINQ.cbl:9",
        ),
    ),
    Question(
        "impact",
        "Which programs use dataset PAY.WEEKLY.PAYFILE?",
        ("jcl/PAYWEEK.jcl:18", "jcl/PAYYTD.jcl:7"),
        ("PAYWEEK.STEP030", "PAYWEEK.STEP040", "PAYYTD.STEP010"),
    ),
    Question(
        "impact",
        "What is affected if we change WS-TAX-RATE?",
        ("copy/TAXTBL.cpy:13",),
        ("LOOKUP-BRACKET", "CALC-TAX", "TAXTBL"),
    ),
    Question(
        "impact",
        "What is the impact of changing OTCALC?",
        (),
        ("PAYCALC.CALC-OVERTIME", "PAYWEEK.STEP020"),
    ),
    Question(
        "impact",
        "Who calls DEDCALC?",
        ("src/payroll/PAYCALC.cbl:87",),
        ("PAYCALC.CALC-DEDUCTIONS",),
    ),
    Question(
        "impact",
        "What breaks if copybook PAYREC changes?",
        (),
        ("PAYMAIN", "YTDUPDT", "PAYRPT", "CHKPRINT", "PAYCALC"),
    ),
    Question(
        "impact",
        "Which paragraphs use TC-HOURS-WORKED?",
        (),
        ("CALC-GROSS", "CALC-REGULAR-PAY", "CALC-OVERTIME", "VALIDATE-HOURS"),
    ),
    Question(
        "impact", "What depends on STTAX?", ("src/tax/TAXCALC.cbl:66",), ("TAXCALC.CALC-STATE-TAX",)
    ),
    Question(
        "impact",
        "If we change EMP-HOURLY-RATE what is affected?",
        (),
        ("CALC-REGULAR-PAY", "CALC-OVERTIME", "EMPREC"),
    ),
    Question(
        "impact",
        "Who performs CALC-DOUBLE-TIME?",
        ("src/payroll/OTCALC.cbl:34",),
        ("OTCALC.0000-MAIN",),
    ),
    Question(
        "impact", "What uses dataset PAY.EMPMAST?", ("jcl/PAYWEEK.jcl:16",), ("PAYWEEK.STEP020",)
    ),
    # troubleshoot
    Question(
        "troubleshoot",
        "CALC-TAX returns wrong value for overtime employees",
        ("docs/runbook.md:7",),
        ("COMPUTE-TAXABLE",),
    ),
    Question(
        "troubleshoot",
        "State tax is zero for an employee in a taxed state",
        ("docs/runbook.md:15",),
        ("TX-BAD-STATE",),
    ),
    Question(
        "troubleshoot", "Overtime pay is missing for hourly employees", (), ("CALC-OVERTIME",)
    ),
    Question("troubleshoot", "Net pay is negative on some checks", (), ("CALC-NET-PAY",)),
    Question("troubleshoot", "Timecards fail validation with error H080", (), ("VALIDATE-HOURS",)),
    Question(
        "troubleshoot", "FICA is wrong after the wage base is reached", (), ("CHECK-SS-WAGE-BASE",)
    ),
    Question("troubleshoot", "Garnishment deduction is too high", (), ("CALC-GARNISHMENT",)),
    Question("troubleshoot", "Double time hours are paid incorrectly", (), ("CALC-DOUBLE-TIME",)),
    Question(
        "troubleshoot", "Why is the federal tax too high for married employees?", (), ("CALC-TAX",)
    ),
]


def _setup(data_dir: Path) -> None:
    os.environ["VIGIA_DATA_DIR"] = str(data_dir)
    os.environ.pop("VIGIA_DATABASE_URL", None)
    from vigia.config import get_settings
    from vigia.db.migrate import upgrade

    get_settings.cache_clear()
    upgrade()


def _index(world_id: str, folder: Path) -> tuple[int, int, float, float]:
    from vigia.db.session import session_scope
    from vigia.worlds.catalog import add_world, get_world
    from vigia.worlds.indexer import index_world

    with session_scope() as session:
        first = index_world(session, add_world(session, world_id, folder))
    with session_scope() as session:
        again = index_world(session, get_world(session, world_id))
    return first.files, first.lines, first.seconds, again.seconds


def _ask(question: Question) -> tuple[bool, str]:
    from vigia.db.session import session_scope
    from vigia.worlds.chat import LENSES
    from vigia.worlds.lenses.common import LensInput
    from vigia.worlds.lenses.router import choose_lens

    route = choose_lens(question.text)
    with session_scope() as session:
        answer = LENSES[route.lens](LensInput(session, "payroll", question.text, []))
    cited = {f"{path}:{line}" for path, line in answer.sources}
    missing = [c for c in question.cites if c not in cited]
    absent = [m for m in question.mentions if m not in answer.headline]
    problems = []
    if route.lens != question.lens:
        problems.append(f"routed to {route.lens}")
    if missing:
        problems.append(f"missing citations {missing}")
    if absent:
        problems.append(f"missing entities {absent}")
    return not problems, "; ".join(problems)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--copies", type=int, default=30, help="copies in the synthetic world")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        _setup(Path(tmp) / "data")
        files, lines, seconds, again = _index("payroll", PAYROLL)
        print(
            f"payroll world: {files} files, {lines} lines, indexed in {seconds:.3f} s "
            f"({lines / seconds:,.0f} lines/s); no-change re-index {again:.3f} s"
        )
        big = Path(tmp) / "big"
        for n in range(args.copies):
            shutil.copytree(PAYROLL, big / f"copy{n:03d}")
        files, lines, seconds, again = _index("big", big)
        print(
            f"synthetic world ({args.copies} copies): {files} files, {lines} lines, indexed in "
            f"{seconds:.2f} s ({lines / seconds:,.0f} lines/s); no-change re-index {again:.2f} s"
        )

        by_lens: dict[str, list[bool]] = {}
        started = time.perf_counter()
        for question in QUESTIONS:
            ok, why = _ask(question)
            by_lens.setdefault(question.lens, []).append(ok)
            print(
                f"  [{'ok' if ok else 'XX'}] {question.lens:12} {question.text}"
                + (f"  -- {why}" if why else "")
            )
        elapsed = time.perf_counter() - started
    total = [ok for results in by_lens.values() for ok in results]
    for lens, results in by_lens.items():
        print(f"{lens:12} {sum(results)}/{len(results)} correct")
    print(
        f"overall      {sum(total)}/{len(total)} correct ({sum(total) / len(total):.0%}); "
        f"{elapsed / len(total) * 1000:.0f} ms per question"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
