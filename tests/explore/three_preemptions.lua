-- A deadlock that needs two preemptions among three tasks: a lock-order
-- cycle a -> b -> c -> a, each task taking its two locks one after the
-- other, the three started 100 us apart.  With the run's own timing each
-- task is done before the next starts.  The cycle closes only when all
-- three hold their first lock at once: "ab" must be held between its
-- down()s until "bc" has taken b, and "bc" held until "ca" has taken c --
-- two holds.  explore --strategy exhaustive:2 finds it; exhaustive:1
-- covers every schedule with one hold and does not.
scenario{ name = "three_preemptions", era = "2006", cpus = 3 }
local a = lock{ name = "a", kind = "mutex" }
local b = lock{ name = "b", kind = "mutex" }
local c = lock{ name = "c", kind = "mutex" }
local function take(first, second)
  return function()
    down(first)
    compute(us(5))
    down(second)
    up(second)
    up(first)
  end
end
task{ name = "ab", run = take(a, b) }
task{ name = "bc", start = us(100), run = take(b, c) }
task{ name = "ca", start = us(200), run = take(c, a) }
