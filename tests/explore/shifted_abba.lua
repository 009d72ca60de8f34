-- A deadlock only a later clock reaches: "ab" takes a, computes 15 us,
-- then takes b; "cba" starts 100 us later, takes c, computes 10 us, then
-- takes b and a.  With the run's own timing "ab" is done before "cba"
-- starts.  Holding "ab" at its down(a) until "cba" has stepped (its
-- down(c)) moves "ab"'s whole critical section 100 us later: it takes a
-- at once, "cba" takes b 10 us later, and each then waits for the lock
-- the other holds -- AB-BA, with one hold.  No other single hold gets
-- there: held at its down(b), "ab" already has a and takes b before
-- "cba" wants it.  That hold orders no shared steps differently (a and c
-- are different locks): only its clock differs, so a reduction that
-- skips holds of commuting steps as repeats drops the one schedule that
-- deadlocks (docs/scenarios.md, "Partial-order reduction").
scenario{ name = "shifted_abba", era = "2006", cpus = 2 }
local a = lock{ name = "a", kind = "mutex" }
local b = lock{ name = "b", kind = "mutex" }
local c = lock{ name = "c", kind = "mutex" }
task{ name = "ab", cpu = 0, run = function()
  down(a)
  compute(us(15))
  down(b)
  up(b)
  up(a)
end }
task{ name = "cba", cpu = 1, start = us(100), run = function()
  down(c)
  compute(us(10))
  down(b)
  down(a)
  up(a)
  up(b)
  up(c)
end }
