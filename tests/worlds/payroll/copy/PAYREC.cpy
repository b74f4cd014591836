      *================================================================*
      * PAYREC   - PAY RESULT RECORD.  COPY WITH                        *
      *            REPLACING ==:PFX:== BY ==XXX== TO NAME THE FIELDS.   *
      *================================================================*
       01  :PFX:-PAY-RECORD.
           05  :PFX:-EMP-ID            PIC X(06).
           05  :PFX:-PERIOD-END        PIC 9(08).
           05  :PFX:-GROSS             PIC S9(07)V99 COMP-3.
           05  :PFX:-FED-TAX           PIC S9(07)V99 COMP-3.
           05  :PFX:-STATE-TAX         PIC S9(07)V99 COMP-3.
           05  :PFX:-FICA              PIC S9(07)V99 COMP-3.
           05  :PFX:-DEDUCTIONS        PIC S9(07)V99 COMP-3.
           05  :PFX:-NET               PIC S9(07)V99 COMP-3.
           05  :PFX:-OT-HOURS          PIC 9(03)V99.
