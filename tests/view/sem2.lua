-- sem2.lua: the view tests' wake-up.  A semaphore (2009: generic, up()
-- hands the unit to the first waiter) held by "holder" on CPU0 for 50 us;
-- "sleeper" on CPU1 asks at ~8.5 us, sleeps, and is woken by the holder's
-- up(): one arrow from CPU0 at the release to CPU1 where the sleeper runs.
scenario{ name = "view_sem2", title = "A sleeper woken by up()", era = "2009", cpus = 2,
          seed = 1 }

local s = lock{ name = "the_sem", kind = "semaphore" }

task{ name = "holder", cpu = 0, run = function()
  down(s)
  compute(us(50))
  up(s)
  compute(us(10))
end }

task{ name = "sleeper", cpu = 1, start = us(5), run = function()
  down(s)
  compute(us(10))
  up(s)
end }
