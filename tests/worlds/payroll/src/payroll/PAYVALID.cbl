       IDENTIFICATION DIVISION.
       PROGRAM-ID. PAYVALID.
      *================================================================*
      * PAYVALID - VALIDATES WEEKLY TIMECARDS BEFORE PAYMAIN RUNS.      *
      *            REJECTS GO TO THE ERROR FILE WITH A REASON CODE.     *
      *================================================================*
       ENVIRONMENT DIVISION.
       INPUT-OUTPUT SECTION.
       FILE-CONTROL.
           SELECT TIMECARD-IN  ASSIGN TO TIMEIN.
           SELECT TIMECARD-OUT ASSIGN TO TIMEOUT.
           SELECT ERROR-FILE   ASSIGN TO ERRFILE.
       DATA DIVISION.
       FILE SECTION.
       FD  TIMECARD-IN.
           COPY TIMEREC.
       FD  TIMECARD-OUT.
       01  TIME-OUT-RECORD             PIC X(40).
       FD  ERROR-FILE.
           COPY ERRMSG.
       WORKING-STORAGE SECTION.
       01  WS-MAX-WEEKLY-HOURS         PIC 9(03)    VALUE 080.
       01  WS-VALID-FLAG               PIC X(01).
           88  WS-CARD-VALID           VALUE 'Y'.
           88  WS-CARD-INVALID         VALUE 'N'.
       01  WS-EOF-FLAG                 PIC X(01)    VALUE 'N'.
           88  WS-EOF                  VALUE 'Y'.
       PROCEDURE DIVISION.
       MAIN-PARA SECTION.
       0000-MAIN.
           OPEN INPUT TIMECARD-IN OUTPUT TIMECARD-OUT ERROR-FILE
           PERFORM READ-CARD
           PERFORM UNTIL WS-EOF
              PERFORM VALIDATE-CARD
              PERFORM READ-CARD
           END-PERFORM
           CLOSE TIMECARD-IN TIMECARD-OUT ERROR-FILE
           STOP RUN.
       VALIDATION SECTION.
       VALIDATE-CARD.
           SET WS-CARD-VALID TO TRUE
           PERFORM VALIDATE-HOURS
           PERFORM VALIDATE-APPROVAL
           IF WS-CARD-VALID
              WRITE TIME-OUT-RECORD FROM TIME-RECORD
           END-IF.
      * MORE THAN 80 HOURS IN A WEEK IS REJECTED AS A KEYING ERROR.
       VALIDATE-HOURS.
           IF TC-HOURS-WORKED > WS-MAX-WEEKLY-HOURS
              MOVE 'H080' TO ERR-CODE
              MOVE 'HOURS WORKED EXCEED 80 FOR THE WEEK' TO ERR-TEXT
              PERFORM WRITE-ERROR
           END-IF.
       VALIDATE-APPROVAL.
           IF NOT TC-APPROVED
              MOVE 'A001' TO ERR-CODE
              MOVE 'TIMECARD NOT APPROVED BY SUPERVISOR' TO ERR-TEXT
              PERFORM WRITE-ERROR
           END-IF.
       WRITE-ERROR.
           SET WS-CARD-INVALID TO TRUE
           MOVE TC-EMP-ID TO ERR-EMP-ID
           WRITE ERR-RECORD.
       READ-CARD.
           READ TIMECARD-IN
              AT END SET WS-EOF TO TRUE
           END-READ.
