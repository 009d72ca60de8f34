-- Linux 0.99.15c (February 1994): general kernel semaphores; struct inode gains
-- i_sem.  Same machine row as 1992 (486DX2-66), see docs/sources.md.
era{
  id = "1994", year = 1994, version = "0.99.15c",
  title = "0.99.15c: general semaphores and the inode's i_sem",
  cpus = 1, smp = false,          -- E: a 486 PC, one CPU
  hz = 100,                       -- R: x86 HZ stayed 100 through 2.4
  preempt = "none",
  global_cli = false,
  bkl = false,
  spinlock = false,
  semaphore = "legacy",           -- { count, wait queue }; a woken sleeper retries
  mutex = false, mutex_spin = false, mutex_handoff = false,
  sleep_check = false,
  semaphores = -1,                -- not counted; the VFS inode was the first user
  machine = "1992-1994",          -- its costs: eras/machines/1992-1994.lua
  placard = "docs/eras/1994.md",
}
