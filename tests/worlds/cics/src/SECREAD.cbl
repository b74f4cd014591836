        IDENTIFICATION DIVISION.
        PROGRAM-ID. SECREAD.
      *  Signs users on: checks their password against the security file
        DATA DIVISION.
        WORKING-STORAGE SECTION.
        01  USR-RECORD.
            05  USR-ID              PIC X(8).
            05  USR-HASH            PIC X(32).
        01  WS-RESP                 PIC S9(8) COMP.
        PROCEDURE DIVISION.
        0000-MAIN.
            PERFORM READ-USER-SECURITY
            EXEC CICS XCTL PROGRAM('CRDMENU') END-EXEC.
        READ-USER-SECURITY.
            EXEC CICS READ FILE('USRSEC') INTO(USR-RECORD)
                 RIDFLD(USR-ID) RESP(WS-RESP)
            END-EXEC.
