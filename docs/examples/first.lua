-- first.lua: the smallest interesting scenario.  Two kernel threads on two
-- CPUs add to a shared counter.  Run it as it is, then with --mode cli to
-- see what happens when the "lock" only masks interrupts on one CPU.
scenario{ name = "first", title = "Two threads, one counter, one lock",
          era = "2.6.16", cpus = 2 }

local lock_ = lock{ name = "count_lock", kind = "spinlock" }
local count = var{ name = "count" }

for i = 1, 2 do
  task{ name = "worker/" .. i, run = function()
    for k = 1, 100 do
      down(lock_)                 -- spin_lock(&count_lock)
      local x = read(count)       -- x = count
      compute(ns(500))            -- some work on x
      write(count, x + 1)         -- count = x + 1
      up(lock_)                   -- spin_unlock(&count_lock)
      compute(us(1))
    end
  end }
end

check(function(r)
  return r.vars.count == 200, "count is " .. r.vars.count
end)
