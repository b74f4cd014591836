       IDENTIFICATION DIVISION.
       PROGRAM-ID. DATEUTIL.
      *================================================================*
      * DATEUTIL - RETURNS THE PAY PERIOD END DATE (NEXT SATURDAY).     *
      *================================================================*
       DATA DIVISION.
       WORKING-STORAGE SECTION.
       01  WS-CURRENT-DATE.
           05  WS-CD-YYYYMMDD          PIC 9(08).
           05  FILLER                  PIC X(13).
       01  WS-INTEGER-DATE             PIC 9(07).
       01  WS-DAY-OF-WEEK              PIC 9(01).
       LINKAGE SECTION.
       01  LK-PERIOD-END-DATE          PIC 9(08).
       PROCEDURE DIVISION USING LK-PERIOD-END-DATE.
       0000-MAIN.
           MOVE FUNCTION CURRENT-DATE TO WS-CURRENT-DATE
           PERFORM CALC-WEEK-END
           GOBACK.
       CALC-WEEK-END.
           COMPUTE WS-INTEGER-DATE =
                   FUNCTION INTEGER-OF-DATE(WS-CD-YYYYMMDD)
           COMPUTE WS-DAY-OF-WEEK =
                   FUNCTION MOD(WS-INTEGER-DATE, 7)
           COMPUTE WS-INTEGER-DATE =
                   WS-INTEGER-DATE + 6 - WS-DAY-OF-WEEK
           COMPUTE LK-PERIOD-END-DATE =
                   FUNCTION DATE-OF-INTEGER(WS-INTEGER-DATE).
