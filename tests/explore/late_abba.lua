-- An AB-BA order inversion whose second task starts late: "ab" takes a
-- then b at once; "ba" starts `gap` later (5 ms by default) and takes b
-- then a.  With the run's own timing "ab" is long done by then.  Holding
-- "ab" between its two down()s until "ba" has stepped deadlocks the two:
-- one preemption, however long the gap.  A hold that gave up after a
-- fixed delay (1 ms) would never reach it, and a search that said it had
-- covered every schedule of one preemption would be wrong.
scenario{ name = "late_abba", era = "2006", cpus = 2 }
local gap = param("gap", 5000000)	-- ns between the two starts
local a = lock{ name = "a", kind = "mutex" }
local b = lock{ name = "b", kind = "mutex" }
task{ name = "ab", run = function()
  down(a)
  compute(us(5))
  down(b)
  up(b)
  up(a)
end }
task{ name = "ba", start = gap, run = function()
  down(b)
  compute(us(5))
  down(a)
  up(a)
  up(b)
end }
