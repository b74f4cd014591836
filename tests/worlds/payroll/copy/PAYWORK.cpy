      *================================================================*
      * PAYWORK  - PAY CALCULATION WORK AREAS                           *
      *================================================================*
       01  WS-PAY-WORK.
           05  WS-REG-HOURS            PIC 9(03)V99 VALUE ZERO.
           05  WS-OT-HOURS             PIC 9(03)V99 VALUE ZERO.
           05  WS-REGULAR-PAY          PIC S9(07)V99 COMP-3.
           05  WS-OVERTIME-PAY         PIC S9(07)V99 COMP-3.
           05  WS-GROSS-PAY            PIC S9(07)V99 COMP-3.
           05  WS-TOTAL-TAX            PIC S9(07)V99 COMP-3.
           05  WS-TOTAL-DEDUCTIONS     PIC S9(07)V99 COMP-3.
           05  WS-NET-PAY              PIC S9(07)V99 COMP-3.
           05  WS-WEEKS-PER-YEAR       PIC 9(02)    VALUE 52.
           05  WS-OT-THRESHOLD         PIC 9(02)    VALUE 40.
