"""Entity keys: built by one module, parsed back into kind, owner and name, the stored form
unchanged (the golden extraction files prove it for whole worlds)."""

from __future__ import annotations

from vigia.worlds.answer.lenses.common import program_of
from vigia.worlds.graph.keys import (
    Key,
    Kind,
    block_key,
    doc_key,
    is_code_block,
    is_kind,
    key_prefix,
    kind_of,
    make,
    paragraph_key,
    parse_key,
    program_key,
    step_key,
)
from vigia.worlds.graph.queries import label


def test_builders_write_the_stored_form() -> None:
    assert program_key("LGSTSQ") == "PGM:LGSTSQ"
    assert paragraph_key("LGSTSQ", "MAINLINE") == "PARA:LGSTSQ:MAINLINE"
    assert block_key("section", "TAXCALC", "MAIN") == "SECT:TAXCALC:MAIN"
    assert block_key("paragraph", "TAXCALC", "CALC-TAX") == "PARA:TAXCALC:CALC-TAX"
    assert make(Kind.SQL, "LGAPDB01", 210) == "SQL:LGAPDB01:210"
    assert step_key("PAYJOB", 12) == "STEP:PAYJOB:12"
    assert doc_key("docs/limits.md", 4) == "DOC:docs/limits.md:4"
    assert key_prefix(Kind.DATA) == "DATA:"


def test_parse_gives_kind_owner_and_name() -> None:
    assert parse_key("PARA:LGSTSQ:MAINLINE") == Key(Kind.PARA, "LGSTSQ", "MAINLINE")
    assert parse_key("PGM:LGSTSQ") == Key(Kind.PGM, None, "LGSTSQ")
    assert parse_key("STEP:PAYJOB:STEP01") == Key(Kind.STEP, "PAYJOB", "STEP01")
    assert parse_key("DSN:PROD.PAY.MASTER") == Key(Kind.DSN, None, "PROD.PAY.MASTER")
    # a definition or passage key splits at its last colon: a path may hold one
    assert parse_key("DEF:c:/src/app.py:main") == Key(Kind.DEF, "c:/src/app.py", "main")
    assert parse_key("DOC:docs/a:b.md:7") == Key(Kind.DOC, "docs/a:b.md", "7")


def test_what_is_no_key_of_a_known_kind_parses_to_none() -> None:
    assert parse_key("LGSTSQ") is None
    assert parse_key("WIDGET:X") is None
    assert kind_of("") is None


def test_program_of_a_key() -> None:
    own = parse_key("PGM:LGSTSQ")
    assert own is not None and own.program == "LGSTSQ"
    assert program_of("DATA:LGSTSQ:WS-RESP") == "LGSTSQ"
    assert program_of("CICS:LGSTSQ:120") == "LGSTSQ"
    assert program_of("STEP:PAYJOB:STEP01") is None
    assert program_of("TABLE:POLICY") is None


def test_kind_tests() -> None:
    assert is_code_block("PARA:P:A") and is_code_block("SECT:P:B")
    assert not is_code_block("PGM:P") and not is_code_block("PARAGRAPH:P")
    assert is_kind("JOB:PAYJOB", Kind.STEP, Kind.JOB)
    assert not is_kind("PGM:JOB", Kind.JOB)


def test_labels_read_from_parsed_keys() -> None:
    assert label("PARA:TAXCALC:CALC-TAX") == "TAXCALC.CALC-TAX"
    assert label("SQL:LGAPDB01:210") == "EXEC SQL in LGAPDB01 line 210"
    assert label("DEF:src/app.py:main") == "main"
    assert label("TABLE:POLICY") == "POLICY"
    assert label("unkeyed") == "unkeyed"
