      *================================================================*
      * TIMEREC  - WEEKLY TIMECARD RECORD (PAY.TIMECARD)                *
      *================================================================*
       01  TIME-RECORD.
           05  TC-EMP-ID               PIC X(06).
           05  TC-WEEK-END-DATE        PIC 9(08).
           05  TC-HOURS-WORKED         PIC 9(03)V99.
           05  TC-HOLIDAY-HOURS        PIC 9(03)V99.
           05  TC-SICK-HOURS           PIC 9(03)V99.
           05  TC-APPROVED-FLAG        PIC X(01).
               88  TC-APPROVED         VALUE 'Y'.
           05  FILLER                  PIC X(10).
