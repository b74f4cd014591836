      *================================================================*
      * DEDREC   - VOLUNTARY AND MANDATORY DEDUCTIONS                   *
      *================================================================*
       01  DED-PARMS.
           05  DED-GROSS-PAY           PIC S9(07)V99 COMP-3.
           05  DED-401K-PCT            PIC 9V99.
           05  DED-HEALTH-PLAN         PIC X(02).
           05  DED-GARNISH-AMT         PIC 9(05)V99.
           05  DED-401K-AMT            PIC S9(07)V99 COMP-3.
           05  DED-HEALTH-AMT          PIC S9(07)V99 COMP-3.
           05  DED-GARNISH-TAKEN       PIC S9(07)V99 COMP-3.
           05  DED-TOTAL               PIC S9(07)V99 COMP-3.
