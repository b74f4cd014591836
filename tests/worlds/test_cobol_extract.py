"""Extraction: exact entities and edges from tolerant fixed-format COBOL (REPLACING included)."""

from __future__ import annotations

from tests.worlds.conftest import PAYROLL
from vigia.worlds.graph.extraction import Extraction
from vigia.worlds.ingest.cobol.extract import extract_cobol
from vigia.worlds.ingest.cobol.preprocess import is_free_format, preprocess, source_lines
from vigia.worlds.ingest.cobol.replacing import Replacement, apply_replacing, parse_replacing
from vigia.worlds.ingest.indexer import _Copybooks

COPYBOOKS = {
    "RATES": (
        "copy/RATES.cpy",
        "       01  :TAG:-RATES.\n"
        "           05  :TAG:-TAX-RATE      PIC V999 VALUE .125.\n"
        "           05  :TAG:-LIMIT         PIC 9(3) VALUE 40.\n",
    ),
    "FLAGS": (
        "copy/FLAGS.cpy",
        "       01  WS-FLAGS.\n"
        "           05  WS-OT-FLAG          PIC X.\n"
        "               88  WS-OT-YES       VALUE 'Y'.\n",
    ),
}

PROGRAM = """\
000100 IDENTIFICATION DIVISION.
000200 PROGRAM-ID. DEMO.
000300*  DEMO COMPUTES TAX.
000400 DATA DIVISION.
000500 WORKING-STORAGE SECTION.
000600     COPY RATES REPLACING ==:TAG:== BY ==WS==.
000700     COPY FLAGS.
000800 01  WS-GROSS                PIC 9(5)V99.
000900 01  WS-TAX                  PIC 9(5)V99.
001000 01  WS-PGM                  PIC X(8) VALUE 'SUBPGM'.
001100 01  WS-MSG                  PIC X(40) VALUE 'A LONG MESSAGE THAT
001200-    'CONTINUES'.
001300 PROCEDURE DIVISION.
001400 MAIN-LOGIC.
001500     PERFORM CALC-TAX THRU CALC-EXIT
001600     CALL 'TAXSUB' USING WS-GROSS WS-TAX
001700     CALL WS-PGM
001800     GOBACK.
001900* COMPUTES THE TAX FROM THE GROSS.
002000 CALC-TAX.
002100     IF WS-GROSS > WS-LIMIT
002200        SET WS-OT-YES TO TRUE
002300     END-IF
002400     COMPUTE WS-TAX ROUNDED = WS-GROSS * WS-TAX-RATE.
002500 CALC-MIDDLE.
002600     ADD 1 TO WS-TAX.
002700 CALC-EXIT.
002800     EXIT.
002900 DB-PART.
003000     EXEC SQL
003100     SELECT TAX INTO :WS-TAX FROM TAXES WHERE GROSS = :WS-GROSS
003200     END-EXEC
003300     EXEC CICS LINK PROGRAM('ONLINE1') COMMAREA(WS-GROSS) END-EXEC.
"""


def _extract() -> Extraction:
    pre = preprocess(PROGRAM, "src/DEMO.cbl", lambda name: COPYBOOKS.get(name))
    return extract_cobol(pre, "src/DEMO.cbl")


def _edges(out: Extraction, kind: str) -> set[tuple[str, str, int]]:
    return {(e.src_key, e.dst_key, e.line) for e in out.edges if e.kind == kind}


def test_partial_word_replacing_expands_copybook_with_origin_and_copy_lines() -> None:
    out = _extract()
    data = {
        (e.name, e.level, e.origin, e.path, e.line_start)
        for e in out.entities
        if e.kind in ("data", "condition")
    }
    assert data == {
        ("WS-RATES", 1, "RATES", "copy/RATES.cpy", 1),
        ("WS-TAX-RATE", 5, "RATES", "copy/RATES.cpy", 2),
        ("WS-LIMIT", 5, "RATES", "copy/RATES.cpy", 3),
        ("WS-FLAGS", 1, "FLAGS", "copy/FLAGS.cpy", 1),
        ("WS-OT-FLAG", 5, "FLAGS", "copy/FLAGS.cpy", 2),
        ("WS-OT-YES", 88, "FLAGS", "copy/FLAGS.cpy", 3),
        ("WS-GROSS", 1, None, "src/DEMO.cbl", 8),
        ("WS-TAX", 1, None, "src/DEMO.cbl", 9),
        ("WS-PGM", 1, None, "src/DEMO.cbl", 10),
        ("WS-MSG", 1, None, "src/DEMO.cbl", 11),
    }
    copies = {(e.dst_key, e.line, e.detail) for e in out.edges if e.kind == "copies"}
    assert copies == {("COPY:RATES", 6, "REPLACING ==:TAG:== BY ==WS=="), ("COPY:FLAGS", 7, None)}
    rate = next(e for e in out.entities if e.name == "WS-TAX-RATE")
    assert rate.detail == "PIC V999 VALUE .125"
    assert out.copies == ["FLAGS", "RATES"]


def test_program_paragraphs_and_line_ranges() -> None:
    out = _extract()
    program = next(e for e in out.entities if e.kind == "program")
    assert (program.name, program.line_start, program.line_end) == ("DEMO", 2, 33)
    assert program.detail == "DEMO COMPUTES TAX."
    paragraphs = [(e.name, e.line_start, e.line_end) for e in out.entities if e.kind == "paragraph"]
    assert paragraphs == [
        ("MAIN-LOGIC", 14, 18),
        ("CALC-TAX", 20, 24),
        ("CALC-MIDDLE", 25, 26),
        ("CALC-EXIT", 27, 28),
        ("DB-PART", 29, 33),
    ]
    calc = next(e for e in out.entities if e.name == "CALC-TAX")
    assert calc.detail == "COMPUTES THE TAX FROM THE GROSS."


def test_perform_thru_static_and_dynamic_calls() -> None:
    out = _extract()
    assert _edges(out, "performs") == {
        ("PARA:DEMO:MAIN-LOGIC", "PARA:DEMO:CALC-TAX", 15),
        ("PARA:DEMO:MAIN-LOGIC", "PARA:DEMO:CALC-EXIT", 15),
    }
    assert _edges(out, "performs_thru") == {("PARA:DEMO:MAIN-LOGIC", "PARA:DEMO:CALC-MIDDLE", 15)}
    assert _edges(out, "calls") == {
        ("PARA:DEMO:MAIN-LOGIC", "PGM:TAXSUB", 16),
        ("PARA:DEMO:DB-PART", "PGM:ONLINE1", 33),
    }
    assert _edges(out, "calls_dynamic") == {("PARA:DEMO:MAIN-LOGIC", "PGM:SUBPGM", 17)}


def test_field_reads_and_writes_per_paragraph() -> None:
    out = _extract()
    calc = {
        (e.kind, e.dst_key.split(":")[-1], e.line)
        for e in out.edges
        if e.src_key == "PARA:DEMO:CALC-TAX" and e.kind in ("reads", "writes")
    }
    assert calc == {
        ("reads", "WS-GROSS", 21),
        ("reads", "WS-LIMIT", 21),
        ("writes", "WS-OT-YES", 22),
        ("writes", "WS-OT-FLAG", 22),
        ("writes", "WS-TAX", 24),
        ("reads", "WS-GROSS", 24),
        ("reads", "WS-TAX-RATE", 24),
    }
    middle = {(e.kind, e.dst_key) for e in out.edges if e.src_key == "PARA:DEMO:CALC-MIDDLE"}
    assert middle == {("reads", "DATA:DEMO:WS-TAX"), ("writes", "DATA:DEMO:WS-TAX")}


def test_exec_sql_and_cics_blocks_are_kept() -> None:
    out = _extract()
    blocks = {(e.kind, e.line_start, e.line_end) for e in out.entities if e.kind in ("sql", "cics")}
    assert blocks == {("sql", 30, 32), ("cics", 33, 33)}
    sql = next(e for e in out.entities if e.kind == "sql")
    assert sql.detail == (
        "EXEC SQL SELECT TAX INTO :WS-TAX FROM TAXES WHERE GROSS = :WS-GROSS END-EXEC"
    )
    db = {(e.kind, e.dst_key) for e in out.edges if e.src_key == "PARA:DEMO:DB-PART"}
    assert ("writes", "DATA:DEMO:WS-TAX") in db
    assert ("reads", "DATA:DEMO:WS-GROSS") in db
    assert ("reads", "TABLE:TAXES") in db  # SELECT … FROM TAXES
    assert ("executes", "SQL:DEMO:30") in db


def test_continuation_line_joins_literal_and_sequence_area_is_dropped() -> None:
    lines = source_lines(PROGRAM, "src/DEMO.cbl")
    message = next(ln for ln in lines if ln.text.startswith("01  WS-MSG"))
    assert message.line == 11
    assert "'A LONG MESSAGE THAT" in message.text and message.text.endswith("CONTINUES'.")
    assert not any(ln.text.startswith("000") for ln in lines)
    assert not is_free_format(PROGRAM)


def test_replacing_modes() -> None:
    pairs = parse_replacing("==:P:== BY ==EMP== LEADING ==OLD-== BY ==NEW-== WS-A BY WS-B")
    assert pairs == (
        Replacement(":P:", "EMP", "partial"),
        Replacement("OLD-", "NEW-", "leading"),
        Replacement("WS-A", "WS-B", "word"),
    )
    text = "05 :P:-ID PIC X. 05 OLD-NAME PIC X. 05 WS-A PIC 9. 05 WS-AB PIC 9."
    assert apply_replacing(text, pairs) == (
        "05 EMP-ID PIC X. 05 NEW-NAME PIC X. 05 WS-B PIC 9. 05 WS-AB PIC 9."
    )


def test_missing_copybook_is_reported_not_fatal() -> None:
    pre = preprocess(
        "       PROGRAM-ID. X.\n       DATA DIVISION.\n       COPY NOPE.\n",
        "x.cbl",
        lambda name: None,
    )
    assert pre.missing == ["NOPE"]
    assert [e.name for e in extract_cobol(pre, "x.cbl").entities] == ["X"]


def test_payroll_paycalc_linkage_uses_payrec_replaced_by_lk() -> None:
    copybooks = _Copybooks(
        [(p.relative_to(PAYROLL).as_posix(), p) for p in PAYROLL.rglob("*") if p.is_file()]
    )
    rel = "src/payroll/PAYCALC.cbl"
    out = extract_cobol(preprocess((PAYROLL / rel).read_text(), rel, copybooks), rel)
    lk = sorted(e.name for e in out.entities if e.origin == "PAYREC")
    assert lk == [
        "LK-DEDUCTIONS",
        "LK-EMP-ID",
        "LK-FED-TAX",
        "LK-FICA",
        "LK-GROSS",
        "LK-NET",
        "LK-OT-HOURS",
        "LK-PAY-RECORD",
        "LK-PERIOD-END",
        "LK-STATE-TAX",
    ]
    assert ("PARA:PAYCALC:CALC-OVERTIME", "PGM:OTCALC", 65) in _edges(out, "calls")
    assert ("PARA:PAYCALC:BUILD-PAY-RECORD", "DATA:PAYCALC:LK-GROSS", 98) in _edges(out, "writes")


def test_a_hyphenated_name_closing_a_statement_is_not_a_paragraph() -> None:
    program = (
        "       IDENTIFICATION DIVISION.\n"
        "       PROGRAM-ID. DEMO2.\n"
        "       PROCEDURE DIVISION.\n"
        "       000-MAIN.\n"
        "           DISPLAY ' TIME = '\n"
        "                   CURRENT-SECOND.\n"
        "           OPEN INPUT TRAN-FILE\n"
        "                OUTPUT REPORT-FILE.\n"
        "           PERFORM 700-OPEN-FILES.\n"
        "           GOBACK.\n"
        "           700-OPEN-FILES.\n"
        "           CONTINUE.\n"
    )
    out = extract_cobol(preprocess(program, "src/d.cbl", lambda name: None), "src/d.cbl")
    paragraphs = [(e.name, e.line_start) for e in out.entities if e.kind == "paragraph"]
    # 700-OPEN-FILES in area B follows a period: a header; the other two close statements.
    assert paragraphs == [("000-MAIN", 4), ("700-OPEN-FILES", 11)]
