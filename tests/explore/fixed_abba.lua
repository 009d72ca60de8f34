-- An AB-BA order inversion with fixed timings: "ab" takes a then b at
-- once; "ba" starts 200 us later and takes b then a.  With the run's own
-- timing "ab" is long done when "ba" starts, so every seed completes;
-- but had "ab" been held up between its two down()s (a cache miss, an
-- SMI), the two would deadlock.  `explore --strategy` must find that.
scenario{ name = "fixed_abba", era = "2006", cpus = 2 }
local a = lock{ name = "a", kind = "mutex" }
local b = lock{ name = "b", kind = "mutex" }
task{ name = "ab", run = function()
  down(a)
  compute(us(5))
  down(b)
  up(b)
  up(a)
end }
task{ name = "ba", start = us(200), run = function()
  down(b)
  compute(us(5))
  down(a)
  up(a)
  up(b)
end }
