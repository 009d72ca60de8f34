-- Linux 6.4 (June 2023): DEFINE_SEMAPHORE(name, n) must say its count, the
-- kmod limiter (request_module()'s) becomes a counting semaphore with
-- down_timeout(), and finit_module() looks for a module before allocating it.
-- Costs: the 2022-23 row (docs/sources.md).
era{
  id = "2023", year = 2023, version = "6.4",
  title = "6.4: DEFINE_SEMAPHORE takes a count; kmod uses it",
  cpus = 64, smp = true,          -- E: a typical 2-socket server.  The kmod report came from a
                                  --    machine of "> 400" CPUs (448 and 8 sockets are our inference): try
                                  --    --cpus 448, where a two-hop line transfer is nearer
                                  --    200 ns (E)
  hz = 250,                       -- R: Kconfig default
  preempt = "full",               -- the museum's choice from 2.6.0 on; distribution kernels
                                  -- of 2023 mostly ran "voluntary" (or PREEMPT_DYNAMIC)
  global_cli = false,
  bkl = false,
  spinlock = "queued",
  semaphore = "generic",
  mutex = true, mutex_spin = true, mutex_handoff = true,
  sleep_check = true,
  semaphores = 100,               -- P: "over 100" remain (seed article, April 2023)
  costs = {
    cli       = 3,      -- E: within a 2-5 ns estimate
    atomic    = 3,      -- M: lock cmpxchg 2.8 ns uncontended (lock xadd 2.3 ns), 2026 VM
    cacheline = 128,    -- R [ICX]: Ice Lake Xeon 8360Y cross-socket 126-129 ns (same socket 60 ns)
    ctxsw     = 3000,   -- E: ~3 us estimate
    wakeup    = 4000,   -- E: 3-5 us estimate; 10-50 us (E) from a deep C-state is not modelled
    irq_entry = 750,    -- E: middle of a 0.5-1 us estimate
  },
  placard = "docs/eras/2023.md",
}
