-- Linux 4.10 (merged December 2016, released February 2017): mutex hand-off, so
-- a woken waiter can no longer be robbed forever by spinners.
-- Costs: the Haswell/Broadwell-EP row, as for 2015.
era{
  id = "2016", year = 2016, version = "4.10",
  title = "4.10: mutex hand-off against starvation",
  cpus = 44, smp = true,          -- E: 2-socket Broadwell-EP, top of the table's 36-44 threads
  hz = 250,                       -- R: Kconfig default HZ_250 (distributions also used 1000)
  preempt = "full",               -- the museum's choice from 2.6.0 on (see 2003.lua)
  global_cli = false,
  bkl = false,
  spinlock = "queued",
  semaphore = "generic",
  mutex = true, mutex_spin = true, mutex_handoff = true,   -- commit 9d659ae14b54
  sleep_check = true,
  semaphores = -1,
  machine = "2015-2016",          -- its costs: eras/machines/2015-2016.lua
  placard = "docs/eras/2016.md",
}
