-- A hold found late, which shrinking must move earlier: "ab" takes a then
-- b ten times over, "ba" starts 200 us later and takes b then a once.
-- With the run's own timing "ab" is done when "ba" starts.  Holding "ab"
-- at any of its choice points until "ba" has stepped deadlocks the two --
-- at its very first one the run is shortest.  A strategy that holds it in
-- its eighth round finds a long schedule of one hold: dropping cannot
-- shorten it, only moving the hold earlier can.
scenario{ name = "late_hold", era = "2006", cpus = 2 }
local a = lock{ name = "a", kind = "mutex" }
local b = lock{ name = "b", kind = "mutex" }
task{ name = "ab", run = function()
  for _ = 1, 10 do
    down(a)
    compute(us(5))
    down(b)
    up(b)
    up(a)
    compute(us(5))
  end
end }
task{ name = "ba", start = us(200), run = function()
  down(b)
  compute(us(5))
  down(a)
  up(a)
  up(b)
end }
