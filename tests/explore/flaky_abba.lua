-- An AB-BA deadlock that only some seeds hit: two tasks take the same two
-- mutexes in opposite orders after a random delay, so they collide only
-- when their delays fall within a few microseconds of each other.
-- `lockmuseum explore` must find such a seed, and its replay line must
-- reproduce the deadlock.
scenario{ name = "flaky_abba", era = "2006", cpus = 2 }
local a = lock{ name = "a", kind = "mutex" }
local b = lock{ name = "b", kind = "mutex" }
task{ name = "ab", run = function()
  compute(us(rand(1, 200)))
  measure("ab", function() down(a); compute(us(5)); down(b); up(b); up(a) end)
end }
task{ name = "ba", run = function()
  compute(us(rand(1, 200)))
  down(b); compute(us(5)); down(a); up(a); up(b)
end }
