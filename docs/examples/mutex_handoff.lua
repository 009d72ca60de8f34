-- mutex_handoff.lua: lock stealing and the 4.10 hand-off.  A "hog" takes
-- the mutex, sleeps holding it (waiting for I/O), unlocks and takes it again
-- a microsecond later.  The "victim" on the other CPU finds the owner
-- asleep, so it does not spin: it sleeps.  Each unlock wakes it, but by the
-- time it runs the hog has the mutex again.  From 4.10 a woken waiter that
-- loses sets the HANDOFF flag and the next unlock gives it the mutex.
-- Compare:  --era 2.6.30   and   --era 4.10
scenario{
  name = "mutex_handoff",
  title = "A woken mutex waiter starves until 4.10's hand-off",
  era = "2.6.30",
  cpus = 2,
}

local m = lock{ name = "m", kind = "mutex" }

task{ name = "hog", cpu = 0, run = function()
  for k = 1, 50 do
    down(m)
    sleep(us(20))                        -- I/O while holding the mutex
    up(m)
    compute(us(1))
  end
end }

task{ name = "victim", cpu = 1, start = us(5), run = function()
  measure("victim mutex_lock", function() down(m) end)
  up(m)
end }
