-- Linux 4.13 (September 2017): request_module() callers over the limit of 50
-- wait (up to 5 s) instead of failing.  Costs interpolated between the 2015 and
-- 2022 rows of the calibration table (docs/sources.md).
era{
  id = "2017", year = 2017, version = "4.13",
  title = "4.13: kmod waits instead of failing",
  cpus = 48, smp = true,          -- E: 2-socket Skylake-SP, 2 x 12 cores x 2 threads
                                  --    (32 would also be typical; 48 keeps the series rising)
  hz = 250,                       -- R: Kconfig default HZ_250 (distributions also used 1000)
  preempt = "full",               -- the museum's choice from 2.6.0 on (see 2003.lua)
  global_cli = false,
  bkl = false,
  spinlock = "queued",
  semaphore = "generic",
  mutex = true, mutex_spin = true, mutex_handoff = true,
  sleep_check = true,
  semaphores = -1,
  machine = "2017",               -- its costs: eras/machines/2017.lua
  placard = "docs/eras/2017.md",
}
