000100  IDENTIFICATION DIVISION.                                        CRDCHK01
000200  PROGRAM-ID. CRDCHK.                                             CRDCHK01
000300*  Decides loan applications: reads the application, checks       CRDCHK01
000400*  the applicant's credit bureau score, prices the loan.          CRDCHK01
000500  DATA DIVISION.                                                  CRDCHK01
000600  WORKING-STORAGE SECTION.                                        CRDCHK01
000700      EXEC SQL                                                    CRDCHK01
000800        INCLUDE APPLREC                                           CRDCHK01
000900      END-EXEC.                                                   CRDCHK01
001000      COPY LIMITS REPLACING ==:PFX:== BY ==CRD==.                 CRDCHK01
001100  01  WS-RATE-PGM             PIC X(8) VALUE 'RATECALC'.          CRDCHK01
001200  01  WS-DECISION-FILE        PIC X(8).                           CRDCHK01
001300  01  WS-BUREAU-SCORE         PIC 9(3).                           CRDCHK01
001400  01  WS-TERM-COUNT           PIC 9(2) VALUE 12.                  CRDCHK01
001500  01  WS-INSTALMENTS.                                             CRDCHK01
001600      05  WS-INSTALMENT       PIC 9(7)V99                         CRDCHK01
001700                              OCCURS 1 TO 60 TIMES                CRDCHK01
001800                              DEPENDING ON WS-TERM-COUNT.         CRDCHK01
001900  01  WS-INTEREST             PIC 9(7)V99.                        CRDCHK01
002000  01  WS-RESP                 PIC S9(8) COMP.                     CRDCHK01
002100  01  WS-RETURN-CODE          PIC XX.                             CRDCHK01
002200  REPLACE ==:MINSCORE:== BY ==620==.                              CRDCHK01
002300  PROCEDURE DIVISION.                                             CRDCHK01
002400  1000-MAIN.                                                      CRDCHK01
002500      EXEC CICS READ FILE('APPLFILE') INTO(APPL-RECORD)           CRDCHK01
002600           RIDFLD(APPL-ID) RESP(WS-RESP)                          CRDCHK01
002700      END-EXEC                                                    CRDCHK01
002800      PERFORM 2000-CHECK-CREDIT-SCORE                             CRDCHK01
002900      PERFORM 1300-COMPUTE-INTEREST                               CRDCHK01
003000      EXEC CICS LINK PROGRAM(WS-RATE-PGM) COMMAREA(APPL-RECORD)   CRDCHK01
003100      END-EXEC                                                    CRDCHK01
003200      MOVE 'DECISNS' TO WS-DECISION-FILE                          CRDCHK01
003300      EXEC CICS WRITE DATASET(WS-DECISION-FILE) FROM(APPL-RECORD) CRDCHK01
003400           RIDFLD(APPL-ID)                                        CRDCHK01
003500      END-EXEC                                                    CRDCHK01
003600      EXEC CICS START TRANSID('CRDN') END-EXEC                    CRDCHK01
003700      EXEC CICS RETURN END-EXEC.                                  CRDCHK01
003800*  The yearly interest of the loan from the rate the pricing      CRDCHK01
003900*  program returned, spread over the instalments.                 CRDCHK01
004000  1300-COMPUTE-INTEREST.                                          CRDCHK01
004100      COMPUTE WS-INTEREST = APPL-AMOUNT * APPL-RATE / 100         CRDCHK01
004200      MOVE WS-INTEREST TO WS-INSTALMENT(1).                       CRDCHK01
004300*  Reject the applicant when the bureau score is under the        CRDCHK01
004400*  minimum the bank accepts.                                      CRDCHK01
004500  2000-CHECK-CREDIT-SCORE.                                        CRDCHK01
004600      EXEC SQL                                                    CRDCHK01
004700        SELECT SCORE INTO :WS-BUREAU-SCORE                        CRDCHK01
004800          FROM CREDIT_BUREAU                                      CRDCHK01
004900         WHERE CUSTOMER_ID = :APPL-CUSTOMER                       CRDCHK01
005000      END-EXEC                                                    CRDCHK01
005100      IF WS-BUREAU-SCORE < :MINSCORE:                             CRDCHK01
005200         MOVE '40' TO WS-RETURN-CODE                              CRDCHK01
005300         EXEC CICS ABEND ABCODE('CRD4') END-EXEC                  CRDCHK01
005400      END-IF.                                                     CRDCHK01
