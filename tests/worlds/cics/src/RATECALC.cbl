        IDENTIFICATION DIVISION.
        PROGRAM-ID. RATECALC.
      *  Prices a loan: the yearly rate for the amount and the term.
        DATA DIVISION.
        WORKING-STORAGE SECTION.
            EXEC SQL INCLUDE APPLREC END-EXEC.
        PROCEDURE DIVISION.
        0000-MAIN.
            EXEC SQL
              SELECT RATE INTO :APPL-RATE FROM RATE_TABLE
               WHERE TERM = :APPL-TERM
            END-EXEC
            EXEC CICS RETURN END-EXEC.
