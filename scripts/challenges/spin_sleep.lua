-- Challenge 3 -- sleeping with a spinlock held (2.6.0).
--
-- GOAL: schedule while atomic.  Make the driver's kmalloc(GFP_KERNEL),
-- called under its spinlock, find memory short, so that it sleeps in
-- reclaim with the spinlock held (a `sleep-in-atomic` violation; the
-- goal check fails).
--
-- kmalloc(GFP_KERNEL) may sleep, so it must never be called under a
-- spinlock: the kernel's locking guide lists it among the functions that
-- sleep.  The trap is that it sleeps only when free memory is short.  On
-- a quiet test box the allocation always finds pages, returns at once,
-- and the bug ships.  The museum reports only a sleep that happens, so
-- here too the bug shows only with the right timing.
--
-- The timing is fixed: a memory hog on CPU 1 takes most of the free pages
-- at `hog_at` (ns) and gives them back 200 us later.  By default it comes
-- after the driver's allocation.
-- Solution:  --set hog_at=5000
-- --set gfp=atomic allocates with GFP_ATOMIC instead: it never sleeps
-- (it fails when memory is short), and no timing reaches the goal.
scenario{
  name = "challenge_spin_sleep",
  title = "Challenge: make kmalloc(GFP_KERNEL) sleep under a spinlock (2.6.0)",
  description = "Goal: make the driver's GFP_KERNEL allocation find memory short while it holds its spinlock (sleeping while atomic).",
  era = "2003",
  cpus = 2,
}

local hog_at = param("hog_at", 60000)   -- when the hog takes memory, ns
local gfp    = param("gfp", "kernel")   -- "kernel" (may sleep) or "atomic"

local dev_lock  = lock{ name = "dev->lock", kind = "spinlock" }
local free_pages = atomic{ name = "nr_free_pages", value = 64 }
local failed = atomic{ name = "allocations_failed" }

-- kmalloc(size, gfp): takes `n` pages; GFP_KERNEL sleeps in reclaim when
-- they are short (the reclaim frees enough), GFP_ATOMIC fails instead.
local function kmalloc(n)
  if atomic_read(free_pages) < n then
    if gfp == "atomic" then
      atomic_inc(failed)
      return false
    end
    sleep(us(100))                   -- direct reclaim: wait for writeback
    atomic_add_return(free_pages, 32)
  end
  atomic_add_return(free_pages, -n)
  return true
end

-- an ioctl() of the driver, on CPU 0
task{ name = "ioctl", cpu = 0, start = us(10), run = function()
  down(dev_lock)                     -- spin_lock(&dev->lock)
  compute(us(3))                     -- look the request up
  local buf = kmalloc(8)             -- buf = kmalloc(size, GFP_KERNEL)
  compute(us(3))                     -- queue it on the device
  up(dev_lock)                       -- spin_unlock(&dev->lock)
  if buf then atomic_add_return(free_pages, 8) end   -- kfree(buf) later
end }

-- something else on the machine that needs a lot of memory for a while
task{ name = "memory hog", cpu = 1, start = hog_at, run = function()
  atomic_add_return(free_pages, -60)
  compute(us(200))
  atomic_add_return(free_pages, 60)
end }

-- The goal check: it FAILS when the goal is reached.
check(function(r)
  local n = r.violation_counts["sleep-in-atomic"] or 0
  if n > 0 then
    return false, "goal reached: kmalloc(GFP_KERNEL) slept with dev->lock held"
  end
  return true, string.format("goal not reached: no sleep under dev->lock (%d allocation(s) failed)",
                             r.atomics.allocations_failed)
end)
