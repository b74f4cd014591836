        IDENTIFICATION DIVISION.
        PROGRAM-ID. CRDMENU.
      *  The loan officer's menu screen.
        DATA DIVISION.
        WORKING-STORAGE SECTION.
            COPY CRDSET.
        01  WS-RESP                 PIC S9(8) COMP.
        PROCEDURE DIVISION.
        0000-MAIN.
            EXEC CICS SEND MAP('CRDM1') MAPSET('CRDSET') ERASE END-EXEC
            EXEC CICS RECEIVE MAP('CRDM1') MAPSET('CRDSET')
                 RESP(WS-RESP)
            END-EXEC
            EXEC CICS LINK PROGRAM('CRDCHK') END-EXEC
            EXEC CICS RETURN TRANSID('CRD1') END-EXEC.
