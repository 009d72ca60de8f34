-- The explorer's benchmark: two tasks, two mutexes, taken in the same
-- order, so no schedule deadlocks and every run of the search is made.
scenario{ name = "explore_pair", era = "2006", cpus = 2 }
local a = lock{ name = "a", kind = "mutex" }
local b = lock{ name = "b", kind = "mutex" }
local function body()
  down(a)
  compute(us(1))
  down(b)
  compute(us(1))
  up(b)
  up(a)
end
task{ name = "one", run = body }
task{ name = "two", start = us(1), run = body }
