-- measure.lua: the view tests' latencies.  Four tasks on two CPUs (2009)
-- take one mutex, each time measured: the stats panel must draw the
-- distribution of "take" (view_latency.c) under the violations.
scenario{ name = "view_measure", title = "Measured waits", era = "2009", cpus = 2, seed = 1 }

local m = lock{ name = "the_mutex", kind = "mutex" }

for i = 1, 4 do
  task{ name = "taker/" .. i, run = function()
    for _ = 1, 10 do
      measure("take", function() down(m) end)
      compute(us(5))
      up(m)
      compute(us(2))
    end
  end }
end
