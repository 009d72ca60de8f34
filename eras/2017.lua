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
  costs = {
    cli       = 3,      -- E: 2-5 ns in both neighbouring rows
    atomic    = 5,      -- E: between 6-8 ns (2015) and 2.8 ns (M, 2026 VM)
    cacheline = 120,    -- E: between ~110 ns (2015) and 126-129 ns (2022)
    ctxsw     = 2500,   -- E: between 1.5-3 us (2015) and ~3 us (2022); before the 2018
                        --    Meltdown page-table isolation (4.15, January 2018, R) made switches dearer
    wakeup    = 4000,   -- E: 3-5 us in both neighbouring rows
    irq_entry = 700,    -- E: between 0.7 us (2015) and 0.5-1 us (2022)
  },
  placard = "docs/eras/2017.md",
}
