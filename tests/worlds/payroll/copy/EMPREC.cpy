      *================================================================*
      * EMPREC   - EMPLOYEE MASTER RECORD (VSAM KSDS PAY.EMPMAST)       *
      *================================================================*
       01  EMP-RECORD.
           05  EMP-ID                  PIC X(06).
           05  EMP-NAME                PIC X(30).
           05  EMP-DEPT                PIC X(04).
           05  EMP-TYPE                PIC X(01).
               88  EMP-HOURLY          VALUE 'H'.
               88  EMP-SALARIED        VALUE 'S'.
           05  EMP-HOURLY-RATE         PIC 9(03)V99.
           05  EMP-ANNUAL-SALARY       PIC 9(07)V99.
           05  EMP-FILING-STATUS       PIC X(01).
               88  EMP-SINGLE          VALUE 'S'.
               88  EMP-MARRIED         VALUE 'M'.
           05  EMP-ALLOWANCES          PIC 9(02).
           05  EMP-STATE               PIC X(02).
           05  EMP-401K-PCT            PIC 9V99.
           05  EMP-HEALTH-PLAN         PIC X(02).
           05  EMP-GARNISH-AMT         PIC 9(05)V99.
           05  EMP-OT-EXEMPT           PIC X(01).
               88  EMP-IS-OT-EXEMPT    VALUE 'Y'.
           05  FILLER                  PIC X(20).
