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
  scheduler = "o1",               -- the O(1) scheduler since 2.5.2; 2.6.15's rules stand in (docs/sources.md, [O1SCHED03])
  spinlock = "tas",
  semaphore = "legacy",
  mutex = false, mutex_spin = false, mutex_handoff = false,
  sleep_check = false,            -- the museum turns might_sleep() checks on with 2.6.0
  semaphores = -1,
  machine = "2002",               -- its costs: eras/machines/2002.lua
  placard = "docs/eras/2002.md",
}
