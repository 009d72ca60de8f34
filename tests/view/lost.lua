-- lost.lua: the view tests' violation.  Two tasks on two CPUs (2009)
-- each add 1 to a shared variable 20 times with no lock: their
-- read-modify-writes interleave and updates are lost.  The stats panel
-- must list the lost updates, and a click on one must bring the focus
-- (and the playhead) to it.
scenario{ name = "view_lost", title = "Two CPUs, no lock", era = "2009", cpus = 2, seed = 3 }

local v = var{ name = "shared" }

for i = 1, 2 do
  task{ name = "adder/" .. i, cpu = i - 1, run = function()
    for _ = 1, 20 do
      add(v, 1)
      compute(ns(100))
    end
  end }
end

-- Two checks, one that holds and one that the lost updates break: the
-- stats panel must name the failed one, and a click on it list both.
check(function(r)
  return #r.tasks == 2, string.format("%d tasks ran", #r.tasks)
end)
check(function(r)
  return r.vars.shared == 40, string.format("shared ends at %d, not 40", r.vars.shared)
end)
