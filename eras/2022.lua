-- The mlx5 throttle (commit 63fbae0a74c3, written August 2022, pulled into
-- net-next with mlx5-updates-2023-01-10, so in 6.3 by inference): high-rate
-- general-object firmware commands may use only half of the command slots.
-- The era keeps the year the patch was written.  Costs: the 2022-23 row
-- (docs/sources.md).
era{
  id = "2022", year = 2022, version = "6.3",  -- inferred: [MLX5PULL] (net-next, January 2023) feeds 6.3
  title = "mlx5: a semaphore throttles firmware commands",
  cpus = 64, smp = true,          -- E: a typical 2-socket server; the kmod report of 2022 came
                                  --    from one of over 400 CPUs, too many for a default
  hz = 250,                       -- R: Kconfig default (some distributions use 1000)
  preempt = "full",               -- the museum's choice from 2.6.0 on; distribution kernels
                                  -- of 2022 mostly ran "voluntary" (or PREEMPT_DYNAMIC)
  global_cli = false,
  bkl = false,
  spinlock = "queued",
  semaphore = "generic",
  mutex = true, mutex_spin = true, mutex_handoff = true,
  sleep_check = true,
  semaphores = -1,                -- not counted for 2022; "over 100" in 2023
  machine = "2022-2023",          -- its costs: eras/machines/2022-2023.lua
  placard = "docs/eras/2022.md",
}
