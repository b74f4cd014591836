       IDENTIFICATION DIVISION.
       PROGRAM-ID. EMPUPDT.
      *================================================================*
      * EMPUPDT  - APPLIES HOURLY RATE CHANGES FROM HR TO THE DB2       *
      *            EMPLOYEE TABLE (RUN UNDER IKJEFT01 / DSN).           *
      *================================================================*
       DATA DIVISION.
       WORKING-STORAGE SECTION.
           EXEC SQL INCLUDE SQLCA END-EXEC.
       01  HV-EMPLOYEE.
           05  HV-EMP-ID               PIC X(06).
           05  HV-HOURLY-RATE          PIC S9(03)V99 COMP-3.
           05  HV-NEW-RATE             PIC S9(03)V99 COMP-3.
       01  WS-ROWS-UPDATED             PIC 9(07)    VALUE ZERO.
       PROCEDURE DIVISION.
       0000-MAIN.
           PERFORM READ-CURRENT-RATE
           PERFORM UPDATE-RATE
           STOP RUN.
       READ-CURRENT-RATE.
           EXEC SQL
               SELECT HOURLY_RATE
                 INTO :HV-HOURLY-RATE
                 FROM EMPLOYEE
                WHERE EMP_ID = :HV-EMP-ID
           END-EXEC.
       UPDATE-RATE.
           EXEC SQL
               UPDATE EMPLOYEE
                  SET HOURLY_RATE = :HV-NEW-RATE
                WHERE EMP_ID = :HV-EMP-ID
           END-EXEC
           IF SQLCODE = 0
              ADD 1 TO WS-ROWS-UPDATED
           END-IF.
