-- Independent tasks beside a bug: "p" and "q" each work on their own lock
-- and their own var, and touch nothing the others touch; "ab" and "ba"
-- take a and b, in opposite orders when `abba` is true (the default: an
-- AB-BA deadlock that one hold reaches), in one order when it is false
-- (no schedule deadlocks).  Holding a task only to let an independent
-- one go first gives the same interleaving of every object's steps: the
-- partial-order reduction of exhaustive:K skips those holds, so it makes
-- fewer runs than --no-por and finds the same.
scenario{ name = "independent", era = "2006", cpus = 4 }
local abba = param("abba", true)
local a = lock{ name = "a", kind = "mutex" }
local b = lock{ name = "b", kind = "mutex" }
for _, name in ipairs{ "p", "q" } do
  local own = lock{ name = name .. "_lock", kind = "spinlock" }
  local count = var{ name = name .. "_count" }
  task{ name = name, run = function()
    for _ = 1, 3 do
      down(own)
      write(count, read(count) + 1)
      up(own)
      compute(us(2))
    end
  end }
end
task{ name = "ab", run = function()
  down(a)
  compute(us(5))
  down(b)
  up(b)
  up(a)
end }
task{ name = "ba", start = us(20), run = function()
  local first, second = b, a
  if not abba then first, second = a, b end
  down(first)
  compute(us(5))
  down(second)
  up(second)
  up(first)
end }
