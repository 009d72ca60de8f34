-- The machine of the 1991 era: a 386DX-33 PC, one CPU (docs/sources.md).
-- One CPU: the era refuses --cpus above 1, no line ever moves between caches
-- (the 386DX has none on the chip), so the topology says so and nothing more.
-- Its costs in nanoseconds, each with its source (tags as in docs/sources.md).
machine{
  name = "1991",
  topology = {
    sockets = 1, dies = 1, cores = 1, threads = 1, -- E: one 386DX-33 (the era's cpus = 1)
    protocol = "none",                             -- one CPU: nothing to keep coherent
  },
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
