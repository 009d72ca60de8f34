-- The machine of the 1991 era: a 386DX-33 PC, one CPU (docs/sources.md).
-- Its costs in nanoseconds, each with its source (tags as in docs/sources.md).
machine{
  name = "1991",
  costs = {
    cli       = 91,     -- P: Intel 80386 Programmer's Reference Manual, CLI = 3 clocks at 33 MHz
                        --    (the calibration table's 8 clocks / 242 ns does not match the manual)
    atomic    = 152,    -- P: 80386 manual, XCHG with memory = 5 clocks at 33 MHz (bus locked)
    cacheline = 300,    -- E: no second CPU to move a line to; a memory access as a stand-in
    ctxsw     = 40000,  -- E: middle of a 30-50 us estimate for a 386DX-33
    wakeup    = 50000,  -- E: ~50 us estimate for a 386DX-33
    irq_entry = 7500,   -- E: middle of a 5-10 us estimate
  },
}
