-- expect-exit: 0
-- args: --seed 5
-- expect-stderr: rand_top_level\.lua: tasks=[1-4]$
-- rand() at the top level, as math.random() works there: two of three
-- scenario authors reached for it to size a scenario.  Seeded by --seed.
scenario{ name = "rand_top_level", era = "2006", cpus = 2 }
local n = rand(1, 4)
log("tasks=" .. n)
for i = 1, n do
  task{ name = "t" .. i, run = function() compute(us(rand(1, 3))) end }
end
