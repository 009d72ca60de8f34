-- Linux 4.2 (merged June 2015, released August 2015): queued spinlocks
-- (qspinlock) replace ticket locks on x86.  Its machine: the 4-socket
-- Westmere-EX of the qspinlock series.
era{
  id = "2015", year = 2015, version = "4.2",
  title = "4.2: queued spinlocks",
  cpus = 40, smp = true,          -- the machine of the qspinlock series: 4 x 10 Westmere-EX
  hz = 250,                       -- R: Kconfig default HZ_250 (distributions also used 1000)
  preempt = "full",               -- the museum's choice from 2.6.0 on (see 2003.lua)
  global_cli = false,
  bkl = false,
  spinlock = "queued",            -- commit a33fda35e3a7
  semaphore = "generic",
  mutex = true, mutex_spin = true, mutex_handoff = false,
  sleep_check = true,
  semaphores = -1,
  machine = "2015-2016",          -- its costs: eras/machines/2015-2016.lua
  placard = "docs/eras/2015.md",
}
