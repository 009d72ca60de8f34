-- expect-exit: 0
-- args: --era 2008 --cpus 4
-- expect-stdout: ok +at most 2 holders
-- A counting semaphore (count 2) limits 6 tasks to 2 at a time.
scenario{ name = "clean_semaphore", era = "2008", cpus = 4 }
local sem = lock{ name = "slots", count = 2, kind = "semaphore" }
local inside = atomic{ name = "inside" }
local peak = counter{ name = "inside_peak" }
for i = 1, 6 do
  task{ name = "worker/" .. i, run = function()
    for _ = 1, 5 do
      down(sem)
      local n = atomic_add_return(inside, 1)
      counter_add(peak, 1)
      compute(us(10))
      counter_add(peak, -1)
      atomic_dec(inside)
      up(sem)
      compute(us(3))
    end
  end }
end
check(function(r) return r.counters.inside_peak.peak <= 2, "at most 2 holders (peak " .. r.counters.inside_peak.peak .. ")" end)
check(function(r) return r.locks[1].kind == "semaphore" and r.locks[1].acquisitions == 30, "30 acquisitions of a semaphore" end)
check(function(r) return #r.violations == 0 and r.outcome == "completed", "completed cleanly" end)
