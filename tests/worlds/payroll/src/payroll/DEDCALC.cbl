       IDENTIFICATION DIVISION.
       PROGRAM-ID. DEDCALC.
      *================================================================*
      * DEDCALC  - 401K, HEALTH PLAN AND GARNISHMENT DEDUCTIONS         *
      *================================================================*
       DATA DIVISION.
       WORKING-STORAGE SECTION.
       01  WS-HEALTH-PREMIUMS.
           05  WS-HEALTH-EMP-ONLY      PIC 9(03)V99 VALUE 045.00.
           05  WS-HEALTH-FAMILY        PIC 9(03)V99 VALUE 132.50.
       01  WS-GARNISH-LIMIT-PCT        PIC V99      VALUE .25.
       01  WS-GARNISH-LIMIT            PIC S9(07)V99 COMP-3.
       LINKAGE SECTION.
           COPY DEDREC.
       PROCEDURE DIVISION USING DED-PARMS.
       0000-MAIN.
           PERFORM CALC-401K
           PERFORM CALC-HEALTH
           PERFORM CALC-GARNISHMENT
           PERFORM TOTAL-DEDUCTIONS
           GOBACK.
       CALC-401K.
           COMPUTE DED-401K-AMT ROUNDED = DED-GROSS-PAY * DED-401K-PCT.
       CALC-HEALTH.
           EVALUATE DED-HEALTH-PLAN
              WHEN 'EO'
                 MOVE WS-HEALTH-EMP-ONLY TO DED-HEALTH-AMT
              WHEN 'FA'
                 MOVE WS-HEALTH-FAMILY   TO DED-HEALTH-AMT
              WHEN OTHER
                 MOVE ZERO               TO DED-HEALTH-AMT
           END-EVALUATE.
      * GARNISHMENTS ARE CAPPED AT 25 PERCENT OF GROSS PAY.
       CALC-GARNISHMENT.
           COMPUTE WS-GARNISH-LIMIT =
                   DED-GROSS-PAY * WS-GARNISH-LIMIT-PCT
           IF DED-GARNISH-AMT > WS-GARNISH-LIMIT
              MOVE WS-GARNISH-LIMIT TO DED-GARNISH-TAKEN
           ELSE
              MOVE DED-GARNISH-AMT  TO DED-GARNISH-TAKEN
           END-IF.
       TOTAL-DEDUCTIONS.
           ADD DED-401K-AMT DED-HEALTH-AMT DED-GARNISH-TAKEN
               GIVING DED-TOTAL.
