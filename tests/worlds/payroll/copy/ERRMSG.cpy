      *================================================================*
      * ERRMSG   - VALIDATION ERROR RECORD (PAY.ERRORS)                 *
      *================================================================*
       01  ERR-RECORD.
           05  ERR-EMP-ID              PIC X(06).
           05  ERR-CODE                PIC X(04).
           05  ERR-TEXT                PIC X(60).
