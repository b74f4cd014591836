       IDENTIFICATION DIVISION.
       PROGRAM-ID. STTAX.
      *================================================================*
      * STTAX    - STATE INCOME TAX WITHHOLDING (FLAT RATE PER STATE)   *
      *================================================================*
       DATA DIVISION.
       WORKING-STORAGE SECTION.
       01  WS-STATE-RATE               PIC V9999    VALUE ZERO.
       LINKAGE SECTION.
           COPY TAXPARM.
       PROCEDURE DIVISION USING TAX-PARMS.
       0000-MAIN.
           PERFORM LOOKUP-STATE-RATE
           IF TX-OK
              PERFORM CALC-STATE-AMOUNT
           END-IF
           GOBACK.
       LOOKUP-STATE-RATE.
           EVALUATE TX-STATE
              WHEN 'CA'
                 MOVE .0660 TO WS-STATE-RATE
              WHEN 'NY'
                 MOVE .0585 TO WS-STATE-RATE
              WHEN 'IL'
                 MOVE .0495 TO WS-STATE-RATE
              WHEN 'TX'
              WHEN 'FL'
                 MOVE ZERO  TO WS-STATE-RATE
              WHEN OTHER
                 SET TX-BAD-STATE TO TRUE
           END-EVALUATE.
       CALC-STATE-AMOUNT.
           COMPUTE TX-STATE-TAX ROUNDED = TX-GROSS-PAY * WS-STATE-RATE.
