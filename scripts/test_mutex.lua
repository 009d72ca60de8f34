-- test-mutex as the code ran it: creat() and close() of a task's own file
-- in one ext3 directory, every lock of the path in its place.
--
-- Ingo Molnar's test-mutex (posted on LKML on 8 January 2006) forks 16
-- tasks; each loops creat("/tmp/tmp-N") then close() on a file of its own
-- that already exists and is empty.  In December 2005 he ran it on an 8-way
-- box twice, once with the i386 semaphore and once with his new mutex,
-- built from the same 2.6.15-based tree with one configuration option
-- between them: semaphores 34,381 loops a second, mutexes 85,130.
--
-- What creat() of an existing, empty file did in 2.6.15 (fs/open.c,
-- fs/namei.c, fs/attr.c, fs/ext3, fs/jbd; docs/sources.md, [VFS15]):
--   sys_creat = open(O_CREAT|O_WRONLY|O_TRUNC); open_namei() walks to /tmp,
--   takes the directory's i_sem only around lookup_hash() -- the name is in
--   the dcache -- and drops it: the file exists.  may_open() sees O_TRUNC
--   and calls do_truncate(dentry, 0) whatever the size: the file's own
--   i_sem, then notify_change() (the file's own i_alloc_sem, a
--   read-write semaphore) -> ext3_setattr().  The size is already 0, so no
--   journal handle for the truncate and no vmtruncate(); inode_setattr()
--   sets the times and marks the inode dirty, which in ext3 is a journal
--   transaction: journal_start() (j_state_lock, a spinlock),
--   ext3_mark_inode_dirty() (the inode-table buffer taken for the
--   journal, j_list_lock, a spinlock, to file it), journal_stop()
--   (j_state_lock again).  Then, because the file is linked,
--   ext3_orphan_del() -- which begins with lock_super(): the
--   filesystem's s_lock, a semaphore, taken by every task of every loop
--   only to see that the orphan list is empty.  dentry_open() and close()
--   take the global files_lock spinlock once each.  No Big Kernel Lock.
-- So each loop takes two shared semaphores, the directory's i_sem and the
-- superblock's s_lock, one after the other (never nested), and three
-- shared spinlocks.  Molnar's DEBUG_MUTEX_FULL turned every struct
-- semaphore into a mutex ([MOL05M]), so --mode switches both; the
-- spinlocks and the task's own locks (its file's i_sem, i_alloc_sem and
-- ext3 truncate_sem, never contended) stay what they were.  The journal's
-- lock_buffer() of the inode-table block (a bit lock, the same in both
-- runs) is folded into the work of ext3_mark_inode_dirty().
--
-- Work lengths: the whole loop, 11 us of CPU outside any wait, is the
-- split docs/reproductions.md infers for test-mutex (1 us under i_sem, 10
-- outside); how it divides between the steps is estimated (E) from what
-- each step does.  If Molnar's /tmp was tmpfs (not stated in the mails),
-- there is no s_lock and no journal: --set ext3=0.  The figures were
-- posted for a loop his December mail calls creat+unlink+close; that loop
-- is --set unlink=1 (below).
--
-- Measured as the program measured (docs/reproductions.md, "The 2006
-- exhibit: measured as they measured"): the tasks loop until a fixed
-- window has passed and the loops that end inside it are counted, as
-- test-mutex V 16 10 counted 10 of its 11 seconds ([TM06]).  Nothing is
-- drawn at random unless a visitor asks (jitter): what perturbs the loop
-- is what the machine had, the timer tick on every CPU and the lines all
-- 16 tasks write.  The seed is where the program's start fell between
-- two ticks.
--
-- What the runs show: s_lock, held only to see an empty list, is almost
-- never contended; the herd is on i_sem.  On 8 CPUs and seed 2005 the
-- mutex does 2.48 times the semaphore's loops (Molnar: 2.4), the
-- semaphore needs 3.6 times its CPU per loop (6.9) and uses 54.2% of the
-- CPUs against the mutex's 36.4% (63% and 22%).  Both are about two and a
-- half times as fast as Molnar's machine: 85,175 and 211,600 loops a
-- second (the era's O(1) scheduler, engine/sched_o1.c).
--
-- Things to try:
--   lockmuseum run scripts/test_mutex.lua --mode semaphore
--   lockmuseum run scripts/test_mutex.lua --mode mutex
--                               the tour's 2006 exhibit (8 CPUs)
--   lockmuseum run scripts/test_mutex.lua --mode semaphore --set ticks=0 --set lines=0
--                               no ticks, no line transfers: a two-task convoy
--   lockmuseum run scripts/test_mutex.lua --mode semaphore --set jitter=50
--                               a what-if: every step drawn within 50%
--   lockmuseum run scripts/test_mutex.lua --mode semaphore --set ext3=0
--   lockmuseum run scripts/test_mutex.lua --mode semaphore --set unlink=1
--   lockmuseum run scripts/test_mutex.lua --era 2009 --mode mutex --set window_us=50000
--                               spinning

scenario{
  name = "test_mutex",
  title = "test-mutex: creat() and close() on ext3, as 2.6.15 ran them",
  era = "2006",
  seed = 2005,
}

local ntasks  = param("tasks", 16)     -- ./test-mutex V 16 10
-- The program's clock (test-mutex V 16 10, [TM06]): the children loop for
-- about 11 s and the parent counts the loops of the first 10.  Scaled: the
-- loops of the first `window_us` are counted, the tasks run 1.1 times as
-- long.  The window is the shortest whose figures are stable
-- (docs/reproductions.md, "The window").
local window_us = param("window_us", 200000)
if window_us < 1 or window_us > 1000000000 then
  error("test_mutex: window_us must be 1 to 1e9, got " .. window_us)
end
local window  = window_us * 1000
local ext3    = param("ext3", 1)       -- 0: a /tmp without s_lock or journal
local unlink  = param("unlink", 0)     -- 1: the December 2005 loop, creat+unlink+close
-- What the machine had that perturbs the loop (1: modelled, 0: a what-if
-- without it): the timer tick on every CPU, and the lines all 16 tasks
-- write (test-mutex's own counter, the path walk's reference counts),
-- priced by the machine's caches (engine/cache.h).
local ticks   = param("ticks", 1)
local lines   = param("lines", 1)
local hz      = param("hz", 250)       -- the 2006 era's HZ (eras/2006.lua; 2009's is 250 too)
local tick_ns = param("tick_ns", 2000) -- E: smp_apic_timer_interrupt() past its entry:
                                       -- update_process_times(), scheduler_tick(), the timer softirq
local do_timer_ns = param("do_timer_ns", 1000) -- E: IRQ0's do_timer() on CPU 0: jiffies, xtime
-- A what-if, not part of the exhibit: each step drawn within +-jitter percent
-- of its length (docs/reproductions.md, "Steps drawn: a sensitivity study").
local jitter  = param("jitter", 0)

-- Nanoseconds of each step (E: estimated; they add up to 11 us a loop).
local entry_ns   = param("entry_ns", 4000)  -- syscall entry, getname, fd, walk to /tmp
local lookup_ns  = param("lookup_ns", 1000) -- lookup_hash() under the directory's i_sem
local trunc_ns   = param("trunc_ns", 500)   -- may_open checks, own i_sem/i_alloc_sem, inode_setattr
local jstate_ns  = param("jstate_ns", 300)  -- under j_state_lock, in journal_start/stop each
local dirty_ns   = param("dirty_ns", 1000)  -- ext3_mark_inode_dirty outside the journal locks
local jlist_ns   = param("jlist_ns", 300)   -- under j_list_lock, filing the buffer
local orphan_ns  = param("orphan_ns", 200)  -- under s_lock: the orphan list is empty
local files_ns   = param("files_ns", 200)   -- under files_lock, in open and in close
local open_ns    = param("open_ns", 1200)   -- dentry_open, fd_install, back to user space
local close_ns   = param("close_ns", 1800)  -- close(), __fput, the loop's own bookkeeping

-- The December 2005 loop's own steps (E, with --set unlink=1).
local newinode_ns  = param("newinode_ns", 2000)
local addentry_ns  = param("addentry_ns", 1500)
local uentry_ns    = param("uentry_ns", 3000)
local ulookup_ns   = param("ulookup_ns", 500)
local delentry_ns  = param("delentry_ns", 1500)
local udirty_ns    = param("udirty_ns", 500)
local uret_ns      = param("uret_ns", 500)
local fput_ns      = param("fput_ns", 1000)
local freeinode_ns = param("freeinode_ns", 1000)
local orphanadd_ns = param("orphanadd_ns", 1000)
local orphandel_ns = param("orphandel_ns", 1000)
local cret_ns      = param("cret_ns", 500)

local dir_sem   = lock{ name = "dir->i_sem", kind = "semaphore" }
local s_lock    = lock{ name = "sb->s_lock", kind = "semaphore" }
local j_state   = lock{ name = "journal->j_state_lock", kind = "spinlock", pinned = true }
local j_list    = lock{ name = "journal->j_list_lock", kind = "spinlock", pinned = true }
local files     = lock{ name = "files_lock", kind = "spinlock", pinned = true }
local inode_lk  = lock{ name = "inode_lock", kind = "spinlock", pinned = true }  -- unlink=1 only

local names     = var{ name = "tmp_names" }    -- dentries looked up in /tmp
local orphans   = var{ name = "sb_orphans" }   -- the ext3 orphan list's length
local done      = counter{ name = "operations", unit = "ops" }      -- loops counted in the window
local all_loops = counter{ name = "loops", unit = "loops" }         -- every loop of the run
local window_c  = counter{ name = "window_ns", unit = "ns" }        -- the counted window
local op_time   = counter{ name = "op_time_ns", unit = "ns" }       -- every loop's creat()+close() time, summed

-- The lines every task writes in every loop (lines=1).  Each atomic (and
-- the lock word) is a cache line of the machine (engine/cache.h): moved
-- to the CPU that writes it, one request at a time.  Two variables on one
-- line cannot be declared yet, so the /tmp dentry's d_lock and d_count
-- are two lines.  All live on the root filesystem's mount (E: /tmp not a
-- mount of its own).
local count_line = atomic{ name = "SHARED(COUNT)" }        -- test-mutex's atomic_inc(), user space
local root_mnt   = atomic{ name = "rootmnt->mnt_count" }   -- mntget() in path_lookup(), mntput() in __fput()
local root_dent  = atomic{ name = "/ d_count" }            -- dget() of the root, dput() past it
local tmp_dlock  = lock{ name = "/tmp dentry->d_lock", kind = "spinlock", pinned = true }
local tmp_dent   = atomic{ name = "/tmp d_count" }         -- dput() of /tmp in open_namei()

-- A step of t ns; with --set jitter=P (a what-if), drawn from t +- P% by
-- the run's seeded generator.
local function work(t)
  if jitter > 0 then
    local d = t * jitter // 100
    t = rand(t - d, t + d)
  end
  compute(t)
end

local function held(l, t)
  down(l)
  work(t)
  up(l)
end

-- path_lookup("/tmp/tmp-N", LOOKUP_PARENT): the references the walk takes
-- on shared objects.  __d_lookup() finds "tmp" in the root and takes its
-- dentry's d_lock to check it and count a reference (atomic_inc(&d_count),
-- on the same line, folded into the lock).
local function walk_to_tmp()
  if lines ~= 0 then
    atomic_inc(root_mnt)              -- mntget(current->fs->rootmnt)
    atomic_inc(root_dent)             -- dget(current->fs->root)
  end
  work(entry_ns)
  if lines ~= 0 then
    down(tmp_dlock)                   -- __d_lookup(): spin_lock(&dentry->d_lock)
    up(tmp_dlock)
    atomic_dec(root_dent)             -- dput() of the root, the walk past it
  end
end

-- creat(): open_namei(), then may_open()'s do_truncate(dentry, 0).
local function creat()
  walk_to_tmp()
  down(dir_sem)
  local n = read(names)
  work(lookup_ns)
  write(names, n + 1)
  up(dir_sem)
  if lines ~= 0 then atomic_dec(tmp_dent) end  -- path_to_nameidata(): dput() of /tmp
  work(trunc_ns)
  if ext3 ~= 0 then
    held(j_state, jstate_ns)          -- journal_start()
    work(dirty_ns)                    -- with lock_buffer() of the inode block
    held(j_list, jlist_ns)            -- journal_dirty_metadata()
    held(j_state, jstate_ns)          -- journal_stop()
    down(s_lock)                      -- ext3_orphan_del(NULL, inode)
    local o = read(orphans)
    work(orphan_ns)
    write(orphans, o)
    up(s_lock)
  end
  held(files, files_ns)               -- file_move() in dentry_open()
  work(open_ns)
end

-- close(): __fput(), ext3_release_file() on the task's own truncate_sem.
local function close()
  held(files, files_ns)               -- file_kill()
  if lines ~= 0 then atomic_dec(root_mnt) end  -- __fput(): mntput()
  work(close_ns)
end

-- The December 2005 loop (--set unlink=1): the file does not exist when
-- creat() runs, and it is unlinked while still open, so close() frees it.
-- Each step estimated (E); the loop is about 24 us, a little above the
-- 20.9 us of CPU per loop of Molnar's mutex run, contention included: if
-- anything, too long.
--   creat(): open_namei() -> vfs_create() -> ext3_create() under the
--     directory's i_sem: journal_start(), ext3_new_inode() (new_inode()
--     takes inode_lock; the bitmap under a block-group spinlock, folded in
--     the work), ext3_add_nondir(), journal_stop().
--   unlink(): do_unlinkat() takes the directory's i_sem, vfs_unlink() the
--     file's own (never contended); ext3_unlink() removes the entry and,
--     the link count now 0, ext3_orphan_add(): lock_super() nested inside
--     i_sem, the superblock's orphan head journalled under it.
--   close(): the last fput() is the last iput() (inode_lock):
--     ext3_delete_inode() journals ext3_orphan_del() under lock_super(),
--     then ext3_free_inode().
local function creat_new()
  work(entry_ns)
  down(dir_sem)
  local n = read(names)
  work(lookup_ns)                     -- ext3_lookup(): not in the dcache
  write(names, n + 1)
  if ext3 ~= 0 then held(j_state, jstate_ns) end  -- journal_start()
  held(inode_lk, files_ns)            -- new_inode()
  work(newinode_ns)    -- ext3_new_inode(): bitmap, inode block
  work(addentry_ns)    -- ext3_add_nondir(): the directory block
  if ext3 ~= 0 then
    held(j_list, jlist_ns)            -- journal_dirty_metadata()
    held(j_state, jstate_ns)          -- journal_stop()
  end
  up(dir_sem)
  held(files, files_ns)               -- file_move() in dentry_open()
  work(open_ns)
end

local function unlink_open()
  work(uentry_ns)      -- syscall entry, getname, walk to /tmp
  down(dir_sem)
  local n = read(names)
  work(ulookup_ns)      -- lookup_hash(): in the dcache
  if ext3 ~= 0 then held(j_state, jstate_ns) end  -- journal_start()
  work(delentry_ns)    -- ext3_find_entry(), ext3_delete_entry()
  if ext3 ~= 0 then
    down(s_lock)                      -- ext3_orphan_add()
    local o = read(orphans)
    work(orphanadd_ns)
    write(orphans, o + 1)
    held(j_list, jlist_ns)
    up(s_lock)
  end
  work(udirty_ns)       -- ext3_mark_inode_dirty() of dir and inode
  if ext3 ~= 0 then held(j_state, jstate_ns) end  -- journal_stop()
  write(names, n - 1)
  up(dir_sem)
  work(uret_ns)         -- d_delete(), back to user space
end

local function close_last()
  held(files, files_ns)               -- file_kill()
  work(fput_ns)        -- __fput(), dput()
  held(inode_lk, files_ns)            -- iput()
  if ext3 ~= 0 then
    held(j_state, jstate_ns)          -- journal_start() in ext3_delete_inode()
    down(s_lock)                      -- ext3_orphan_del(handle, inode)
    local o = read(orphans)
    work(orphandel_ns)
    write(orphans, o - 1)
    held(j_list, jlist_ns)
    up(s_lock)
  end
  work(freeinode_ns)   -- ext3_free_inode()
  if ext3 ~= 0 then held(j_state, jstate_ns) end  -- journal_stop()
  work(cret_ns)
end

-- The start (E, reasoned from [TM06]): the parent forks the children one
-- after the other, and each sleeps one second first.  In 2.6.15 sleep()
-- ends on a timer tick, so the children start on the tick that follows
-- their fork by a second: with forks fork_ns apart, the first ones on one
-- tick, the rest on the next.  Where the parent's first fork fell between
-- two ticks is the run's seed (uniform over a tick), the one thing that
-- differs between seeds; times count from the first child's tick.
local fork_ns = param("fork_ns", 150000)  -- E: fork() of a small process on the 700 MHz box
if hz < 1 or hz > 100000 then error("test_mutex: hz must be 1 to 100000, got " .. hz) end
if fork_ns < 0 or fork_ns > 1000000000 then error("test_mutex: fork_ns must be 0 to 1e9, got " .. fork_ns) end
local period  = ticks ~= 0 and 1000000000 // hz or 0
local phase   = period > 0 and rand(0, period - 1) or 0
local function start_of(t)
  if period == 0 then return 0 end
  local forked = phase + (t - 1) * fork_ns
  return ((forked + period - 1) // period) * period - ((phase + period - 1) // period) * period
end
-- The timer tick (ticks=1): 2.6.15 on i386 gives every CPU its local APIC
-- timer at HZ, all started on the same edge of the 8254's IRQ0 and run
-- from one calibration, "to have local timer irqs syncron"
-- (arch/i386/kernel/apic.c, setup_APIC_timer(); docs/sources.md, [APICTMR]);
-- IRQ0 itself, through the IO-APIC, runs do_timer() on CPU 0.  Each costs
-- the machine's irq_entry and its handler.
if ticks ~= 0 then
  for c = 0, ncpus() - 1 do
    irq{ name = "timer/" .. c, cpu = c, every = period,
         handler = function() compute(tick_ns) end }
  end
  irq{ name = "IRQ0", cpu = 0, every = period, handler = function() compute(do_timer_ns) end }
end

-- The parent forks last and sleeps its second too: it starts counting on
-- the tick after its last fork, and counts the loops of `window` from there.
local count_from = start_of(ntasks + 1)
local count_end  = count_from + window
local run_end    = count_from + window + window // 10

for t = 1, ntasks do
  task{
    name = "test-mutex/" .. t,
    start = start_of(t),
    run = function()
      if t == 1 then counter_add(window_c, window) end
      while now() < run_end do
        local t0 = now()                -- test-mutex's rdtsc() before creat()
        if unlink ~= 0 then
          measure("creat", creat_new)
          measure("unlink", unlink_open)
          measure("close", close_last)
        else
          measure("creat", creat)
          measure("close", close)
        end
        counter_add(op_time, now() - t0)  -- rdtsc() after close(): the op's delta
        if lines ~= 0 then atomic_inc(count_line) end  -- atomic_inc(&SHARED(COUNT))
        local t_end = now()
        if t_end > count_from and t_end <= count_end then counter_add(done, 1) end
        counter_add(all_loops, 1)
      end
    end,
  }
end

check(function(r)
  local lost = r.violation_counts and r.violation_counts["lost-update"] or 0
  return lost == 0, string.format("no update under i_sem or s_lock was lost (%d lost)", lost)
end)

check(function(r)
  local want = unlink ~= 0 and 0 or r.counters.loops.value
  return r.vars.tmp_names == want and r.vars.sb_orphans == 0,
    string.format("%d lookups counted under i_sem (expected %d); orphan list %d long (expected 0)",
                  r.vars.tmp_names, want, r.vars.sb_orphans)
end)

check(function(r)
  local finished = 0
  for _, t in ipairs(r.tasks) do if t.finished then finished = finished + 1 end end
  local ops = r.counters.operations.value
  local cost = ops > 0 and r.counters.op_time_ns.value / ops / 1000 or 0
  return finished == ntasks,
    string.format("%d of %d tasks finished; %.0f creat()+close() loops per second, counted over %.1f ms; " ..
                  "average cost per op %.2f us (as test-mutex printed it)",
                  finished, ntasks, ops / (window / 1e9), window / 1e6, cost)
end)
