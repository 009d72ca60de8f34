-- Linux 0.96 (May 1992): the word "semaphore" appears, in the SCSI layer only.
-- Costs: the 486DX2-66 row of the calibration table (docs/sources.md).
era{
  id = "1992", year = 1992, version = "0.96",
  title = "0.96: the first semaphore, inside SCSI",
  cpus = 1, smp = false,          -- E: a 486 PC, one CPU
  hz = 100,                       -- R: unchanged since 0.01
  preempt = "none",
  global_cli = false,
  bkl = false,
  spinlock = false,
  semaphore = "legacy",           -- only in the SCSI driver layer (seed article)
  mutex = false, mutex_spin = false, mutex_handoff = false,
  sleep_check = false,
  semaphores = -1,                -- not counted for this release
  costs = {
    cli       = 76,     -- R: i486 CLI = 5 clocks at 66 MHz (cycle tables, not re-read)
    atomic    = 76,     -- P: i486 XCHG with memory = 5 clocks at 66 MHz (HelpPC tables)
    cacheline = 336,    -- P: lmbench 1996 memory latency, used as a stand-in on one CPU
    ctxsw     = 11000,  -- P: lmbench 1996, "Linux i486", 2 processes, 0 KB
    wakeup    = 28000,  -- E: half the lmbench 1996 pipe round trip (56 us, P)
    irq_entry = 5000,   -- E: ~5 us estimate for a 486
  },
  placard = "docs/eras/1992.md",
}
