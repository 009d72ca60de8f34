-- Challenge 2 -- two renames, two i_sems, opposite orders (2.4).
--
-- GOAL: deadlock the kernel.  Start the second rename() so that each task
-- holds one directory's i_sem and sleeps on the other's: the run ends in
-- a deadlock (exit status 3; the goal check fails).
--
-- `mv /a/x /b/x` and `mv /b/y /a/y` are both cross-directory renames.
-- Written naively, each takes the i_sem of its source directory, looks the
-- name up, then takes the i_sem of its target directory: rename #1 takes
-- a then b, rename #2 takes b then a.  The kernel never did it this way
-- for long: the directory-locking rules of the i_sem era say a cross-
-- directory rename first takes the filesystem's s_vfs_rename_sem (one
-- cross-directory rename at a time per filesystem), then the two parents
-- in a fixed order.  --set fixed=true does that, and no timing deadlocks.
--
-- The same code with spinlocks (--mode spinlock) deadlocks the same way,
-- spinning instead of sleeping: an AB-BA needs no semaphore.
--
-- The timing is fixed: rename #2 starts at `start2` (ns); by default it
-- starts after rename #1 is done, and both complete.  The lock validator
-- reports the inverted order (`lock-order`) even on that lucky run, as
-- lockdep would have, so the default run exits 1; the goal is the
-- deadlock itself.
-- Solution:  --set start2=5000
scenario{
  name = "challenge_rename_abba",
  title = "Challenge: deadlock two cross-directory renames on their i_sems (2.4)",
  description = "Goal: start the second rename so that each holds one directory's i_sem and waits for the other's (a deadlock).",
  era = "2001",
  cpus = 2,
}

local start2 = param("start2", 60000)  -- when rename #2 starts, ns
local fixed  = param("fixed", false)   -- take s_vfs_rename_sem, then parents in order

local a_sem = lock{ name = "a->i_sem", kind = "semaphore" }
local b_sem = lock{ name = "b->i_sem", kind = "semaphore" }
local s_vfs_rename_sem = lock{ name = "s_vfs_rename_sem", kind = "semaphore" }

local function rename(from_dir, to_dir)
  if fixed then
    down(s_vfs_rename_sem)           -- one cross-directory rename at a time
    from_dir, to_dir = a_sem, b_sem   -- and the parents in one order
  end
  down(from_dir)                     -- lock the source directory
  compute(us(8))                     -- look the old name up
  down(to_dir)                       -- lock the target directory
  compute(us(6))                     -- move the entry
  up(to_dir)
  up(from_dir)
  if fixed then up(s_vfs_rename_sem) end
end

task{ name = "mv /a/x /b/x", cpu = 0, run = function() rename(a_sem, b_sem) end }
task{ name = "mv /b/y /a/y", cpu = 1, start = start2,
      run = function() rename(b_sem, a_sem) end }

-- The goal check: it FAILS when the goal is reached.
check(function(r)
  if r.outcome == "deadlock" then
    return false, "goal reached: each rename holds one i_sem and waits for the other's"
  end
  return true, "goal not reached: both renames completed (outcome " .. r.outcome .. ")"
end)
