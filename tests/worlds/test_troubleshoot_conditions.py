"""Troubleshoot gives the condition that leads to a return code (the IF or EVALUATE branch,
the CICS RESP or SQLCODE test, the EIB field) with its line, ranks first the paragraphs that
can reach that branch, and the router sends symptom phrasings (es/pt/en) to it."""

from __future__ import annotations

from pathlib import Path

import pytest

from vigia.db.session import session_scope
from vigia.worlds.answer.lenses.common import LensInput
from vigia.worlds.answer.lenses.conditions import branch_of
from vigia.worlds.answer.lenses.router import choose_lens
from vigia.worlds.answer.lenses.troubleshoot import run_troubleshoot
from vigia.worlds.catalog import add_world
from vigia.worlds.ingest.indexer import IndexReport, index_world

W = "policies"
POLDEL = """\
      * Deletes one policy of a customer.
       IDENTIFICATION DIVISION.
       PROGRAM-ID. POLDEL.
       DATA DIVISION.
       WORKING-STORAGE SECTION.
       01  WS-TIMESTAMP             PIC X(26).
       LINKAGE SECTION.
       01  DFHCOMMAREA.
           05  CA-RETURN-CODE       PIC XX.
           05  CA-TIMESTAMP         PIC X(26).
       PROCEDURE DIVISION.
       MAINLINE.
           IF EIBCALEN = 0
               MOVE '99' TO CA-RETURN-CODE
               EXEC CICS RETURN END-EXEC
           END-IF
           PERFORM CHECK-TIMESTAMP
           PERFORM DELETE-POLICY
           EXEC CICS RETURN END-EXEC.
      * The policy may only be deleted when nobody changed it since it
      * was read.
       CHECK-TIMESTAMP.
           IF WS-TIMESTAMP = CA-TIMESTAMP
               CONTINUE
           ELSE
               MOVE '02' TO CA-RETURN-CODE
           END-IF.
      * Delete the policy row.
       DELETE-POLICY.
           EXEC SQL
             DELETE FROM POLICY WHERE POLICYNUMBER = :CA-TIMESTAMP
           END-EXEC
           EVALUATE SQLCODE
             WHEN 0
               MOVE '00' TO CA-RETURN-CODE
             WHEN 100
               IF WS-TIMESTAMP = SPACES
                   MOVE '01' TO CA-RETURN-CODE
               END-IF
             WHEN OTHER
               MOVE '90' TO CA-RETURN-CODE
           END-EVALUATE.
"""
POLSTAT = """\
       IDENTIFICATION DIVISION.
       PROGRAM-ID. POLSTAT.
       DATA DIVISION.
       WORKING-STORAGE SECTION.
       01  WS-DELETED               PIC 9(4).
       PROCEDURE DIVISION.
      * Deleting a policy: counts each policy delete and why it was
      * deleted, for the statistics of deleted policies and codes.
       COUNT-DELETED-POLICIES.
           ADD 1 TO WS-DELETED.
"""
POLADD = """\
       IDENTIFICATION DIVISION.
       PROGRAM-ID. POLADD.
       DATA DIVISION.
       WORKING-STORAGE SECTION.
       01  WS-RESP                  PIC S9(8) COMP.
       LINKAGE SECTION.
       01  DFHCOMMAREA.
           05  CA-RETURN-CODE       PIC XX.
       PROCEDURE DIVISION.
       WRITE-POLICY.
           EXEC CICS WRITE FILE('POLFILE') FROM(DFHCOMMAREA)
                RIDFLD(CA-RETURN-CODE) RESP(WS-RESP)
           END-EXEC
           IF WS-RESP NOT = DFHRESP(NORMAL)
               MOVE '80' TO CA-RETURN-CODE
           END-IF.
"""


@pytest.fixture
def policies(team: str, tmp_path: Path) -> IndexReport:
    """World ``policies``: three small programs that set return codes under conditions."""
    for name, text in (("POLDEL", POLDEL), ("POLSTAT", POLSTAT), ("POLADD", POLADD)):
        (tmp_path / "src").mkdir(exist_ok=True)
        (tmp_path / "src" / f"{name}.cbl").write_text(text, encoding="utf-8")
    with session_scope() as session:
        return index_world(session, add_world(session, W, tmp_path, team))


def _line(text: str, needle: str) -> int:
    return next(n for n, line in enumerate(text.splitlines(), start=1) if needle in line)


@pytest.mark.parametrize(
    ("path", "text", "moved", "condition", "tested"),
    [
        ("src/POLDEL.cbl", POLDEL, "MOVE '99'", "IF EIBCALEN = 0", "IF EIBCALEN"),
        ("src/POLDEL.cbl", POLDEL, "MOVE '02'", "ELSE (IF WS-TIMESTAMP = CA-TIMESTAMP)", "IF WS-"),
        ("src/POLDEL.cbl", POLDEL, "MOVE '90'", "EVALUATE SQLCODE WHEN OTHER", "WHEN OTHER"),
        ("src/POLDEL.cbl", POLDEL, "MOVE '00'", "EVALUATE SQLCODE WHEN 0", "WHEN 0"),
        ("src/POLDEL.cbl", POLDEL, "MOVE '01'", "IF WS-TIMESTAMP = SPACES", "= SPACES"),
        ("src/POLADD.cbl", POLADD, "MOVE '80'", "IF WS-RESP NOT = DFHRESP(NORMAL)", "IF WS-RESP"),
    ],
)
def test_the_branch_that_leads_to_a_line(
    policies: IndexReport, path: str, text: str, moved: str, condition: str, tested: str
) -> None:
    with session_scope() as session:
        branch = branch_of(session, W, path, _line(text, moved))
    assert branch is not None
    assert (branch.text, branch.line) == (condition, _line(text, tested))


def test_unconditional_code_has_no_branch(policies: IndexReport) -> None:
    with session_scope() as session:
        assert branch_of(session, W, "src/POLDEL.cbl", _line(POLDEL, "PERFORM DELETE-")) is None
        assert branch_of(session, W, "src/POLSTAT.cbl", _line(POLSTAT, "ADD 1")) is None


def _troubleshoot(question: str) -> tuple[str, dict[str, object]]:
    with session_scope() as session:
        answer = run_troubleshoot(LensInput(session, W, question, []))
        return answer.headline, answer.details


def test_a_return_code_is_explained_by_its_condition(policies: IndexReport) -> None:
    headline, details = _troubleshoot("Deleting a policy returns code 90, why?")
    assert headline.startswith("Look first at POLDEL.DELETE-POLICY")
    moved, tested = _line(POLDEL, "MOVE '90'"), _line(POLDEL, "WHEN OTHER")
    assert (
        f"CA-RETURN-CODE = 90 (src/POLDEL.cbl:{moved}) when “EVALUATE SQLCODE WHEN OTHER”"
        f" (src/POLDEL.cbl:{tested})"
    ) in headline
    assert {"condition": "EVALUATE SQLCODE WHEN OTHER", "condition_line": tested}.items() <= (
        details["conditions"][0].items()  # type: ignore[index]
    )


def test_paragraphs_that_cannot_reach_the_branch_rank_after_those_that_can(
    policies: IndexReport,
) -> None:
    headline, _details = _troubleshoot("Deleting a policy returns code 90, why?")
    # COUNT-DELETED-POLICIES matches the words best but cannot reach a MOVE of 90: the
    # paragraphs that can (the setter, then MAINLINE, which performs it) come first.
    looked_at = [part.split(" (")[0] for part in headline.split("Also check ")[1:]]
    assert headline.startswith("Look first at POLDEL.DELETE-POLICY")
    assert looked_at[0] == "POLDEL.MAINLINE"
    assert "POLSTAT.COUNT-DELETED-POLICIES" not in looked_at[:1]


def test_the_timestamp_mismatch_branch_and_the_eib_check(policies: IndexReport) -> None:
    headline, _ = _troubleshoot("Al borrar una póliza devuelve el código 02. ¿Por qué?")
    assert "POLDEL.CHECK-TIMESTAMP" in headline
    assert "cuando “ELSE (IF WS-TIMESTAMP = CA-TIMESTAMP)”" in headline
    headline, _ = _troubleshoot("A exclusão retorna o código 99. Onde olhar?")
    assert "quando “IF EIBCALEN = 0”" in headline


@pytest.mark.parametrize(
    "question",
    [
        "Deleting a policy returns code 90, why?",
        "Borrar una póliza devuelve el código de retorno 90",
        "Excluir uma apólice retorna o código 90",
        "Ao gravar o cliente aparece 'Erro ao gravar cliente'",
        "Al guardar sale el mensaje 'Cliente no existe'",
        "Customer creation abends with code LGV0.",
        "The inquiry gets SQLCODE -913 under load",
    ],
)
def test_the_router_sends_symptoms_to_troubleshoot(question: str) -> None:
    assert choose_lens(question).lens == "troubleshoot"


@pytest.mark.parametrize(
    "question",
    ["Which paragraph sets the return code?", "What is the return code of LGAPOL01?"],
)
def test_questions_about_codes_are_not_symptoms(question: str) -> None:
    assert choose_lens(question).lens == "qa"
