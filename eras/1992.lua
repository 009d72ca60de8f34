-- Linux 0.96 (May 1992): the word "semaphore" appears, in the SCSI layer only.
-- Costs: the 486DX2-66 row of the calibration table (docs/sources.md).
era{
  id = "1992", year = 1992, version = "0.96",
  title = "0.96: the first semaphore, inside SCSI",
  cpus = 1, smp = false,          -- E: a 486 PC, one CPU
  hz = 100,                       -- R: unchanged since 0.01
  preempt = "none",
  global_cli = false,
  bkl = false,
  spinlock = false,
  semaphore = "legacy",           -- only in the SCSI driver layer (seed article)
  mutex = false, mutex_spin = false, mutex_handoff = false,
  sleep_check = false,
  semaphores = -1,                -- not counted for this release
  machine = "1992-1994",          -- its costs: eras/machines/1992-1994.lua
  placard = "docs/eras/1992.md",
}
