-- Linux 2.1.23 (development series, early 1997; exact date unverified): the
-- first spinlock infrastructure, first really used in the scheduler in 2.1.30.
-- Costs: the Pentium II 300-450 row (docs/sources.md).
era{
  id = "1997", year = 1997, version = "2.1.23",
  title = "2.1.23: the first spinlocks",
  cpus = 2, smp = true,           -- E: a two-way box of the period
  hz = 100,                       -- R: x86 HZ stayed 100 through 2.4
  preempt = "none",
  global_cli = true,
  bkl = true,
  spinlock = "tas",               -- test-and-set: whoever grabs the line first wins
  semaphore = "legacy",
  mutex = false, mutex_spin = false, mutex_handoff = false,
  sleep_check = false,
  semaphores = -1,
  machine = "1997",               -- its costs: eras/machines/1997.lua
  placard = "docs/eras/1997.md",
}
