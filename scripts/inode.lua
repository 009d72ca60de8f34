-- One directory, many tasks: creat, mkdir, link and unlink under i_sem.
--
-- From 0.99.15c (February 1994) every struct inode carried a semaphore,
-- i_sem, and the directory operations of fs/namei.c took the parent
-- directory's: down(&dir->i_sem) around the lookup and the creation of a
-- name (open with O_CREAT, mknod, mkdir, symlink, link), and around its
-- removal.  Twelve years later it was one of the busiest semaphores in the
-- tree, and the one Ingo Molnar's 2005 test-mutex benchmark hammered:
-- 16 tasks opening a file in one directory, one contended i_sem a loop.
-- On an 8-way box the semaphore version did 34,713 loops a second using
-- 63% of the CPUs; the mutex version 84,153 loops a second using 22%.  In
-- 2.6.16 i_sem became i_mutex.
--
-- Why the semaphore lost, in the words of the time: both locks let a
-- "lucky" running task take the lock past a waiter woken for it, but the
-- semaphore (i386's __down()) also woke one more sleeper each time a task
-- left its slow path owning it, and its exclusive wake-ups skipped the
-- sleepers already woken, so they were woken "two at a time" (Torvalds),
-- most of them only to find it taken and sleep again.  The 2006 mutex
-- wakes its first waiter and nobody else until that one has tried.
--
-- What this loop shows in 2006: the herd (two wake-ups per operation,
-- half of them lost) and the CPU it burns -- 44% of 8 CPUs against the
-- mutex's 25% (Molnar: 63% and 22%) -- and the mutex 1.58 times ahead
-- (Molnar: 2.4), 1.29 times on 4 CPUs (Molnar: 1.42).  It holds i_sem 3
-- us of a 7 us operation, where Molnar's loop held it about 1 us of 11;
-- the tour's 2006 exhibit is his own loop, scripts/test_mutex.lua.  The tour shows this
-- one in 1994.  docs/reproductions.md, "inode", has the model variants.
--
-- Each loop of a task here is one directory operation, in turn creat,
-- mkdir, link and unlink (the last removes what the first three made):
--   path walk (outside the lock), down(i_sem), look the name up, change
--   the directory (a read-then-write of its entry count), up(i_sem), then
--   the rest of the system call.
--
-- Things to try:
--   lockmuseum run scripts/inode.lua --mode semaphore     (2006, 8 CPUs)
--   lockmuseum run scripts/inode.lua --mode mutex         the 2005 gap
--   lockmuseum run scripts/inode.lua --era 1994 --mode cli   one CPU: cli works
--   lockmuseum run scripts/inode.lua --era 2003 --cpus 2 --mode cli --anachronism
--                               cli() masks one CPU only: lost updates
--   lockmuseum run scripts/inode.lua --era 2009 --mode mutex  with spinning

scenario{
  name = "inode",
  title = "Directory operations under i_sem, one directory, many tasks",
  era = "2006",
  seed = 2005,
}

local ntasks  = param("tasks", 16)     -- as in test-mutex
local loops   = param("loops", 200)    -- directory operations per task
local walk_us = param("walk_us", 2)    -- path walk before taking i_sem
local cs_us   = param("cs_us", 3)      -- lookup + create/remove under i_sem
local rest_us = param("rest_us", 2)    -- the rest of the system call

local i_sem   = lock{ name = "dir->i_sem", kind = "semaphore" }
local entries = var{ name = "dir_entries" }   -- names in the directory
local nlink   = var{ name = "dir_nlink", value = 2 }  -- "." and ".."
local done    = counter{ name = "operations", unit = "ops" }

-- One directory operation: lookup, then change the entry count (and the
-- link count for a subdirectory) with plain read-then-write, as the
-- filesystem code did under i_sem.
local function dirop(delta, subdir)
  compute(us(walk_us))
  down(i_sem)
  local n = read(entries)
  compute(us(cs_us))
  write(entries, n + delta)
  if subdir then
    local l = read(nlink)
    write(nlink, l + delta)
  end
  up(i_sem)
  compute(us(rest_us))
  counter_add(done, 1)
end

for t = 1, ntasks do
  task{
    name = "dirop/" .. t,
    run = function()
      local made = {}
      for i = 1, loops do
        local step = (i - 1) % 4
        if step == 0 then
          measure("creat", function() dirop(1) end)
        elseif step == 1 then
          measure("mkdir", function() dirop(1, true) end)
        elseif step == 2 then
          measure("link", function() dirop(1) end)
        else
          -- unlink the three names: the file, the directory, the link
          measure("unlink", function() dirop(-1) end)
          dirop(-1, true)
          dirop(-1)
        end
      end
    end,
  }
end

-- Each full round of four steps makes three names and removes them; an
-- unfinished round leaves what it made.
local function expected_entries()
  return ntasks * (loops % 4)
end

check(function(r)
  local lost = r.violation_counts and r.violation_counts["lost-update"] or 0
  return lost == 0, string.format("no update of the directory was lost (%d lost)", lost)
end)

check(function(r)
  local want = expected_entries()
  return r.vars.dir_entries == want,
    string.format("the directory ends with %d entries (expected %d)", r.vars.dir_entries, want)
end)

check(function(r)
  local finished = 0
  for _, t in ipairs(r.tasks) do if t.finished then finished = finished + 1 end end
  local secs = r.sim_time_ns / 1e9
  local ops = r.counters.operations.value
  return finished == ntasks,
    string.format("%d of %d tasks finished; %.0f directory operations per second",
                  finished, ntasks, secs > 0 and ops / secs or 0)
end)
