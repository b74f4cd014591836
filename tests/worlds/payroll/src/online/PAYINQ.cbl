       IDENTIFICATION DIVISION.
       PROGRAM-ID. PAYINQ.
      *================================================================*
      * PAYINQ   - CICS TRANSACTION PINQ: ESTIMATES AN EMPLOYEE'S       *
      *            WEEKLY TAX FROM THE SCREEN BY LINKING TO TAXCALC.    *
      *================================================================*
       DATA DIVISION.
       WORKING-STORAGE SECTION.
           COPY TAXPARM.
       01  WS-MAP-AREA.
           05  MAP-EMP-ID              PIC X(06).
           05  MAP-GROSS               PIC 9(05)V99.
           05  MAP-STATE               PIC X(02).
           05  MAP-FED-TAX             PIC Z(05)9.99.
       PROCEDURE DIVISION.
       0000-MAIN.
           EXEC CICS RECEIVE MAP('PINQMAP') MAPSET('PINQSET')
                     INTO(WS-MAP-AREA)
           END-EXEC
           PERFORM ESTIMATE-TAX
           EXEC CICS SEND MAP('PINQMAP') MAPSET('PINQSET')
                     FROM(WS-MAP-AREA) ERASE
           END-EXEC
           EXEC CICS RETURN END-EXEC.
       ESTIMATE-TAX.
           MOVE MAP-GROSS TO TX-GROSS-PAY
           MOVE MAP-STATE TO TX-STATE
           EXEC CICS LINK PROGRAM('TAXCALC')
                     COMMAREA(TAX-PARMS)
           END-EXEC
           MOVE TX-FED-TAX TO MAP-FED-TAX.
