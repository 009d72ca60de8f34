-- Linux 2.5.28 (July 2002, development series): the global cli()/sti() is
-- removed on SMP; only local_irq_*() remain.  Costs are interpolated between
-- the 2001 and 2003 rows of the calibration table (docs/sources.md).
era{
  id = "2002", year = 2002, version = "2.5.28",
  title = "2.5.28: the global cli() is gone",
  cpus = 4, smp = true,           -- E: dual Xeon with Hyper-Threading (2002) = 4 logical CPUs
  hz = 1000,                      -- R: i386 HZ went from 100 to 1000 early in 2.5
  preempt = "none",               -- CONFIG_PREEMPT was already in 2.5 (merged around 2.5.4,
                                  -- from memory) but off by default; the museum shows
                                  -- preemption with 2.6.0 and keeps this era about cli()
  global_cli = false,             -- from 2.5.28 cli() no longer excludes other CPUs
  bkl = true,
  spinlock = "tas",
  semaphore = "legacy",
  mutex = false, mutex_spin = false, mutex_handoff = false,
  sleep_check = false,            -- the museum turns might_sleep() checks on with 2.6.0
  semaphores = -1,
  costs = {
    cli       = 10,     -- E: ~10 ns in both neighbouring rows
    atomic    = 35,     -- E: between 25 ns (2001) and 35-50 ns (P4, 2003)
    cacheline = 200,    -- E: between 150 ns (2001) and 200-300 ns (2003)
    ctxsw     = 3500,   -- E: between 3-4 us (2001) and 3-5 us (2003)
    wakeup    = 8000,   -- E: ~8 us in both neighbouring rows
    irq_entry = 2000,   -- E: ~2 us (2001) and 1.5-3 us (2003)
  },
  placard = "docs/eras/2002.md",
}
