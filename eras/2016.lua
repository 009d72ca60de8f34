-- Linux 4.10 (merged December 2016, released February 2017): mutex hand-off, so
-- a woken waiter can no longer be robbed forever by spinners.
-- Its machine: 2015's, the 4-socket Westmere-EX of the qspinlock series.
era{
  id = "2016", year = 2016, version = "4.10",
  title = "4.10: mutex hand-off against starvation",
  cpus = 40, smp = true,          -- the machine of the qspinlock series: 4 x 10 Westmere-EX
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
