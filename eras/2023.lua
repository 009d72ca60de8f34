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
  machine = "2022-2023",          -- its costs: eras/machines/2022-2023.lua
  placard = "docs/eras/2023.md",
}
