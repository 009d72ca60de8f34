-- The explorer beside SPIN (make bench, figure 10): `n` tasks take two
-- mutexes in the same order, so no schedule deadlocks and an exhaustive
-- search runs its whole space.  tests/bench/same_order.pml is the same
-- model in Promela.
scenario{ name = "same_order", era = "2006", cpus = 2 }
local n = param("n", 5)
local a = lock{ name = "a", kind = "mutex" }
local b = lock{ name = "b", kind = "mutex" }
for i = 1, n do
  task{ name = "p" .. i, run = function()
    down(a)
    down(b)
    up(b)
    up(a)
  end }
end
