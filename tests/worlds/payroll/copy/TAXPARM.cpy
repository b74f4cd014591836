      *================================================================*
      * TAXPARM  - PARAMETER AREA PASSED FROM PAYCALC TO TAXCALC        *
      *================================================================*
       01  TAX-PARMS.
           05  TX-GROSS-PAY            PIC S9(07)V99 COMP-3.
           05  TX-OVERTIME-PAY         PIC S9(07)V99 COMP-3.
           05  TX-FILING-STATUS        PIC X(01).
           05  TX-ALLOWANCES           PIC 9(02).
           05  TX-STATE                PIC X(02).
           05  TX-FED-TAX              PIC S9(07)V99 COMP-3.
           05  TX-STATE-TAX            PIC S9(07)V99 COMP-3.
           05  TX-FICA-TAX             PIC S9(07)V99 COMP-3.
           05  TX-RETURN-CODE          PIC 9(02).
               88  TX-OK               VALUE 00.
               88  TX-BAD-STATE        VALUE 08.
