       IDENTIFICATION DIVISION.
       PROGRAM-ID. CHKPRINT.
      *================================================================*
      * CHKPRINT - PRINTS PAYCHECKS FOR EVERY PAY RECORD WITH NET > 0.  *
      *================================================================*
       ENVIRONMENT DIVISION.
       INPUT-OUTPUT SECTION.
       FILE-CONTROL.
           SELECT PAY-FILE   ASSIGN TO PAYIN.
           SELECT CHECK-FILE ASSIGN TO CHECKS.
       DATA DIVISION.
       FILE SECTION.
       FD  PAY-FILE.
           COPY PAYREC REPLACING ==:PFX:== BY ==CHK==.
       FD  CHECK-FILE.
       01  CHECK-LINE                  PIC X(80).
       WORKING-STORAGE SECTION.
       01  WS-CHECK-NUMBER             PIC 9(08)    VALUE 10000001.
       01  WS-CHECK-AMOUNT             PIC $$$,$$9.99.
       01  WS-EOF-FLAG                 PIC X(01)    VALUE 'N'.
           88  WS-EOF                  VALUE 'Y'.
       PROCEDURE DIVISION.
       0000-MAIN.
           OPEN INPUT PAY-FILE OUTPUT CHECK-FILE
           PERFORM UNTIL WS-EOF
              READ PAY-FILE
                 AT END SET WS-EOF TO TRUE
                 NOT AT END PERFORM PRINT-CHECK
              END-READ
           END-PERFORM
           CLOSE PAY-FILE CHECK-FILE
           STOP RUN.
       PRINT-CHECK.
           IF CHK-NET > ZERO
              MOVE CHK-NET TO WS-CHECK-AMOUNT
              STRING 'PAY TO ' CHK-EMP-ID ' AMOUNT ' WS-CHECK-AMOUNT
                     DELIMITED BY SIZE INTO CHECK-LINE
              WRITE CHECK-LINE
              ADD 1 TO WS-CHECK-NUMBER
           END-IF.
