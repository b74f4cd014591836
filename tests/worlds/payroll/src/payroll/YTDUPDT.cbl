       IDENTIFICATION DIVISION.
       PROGRAM-ID. YTDUPDT.
      *================================================================*
      * YTDUPDT  - ADDS THE WEEK'S PAY RECORDS TO THE YEAR-TO-DATE FILE *
      *            AND STOPS SOCIAL SECURITY AT THE WAGE BASE.          *
      *================================================================*
       ENVIRONMENT DIVISION.
       INPUT-OUTPUT SECTION.
       FILE-CONTROL.
           SELECT PAY-FILE ASSIGN TO PAYIN.
           SELECT YTD-FILE ASSIGN TO YTDMAST
                  ORGANIZATION IS INDEXED
                  ACCESS MODE IS RANDOM
                  RECORD KEY IS YTD-EMP-ID.
       DATA DIVISION.
       FILE SECTION.
       FD  PAY-FILE.
           COPY PAYREC REPLACING ==:PFX:== BY ==CUR==.
       FD  YTD-FILE.
           COPY PAYREC REPLACING ==:PFX:== BY ==YTD==.
       WORKING-STORAGE SECTION.
       01  WS-SS-WAGE-BASE             PIC 9(07)V99 VALUE 168600.00.
       01  WS-EOF-FLAG                 PIC X(01)    VALUE 'N'.
           88  WS-EOF                  VALUE 'Y'.
       PROCEDURE DIVISION.
       0000-MAIN.
           OPEN INPUT PAY-FILE I-O YTD-FILE
           PERFORM UNTIL WS-EOF
              READ PAY-FILE
                 AT END SET WS-EOF TO TRUE
                 NOT AT END PERFORM ACCUMULATE-YTD
              END-READ
           END-PERFORM
           CLOSE PAY-FILE YTD-FILE
           STOP RUN.
       ACCUMULATE-YTD.
           MOVE CUR-EMP-ID TO YTD-EMP-ID
           READ YTD-FILE
              INVALID KEY INITIALIZE YTD-PAY-RECORD
                          MOVE CUR-EMP-ID TO YTD-EMP-ID
           END-READ
           ADD CUR-GROSS      TO YTD-GROSS
           ADD CUR-FED-TAX    TO YTD-FED-TAX
           ADD CUR-STATE-TAX  TO YTD-STATE-TAX
           PERFORM CHECK-SS-WAGE-BASE
           ADD CUR-DEDUCTIONS TO YTD-DEDUCTIONS
           ADD CUR-NET        TO YTD-NET
           ADD CUR-OT-HOURS   TO YTD-OT-HOURS
           REWRITE YTD-PAY-RECORD.
      * FICA STOPS ONCE YEAR-TO-DATE GROSS PASSES THE WAGE BASE.
       CHECK-SS-WAGE-BASE.
           IF YTD-GROSS > WS-SS-WAGE-BASE
              MOVE ZERO TO CUR-FICA
           ELSE
              ADD CUR-FICA TO YTD-FICA
           END-IF.
