        01  :PFX:-LIMITS.
            05  :PFX:-MAX-AMOUNT     PIC 9(7) VALUE 250000.
