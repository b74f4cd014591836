"""Indexing: totals, the graph in tables, re-index reading only changed files, JCL, and the
world's passages on the shared search stack."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from sqlalchemy import func, select

from tests.worlds.conftest import PAYROLL
from vigia.db.session import session_scope
from vigia.errors import Conflict, Invalid
from vigia.search import index_for
from vigia.worlds.answer.retrieval import search_world
from vigia.worlds.catalog import add_world, collection_of, get_world
from vigia.worlds.graph.queries import upstream
from vigia.worlds.ingest.indexer import IndexReport, index_world
from vigia.worlds.ingest.jcl import extract_jcl
from vigia.worlds.models import WorldChunk, WorldEdge, WorldEntity


def test_payroll_world_meets_the_acceptance_shape(payroll: IndexReport) -> None:
    assert payroll.files == 28 and payroll.lines > 900 and payroll.changed == 28
    with session_scope() as session:
        kinds = dict(
            session.execute(select(WorldEntity.kind, func.count()).group_by(WorldEntity.kind)).all()
        )
        assert kinds["program"] >= 10 and kinds["copybook"] >= 6
        assert kinds["job"] == 3 and kinds["sql"] == 2 and kinds["cics"] == 4
        replaced = session.scalars(
            select(WorldEdge.detail).where(
                WorldEdge.kind == "copies", WorldEdge.dst_key == "COPY:PAYREC"
            )
        ).all()
        assert "REPLACING ==:PFX:== BY ==YTD==" in replaced


def test_recursive_upstream_walk_reaches_the_jcl_step(payroll: IndexReport) -> None:
    with session_scope() as session:
        hops = upstream(session, "payroll-2024", ["PARA:OTCALC:CALC-OT-PAY"])
    sources = {h.src_key for h in hops}
    assert {
        "PARA:OTCALC:0000-MAIN",
        "PARA:PAYCALC:CALC-OVERTIME",
        "PARA:PAYMAIN:2000-PROCESS-EMPLOYEE",
        "STEP:PAYWEEK:STEP020",
        "JOB:PAYWEEK",
    } <= sources


def _copy_world(tmp_path: Path) -> Path:
    target = tmp_path / "world"
    shutil.copytree(PAYROLL, target)
    return target


def test_reindex_reads_only_changed_files(tmp_path: Path) -> None:
    root = _copy_world(tmp_path)
    with session_scope() as session:
        first = index_world(session, add_world(session, "w", root))
    with session_scope() as session:
        again = index_world(session, get_world(session, "w"))
    assert (again.changed, again.lines_read, again.files) == (0, 0, first.files)

    doc = root / "docs" / "overtime.md"
    doc.write_text(doc.read_text() + "\nNew rule: OVERTIME-CAP-XYZ.\n")
    os.utime(doc, (1, 1))
    touched = root / "jcl" / "PAYYTD.jcl"
    os.utime(touched, (2, 2))  # same content, new mtime: hashed, not re-extracted
    (root / "docs" / "runbook.md").unlink()
    with session_scope() as session:
        third = index_world(session, get_world(session, "w"))
        assert (third.changed, third.removed, third.files) == (1, 1, first.files - 1)
        hits = search_world(session, "w", "OVERTIME-CAP-XYZ", [], 3, "lexical")
        assert [h.path for h in hits][:1] == ["docs/overtime.md"]
        assert "OVERTIME-CAP-XYZ" in hits[0].chunk.text
        restart = search_world(session, "w", "Restart", [], 20, "lexical")
        assert "docs/runbook.md" not in {h.path for h in restart}
        chunks = session.scalar(select(func.count()).select_from(WorldChunk))
        assert index_for(session).count(session, collection_of("w")) == chunks


def test_changed_copybook_reextracts_the_programs_that_copy_it(tmp_path: Path) -> None:
    root = _copy_world(tmp_path)
    with session_scope() as session:
        index_world(session, add_world(session, "w", root))
    book = root / "copy" / "DEDREC.cpy"
    book.write_text(book.read_text() + "           05  DED-UNION-DUES          PIC 9(03)V99.\n")
    with session_scope() as session:
        report = index_world(session, get_world(session, "w"))
        assert report.changed == 3  # DEDREC, DEDCALC and PAYCALC
        owners = session.scalars(
            select(WorldEntity.program).where(WorldEntity.name == "DED-UNION-DUES")
        ).all()
        assert sorted(owners, key=str) == ["DEDCALC", "PAYCALC"]


def test_world_ids_and_paths_are_checked(tmp_path: Path) -> None:
    with session_scope() as session:
        with pytest.raises(Invalid):
            add_world(session, "-bad", tmp_path)
        with pytest.raises(Invalid):
            add_world(session, "ok", tmp_path / "missing")
        add_world(session, "ok", tmp_path)
        with pytest.raises(Conflict):
            add_world(session, "ok", tmp_path)


def test_jcl_steps_programs_and_datasets() -> None:
    out = extract_jcl((PAYROLL / "jcl" / "PAYWEEK.jcl").read_text(), "jcl/PAYWEEK.jcl")
    steps = [(e.name, e.detail, e.line_start) for e in out.entities if e.kind == "step"]
    assert steps == [
        ("STEP010", "PGM=PAYVALID", 6),
        ("STEP020", "PGM=PAYMAIN", 14),
        ("STEP030", "PGM=PAYRPT", 22),
        ("STEP040", "PGM=CHKPRINT", 27),
    ]
    uses = {
        (e.kind, e.src_key, e.dst_key, e.line)
        for e in out.edges
        if e.kind in ("reads", "writes") and "LOADLIB" not in e.dst_key
    }
    assert ("writes", "STEP:PAYWEEK:STEP020", "DSN:PAY.WEEKLY.PAYFILE", 18) in uses
    assert ("reads", "STEP:PAYWEEK:STEP030", "DSN:PAY.WEEKLY.PAYFILE", 24) in uses
    assert ("writes", "STEP:PAYWEEK:STEP010", "DSN:PAY.TIMECARD.ERRORS", 11) in uses
    db2 = extract_jcl((PAYROLL / "jcl" / "EMPMAINT.jcl").read_text(), "jcl/EMPMAINT.jcl")
    runs = {(e.dst_key, e.line) for e in db2.edges if e.kind == "executes"}
    assert runs == {("PGM:IKJEFT01", 5), ("PGM:EMPUPDT", 10)}


def test_passages_are_found_by_whole_names_within_scope(payroll: IndexReport) -> None:
    """Names stay whole (``WS-TAX-RATE`` is not three words), scope paths restrict the
    passages, worlds are separate collections, and a removed file leaves the index."""
    with session_scope() as session:
        hits = search_world(session, "payroll-2024", "WS-TAX-RATE", [], 5, "lexical")
        assert hits and all("WS-TAX-RATE" in h.chunk.text.upper() for h in hits)
        scoped = search_world(session, "payroll-2024", "WS-TAX-RATE", ["src/tax"], 20, "lexical")
        assert scoped[0].path == "src/tax/TAXCALC.cbl"  # the whole name first, then parts
        assert all(h.path.startswith("src/tax/") for h in scoped)
        assert search_world(session, "payroll-2024", "", [], 5, "lexical") == []
        assert search_world(session, "other", "WS-TAX-RATE", [], 5, "lexical") == []
        dense = search_world(session, "payroll-2024", "how is federal income tax withheld", [], 5)
        assert any(h.path.startswith("src/tax/") or "tax" in h.path for h in dense)
    taxcalc = PAYROLL / "src" / "tax" / "TAXCALC.cbl"
    with session_scope() as session:
        world = get_world(session, "payroll-2024")
        world.path = str(_without(taxcalc))
        index_world(session, world)
        left = search_world(session, "payroll-2024", "WS-TAX-RATE", ["src/tax"], 50, "lexical")
        assert left and "src/tax/TAXCALC.cbl" not in {h.path for h in left}


def _without(path: Path) -> Path:
    """A copy of the payroll world lacking ``path``."""
    target = Path(os.environ["VIGIA_DATA_DIR"]) / "without"
    shutil.copytree(PAYROLL, target)
    (target / path.relative_to(PAYROLL)).unlink()
    return target
