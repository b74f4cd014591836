"""Purpose of programs, copybooks and JCL jobs: from the header comment block above
IDENTIFICATION DIVISION, the identification division's comments and REMARKS / AUTHOR
paragraphs; working-storage comments only when nothing else says anything."""

from __future__ import annotations

from vigia.worlds.ingest.cobol.extract import extract_cobol
from vigia.worlds.ingest.cobol.header import copybook_purpose
from vigia.worlds.ingest.cobol.preprocess import preprocess
from vigia.worlds.ingest.jcl import extract_jcl

HEADER_ABOVE = """\
      ******************************************************************
      *                                                                *
      * (C) Copyright Example Corp. 2011, 2020                         *
      *                                                                *
      *                    Inquire Customer                            *
      *                                                                *
      *   To obtain the customer's details from the database.         *
      *                                                                *
      ******************************************************************
       IDENTIFICATION DIVISION.
       PROGRAM-ID. CUSTINQ.
       ENVIRONMENT DIVISION.
       DATA DIVISION.
       WORKING-STORAGE SECTION.
      *----------------------------------------------------------------*
      * Common definitions                                             *
      *----------------------------------------------------------------*
       01  WS-HEADER                PIC X(16).
       LINKAGE SECTION.
      * L I N K A G E   S E C T I O N
       01  DFHCOMMAREA              PIC X(100).
       PROCEDURE DIVISION.
       MAINLINE SECTION.
           GOBACK.
"""

REMARKS = """\
       IDENTIFICATION DIVISION.
       PROGRAM-ID. ERRLOG.
       AUTHOR. OPERATIONS TEAM.
       REMARKS. WRITES EVERY ERROR MESSAGE TO THE
           GENAERRS QUEUE WITH THE DATE AND TIME.
       DATE-WRITTEN. 2020-01-01.
       DATA DIVISION.
       WORKING-STORAGE SECTION.
      * Run time (debug) information for this invocation
       01  WS-FLAG                  PIC X.
       PROCEDURE DIVISION.
           GOBACK.
"""

ONLY_WORKING_STORAGE = """\
      * (C) Copyright Example Corp. 2011, 2020
       IDENTIFICATION DIVISION.
       PROGRAM-ID. STATS.
       DATA DIVISION.
       WORKING-STORAGE SECTION.
      * Counters of the statistics screen
       01  WS-COUNT                 PIC 9(4).
       PROCEDURE DIVISION.
           GOBACK.
"""


def _program_detail(text: str) -> str | None:
    out = extract_cobol(preprocess(text, "src/x.cbl", lambda name: None), "src/x.cbl")
    (program,) = [e for e in out.entities if e.kind == "program"]
    return program.detail


def test_the_comment_block_above_identification_division_is_the_purpose() -> None:
    detail = _program_detail(HEADER_ABOVE)
    assert detail == "Inquire Customer. To obtain the customer's details from the database."
    assert "Common definitions" not in detail and "Copyright" not in detail


def test_remarks_and_author_paragraphs_are_the_purpose() -> None:
    detail = _program_detail(REMARKS)
    assert detail == (
        "WRITES EVERY ERROR MESSAGE TO THE GENAERRS QUEUE WITH THE DATE AND TIME. "
        "Author: OPERATIONS TEAM"
    )


def test_working_storage_comments_are_only_a_fallback() -> None:
    assert _program_detail(ONLY_WORKING_STORAGE) == "Counters of the statistics screen"


def test_a_copybook_says_what_it_holds_without_its_copyright() -> None:
    text = (
        "      ******************************************************************\n"
        "      * (C) Copyright Example Corp. 2011, 2020                         *\n"
        "      ******************************************************************\n"
        "      *               COPYBOOK for Policy details                      *\n"
        "      *                                                                *\n"
        "      *   Structures to map values obtained from DB2 tables.           *\n"
        "      ******************************************************************\n"
        "       01  WS-POLICY-LENGTHS.\n"
        "      * not part of the header\n"
    )
    assert copybook_purpose(text) == (
        "COPYBOOK for Policy details. Structures to map values obtained from DB2 tables."
    )
    assert copybook_purpose("       01  WS-X  PIC X.\n") is None


def test_a_job_says_what_it_does_from_its_comments_or_its_programmer_name() -> None:
    commented = (
        "//GENACSD JOB 241901,'CSD GENERATE',NOTIFY=&SYSUID,CLASS=A\n"
        "//*\n"
        "//* (C) Copyright Example Corp. 2011, 2020\n"
        "//*\n"
        "//***** CSD definitions for stand-alone GENAPP\n"
        "//CSDDEFS  EXEC PGM=DFHCSDUP,REGION=1M\n"
    )
    bare = "//GENADB2 JOB 241901,'Db2 create',NOTIFY=&SYSUID\n//STEP1 EXEC PGM=IKJEFT01\n"
    (job,) = [e for e in extract_jcl(commented, "cntl/a.jcl").entities if e.kind == "job"]
    assert job.detail == "CSD definitions for stand-alone GENAPP"
    (job,) = [e for e in extract_jcl(bare, "cntl/b.jcl").entities if e.kind == "job"]
    assert job.detail == "Db2 create"


LAID_OUT = """\
      ****************************************************************
      * LICENSED MATERIALS - PROPERTY OF EXAMPLE
      * "RESTRICTED MATERIALS OF EXAMPLE"
      * CONTRACT WITH EXAMPLE CORPORATION
      ****************************************************************
      * PROGRAM:  UPDT
      *
      * AUTHOR :  A. Writer
      *
      * SUBROUTINE TO PROCESS "UPDATE" TRANSACTIONS AGAINST CUST RECS
      *****************************************************************
      * Linkage:
      *      parameters:
      *        1: Customer Record    (passed)
      *****************************************************************
      *UPDATE ---key---- -command-- field-name ss -----------value------
       IDENTIFICATION DIVISION.
       PROGRAM-ID. UPDT.
       PROCEDURE DIVISION.
           GOBACK.
"""


def test_licence_author_and_listings_are_not_the_purpose() -> None:
    assert _program_detail(LAID_OUT) == (
        'SUBROUTINE TO PROCESS "UPDATE" TRANSACTIONS AGAINST CUST RECS'
    )


def test_a_long_line_ending_with_a_colon_is_part_of_the_purpose() -> None:
    header = (
        "      * ADD Policy\n"
        "      *\n"
        "      *   To add full details of an individual policy:\n"
        "      *   Endowment, House, Motor, Commercial\n"
        "       IDENTIFICATION DIVISION.\n"
        "       PROGRAM-ID. ADDPOL.\n"
    )
    assert _program_detail(header) == (
        "ADD Policy. To add full details of an individual policy: Endowment, House, Motor, "
        "Commercial"
    )
