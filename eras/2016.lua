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
  costs = {
    cli       = 3,      -- E: within a 2-5 ns estimate
    atomic    = 7,      -- E: middle of a 6-8 ns estimate
    cacheline = 110,    -- E: ~110 ns across sockets (same socket 40-42 ns, R [MCC])
    ctxsw     = 2000,   -- E: within a 1.5-3 us estimate
    wakeup    = 4000,   -- E: middle of a 3-5 us estimate
    irq_entry = 700,    -- E: ~0.7 us estimate
  },
  placard = "docs/eras/2016.md",
}
