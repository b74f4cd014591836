      *  The loan application record (shared by the DB2 programs).
        01  APPL-RECORD.
            05  APPL-ID             PIC X(10).
            05  APPL-CUSTOMER       PIC X(10).
            05  APPL-AMOUNT         PIC 9(7)V99.
            05  APPL-TERM           PIC 9(2).
            05  APPL-RATE           PIC 9(2)V99.
