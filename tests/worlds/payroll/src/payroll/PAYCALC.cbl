       IDENTIFICATION DIVISION.
       PROGRAM-ID. PAYCALC.
       AUTHOR. PAYROLL SYSTEMS GROUP.
      *================================================================*
      * PAYCALC  - COMPUTES ONE EMPLOYEE'S WEEKLY PAY.                  *
      *   GROSS = REGULAR PAY + OVERTIME PAY (OVERTIME VIA OTCALC)      *
      *   TAXES VIA TAXCALC, DEDUCTIONS VIA DEDCALC, THEN NET PAY.      *
      *================================================================*
       ENVIRONMENT DIVISION.
       DATA DIVISION.
       WORKING-STORAGE SECTION.
           COPY PAYWORK.
           COPY TAXPARM.
           COPY DEDREC.
       01  OT-PARMS.
           05  OT-HOURS-WORKED         PIC 9(03)V99.
           05  OT-HOURLY-RATE          PIC 9(03)V99.
           05  OT-EXEMPT-FLAG          PIC X(01).
           05  OT-HOURS                PIC 9(03)V99.
           05  OT-PAY                  PIC S9(07)V99 COMP-3.
       LINKAGE SECTION.
           COPY EMPREC.
           COPY TIMEREC.
           COPY PAYREC REPLACING ==:PFX:== BY ==LK==.
       PROCEDURE DIVISION USING EMP-RECORD TIME-RECORD LK-PAY-RECORD.
       0000-MAIN.
           INITIALIZE WS-PAY-WORK
           PERFORM CALC-GROSS
           PERFORM CALC-TAX-WITHHOLDING
           PERFORM CALC-DEDUCTIONS
           PERFORM CALC-NET-PAY
           PERFORM BUILD-PAY-RECORD
           GOBACK.
      *----------------------------------------------------------------*
      * GROSS PAY: SALARIED EMPLOYEES GET 1/52 OF THE ANNUAL SALARY,    *
      * HOURLY EMPLOYEES GET REGULAR HOURS PLUS THE OVERTIME PATH.      *
      *----------------------------------------------------------------*
       CALC-GROSS.
           IF EMP-SALARIED
              COMPUTE WS-REGULAR-PAY ROUNDED =
                      EMP-ANNUAL-SALARY / WS-WEEKS-PER-YEAR
              MOVE ZERO TO WS-OVERTIME-PAY
           ELSE
              PERFORM CALC-REGULAR-PAY
              IF TC-HOURS-WORKED > WS-OT-THRESHOLD
                 PERFORM CALC-OVERTIME
              ELSE
                 MOVE ZERO TO WS-OVERTIME-PAY
              END-IF
           END-IF
           COMPUTE WS-GROSS-PAY = WS-REGULAR-PAY + WS-OVERTIME-PAY.
       CALC-REGULAR-PAY.
           IF TC-HOURS-WORKED > WS-OT-THRESHOLD
              MOVE WS-OT-THRESHOLD TO WS-REG-HOURS
           ELSE
              MOVE TC-HOURS-WORKED TO WS-REG-HOURS
           END-IF
           COMPUTE WS-REGULAR-PAY ROUNDED =
                   (WS-REG-HOURS + TC-HOLIDAY-HOURS) * EMP-HOURLY-RATE.
      * OVERTIME PATH: HOURS ABOVE WS-OT-THRESHOLD ARE PRICED BY OTCALC.
       CALC-OVERTIME.
           MOVE TC-HOURS-WORKED TO OT-HOURS-WORKED
           MOVE EMP-HOURLY-RATE TO OT-HOURLY-RATE
           MOVE EMP-OT-EXEMPT   TO OT-EXEMPT-FLAG
           CALL 'OTCALC' USING OT-PARMS
           MOVE OT-HOURS TO WS-OT-HOURS
           MOVE OT-PAY   TO WS-OVERTIME-PAY.
      * TAXES: FEDERAL, STATE AND FICA ARE COMPUTED BY TAXCALC.
       CALC-TAX-WITHHOLDING.
           MOVE WS-GROSS-PAY      TO TX-GROSS-PAY
           MOVE WS-OVERTIME-PAY   TO TX-OVERTIME-PAY
           MOVE EMP-FILING-STATUS TO TX-FILING-STATUS
           MOVE EMP-ALLOWANCES    TO TX-ALLOWANCES
           MOVE EMP-STATE         TO TX-STATE
           CALL 'TAXCALC' USING TAX-PARMS
           IF NOT TX-OK
              DISPLAY 'PAYCALC: TAXCALC RC=' TX-RETURN-CODE
                      ' EMP=' EMP-ID
           END-IF
           COMPUTE WS-TOTAL-TAX =
                   TX-FED-TAX + TX-STATE-TAX + TX-FICA-TAX.
       CALC-DEDUCTIONS.
           MOVE WS-GROSS-PAY    TO DED-GROSS-PAY
           MOVE EMP-401K-PCT    TO DED-401K-PCT
           MOVE EMP-HEALTH-PLAN TO DED-HEALTH-PLAN
           MOVE EMP-GARNISH-AMT TO DED-GARNISH-AMT
           CALL 'DEDCALC' USING DED-PARMS
           MOVE DED-TOTAL TO WS-TOTAL-DEDUCTIONS.
       CALC-NET-PAY.
           COMPUTE WS-NET-PAY =
                   WS-GROSS-PAY - WS-TOTAL-TAX - WS-TOTAL-DEDUCTIONS
           IF WS-NET-PAY < ZERO
              MOVE ZERO TO WS-NET-PAY
           END-IF.
       BUILD-PAY-RECORD.
           MOVE EMP-ID              TO LK-EMP-ID
           MOVE TC-WEEK-END-DATE    TO LK-PERIOD-END
           MOVE WS-GROSS-PAY        TO LK-GROSS
           MOVE TX-FED-TAX          TO LK-FED-TAX
           MOVE TX-STATE-TAX        TO LK-STATE-TAX
           MOVE TX-FICA-TAX         TO LK-FICA
           MOVE WS-TOTAL-DEDUCTIONS TO LK-DEDUCTIONS
           MOVE WS-NET-PAY          TO LK-NET
           MOVE WS-OT-HOURS         TO LK-OT-HOURS.
