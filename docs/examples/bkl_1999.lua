-- bkl_1999.lua: Linux 2.2 on four CPUs.  Every task enters the kernel under
-- lock_kernel().  Code under the BKL may take it again (it is recursive) and
-- may sleep: schedule() drops the lock and takes it back on wake-up.  That
-- makes sleeping legal, but it also means the BKL does not protect anything
-- across the sleep.  Try --set sleep_inside=true.
scenario{
  name = "bkl_1999",
  title = "The Big Kernel Lock: recursive, and dropped while its holder sleeps",
  era = "2.2",
}

local sleep_inside = param("sleep_inside", false)
local rounds = param("rounds", 20)

-- Two locks of the BKL era.  In native mode both are the one kernel_flag,
-- so taking inode_lock while holding fs_lock is a recursive acquisition.
local fs_lock    = lock{ name = "fs_lock",    kind = "bkl" }
local inode_lock = lock{ name = "inode_lock", kind = "bkl" }
local nr_files   = var{ name = "nr_files" }

for i = 1, 4 do
  task{ name = "open/" .. i, run = function()
    for k = 1, rounds do
      down(fs_lock)                       -- lock_kernel()
      down(inode_lock)                    -- lock_kernel() again: depth 2
      local n = read(nr_files)
      compute(us(5))
      if sleep_inside then
        sleep(us(40))                     -- blocking I/O: the BKL is dropped
      end
      write(nr_files, n + 1)
      up(inode_lock)                      -- unlock_kernel(): depth 1
      up(fs_lock)                         -- unlock_kernel(): released
      compute(us(10))
    end
  end }
end

check(function(r)
  return r.vars.nr_files == 4 * rounds,
         string.format("nr_files = %d of %d", r.vars.nr_files, 4 * rounds)
end)
