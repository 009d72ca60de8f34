-- Linux 4.2 (merged June 2015, released August 2015): queued spinlocks
-- (qspinlock) replace ticket locks on x86.  Costs: the Haswell/Broadwell-EP row.
era{
  id = "2015", year = 2015, version = "4.2",
  title = "4.2: queued spinlocks",
  cpus = 36, smp = true,          -- E: 2-socket Haswell-EP, low end of the table's 36-44 threads
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
