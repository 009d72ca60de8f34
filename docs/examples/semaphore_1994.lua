-- semaphore_1994.lua: Linux 0.99.15c on one CPU.  Three processes create
-- files in one directory.  Creating an entry reads the disk, so the code
-- sleeps in the middle of its read-modify-write of the directory.  The
-- directory's i_sem (a binary semaphore, MUTEX in the source) keeps the
-- others out while the first one sleeps.  cli() cannot: a sleeping task's
-- interrupt flag goes with it, and the next task runs with interrupts on.
-- Compare:  --mode cli   and   --mode mutex --anachronism
scenario{
  name = "semaphore_1994",
  title = "The inode's i_sem: a binary semaphore held across disk I/O",
  era = "0.99.15c",
}

local i_sem   = lock{ name = "dir->i_sem" }        -- kind "semaphore", count 1
local entries = var{ name = "dir_entries" }

for i = 1, 3 do
  task{ name = "creat/" .. i, run = function()
    for k = 1, 4 do
      down(i_sem)                      -- down(&dir->i_sem)
      local n = read(entries)          -- lookup: is the name there?
      sleep(ms(2))                     -- bread(): wait for the disk
      write(entries, n + 1)            -- add the entry
      up(i_sem)                        -- up(&dir->i_sem)
      compute(us(200))
    end
  end }
end

check(function(r)
  return r.vars.dir_entries == 12,
         string.format("%d entries for 12 creat() calls", r.vars.dir_entries)
end)
