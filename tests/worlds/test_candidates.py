"""Ranking candidates: a copy of a program (a variant or backup in another folder) adds no
votes, and a paragraph named after what the question asks ranks higher, the more so the
rarer the word among the world's paragraph names."""

from __future__ import annotations

from pathlib import Path

import pytest

from vigia.db.session import session_scope
from vigia.worlds.answer.lenses.common import LensInput, resolve
from vigia.worlds.answer.lenses.evidence import rank
from vigia.worlds.answer.lenses.naming import NAME_MATCH, asks_for_field, name_bonus
from vigia.worlds.answer.lenses.qa import run_qa
from vigia.worlds.catalog import add_world
from vigia.worlds.ingest.indexer import IndexReport, index_world

W = "custupd"
CUSTUPD = """\
      * Applies the day's transactions to the customer master.
       IDENTIFICATION DIVISION.
       PROGRAM-ID. CUSTUPD.
       DATA DIVISION.
       WORKING-STORAGE SECTION.
       01  TRAN-CODE                PIC X(8).
       01  CUST-BALANCE             PIC S9(7)V99.
       01  BAD-TRAN-COUNT           PIC 9(4).
       PROCEDURE DIVISION.
       100-PROCESS-TRANSACTIONS.
           EVALUATE TRAN-CODE
             WHEN 'ADD'
               PERFORM 210-PROCESS-ADD-TRAN
             WHEN 'DELETE'
               PERFORM 220-PROCESS-DELETE-TRAN
             WHEN OTHER
               PERFORM 299-REPORT-BAD-TRAN
           END-EVALUATE.
       210-PROCESS-ADD-TRAN.
           MOVE ZERO TO CUST-BALANCE.
       220-PROCESS-DELETE-TRAN.
           MOVE SPACES TO TRAN-CODE.
       299-REPORT-BAD-TRAN.
           ADD 1 TO BAD-TRAN-COUNT.
"""


@pytest.fixture
def custupd(team: str, tmp_path: Path) -> IndexReport:
    """World ``custupd``: one program, and the same program again under ``old/``."""
    for folder in ("src", "old"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "CUSTUPD.cbl").write_text(CUSTUPD, encoding="utf-8")
    with session_scope() as session:
        return index_world(session, add_world(session, W, tmp_path, team))


def test_a_copy_of_a_passage_in_another_file_does_not_vote_again(custupd: IndexReport) -> None:
    question = "Where are bad transactions reported?"
    with session_scope() as session:
        lens = LensInput(session, W, question, [])
        copies = [h for h in lens.hits if h.chunk.entity_key == "PARA:CUSTUPD:299-REPORT-BAD-TRAN"]
        assert {h.path for h in copies} == {"src/CUSTUPD.cbl", "old/CUSTUPD.cbl"}
        ranked = {c.key: c for c in rank(lens, resolve(lens))}
    assert len(ranked["PARA:CUSTUPD:299-REPORT-BAD-TRAN"].scores) == 1


def test_a_rare_word_of_a_paragraph_name_weighs_more_than_one_every_name_has(
    custupd: IndexReport,
) -> None:
    keys = [
        f"PARA:CUSTUPD:{name}"
        for name in ("210-PROCESS-ADD-TRAN", "220-PROCESS-DELETE-TRAN", "299-REPORT-BAD-TRAN")
    ]
    with session_scope() as session:
        lens = LensInput(session, W, "Which paragraph handles DELETE transactions?", [])
        bonus = name_bonus(lens, keys)
    # DELETE is in one name; TRAN (an abbreviation of "transactions") in four
    assert bonus[keys[1]] == pytest.approx(NAME_MATCH + NAME_MATCH / 4)
    assert bonus[keys[0]] == bonus[keys[2]] == pytest.approx(NAME_MATCH / 4)


def test_a_short_name_part_is_no_abbreviation_of_a_longer_word(custupd: IndexReport) -> None:
    """``ADD`` must not stand for "address"."""
    with session_scope() as session:
        lens = LensInput(session, W, "Where is the customer address kept?", [])
        assert name_bonus(lens, ["PARA:CUSTUPD:210-PROCESS-ADD-TRAN"]) == {}


def test_which_paragraph_handles_a_transaction_names_the_one_named_after_it(
    custupd: IndexReport,
) -> None:
    with session_scope() as session:
        answer = run_qa(LensInput(session, W, "Which paragraph handles DELETE transactions?", []))
    first = answer.headline.find("220-PROCESS-DELETE-TRAN")
    assert first != -1
    others = [answer.headline.find(n) for n in ("210-PROCESS-ADD-TRAN", "299-REPORT-BAD-TRAN")]
    assert all(o == -1 or o > first for o in others)


def test_which_field_holds_something_names_the_data_item_named_after_it(
    custupd: IndexReport,
) -> None:
    with session_scope() as session:
        answer = run_qa(LensInput(session, W, "¿Qué campo guarda el saldo del cliente?", []))
    assert answer.headline.startswith("El código más cercano es CUST-BALANCE (dato, ")
    line = next(n for n, text in enumerate(CUSTUPD.splitlines(), 1) if "CUST-BALANCE " in text)
    assert any(source[1] == line for source in answer.sources)
    assert answer.headline.count("CUST-BALANCE (dato") == 1  # the copy under old/ is not repeated


def test_a_question_for_the_paragraph_checking_a_field_asks_for_no_field() -> None:
    assert asks_for_field("Qual campo do registro guarda o saldo?")
    assert asks_for_field("Which field holds the balance?")
    assert not asks_for_field("¿Qué párrafo valida el nombre del campo?")
