"""What a CICS/DB2 code base is made of, read into the graph, and followed by impact.

The world ``tests/worlds/cics`` is a small loan application written for these tests:
fixed-format programs with sequence numbers and an identification area (``CRDCHK``),
``EXEC SQL INCLUDE``, ``COPY … REPLACING`` and ``REPLACE``, ``OCCURS DEPENDING ON``,
``EXEC CICS LINK`` through a field, ``XCTL``, ``START``/``RETURN TRANSID``, ``READ``/
``WRITE`` on ``FILE`` and ``DATASET``, ``SEND``/``RECEIVE MAP`` with a BMS source, SQL
table access, an abend code and CSD definitions.
"""

from __future__ import annotations

from sqlalchemy import select

from tests.worlds.conftest import CICS
from vigia.db.session import session_scope
from vigia.worlds.answer.lenses.common import LensInput
from vigia.worlds.answer.lenses.impact import run_impact
from vigia.worlds.ingest.cobol.preprocess import preprocess
from vigia.worlds.ingest.indexer import IndexReport, _Copybooks, _walk
from vigia.worlds.models import WorldEdge, WorldEntity

W = "loans"


def _edges(kind: str | None = None) -> set[tuple[str, str, str, str | None]]:
    with session_scope() as session:
        query = select(WorldEdge).where(WorldEdge.world_id == W)
        if kind is not None:
            query = query.where(WorldEdge.kind == kind)
        return {(e.kind, e.src_key, e.dst_key, e.detail) for e in session.scalars(query)}


def _impact(question: str) -> str:
    with session_scope() as session:
        return run_impact(LensInput(session, W, question, [])).headline


def test_exec_sql_include_expands_the_copybook(loans: IndexReport) -> None:
    assert ("copies", "PGM:CRDCHK", "COPY:APPLREC", "EXEC SQL INCLUDE") in _edges("copies")
    assert ("copies", "PGM:RATECALC", "COPY:APPLREC", "EXEC SQL INCLUDE") in _edges("copies")
    with session_scope() as session:
        owners = session.scalars(
            select(WorldEntity.program).where(WorldEntity.name == "APPL-AMOUNT")
        ).all()
    assert sorted(owners, key=str) == ["CRDCHK", "RATECALC"]
    assert "RATECALC" in _impact("If I change APPLREC what breaks?")


def test_cics_link_through_a_field_xctl_and_transactions(loans: IndexReport) -> None:
    calls = _edges("calls")
    assert ("calls", "PARA:CRDCHK:1000-MAIN", "PGM:RATECALC", "CICS LINK") in calls
    assert ("calls", "PARA:SECREAD:0000-MAIN", "PGM:CRDMENU", "CICS XCTL") in calls
    starts = _edges("starts")
    assert ("starts", "PARA:CRDCHK:1000-MAIN", "TRAN:CRDN", "CICS START") in starts
    assert ("starts", "PARA:CRDMENU:0000-MAIN", "TRAN:CRD1", "CICS RETURN") in starts
    headline = _impact("What calls RATECALC?")
    assert "CRDCHK.1000-MAIN" in headline and "CRDMENU.0000-MAIN" in headline
    assert "CRD1" in headline  # the transaction whose program reaches it


def test_cics_file_and_dataset_access(loans: IndexReport) -> None:
    edges = _edges()
    assert ("reads", "PARA:CRDCHK:1000-MAIN", "FILE:APPLFILE", "CICS READ") in edges
    # DATASET(WS-DECISION-FILE): the literal moved into the field names the file
    assert ("writes", "PARA:CRDCHK:1000-MAIN", "FILE:DECISNS", "CICS WRITE") in edges
    assert ("reads", "PARA:SECREAD:READ-USER-SECURITY", "FILE:USRSEC", "CICS READ") in edges
    headline = _impact("What is impacted if the layout of file APPLFILE changes?")
    assert "CRDCHK.1000-MAIN" in headline and "LOAN.APPL.KSDS" in headline


def test_csd_transactions_and_files(loans: IndexReport) -> None:
    edges = _edges()
    assert ("executes", "TRAN:CRD1", "PGM:CRDMENU", "CSD DEFINE") in edges
    assert ("executes", "TRAN:CRDN", "PGM:CRDCHK", "CSD DEFINE") in edges
    assert ("assigns", "FILE:USRSEC", "DSN:LOAN.USERS.KSDS", None) in edges


def test_bms_map_and_the_program_that_shows_it(loans: IndexReport) -> None:
    with session_scope() as session:
        screen = session.scalars(
            select(WorldEntity).where(WorldEntity.key == "MAP:CRDM1", WorldEntity.kind == "map")
        ).all()
    defined = [e for e in screen if e.path == "maps/CRDSET.bms"]
    assert defined and "Loan Application Menu" in (defined[0].detail or "")
    edges = _edges()
    assert ("sends", "PARA:CRDMENU:0000-MAIN", "MAP:CRDM1", "CICS SEND MAPSET(CRDSET)") in edges
    assert (
        "receives",
        "PARA:CRDMENU:0000-MAIN",
        "MAP:CRDM1",
        "CICS RECEIVE MAPSET(CRDSET)",
    ) in edges
    assert "CRDMENU" in _impact("What is affected if we change map CRDM1?")


def test_sql_table_access_and_its_impact(loans: IndexReport) -> None:
    assert (
        "reads",
        "PARA:CRDCHK:2000-CHECK-CREDIT-SCORE",
        "TABLE:CREDIT_BUREAU",
        "SQL SELECT",
    ) in _edges("reads")
    assert ("reads", "PARA:RATECALC:0000-MAIN", "TABLE:RATE_TABLE", "SQL SELECT") in _edges()
    headline = _impact("What is impacted if the CREDIT_BUREAU table changes?")
    assert "CRDCHK.2000-CHECK-CREDIT-SCORE" in headline and "CRD1" in headline


def test_replace_statement_and_copy_replacing() -> None:
    files = _walk(CICS)
    text = (CICS / "src" / "CRDCHK.cbl").read_text()
    lines = preprocess(text, "src/CRDCHK.cbl", _Copybooks(files)).lines
    code = {ln.line: ln.text for ln in lines if ln.path == "src/CRDCHK.cbl" and not ln.comment}
    assert code[51] == "IF WS-BUREAU-SCORE < 620"  # REPLACE ==:MINSCORE:== BY ==620==
    assert not any(ln.text.startswith("REPLACE") for ln in lines)
    copied = {ln.text for ln in lines if ln.path == "copy/LIMITS.cpy"}
    assert "05 CRD-MAX-AMOUNT PIC 9(7) VALUE 250000." in {" ".join(t.split()) for t in copied}


def test_occurs_depending_on_and_its_impact(loans: IndexReport) -> None:
    assert (
        "depends_on",
        "DATA:CRDCHK:WS-INSTALMENT",
        "DATA:CRDCHK:WS-TERM-COUNT",
        "OCCURS 1 TO 60 DEPENDING ON WS-TERM-COUNT",
    ) in _edges("depends_on")
    headline = _impact("What is affected if WS-TERM-COUNT changes?")
    assert "OCCURS DEPENDING ON" in headline and "CRDCHK.WS-INSTALMENT" in headline


def test_abend_codes_are_found_by_name(loans: IndexReport) -> None:
    assert ("abends", "PARA:CRDCHK:2000-CHECK-CREDIT-SCORE", "ABEND:CRD4", "CICS ABEND") in _edges()
