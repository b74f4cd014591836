       IDENTIFICATION DIVISION.
       PROGRAM-ID. OTCALC.
      *================================================================*
      * OTCALC   - OVERTIME PAY FOR HOURLY EMPLOYEES.                   *
      *   HOURS ABOVE 40 ARE PAID AT 1.5 TIMES THE HOURLY RATE;         *
      *   HOURS ABOVE 60 ARE DOUBLE TIME (2.0 TIMES).                   *
      *   EMPLOYEES FLAGGED OT-EXEMPT GET NO OVERTIME PAY.              *
      *================================================================*
       DATA DIVISION.
       WORKING-STORAGE SECTION.
       01  WS-OT-CONSTANTS.
           05  WS-OT-LIMIT             PIC 9(02)    VALUE 40.
           05  WS-DT-LIMIT             PIC 9(02)    VALUE 60.
           05  WS-OT-MULTIPLIER        PIC 9V9      VALUE 1.5.
           05  WS-DT-MULTIPLIER        PIC 9V9      VALUE 2.0.
       01  WS-OT-WORK.
           05  WS-OT-ONLY-HOURS        PIC 9(03)V99.
           05  WS-DT-HOURS             PIC 9(03)V99.
           05  WS-OT-AMOUNT            PIC S9(07)V99 COMP-3.
           05  WS-DT-AMOUNT            PIC S9(07)V99 COMP-3.
       LINKAGE SECTION.
       01  OT-PARMS.
           05  OT-HOURS-WORKED         PIC 9(03)V99.
           05  OT-HOURLY-RATE          PIC 9(03)V99.
           05  OT-EXEMPT-FLAG          PIC X(01).
               88  OT-EXEMPT           VALUE 'Y'.
           05  OT-HOURS                PIC 9(03)V99.
           05  OT-PAY                  PIC S9(07)V99 COMP-3.
       PROCEDURE DIVISION USING OT-PARMS.
       0000-MAIN.
           MOVE ZERO TO OT-PAY OT-HOURS
           PERFORM CHECK-OT-ELIGIBLE
           IF NOT OT-EXEMPT
              PERFORM CALC-OT-HOURS THRU CALC-OT-PAY
           END-IF
           GOBACK.
       CHECK-OT-ELIGIBLE.
           IF OT-HOURS-WORKED NOT > WS-OT-LIMIT
              MOVE 'Y' TO OT-EXEMPT-FLAG
           END-IF.
       CALC-OT-HOURS.
           COMPUTE OT-HOURS = OT-HOURS-WORKED - WS-OT-LIMIT
           IF OT-HOURS-WORKED > WS-DT-LIMIT
              COMPUTE WS-DT-HOURS = OT-HOURS-WORKED - WS-DT-LIMIT
           ELSE
              MOVE ZERO TO WS-DT-HOURS
           END-IF
           COMPUTE WS-OT-ONLY-HOURS = OT-HOURS - WS-DT-HOURS.
       CALC-DOUBLE-TIME.
           COMPUTE WS-DT-AMOUNT ROUNDED =
                   WS-DT-HOURS * OT-HOURLY-RATE * WS-DT-MULTIPLIER.
       CALC-OT-PAY.
           COMPUTE WS-OT-AMOUNT ROUNDED =
                   WS-OT-ONLY-HOURS * OT-HOURLY-RATE * WS-OT-MULTIPLIER
           ADD WS-OT-AMOUNT WS-DT-AMOUNT GIVING OT-PAY.
