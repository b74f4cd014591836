      *================================================================*
      * TAXTBL   - FEDERAL WITHHOLDING BRACKETS AND FICA RATES          *
      *            WS-TAX-RATE IS THE MARGINAL RATE OF THE BRACKET      *
      *            FOUND BY LOOKUP-BRACKET (ANNUALIZED INCOME).         *
      *================================================================*
       01  WS-TAX-TABLE.
           05  WS-BRACKET-COUNT        PIC 9(02)    VALUE 05.
           05  WS-BRACKET OCCURS 5 TIMES INDEXED BY WS-BX.
               10  WS-BRACKET-FLOOR    PIC 9(07)V99.
               10  WS-BRACKET-BASE     PIC 9(07)V99.
               10  WS-BRACKET-RATE     PIC V999.
       01  WS-TAX-FIELDS.
           05  WS-TAX-RATE             PIC V999     VALUE ZERO.
           05  WS-ANNUAL-TAXABLE       PIC S9(09)V99 COMP-3.
           05  WS-ANNUAL-TAX           PIC S9(09)V99 COMP-3.
           05  WS-ALLOWANCE-AMT        PIC 9(05)V99 VALUE 4300.00.
           05  WS-FICA-RATE            PIC V9999    VALUE .0765.
           05  WS-SUPPLEMENTAL-RATE    PIC V999     VALUE .220.
